"""Every box kind of BOX_KINDS keeps the protocol: a minimal box of it parses, resolves for a card into a
frozen value, draws ink inside its box, and shows in what the ink saver and the legibility check see; a kind
the table does not list is a located error."""

from __future__ import annotations

import dataclasses
import inspect
import textwrap
from pathlib import Path

import pypdfium2
import pytest

from generator.core.errors import InputError
from generator.core.geometry import Rect
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.boxes import BOX_KINDS, kind_of
from generator.faces.boxes.base import Box, BoxKind, Resolved
from generator.faces.face import render_card_pdf, renderer_for
from generator.faces.legibility import face_findings
from generator.faces.paint import face_paints

GAME = "title: Kinds\ncode: KND\nplayers: {min: 2, max: 4}\ndecks: [things]\n"
DECK = """\
deck: things
name: Things
code: THG
cards:
  - {id: alpha, name: Alpha, copies: 1, icon: pepperoni}
"""
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
PLACE = "x: 10mm, y: 20mm, width: 30mm, height: 30mm"
# A minimal box of each kind, and what a text over it finds: a colour it lacks contrast with, or a picture
# (whose colours cannot be checked). A new kind needs its line here.
MINIMAL = {
    "text": (
        '{text: "{{ card.name }}", size: 30pt, fill: "#333333", color: "#ffffff", align: center}',
        "contrast",
    ),
    "icon": ('{icon: "{{ card.icon }}"}', "picture"),
    "image": ("{image: art/red.png, fit: cover}", "picture"),
    "shape": ('{shape: rounded, fill: "#333333"}', "contrast"),
}
PROBE = ('  probe: {z: 1, x: 20mm, y: 32mm, width: 10mm, height: 5mm, text: "probe", size: 7pt, color: '
         '"#222222"}\n')


def _game(root: Path, kind: str, probe: bool = False):
    spec = MINIMAL[kind][0]
    front = f"boxes:\n  tested: {{{PLACE}, {spec[1:-1]}}}\n" + (PROBE if probe else "")
    folder = root / "cards" / "kinds"
    for name, text in {"game.yaml": GAME, "things.yaml": DECK, "layouts/things.yaml": front,
                       "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    from PIL import Image

    (folder / "art").mkdir(exist_ok=True)
    Image.new("RGB", (400, 400), (200, 0, 0)).save(folder / "art" / "red.png")
    return load_game(Project(root), "kinds")


def test_the_table_lists_each_kind_under_its_own_key_and_every_kind_has_a_minimal_box_here():
    assert set(MINIMAL) == set(BOX_KINDS)
    for name, kind in BOX_KINDS.items():
        assert kind.key == name
        assert isinstance(kind.templated, tuple) and isinstance(kind.inside_safe, bool)
        assert isinstance(kind.worded, bool)


@pytest.mark.parametrize("name", sorted(BOX_KINDS))
def test_a_kind_module_implements_every_protocol_method_itself(name):
    kind = BOX_KINDS[name]
    assert not inspect.isabstract(kind), f"{kind.__module__} leaves {sorted(kind.__abstractmethods__)} out"
    for method in BoxKind.__abstractmethods__:
        assert getattr(kind, method) is not getattr(BoxKind, method), (name, method)


def test_a_kind_without_a_protocol_method_cannot_be_made():
    class Halfway(BoxKind):  # forgot every method but draw
        key = "halfway"

        def draw(self, _canvas, _box, _data, _rect, _face):
            return None

    assert inspect.isabstract(Halfway)
    with pytest.raises(TypeError, match="abstract"):
        Halfway(None)


@pytest.mark.parametrize("name", sorted(BOX_KINDS))
def test_a_minimal_box_parses_resolves_draws_and_paints(tmp_path, name):
    game = _game(tmp_path, name)
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    card = deck.cards[0]
    (box,) = renderer.front_layout(card).boxes
    assert box.kind == name and kind_of(box) is BOX_KINDS[name]
    ((_box, data),) = renderer.resolved(deck, card)
    assert isinstance(data, Resolved) and dataclasses.is_dataclass(data)
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.fill = "#000000"
    tw, th = renderer.size(deck)
    rect = renderer._placed_rect(box, tw, th)  # noqa: SLF001
    (paint,) = face_paints([(box, data)], lambda b: renderer._placed_rect(b, tw, th))  # noqa: SLF001
    assert Rect(*rect).contains(paint.rect, tol=0.01) and paint.name == "tested"
    assert (paint.color is None) == (MINIMAL[name][1] == "picture")
    # drawn: ink inside the box on the card's PDF, none outside it
    pdf = render_card_pdf(game, card, tmp_path / "card.pdf")
    scale = 2
    page = pypdfium2.PdfDocument(str(pdf))[0]
    image = page.render(scale=scale).to_pil().convert("L")
    height = page.get_height()
    x, y, w, h = rect
    inside = image.crop((round(x * scale) + 2, round((height - y - h) * scale) + 2,
                         round((x + w) * scale) - 2, round((height - y) * scale) - 2))
    outside = image.crop((0, 0, round(x * scale) - 2, image.height))
    assert inside.getextrema()[0] < 200, name  # some ink where the box is
    assert outside.getextrema()[0] == 255, name  # and nothing on the paper left of it


@pytest.mark.parametrize("name", sorted(BOX_KINDS))
def test_the_legibility_check_sees_what_a_box_lays_under_a_text(tmp_path, name):
    game = _game(tmp_path, name, probe=True)
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    findings = face_findings(renderer, deck, deck.cards[0])
    probe = [key for key, _message in findings if key[2] == "probe"]
    expected = MINIMAL[name][1]
    assert any(key[3] == expected for key in probe), (name, findings)
    if expected == "picture":
        assert all(key[4] == "tested" for key in probe if key[3] == "picture")


def test_a_kind_the_table_does_not_list_is_an_error_at_its_box(tmp_path):
    box = Box(
        "hologram", "hologram", 0.0, 0.0, 10.0, 10.0, {"hologram": "shiny"}, "cards/kinds/layouts/x.yaml", 7
    )
    with pytest.raises(InputError) as info:
        kind_of(box)
    (problem,) = info.value.problems
    assert (problem.file, problem.line) == ("cards/kinds/layouts/x.yaml", 7)
    assert "'hologram'" in problem.message and "text" in problem.message and "shape" in problem.message
    renderer = renderer_for(_game(tmp_path, "shape"))
    with pytest.raises(InputError) as info:
        renderer.kind(box)
    assert str(info.value.problems[0]).startswith("cards/kinds/layouts/x.yaml:7: box 'hologram'")
