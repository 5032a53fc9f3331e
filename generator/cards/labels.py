"""Labels in the margins of a card sheet: free strips of margin and a first-fit packing of labels into them.

Pure geometry in points (lower-left origin), no ReportLab. The strips are found by the imposition
(`generator.cards.imposition`): they lie between the cut positions, so a label never covers a crop mark or a
cut line.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.geometry import EPS, Rect
from generator.core.units import mm


@dataclass(frozen=True)
class Strip:
    """A free stretch of margin for a label: `length` along the edge, `depth` across; angle 90 reads
    upwards."""

    side: str
    box: Rect
    angle: int

    @property
    def length(self) -> float:
        return self.box.h if self.angle else self.box.w

    @property
    def depth(self) -> float:
        return self.box.w if self.angle else self.box.h


@dataclass(frozen=True)
class Placement:
    """Where a label goes: draw it from `origin` rotated by `angle`; `box` is its area on the page."""

    origin: tuple[float, float]
    angle: int
    box: Rect


def mirrored_side(side: str, axis: str) -> str:
    """The side a strip moves to when the page is mirrored about its vertical ('x') or horizontal ('y')
    centre."""
    swap = {"left": "right", "right": "left"} if axis == "x" else {"top": "bottom", "bottom": "top"}
    return swap.get(side, side)


def place_labels(strips: list[Strip], sizes: list[tuple[float, float]], spacing: float = mm(4),
                 prefer: tuple[str, ...] = ("bottom", "top", "left", "right")) -> list[Placement | None]:
    """First-fit packing of labels (length, depth) into margin strips; None for a label that finds no room."""
    order = sorted(range(len(strips)), key=lambda i: (prefer.index(strips[i].side), i))
    used = {i: 0.0 for i in order}
    result: list[Placement | None] = []
    for length, depth in sizes:
        placed = None
        for i in order:
            strip = strips[i]
            start = used[i] + (spacing if used[i] else 0.0)
            if depth > strip.depth + EPS or start + length > strip.length + EPS:
                continue
            used[i] = start + length
            b = strip.box
            if strip.angle == 0:
                # hug the edge nearest the grid so the label reads as belonging to the sheet
                y = b.y2 - depth if strip.side == "bottom" else b.y
                placed = Placement((b.x + start, y), 0, Rect(b.x + start, y, length, depth))
            else:
                x = b.x2 - depth if strip.side == "left" else b.x
                placed = Placement((x + depth, b.y + start), 90, Rect(x, b.y + start, depth, length))
            break
        result.append(placed)
    return result
