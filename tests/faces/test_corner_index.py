"""The corner index of hand cards (issue 35): `index:` of a layout draws the card's icon on a disc in the
top-left corner and its name down the left edge, read back from the rendered card's pixels and text; a child
layout changes its keys, `index: ~` removes it, and bad values are one located line each."""

from __future__ import annotations

import pypdfium2
import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for
from tests.conftest import REPO, run_pnp
from tests.faces.test_layout_keys import WHITE, _card, _close, _game

BAND = 'band: {height: 15mm, shape: band, fill: "#243b55"}\n'
INDEX = 'index: {icon: "star", text: "{{ card.name }} index", color: "#d62828", top: 17mm, bottom: 60mm}\n'


def _dark(pixel) -> bool:
    return sum(pixel) < 3 * 200


def test_the_index_draws_a_disc_an_icon_and_the_name_down_the_left_edge(tmp_path):
    game = _game(tmp_path, BAND, head=INDEX)
    at = _card(game, tmp_path / "card.pdf")
    assert _close(at(3.3, 6.25), WHITE, 12)  # the disc, on the band, at the icon's left edge
    assert _close(at(12, 6.25), (0x24, 0x3B, 0x55))  # the band beside it
    icon = [at(3 + x / 4, 3 + y / 4) for x in range(26) for y in range(26)]
    assert any(not _close(p, WHITE, 40) for p in icon)  # the star is drawn in the corner
    # the name: red ink in the strip x 3..7.5 mm from y 17 mm down, none of it to its right
    red = [(x / 4, y / 2) for x in range(12, 30) for y in range(34, 120)
           if _close(at(x / 4, y / 2), (0xD6, 0x28, 0x28), 60)]
    assert red and min(y for _, y in red) >= 17 and max(x for x, _ in red) <= 7.5
    # written along the edge (some 13 mm of "Alpha index" at 7.5 pt), not across it
    ys, xs = [y for _, y in red], [x for x, _ in red]
    assert max(ys) - min(ys) > 10 > max(xs) - min(xs)
    pdf = pypdfium2.PdfDocument(str(tmp_path / "card.pdf"))
    assert "Alpha index" in pdf[0].get_textpage().get_text_range()


def test_a_child_changes_the_index_and_index_none_removes_it(tmp_path):
    game = _game(tmp_path, BAND, head=INDEX)
    folder = tmp_path / "cards" / "keys" / "layouts"
    (folder / "things.yaml").rename(folder / "parent.yaml")
    (folder / "things.yaml").write_text('extends: parent\nindex: {color: "#2e8b57"}\n')
    game = load_game(Project(tmp_path), "keys")
    at = _card(game, tmp_path / "child.pdf")
    strip = [at(x / 4, y / 2) for x in range(12, 30) for y in range(34, 120)]
    assert any(_close(p, (0x2E, 0x8B, 0x57), 60) for p in strip)
    assert not any(_close(p, (0xD6, 0x28, 0x28), 40) for p in strip)
    (folder / "things.yaml").write_text("extends: parent\nindex: ~\n")
    game = load_game(Project(tmp_path), "keys")
    at = _card(game, tmp_path / "none.pdf")
    assert _close(at(3.3, 6.25), (0x24, 0x3B, 0x55))  # no disc
    assert not any(_dark(at(x / 4, y / 2)) and not _close(at(x / 4, y / 2), WHITE)
                   for x in range(12, 30) for y in range(40, 110))


@pytest.mark.parametrize(("index", "message"), [
    ("index: {color: \"#d62828\"}",
     "`index:` (a corner index) shows nothing; expected `text:` (the name written down the left edge) or "
     "`icon:` (the corner icon), or both"),
    ("index: {text: x, size: -3pt}", "is negative; expected 0 or more"),
    ("index: {text: x, colour: red}", "unknown key 'colour'"),
    ("index: {text: x, font: display}", "font 'display' is not declared"),
    ("index: {icon: nosuchicon}", "nosuchicon"),
])
def test_each_bad_index_is_one_located_line(tmp_path, index, message):
    _game(tmp_path, BAND, head=index + "\n")
    result = run_pnp("validate", "--no-sim", project=Project(tmp_path))
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    located = [line for line in result.output.splitlines()
               if line.startswith("cards/keys/layouts/things.yaml:1")]
    assert located and message in located[0], result.output


def test_a_name_too_long_for_the_strip_is_a_located_error(tmp_path):
    game = _game(tmp_path, BAND, head='index: {text: "A name far too long for the strip along the edge", '
                                       "top: 17mm, bottom: 30mm}\n")
    with pytest.raises(InputError) as caught:
        renderer_for(game).check()
        render_card_pdf(game, game.decks["things"].cards[0], tmp_path / "long.pdf")
    assert "cards/keys/layouts/things.yaml:1" in str(caught.value) and "index-name" in str(caught.value)


def test_the_bundled_hand_cards_have_a_corner_index():
    """Order Up toppings and actions, Short Order Hero ingredients and specials: every card's name is written
    in its index (drawn, so read back from the card's text)."""
    project = Project(REPO)
    for game_id, deck_id in (("order-up-pizza", "toppings"), ("short-order-hero", "ingredients")):
        game = load_game(project, game_id)
        renderer = renderer_for(game)
        renderer.check()
        for card in game.decks[deck_id].cards:
            names = {box.name for box in renderer.front_layout(card).boxes}
            assert {"index-disc", "index-icon", "index-name"} <= names, (game_id, card.id)


def test_the_sideways_name_is_measured_where_it_is_drawn(tmp_path):
    """The legibility check and the rules' card pictures lay a turned text out in the turned box: the name's
    area is tall and narrow along the left edge, at the index's size (not shrunk to the unturned width)."""
    from generator.faces.legibility import text_areas

    game = _game(tmp_path, BAND, head='index: {text: "Wild Card Wild", top: 17mm, bottom: 60mm}\n')
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    (area, size), = text_areas(renderer, deck, deck.cards[0])
    height_pt = renderer.size(deck)[1]
    mm = 72 / 25.4
    assert size == 7.5
    assert area.h > 3 * area.w and area.w < 4.5 * mm  # along the edge
    assert 3 * mm - 0.5 <= area.x and area.x + area.w <= 7.5 * mm + 0.5
    assert height_pt - 60 * mm - 0.5 <= area.y and area.y + area.h <= height_pt - 17 * mm + 0.5
