"""Work the rules' checks did is reused when the rules are drawn in the same process: a pictured card is laid
out once (for the template's figure() check, the checks of the rendered rules and the figure drawn), a
figure's fit is checked once, the rules' icons looked up once; a reloaded game (an edited card) is laid out
anew."""

from __future__ import annotations

import collections

from generator.booklet import references
from generator.booklet.document import text_frame
from generator.booklet.pdf import reading_story
from generator.booklet.text import cover_cards, pictured_cards, render_rules
from generator.data.load import load_game
from generator.faces.face import renderer_for
from generator.faces.legibility import text_areas


def _counting(monkeypatch, module, name) -> collections.Counter:
    calls: collections.Counter = collections.Counter()
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls[repr(args[1:])] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_pictured_card_is_laid_out_once_for_the_checks_and_the_drawing(repo_project, monkeypatch):
    laid_out = collections.Counter()
    original = references.text_areas

    def counted(renderer, deck, card, back=False):
        laid_out[deck.id, card.id] += 1
        return original(renderer, deck, card, back)

    monkeypatch.setattr(references, "text_areas", counted)
    game = load_game(repo_project, "order-up-pizza")
    markdown = render_rules(game)
    pictured = set(pictured_cards(markdown))
    assert pictured and set(laid_out) == pictured  # the template's figure() calls and the checks after it
    reading_story(game, markdown, text_frame()[0])  # the figures and the cover, drawn from the same layouts
    assert set(laid_out) == pictured | set(cover_cards(game))
    assert set(laid_out.values()) == {1}
    renderer = renderer_for(game)
    for deck_id, card_id in laid_out:  # what is reused is what laying the card out again gives
        card = game.decks[deck_id].card(card_id)
        assert references.card_text_areas(game, [card]) == [text_areas(renderer, game.decks[deck_id], card)]


def test_each_card_figure_is_fitted_once(repo_project, monkeypatch):
    fitted = _counting(monkeypatch, references, "_fit_problem")
    markdown = render_rules(load_game(repo_project, "order-up-trading"))
    assert "```figure" in markdown and fitted
    assert set(fitted.values()) == {1}


def test_an_edited_card_of_a_reloaded_game_is_laid_out_anew(tmp_project):
    orders = tmp_project.root / "cards" / "order-up-pizza" / "orders.yaml"
    before_game = load_game(tmp_project, "order-up-pizza")
    card = before_game.decks["orders"].card("grandma-rosa")
    before = references.card_text_areas(before_game, [card])
    orders.write_text(orders.read_text(encoding="utf-8").replace(
        "customer: Grandma Rosa", "customer: Grandma Rosa of the Very Long Name Street", 1), encoding="utf-8")
    after_game = load_game(tmp_project, "order-up-pizza")
    after = references.card_text_areas(after_game, [after_game.decks["orders"].card("grandma-rosa")])
    assert after != before
    assert references.card_text_areas(before_game, [card]) == before  # the first game keeps its own
