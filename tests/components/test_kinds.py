"""Every component kind listed in components.kinds.KINDS: its model, its module's functions, a piece drawn on
a page and its picture for the rules; and a kind that is not listed is an error, never drawn as another
kind."""

from __future__ import annotations

import dataclasses
import inspect
import io
import types

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.components.kinds import KINDS, UnknownKind, kind_module, kind_of
from generator.components.kinds.base import PROTOCOL_FUNCTIONS, ComponentKind, missing_functions
from generator.components.pages import lay_out
from generator.components.pictures import Picture
from generator.components.sheets import runs
from generator.core.errors import Problems
from generator.data.component_models import MODELS, ComponentFile
from generator.data.load import load_game

ONE_OF_EACH = {
    "coins.yaml": """\
        component: coins
        kind: token
        name: Coins
        shape: circle
        across: 1in
        layout: chit
        back: chit-back
        fields: {value: {type: int}}
        items:
          - {id: coin, name: Coin, copies: 3, value: 1}
        """,
    "hero.yaml": """\
        component: hero
        kind: standee
        name: Hero
        width: 30mm
        height: 50mm
        layout: chit
        fields: {value: {type: int}}
        items:
          - {id: hero, name: Hero, copies: 1, value: 2}
        """,
    "dice.yaml": """\
        component: dice
        kind: die
        name: Dice
        size: 20mm
        faces: [{pips: 1}, {pips: 2}, {pips: 3}, {pips: 4}, {text: "5"}, {pips: 6}]
        """,
    "box.yaml": """\
        component: box
        kind: tuckbox
        name: Box
        deck: things
        """,
    "pad.yaml": """\
        component: pad
        kind: sheet
        name: Score pad
        size: {width: 90mm, height: 120mm}
        columns:
          - {header: Player, text: ""}
        rows: 4
        """,
}


@pytest.fixture
def game(chits):
    return load_game(chits(ONE_OF_EACH), "chits")


def _inked(pdf: bytes) -> int:
    """How many pixels of the first page are not white."""
    page = pdfium.PdfDocument(pdf)[0]
    return sum(page.render(scale=1.0).to_pil().convert("L").histogram()[:250])


def test_every_listed_kind_has_a_model_and_every_model_a_kind_in_the_same_order():
    assert list(KINDS) == list(MODELS)
    for kind, model in MODELS.items():
        assert issubclass(model, ComponentFile) and not inspect.isabstract(model), kind


def test_every_kind_module_has_every_function_of_the_protocol():
    assert set(PROTOCOL_FUNCTIONS) >= {"pieces", "check", "draw", "picture_flat_size", "draw_picture_flat"}
    for kind, module in KINDS.items():
        assert missing_functions(module) == [], kind
        for name in PROTOCOL_FUNCTIONS:
            wanted = list(inspect.signature(getattr(ComponentKind, name)).parameters)[1:]  # without self
            assert list(inspect.signature(getattr(module, name)).parameters) == wanted, (kind, name)


def test_a_module_that_forgets_a_function_is_told_which():
    module = types.ModuleType("meeple")
    for name in PROTOCOL_FUNCTIONS:
        if name != "draw":
            setattr(module, name, lambda *args: None)
    assert missing_functions(module) == ["draw"]


def test_a_model_that_forgets_a_method_cannot_be_made():
    class Meeple(ComponentFile):
        def face_size(self):
            return 0.0, 0.0

    with pytest.raises(TypeError):
        Meeple(component="m", kind="meeple", name="M")


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_draws_a_piece_on_a_page(game, kind):
    component = next(c for c in game.components.values() if c.kind == kind)
    module = kind_of(component)
    problems = Problems()
    module.check(game, component, problems)
    assert not problems, list(problems)
    page = lay_out("letter", module.pieces(game, component, "letter"))[0]
    laid = (page.blocks + page.pieces)[0]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(page.width, page.height))
    module.draw(canvas, game, component, laid)
    canvas.showPage()
    canvas.save()
    assert _inked(buffer.getvalue()) > 500, kind


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_has_a_picture_made_up_when_its_model_says_so(game, kind):
    component = next(c for c in game.components.values() if c.kind == kind)
    picture = Picture(game, component)
    assert picture.width > 0 and picture.height > 0
    assert (picture.made[0] > 0) == component.model.made_up, kind
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(picture.width, picture.height))
    picture.draw(canvas, 0, 0, 1.0)
    canvas.showPage()
    canvas.save()
    assert _inked(buffer.getvalue()) > 500, kind


def test_an_unlisted_kind_is_an_error_not_a_tuck_box(game):
    with pytest.raises(UnknownKind, match="meeple"):
        kind_module("meeple")
    box = next(c for c in game.components.values() if c.kind == "tuckbox")
    game.components["box"] = dataclasses.replace(box, kind="meeple")
    with pytest.raises(UnknownKind, match="known: token, standee, die, tuckbox, sheet"):
        runs(game, "letter")
    with pytest.raises(UnknownKind):
        Picture(game, game.components["box"])
