"""What every component kind module provides (`ComponentKind`), and the helpers several kinds share.

A kind module is a plain module whose functions are the protocol's: the pieces it puts on a paper, its checks,
how it draws a placed piece, and its picture for the rules booklet (flat as printed, and made up). The modules
are listed in generator.components.kinds.KINDS; `missing_functions` names what a module lacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from reportlab.lib.colors import HexColor

from generator.components.nets import Region
from generator.core.errors import Problems
from generator.core.geometry import PAPERS
from generator.core.units import mm
from generator.data.component_models import fits_every_paper, sheet_room

if TYPE_CHECKING:
    from types import ModuleType

    from reportlab.pdfgen.canvas import Canvas

    from generator.components.pages import Block, Piece, Placed, TokenRun
    from generator.data.components import Component
    from generator.data.game import Game

DEPTH = 0.35  # cabinet projection of a made-up piece: depth drawn at half length, 45 degrees (0.5 x cos 45)


class ComponentKind(Protocol):
    """The functions of one component kind's module."""

    def pieces(self, game: Game, component: Component, paper: str) -> list[Piece | TokenRun]:
        """Every piece of the component to lay out on `paper`, in print order."""

    def check(self, game: Game, component: Component, problems: Problems) -> None:
        """Add every problem that would stop the component from being drawn (faces are checked already)."""

    def draw(self, canvas: Canvas, game: Game, component: Component, laid: Placed | Block) -> None:
        """Draw one of its pieces (or, for tokens, a block of them) where the page layout put it."""

    def picture_flat_size(self, game: Game, component: Component) -> tuple[float, float]:
        """Width and height of the rules picture of the component as printed."""

    def draw_picture_flat(self, canvas: Canvas, game: Game, component: Component) -> None:
        """Draw the component as printed, lower-left corner at (0, 0)."""

    def picture_made_box(self, game: Game, component: Component) -> tuple[float, float, float]:
        """Width, height and depth of the made-up piece (0, 0, 0: not made up, only printed)."""

    def draw_picture_made(self, canvas: Canvas, game: Game, component: Component,
                          box: tuple[float, float, float]) -> None:
        """Draw the made-up piece of `box` (width, height, depth) in cabinet projection from (0, 0)."""


PROTOCOL_FUNCTIONS = tuple(name for name, value in vars(ComponentKind).items()
                           if not name.startswith("_") and callable(value))


def missing_functions(module: ModuleType) -> list[str]:
    """The protocol's functions that `module` does not define."""
    return [name for name in PROTOCOL_FUNCTIONS if not callable(getattr(module, name, None))]


def check_size(component: Component, width: float, height: float, key: str, problems: Problems) -> None:
    """A problem at `key` when a piece of width x height points fits no paper."""
    if not fits_every_paper(width, height):
        rooms = {p: sheet_room(p) for p in PAPERS}
        room = " and ".join(f"{PAPERS[p].name} {w / mm(1):.0f} x {h / mm(1):.0f} mm"
                            for p, (w, h) in rooms.items())
        problems.add(component.file, component.line_of(key), f"{component.kind} '{component.id}' needs "
                     f"{width / mm(1):.0f} x {height / mm(1):.0f} mm, more than a page holds ({room}); "
                     "expected a smaller size")


def draw_box_faces(canvas: Canvas, w: float, h: float, d: float, front, top, side) -> None:
    """Draw front (w x h), top (w x d) and right side (d x h) of a box in cabinet projection; each of front,
    top and side draws into the Region it is given."""
    k = DEPTH
    for draw, matrix, size in ((side, (k, k, 0, 1, w, 0), (d, h)), (top, (1, 0, k, k, 0, h), (w, d)),
                               (front, (1, 0, 0, 1, 0, 0), (w, h))):
        canvas.saveState()
        canvas.transform(*matrix)
        clip = canvas.beginPath()
        clip.rect(0, 0, size[0], size[1])
        canvas.clipPath(clip, stroke=0, fill=0)
        draw(Region("face", size[0] / 2, size[1] / 2, size[0], size[1]))
        canvas.setStrokeColor(HexColor("#333333"))
        canvas.setLineWidth(0.6)
        canvas.rect(0, 0, size[0], size[1], stroke=1, fill=0)
        canvas.restoreState()
