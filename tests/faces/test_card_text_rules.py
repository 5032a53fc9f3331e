"""Card text that never fails silently (issue 33): scripts that need shaping are refused at the card field,
typographic dashes can be turned off per game, a text or icon box without geometry is the safe area (and
`safe: false` lets a box leave it), an overflow is located at the card's YAML line plus the layout box."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.core.units import to_pt
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for

GAME = "title: Words\ncode: WRD\nplayers: {min: 2, max: 4}\ndecks: [things]\n"
DECK = """\
deck: things
name: Things
code: THG
fields:
  text: {type: text}
cards:
  - id: alpha
    name: Alpha
    copies: 1
    text: "%s"
"""
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"


FRONT = 'boxes:\n  body: {text: "{{ card.text }}"}\n'


def _game(root: Path, text: str, front: str = FRONT, game: str = GAME):
    folder = root / "cards" / "words"
    for name, content in {"game.yaml": game, "things.yaml": DECK % text, "layouts/things.yaml": front,
                          "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(content), encoding="utf-8")
    return load_game(Project(root), "words")


def _problems(game) -> list[str]:
    with pytest.raises(InputError) as caught:
        renderer_for(game).check()
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize("text, script", [("\u0645\u0631\u062d\u0628\u0627", "Arabic"),
                                          ("\u05e9\u05dc\u05d5\u05dd", "Hebrew"),
                                          ("\u0928\u092e\u0938\u094d\u0924\u0947", "Devanagari")])
def test_a_script_that_needs_shaping_is_refused_at_the_card_field(tmp_path, text, script):
    found = _problems(_game(tmp_path, f"Hello {text}"))
    assert len(found) == 1, found
    assert found[0].startswith(f"cards/words/things.yaml:10: card 'alpha' text has {script} ("), found
    assert "cannot lay out yet" in found[0]


def _markup(game) -> str:
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    return next(data.markup for box, data in renderer.resolved(deck, deck.cards[0]) if box.name == "body")


def test_typographic_dashes_are_on_by_default_and_can_be_turned_off(tmp_path):
    assert _markup(_game(tmp_path / "on", "2-5 and -1")) == "2\u20135 and \u22121"
    assert _markup(_game(tmp_path / "off", "2-5 and -1", game=GAME + "typography: false\n")) == "2-5 and -1"


def test_a_text_box_without_geometry_is_the_safe_area_and_safe_false_lets_a_box_leave_it(tmp_path):
    front = 'boxes:\n  body: {text: "{{ card.text }}"}\n  corner: {x: 0, y: 0, width: 8mm, height: 8mm, ' \
            'text: "A", safe: false}\n  icon: {icon: pepperoni}\n'
    game = _game(tmp_path, "Some words", front)
    renderer = renderer_for(game)
    renderer.check()  # no safe-zone problem
    deck = game.decks["things"]
    boxes = {box.name: box for box, _data in renderer.resolved(deck, deck.cards[0])}
    safe, (width, height) = to_pt("3mm"), renderer.size(deck)
    for name in ("body", "icon"):
        box = boxes[name]
        assert (box.x, box.y) == pytest.approx((safe, safe))
        assert (box.w, box.h) == pytest.approx((width - 2 * safe, height - 2 * safe))
    assert (boxes["corner"].x, boxes["corner"].y) == (0, 0)


def test_a_box_leaving_the_safe_zone_says_how_to_allow_it(tmp_path):
    front = 'boxes:\n  corner: {x: 0, y: 0, width: 8mm, height: 8mm, text: "A"}\n'
    with pytest.raises(InputError) as caught:
        renderer_for(_game(tmp_path, "x", front)).check()
    [message] = [str(problem) for problem in caught.value.problems]
    assert message.startswith("cards/words/layouts/things.yaml:2: text box 'corner'")
    assert "`safe: false` on the box lets it leave the zone" in message


def test_an_overflow_is_located_at_the_card_text_line_and_the_layout_box(tmp_path):
    game = _game(tmp_path, "word " * 400)
    with pytest.raises(InputError) as caught:  # texts are fitted as they are drawn
        render_card_pdf(game, game.decks["things"].cards[0], tmp_path / "card.pdf")
    found = [str(problem) for problem in caught.value.problems]
    assert len(found) == 1, found
    assert found[0].startswith("cards/words/things.yaml:10: card WRD-THG-01 (alpha): box 'body': text does "
                               "not fit even at 7 pt"), found
    assert found[0].endswith("(box 'body' is at cards/words/layouts/things.yaml:2)")


def _fitted(game, box_name: str = "body"):
    """(font size, needed height, box height) the text of a box is fitted at."""
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    for box, data in renderer.resolved(deck, deck.cards[0]):
        if box.name == box_name:
            text = renderer.kind(box)
            context = renderer.context(deck, deck.cards[0], False)
            _para, size, needed = text.fit(box, data, box.w, box.h, context)
            return size, needed, box.h
    raise AssertionError(box_name)


def test_inline_icons_count_in_the_fit_and_may_carry_their_own_size(tmp_path):
    front = ('boxes:\n  body: {x: 5mm, y: 5mm, width: 50mm, height: %s, text: "%s", size: 10pt, '
             'min_size: 6pt}\n')
    # a line of text fits 4.2 mm at 10 pt; the same line holding a 30 pt icon does not: it shrinks
    plain = _fitted(_game(tmp_path / "plain", "x", front % ("5mm", "Pay two")))
    assert plain[0] == 10
    with pytest.raises(InputError) as caught:
        _fitted(_game(tmp_path / "icon", "x", front % ("5mm", "Pay :star@30pt: two")))
    assert "does not fit even at 6 pt (needs 30.0 pt of height" in str(caught.value)
    game = _game(tmp_path / "big", "x", front % ("15mm", "Pay :star@12mm: two"))
    size, needed, height = _fitted(game)
    assert height + 0.01 >= needed >= to_pt("12mm") - 0.01  # the 12 mm icon is counted whole
    renderer = renderer_for(game)
    deck = game.decks["things"]
    [markup] = [data.markup for box, data in renderer.resolved(deck, deck.cards[0]) if box.name == "body"]
    assert 'height="34.0157"' in markup  # 12 mm, whatever the font size


def test_an_inline_icon_size_out_of_bounds_is_printed_as_written_with_a_warning(tmp_path):
    front = 'boxes:\n  body: {text: "Pay :star@999pt: two"}\n'
    game = _game(tmp_path, "x", front)
    renderer = renderer_for(game)
    renderer.check()
    assert [line for line in renderer.warnings if "star@999pt" in line] == [
        "cards/words/layouts/things.yaml:2: card WRD-THG-01 (alpha): box 'body' has ':star@999pt:', an icon "
        "size out of bounds, so it is printed as it is; expected a size above 0 and at most 144 pt "
        "(':star@8pt:', ':star@3mm:')"]
