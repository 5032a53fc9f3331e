"""kind: standee: a fold-over figure (front, fold, mirrored back) on feet that slot into a base."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.art import draw_standee, region_clip
from generator.components.draw import draw_net_lines, shade_glue
from generator.components.faces import faces_for
from generator.components.kinds.base import DEPTH, check_size
from generator.components.nets import Net, Region
from generator.components.pages import Piece, Placed
from generator.components.standee_net import StandeeSize, standee_net
from generator.core.errors import Problems
from generator.core.units import mm, to_pt
from generator.data.components import Component
from generator.data.game import Game

NAME = "standee"


def standee_size(component: Component) -> StandeeSize:
    """Figure width and height, foot height and base length in points (base: 1.2 x width, at least 30 mm)."""
    model = component.model
    width = to_pt(model.width)
    base = to_pt(model.base) if model.base is not None else max(1.2 * width, mm(30))
    return StandeeSize(width, to_pt(model.height), to_pt(model.foot), base)


def net(game: Game, component: Component) -> Net:
    """The flat net of one standee and its base, lower-left corner at (0, 0)."""
    return standee_net(standee_size(component))


def pieces(game: Game, component: Component, paper: str) -> list[Piece]:
    """One net per printed copy of each item (the key names the item's index)."""
    flat = net(game, component)
    return [Piece((NAME, component.id, item.index, copy), flat.width, flat.height)
            for item in component.items for copy in range(item.copies)]


def check(game: Game, component: Component, problems: Problems) -> None:
    """The net must fit a page."""
    flat = net(game, component)
    check_size(component, flat.width, flat.height, "height", problems)


def draw(canvas: Canvas, game: Game, component: Component, laid: Placed) -> None:
    placed = net(game, component).placed(laid.x, laid.y, laid.turned)
    shade_glue(canvas, placed)
    draw_standee(canvas, faces_for(game), component, component.items[laid.piece.key[2] - 1], placed)
    draw_net_lines(canvas, placed)


def picture_flat_size(game: Game, component: Component) -> tuple[float, float]:
    flat = net(game, component)
    return flat.width, flat.height


def draw_picture_flat(canvas: Canvas, game: Game, component: Component) -> None:
    """The first item's net."""
    flat = net(game, component)
    shade_glue(canvas, flat)
    draw_standee(canvas, faces_for(game), component, component.items[0], flat)
    draw_net_lines(canvas, flat)


def picture_made_box(game: Game, component: Component) -> tuple[float, float, float]:
    """The figure on its feet, as deep as the base is long."""
    flat = net(game, component)
    front = next(r for r in flat.regions if r.name == "front")
    base = next(r for r in flat.regions if r.name == "base")
    return front.width, front.height + base.height, base.width


def draw_picture_made(canvas: Canvas, game: Game, component: Component,
                      box: tuple[float, float, float]) -> None:
    """The figure upright on its feet, the base crossing under it from front to back."""
    w, h, d = box
    figure = next(r for r in net(game, component).regions if r.name == "front")
    foot = h - figure.height
    k = DEPTH
    # the base: a strip running back through the middle of the feet; its front half is drawn again on top
    def base(fraction: float) -> None:
        canvas.saveState()
        canvas.setFillColor(HexColor("#dddddd"))
        canvas.setStrokeColor(HexColor("#333333"))
        canvas.setLineWidth(0.6)
        path = canvas.beginPath()
        x0, x1 = w / 2, w / 2 + d * k * fraction
        path.moveTo(x0, 0)
        path.lineTo(x1, d * k * fraction)
        path.lineTo(x1, d * k * fraction + foot)
        path.lineTo(x0, foot)
        path.close()
        canvas.drawPath(path, stroke=1, fill=1)
        canvas.restoreState()

    base(1.0)
    canvas.saveState()
    canvas.translate(d * k / 2, d * k / 2)
    canvas.setStrokeColor(HexColor("#333333"))
    canvas.setLineWidth(0.6)
    canvas.setFillColor(HexColor("#ffffff"))
    canvas.rect(0, 0, w, foot, stroke=1, fill=1)
    front = Region("front", w / 2, foot + figure.height / 2, w, figure.height)
    faces = faces_for(game)
    faces.place_clipped(canvas, component, component.items[0], front.cx, front.cy, region_clip(front))
    canvas.rect(0, foot, w, figure.height, stroke=1, fill=0)
    canvas.restoreState()
    base(0.5)
