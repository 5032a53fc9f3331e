"""Crop marks and cut lines of a card sheet: pure geometry in points (lower-left origin), no ReportLab.

Decisions:
- Art (cards and their shown bleed) and labels keep `INK` (6 mm) from the paper edge. Marks and cut lines may
  come to `MARK_INK` (5 mm): laser printers print from about 5 mm and inkjets from 3-5 mm
  (shared/design/print.md section 3), and a thin mark is what a cut needs most.
- Every outer card edge keeps its full bleed (issue 34): `cards.imposition` picks the grid whose margins hold
  it (fewer cards when needed: Letter poker is 8-up landscape, not 9-up), and the marks take what the margin
  leaves beyond the bleed (`core.margins.bleed_margin`): they start `MARK_GAP` beyond it, or, with no room
  there, are short ticks inside the bleed that are cut away with it. Marks never cross a card.
- Crop marks: one in each margin on the line of every cut. Cut lines: every cut drawn as a thin line on the
  cut, as far as the printable page allows, stopped `MARK_GAP` short of every card and of its shown bleed (a
  line over the bleed would show on the card after a cut a little off): the outer and the inner cuts alike
  run from the printable edge to the bleed, and through any part of a gutter that shows no bleed.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.geometry import EPS, Rect

# re-exported
from generator.core.margins import (  # noqa: F401
    INK,
    MARK_GAP,
    MARK_INK,
    MARK_MIN,
    Margin,
    bleed_margin,
    margin_use,
)

MARK_WIDTH = 0.4      # pt, crop marks
CUT_LINE_WIDTH = 0.3  # pt, cut lines (drawn half a width outside the card they trim)
MARK_MODES = ("crop", "lines", "both")


@dataclass(frozen=True)
class Line:
    """A straight line segment (crop mark, cut line or fold line)."""

    x1: float
    y1: float
    x2: float
    y2: float

    def bbox(self) -> Rect:
        return Rect(
            min(self.x1, self.x2), min(self.y1, self.y2), abs(self.x2 - self.x1), abs(self.y2 - self.y1)
        )

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x2) < EPS

    @property
    def length(self) -> float:
        return abs(self.x2 - self.x1) + abs(self.y2 - self.y1)

    def mirrored(self, axis: str, page_w: float, page_h: float) -> Line:
        """Mirror image about the page's vertical ('x') or horizontal ('y') centre line."""
        if axis == "x":
            return Line(page_w - self.x1, self.y1, page_w - self.x2, self.y2)
        return Line(self.x1, page_h - self.y1, self.x2, page_h - self.y2)


def cut_positions(trims: list[Rect]) -> tuple[list[float], list[float]]:
    """The x of every vertical cut and the y of every horizontal cut (each card edge; shared edges once)."""
    xs = sorted({round(v, 6) for t in trims for v in (t.x, t.x2)})
    ys = sorted({round(v, 6) for t in trims for v in (t.y, t.y2)})
    return xs, ys


def crop_marks(xs: list[float], ys: list[float], grid: Rect, margins: dict[str, Margin | None]) -> list[Line]:
    """A mark in every margin that has room, on the line of every cut (bottom, top, left, right)."""
    marks: list[Line] = []
    for side in ("bottom", "top", "left", "right"):
        margin = margins.get(side)
        if margin is None or not margin.length:
            continue
        a, b = margin.start, margin.start + margin.length
        for pos in (xs if side in ("bottom", "top") else ys):
            if side == "bottom":
                marks.append(Line(pos, grid.y - b, pos, grid.y - a))
            elif side == "top":
                marks.append(Line(pos, grid.y2 + a, pos, grid.y2 + b))
            elif side == "left":
                marks.append(Line(grid.x - b, pos, grid.x - a, pos))
            else:
                marks.append(Line(grid.x2 + a, pos, grid.x2 + b, pos))
    return marks


def cut_lines(trims: list[Rect], page_w: float, page_h: float, art: list[Rect] | None = None) -> list[Line]:
    """Cut lines for every card edge, on the cut, as long as the printable page allows but stopped
    `MARK_GAP` short of any card and of its shown bleed (`art`: the clip boxes; default the trims)."""
    half = CUT_LINE_WIDTH / 2
    boxes = art if art is not None else trims
    lines: list[Line] = []
    for vertical in (True, False):
        for at in sorted({round(v, 6) for t in trims for v in ((t.x, t.x2) if vertical else (t.y, t.y2))}):
            span = (MARK_INK, (page_h if vertical else page_w) - MARK_INK)
            across = [((b.x, b.x2) if vertical else (b.y, b.y2), b) for b in boxes]
            blocked = [(b.y - MARK_GAP, b.y2 + MARK_GAP) if vertical else (b.x - MARK_GAP, b.x2 + MARK_GAP)
                       for (low, high), b in across if low - half - EPS <= at <= high + half + EPS]
            for a, b in _free(span, blocked):
                lines.append(Line(at, a, at, b) if vertical else Line(a, at, b, at))
    return lines


def _free(span: tuple[float, float], blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The parts of `span` outside every blocked interval (pieces shorter than MARK_MIN are dropped)."""
    pieces, start = [], span[0]
    for a, b in sorted(blocked):
        if a > start:
            pieces.append((start, min(a, span[1])))
        start = max(start, b)
    if start < span[1]:
        pieces.append((start, span[1]))
    return [(a, b) for a, b in pieces if b - a >= MARK_MIN - EPS]
