"""Pictures of cards in the rules: legible text, callouts off the card text, labels that do not overlap."""

from __future__ import annotations

import pytest

from generator.booklet.figures import MARKER_R, MIN_TEXT, CardFigure, crosses, free_spot, label_centres
from generator.booklet.pdf import PAGE_SIZE, reading_story
from generator.booklet.text import render_rules
from generator.core.geometry import Rect
from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAMES = ("order-up-pizza", "order-up-trading", "short-order-hero")


def _figures(flowables):
    for item in flowables:
        if isinstance(item, CardFigure):
            yield item
        yield from _figures(getattr(item, "content", None) or getattr(item, "_content", None) or [])


@pytest.mark.parametrize("game_id", GAMES)
def test_card_pictures_in_the_rules_keep_their_text_at_6_pt_or_more(repo_project, game_id):
    game = load_game(repo_project, game_id)
    check_game(game)
    width = PAGE_SIZE[0] - 2 * 36
    figures = list(_figures(reading_story(game, render_rules(game), width)))
    assert len(figures) >= 2  # the cover and at least one figure in the text
    for figure in figures:
        figure.wrap(width, 10_000)
        smallest = min(size for areas in figure.areas for _, size in areas)
        assert smallest * figure.scale >= MIN_TEXT - 1e-6, (
            game_id,
            [c.id for c in figure.cards],
            figure.scale,
        )
        assert figure.per_row * figure.card_w <= width  # rows wrap instead of shrinking the cards
        if figure.callouts:  # every marker sits off the card's text
            obstacles = figure._obstacles(0.0, 0.0)
            for x, y in figure.marker_spots(0.0, 0.0):
                marker = Rect(x - MARKER_R, y - MARKER_R, 2 * MARKER_R, 2 * MARKER_R)
                assert not any(marker.overlaps(box) for box in obstacles), (game_id, x, y)


def test_free_spot_moves_off_obstacles_and_stays_on_the_card():
    card = Rect(0, 0, 100, 140)
    words = Rect(10, 60, 80, 20)
    x, y = free_spot((50, 70), card, [words], 5)
    assert not Rect(x - 5, y - 5, 10, 10).overlaps(words) and card.inset(5).contains(Rect(x, y, 0, 0))
    assert abs(y - 70) <= 16  # just above or below the words, not far away
    assert free_spot((50, 120), card, [words], 5) == (50, 120)  # already free: stays


def test_crosses_and_label_centres():
    box = Rect(10, 10, 10, 10)
    assert crosses((0, 15), (30, 15), box) and not crosses((0, 25), (30, 25), box)
    assert not crosses((0, 0), (5, 30), box)
    centres = label_centres([100, 98, 40], [20, 20, 10], 0, 120)
    assert centres[0] - centres[1] >= 20 + 3 - 1e-9 and centres[2] == 40  # pushed apart, the free one stays
