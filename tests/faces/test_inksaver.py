"""The ink saver measured on rendered pages (mean darkness of a greyscale render, 0 white .. 1 black)."""

from __future__ import annotations

import pypdfium2
import pytest
from PIL import ImageStat

from generator.core.colours import contrast_ratio
from generator.data.load import load_game
from generator.faces.face import render_card_pdf, renderer_for
from tests.cards.test_sheets import CHECK, REAL_GAMES, render


def darkness(path, index: int = 0, scale: float = 0.5) -> float:
    """Mean darkness of a rendered page (print.md section 7)."""
    image = pypdfium2.PdfDocument(str(path))[index].render(scale=scale).to_pil().convert("L")
    return 1 - ImageStat.Stat(image).mean[0] / 255


def test_an_ink_saver_back_sheet_takes_a_quarter_of_the_ink_or_less(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-trading")
    normal, _ = render(game, tmp_path / "normal", papers=("letter",))["letter"]
    saver, facts = render(game, tmp_path / "saver", papers=("letter",), ink="saver")["letter-inksaver"]
    assert facts["pages"] == len(pypdfium2.PdfDocument(str(normal)))
    backs = range(CHECK + 1, facts["pages"], 2)
    for index in backs:
        before, after = darkness(normal, index), darkness(saver, index)
        assert after <= 0.25 * before, (index, before, after)
    for index in range(CHECK, facts["pages"], 2):  # fronts save ink too
        assert darkness(saver, index) < 0.7 * darkness(normal, index)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_every_coloured_back_of_the_games_drops_to_a_quarter(repo_project, tmp_path, game_id):
    game = load_game(repo_project, game_id)
    renderer_for(game).check()
    for deck in game.decks.values():
        normal = render_card_pdf(game, deck, tmp_path / f"{deck.id}.pdf", side="back")
        saver = render_card_pdf(game, deck, tmp_path / f"{deck.id}-saver.pdf", side="back", ink="saver")
        before, after = darkness(normal, scale=1), darkness(saver, scale=1)
        if before >= 0.1:  # a coloured back (a back that is mostly paper already has little to save)
            assert after <= 0.25 * before, (deck.id, before, after)
        else:
            assert after <= 0.75 * before, (deck.id, before, after)


def test_the_ink_saver_is_a_render_option_that_keeps_text_readable(repo_project, tmp_path):
    game = load_game(repo_project, "short-order-hero")
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["recipes"]
    card = deck.cards[0]
    path = render_card_pdf(game, card, tmp_path / "front.pdf", ink="saver")
    text = pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range()
    assert card.name in text  # the same text, drawn
    plain = render_card_pdf(game, card, tmp_path / "plain.pdf")
    assert darkness(path, scale=1) < darkness(plain, scale=1)
    # the band's white title became a dark colour that reads on the tinted band
    from generator.core.geometry import Rect
    from generator.faces import inksaver

    tw, th = deck.size_pt
    b = renderer.bleed
    resolved = renderer.resolved(deck, card)
    adapted = dict((box.name, data) for box, data in inksaver.adapt(
        resolved, lambda box: renderer._placed_rect(box, tw, th), Rect(b, b, tw, th)))
    before = dict((box.name, data) for box, data in resolved)
    assert before["title"].color == "#ffffff"
    assert contrast_ratio(adapted["title"].color, adapted["band"].fill) >= 3.0
    assert adapted["band"].fill != before["band"].fill
