"""Crop marks and cut lines of a card sheet: pure geometry in points (lower-left origin), no ReportLab.

Decisions:
- Art (cards and their shown bleed) and labels keep `INK` (6 mm) from the paper edge. Marks and cut lines may
come to
  `MARK_INK` (5 mm): laser printers print from about 5 mm and inkjets from 3-5 mm (shared/design/print.md
  section 3), and a thin mark is what a cut needs most. So every side of a grid has room for marks: a grid
  inside the 6 mm margin leaves at least 1 mm. Letter 9-up poker has 6.35 mm above and below the grid: its
  column marks are 1.35 mm ticks from the card corners towards the edge (use `--gap` or A4 for longer ones).
- A margin is shared between the bleed shown beyond the outer cards and the marks (`core.margins.margin_use`,
  which the tiled boards use too): the marks get `MARK_PREF` first, then the bleed, then the marks again up to
  `MARK_MAX`. The pair of margins that carries the labels (the wider pair) keeps `LABEL_ROOM` for them before
  any bleed shows. Marks start `MARK_GAP` beyond the shown bleed, or at the card corner when no bleed shows,
  and never cross art.
- Crop marks: one in each margin on the line of every cut. Cut lines: every cut drawn as a thin line the whole
  length of the printable page, half a line width outside the card it trims, so it never lies on a card: it
  runs through the gutters and the margins, and where two cards are butted (one shared cut) it stops at the
  cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.geometry import EPS, Rect

# re-exported
from generator.core.margins import INK, MARK_GAP, MARK_INK, MARK_MIN, Margin, margin_use  # noqa: F401

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


def cut_lines(trims: list[Rect], page_w: float, page_h: float) -> list[Line]:
    """Full-length cut lines for every card edge, outside the cards (see the module notes)."""
    half = CUT_LINE_WIDTH / 2
    lines: list[Line] = []
    for vertical in (True, False):
        edges: dict[float, set[str]] = {}
        for t in trims:  # which side of each cut the cards lie on
            low, high = (t.x, t.x2) if vertical else (t.y, t.y2)
            edges.setdefault(round(low, 6), set()).add("after")
            edges.setdefault(round(high, 6), set()).add("before")
        for pos, sides in sorted(edges.items()):
            # one side only: move the line off the card; both (butted cards): on the cut, stopped by the cards
            at = pos if len(sides) == 2 else pos + (half if sides == {"before"} else -half)
            span = (MARK_INK, (page_h if vertical else page_w) - MARK_INK)
            blocked = [(t.y, t.y2) if vertical else (t.x, t.x2) for t in trims
                       if ((t.x if vertical else t.y) - EPS <= at <= (t.x2 if vertical else t.y2) + EPS)]
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
