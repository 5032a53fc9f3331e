"""Packing round, hexagonal and square shapes into a rectangle. Pure geometry in points, no ReportLab.

- Hexagons form a honeycomb: neighbours share a cut edge (with `gap` 0), every other row (or column) is
  offset by half a pitch. A flat-topped token may be laid pointy on the sheet (its art turned a quarter
  turn) when that holds more; a cut-out token does not care how it lay on the paper.
- Circles of diameter d sit in a hex-offset grid: rows d x sqrt(3)/2 apart, alternate rows offset by d/2.
- Squares form a plain grid with shared cut lines.
With a `gap`, shapes move apart by that much (each can then show a little bleed) and keep their size.

Spots are centres relative to the lower-left corner of the packed block, in reading order (top row first).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.core.shapes import SQRT3, Path, Shape

EPS = 1e-6


@dataclass(frozen=True)
class Spot:
    """Where one shape goes: its centre and how far its art is turned (0 or 90 degrees)."""

    x: float
    y: float
    angle: int = 0


@dataclass
class Packing:
    """Shapes packed into a block: the spots, the block size and the cut lines (shared edges drawn once)."""

    shape: Shape          # the token as it lies on the sheet (a flat hex laid pointy is turned)
    spots: list[Spot]
    width: float
    height: float
    gap: float

    @property
    def count(self) -> int:
        return len(self.spots)

    def cuts(self) -> list[Path]:
        """Every cut: with no gap the straight edges of neighbours are one shared line, else one outline
        each."""
        if self.gap <= EPS and self.shape.kind in ("hex", "square"):
            segments = [edge for spot in self.spots for edge in self.shape.edges(spot.x, spot.y)]
            return [(("M", *a), ("L", *b)) for a, b in merge_segments(segments)]
        return [self.shape.path(spot.x, spot.y) for spot in self.spots]

    def shifted(self, dx: float, dy: float) -> Packing:
        """The same packing with every spot moved by (dx, dy)."""
        spots = [Spot(s.x + dx, s.y + dy, s.angle) for s in self.spots]
        return Packing(self.shape, spots, self.width, self.height, self.gap)


@dataclass(frozen=True)
class _Lattice:
    """A row lattice: shape box (w, h), pitch along rows px, between rows py, alternate rows offset px/2."""

    w: float
    h: float
    px: float
    py: float
    offset: bool


def _lattices(shape: Shape, gap: float) -> list[tuple[_Lattice, bool, int]]:
    """(lattice, transposed, art angle) candidates; a transposed lattice runs in columns."""
    if shape.kind == "hex":
        across = shape.across + gap
        pointy = shape if shape.orientation == "pointy" else shape.turned()
        rows = _Lattice(pointy.width, pointy.height, across, across * SQRT3 / 2, True)
        # rows of pointy hexes; in columns the same lattice holds flat hexes
        turn_rows = 0 if shape.orientation == "pointy" else 90
        return [(rows, False, turn_rows), (rows, True, 90 - turn_rows)]
    if shape.kind == "circle":
        d = shape.across + gap
        rows = _Lattice(shape.across, shape.across, d, d * SQRT3 / 2, True)
        return [(rows, False, 0), (rows, True, 0)]
    side = shape.across + gap
    return [(_Lattice(shape.across, shape.across, side, side, False), False, 0)]


def _row_counts(lat: _Lattice, width: float, height: float) -> list[int] | None:
    """Shapes per row (top row first) filling width x height as fully as possible, or None if none fit."""
    if lat.w > width + EPS or lat.h > height + EPS:
        return None
    rows = 1 + math.floor((height - lat.h) / lat.py + EPS)
    full = 1 + math.floor((width - lat.w) / lat.px + EPS)
    if not lat.offset or rows == 1:
        return [full] * rows
    # alternate rows shifted by half a pitch: either every row holds `equal`, or odd rows hold one fewer
    equal = (
        1 + math.floor((width - lat.w - lat.px / 2) / lat.px + EPS)
        if width - lat.w - lat.px / 2 >= -EPS
        else 0
    )
    a = [equal] * rows
    b = [full if r % 2 == 0 else full - 1 for r in range(rows)]
    return a if sum(a) >= sum(b) and equal > 0 else b


def _place(
    lat: _Lattice, counts: list[int], limit: int | None
) -> tuple[list[tuple[float, float]], float, float]:
    """Centres (lower-left origin of the block) for the row counts, top row first, at most `limit`."""
    if limit is not None:
        kept, left = [], limit
        for n in counts:
            if left <= 0:
                break
            kept.append(min(n, left))
            left -= kept[-1]
        counts = kept
    height = lat.h + (len(counts) - 1) * lat.py
    centres = []
    for r, n in enumerate(counts):
        cy = height - lat.h / 2 - r * lat.py
        start = lat.w / 2 + (lat.px / 2 if lat.offset and r % 2 == 1 else 0.0)
        centres += [(start + i * lat.px, cy) for i in range(n)]
    width = max(x for x, _ in centres) + lat.w / 2
    return centres, width, height


def pack(
    shape: Shape, width: float, height: float, gap: float = 0.0, limit: int | None = None
) -> Packing | None:
    """As many shapes as fit in width x height (at most `limit`), the lattice that holds the most; None if
    none fit.

    With a `limit` smaller than what fits, the lattice that needs the least height is taken (ties: least
    width), so the block leaves as much of the page as possible for other pieces."""
    best = None
    for lat, transposed, angle in _lattices(shape, gap):
        w, h = (height, width) if transposed else (width, height)
        counts = _row_counts(lat, w, h)
        if counts is None:
            continue
        capacity = sum(counts)
        centres, bw, bh = _place(lat, counts, limit)
        count = len(centres)
        if transposed:  # the lattice ran in columns: its top row is the left column, read top to bottom
            centres = [(bh - v, bw - u) for u, v in centres]
            bw, bh = bh, bw
        key = (1, -bh, -bw, -angle) if limit is not None and count >= limit else (0, count, capacity, -angle)
        if best is None or key > best[0]:
            spots = [Spot(x, y, angle) for x, y in centres]
            placed = shape.turned() if angle == 90 else shape
            best = (key, Packing(placed, spots, bw, bh, gap))
    return None if best is None else best[1]


def merge_segments(segments) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Straight segments with the duplicates and overlaps of shared edges merged into single lines."""
    lines: dict[tuple, list[tuple[float, float]]] = {}
    exact: dict[tuple, tuple[float, float, float]] = {}
    for (ax, ay), (bx, by) in segments:
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        if length < EPS:
            continue
        ux, uy = dx / length, dy / length
        if ux < -EPS or (abs(ux) <= EPS and uy < 0):  # one direction per line
            ux, uy = -ux, -uy
        offset = ax * uy - ay * ux  # signed distance of the line from the origin
        key = (round(ux, 5), round(uy, 5), round(offset, 3))
        t1, t2 = ax * ux + ay * uy, bx * ux + by * uy
        exact.setdefault(key, (ux, uy, offset))  # the line as first met, unrounded
        lines.setdefault(key, []).append((min(t1, t2), max(t1, t2)))
    merged = []
    for key, spans in sorted(lines.items()):
        ux, uy, offset = exact[key]
        spans.sort()
        start, end = spans[0]
        runs = []
        for a, b in spans[1:]:
            if a <= end + 1e-3:
                end = max(end, b)
            else:
                runs.append((start, end))
                start, end = a, b
        runs.append((start, end))
        for a, b in runs:
            # the point on the line at parameter t: t * u + offset * n, with n = (uy, -ux)
            merged.append(
                ((a * ux + offset * uy, a * uy - offset * ux), (b * ux + offset * uy, b * uy - offset * ux))
            )
    return merged
