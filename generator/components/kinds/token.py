"""kind: token: round, hexagonal or square pieces packed tightly on the sheets, backs on the next page."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from generator.components.draw import draw_cuts
from generator.components.faces import faces_for
from generator.components.kinds.base import check_size
from generator.components.pages import Block, TokenRun
from generator.core.errors import Problems
from generator.core.units import mm, to_pt
from generator.data.components import Component
from generator.data.game import Card, Game

PICTURED = 4        # items shown in the rules picture
PICTURE_GAP = mm(3)


def token_copies(component: Component) -> list[Card]:
    """Every printed token of a component: each item repeated `copies` times, in file order."""
    return [item for item in component.items for _ in range(item.copies)]


def token_gap(component: Component) -> float:
    """Room between tokens: none for hexagons and squares (they share cut edges) unless the file sets one."""
    model = component.model
    if model.gap is not None:
        return to_pt(model.gap)
    return 0.0 if model.shape in ("hex", "square") else mm(2)


def pieces(game: Game, component: Component, paper: str) -> list[TokenRun]:
    """One run of every printed token, packed by the page layout."""
    return [TokenRun(component.id, component.shape, len(token_copies(component)), token_gap(component),
                     component.two_sided)]


def check(game: Game, component: Component, problems: Problems) -> None:
    """A token must fit a page."""
    shape = component.shape
    key = "diameter" if component.model.diameter is not None else "across"
    check_size(component, shape.width, shape.height, key, problems)


def draw(canvas: Canvas, game: Game, component: Component, laid: Block) -> None:
    """The fronts of a block of tokens, clipped to their outlines, and their cuts."""
    faces = faces_for(game)
    copies = token_copies(component)
    gap = laid.packing.gap
    clip_shape = laid.packing.shape.grown(min(gap / 2, faces.bleed)) if gap > 0 else laid.packing.shape
    for n, spot in enumerate(laid.packing.spots):
        faces.place_clipped(canvas, component, copies[laid.first + n], spot.x, spot.y,
                            clip_shape.path(spot.x, spot.y), spot.angle)
    draw_cuts(canvas, laid.packing.cuts())


def _pictured(component: Component):
    """The tokens shown: the first copy of up to four items, and the back of the first when it has one."""
    items = component.items[:PICTURED]
    return [(item, "front") for item in items] + ([(items[0], "back")] if component.two_sided else [])


def picture_flat_size(game: Game, component: Component) -> tuple[float, float]:
    shape = component.shape
    shown = _pictured(component)
    return len(shown) * shape.width + (len(shown) - 1) * PICTURE_GAP, shape.height


def draw_picture_flat(canvas: Canvas, game: Game, component: Component) -> None:
    faces = faces_for(game)
    shape = component.shape
    for n, (item, side) in enumerate(_pictured(component)):
        cx = n * (shape.width + PICTURE_GAP) + shape.width / 2
        cy = shape.height / 2
        faces.place_clipped(canvas, component, item if side == "front" else None, cx, cy, shape.path(cx, cy))
        draw_cuts(canvas, [shape.path(cx, cy)])


def picture_made_box(game: Game, component: Component) -> tuple[float, float, float]:
    """A token is used as printed."""
    return 0.0, 0.0, 0.0


def draw_picture_made(canvas: Canvas, game: Game, component: Component,
                      box: tuple[float, float, float]) -> None:
    """Nothing: a token is not made up."""
