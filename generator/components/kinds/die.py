"""kind: die: a cube net of six faces with glue tabs, made up into a die."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from generator.components.art import draw_die, draw_die_face
from generator.components.die_net import die_net
from generator.components.draw import draw_net_lines, shade_glue
from generator.components.faces import faces_for
from generator.components.kinds.base import check_size, draw_box_faces
from generator.components.nets import Net
from generator.components.pages import Piece, Placed
from generator.core.errors import Problems
from generator.core.units import to_pt
from generator.data.components import Component
from generator.data.game import Game

NAME = "die"


def net(game: Game, component: Component) -> Net:
    """The flat net of the die, lower-left corner at (0, 0)."""
    return die_net(to_pt(component.model.size)).net


def pieces(game: Game, component: Component, paper: str) -> list[Piece]:
    """One net per copy."""
    flat = net(game, component)
    return [Piece((NAME, component.id, copy), flat.width, flat.height) for copy in range(component.copies)]


def check(game: Game, component: Component, problems: Problems) -> None:
    """The net must fit a page."""
    flat = net(game, component)
    check_size(component, flat.width, flat.height, "size", problems)


def draw(canvas: Canvas, game: Game, component: Component, laid: Placed) -> None:
    placed = net(game, component).placed(laid.x, laid.y, laid.turned)
    shade_glue(canvas, placed)
    draw_die(canvas, faces_for(game), component, placed)
    draw_net_lines(canvas, placed)


def picture_flat_size(game: Game, component: Component) -> tuple[float, float]:
    flat = net(game, component)
    return flat.width, flat.height


def draw_picture_flat(canvas: Canvas, game: Game, component: Component) -> None:
    flat = net(game, component)
    shade_glue(canvas, flat)
    draw_die(canvas, faces_for(game), component, flat)
    draw_net_lines(canvas, flat)


def picture_made_box(game: Game, component: Component) -> tuple[float, float, float]:
    """A cube of the net's face."""
    edge = next(r for r in net(game, component).regions if r.name == "face-1").width
    return edge, edge, edge


def draw_picture_made(canvas: Canvas, game: Game, component: Component,
                      box: tuple[float, float, float]) -> None:
    """Face 2 in front, 1 on top and 3 on the right."""
    faces = faces_for(game)

    def face(number):
        return lambda region: draw_die_face(canvas, faces, component, number, region)
    draw_box_faces(canvas, *box, face(2), face(1), face(3))
