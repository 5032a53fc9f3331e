"""Flat nets of folded pieces (tuck boxes, dice, standees): parts, fold lines, cut lines and art regions.

Pure geometry in points, lower-left origin, y up; no ReportLab. A net is a set of parts (closed outlines).
Folds are the dashed lines between parts that stay joined; every other edge of a part is a cut, drawn solid.
Cuts are derived from the parts, so an edge can never be left without a line: shared straight edges are
merged into one line, folds are taken out, curves (thumb notches, rounded flaps) are kept as they are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from generator.core.packing import merge_segments
from generator.core.shapes import Path, transform_path

Point = tuple[float, float]
Segment = tuple[Point, Point]
EPS = 1e-3


@dataclass(frozen=True)
class Part:
    """One piece of a net: a panel, flap, face, tab or figure, with its closed outline."""

    name: str
    role: str    # panel | flap | glue | face | tab | figure | foot | base
    path: Path


@dataclass(frozen=True)
class Region:
    """Where art goes: a rectangle centred on (cx, cy), turned by `angle` degrees, mirrored when `mirror`."""

    name: str
    cx: float
    cy: float
    width: float
    height: float
    angle: float = 0.0
    mirror: bool = False


@dataclass
class Net:
    """A flat piece to cut out and fold: its parts, fold lines, extra cuts (slots) and art regions."""

    parts: list[Part]
    folds: list[Segment]
    slots: list[Path] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)

    def bounds(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) around every part."""
        xs, ys = [], []
        for part in self.parts:
            for op in part.path:
                xs += list(op[1::2])
                ys += list(op[2::2])
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def width(self) -> float:
        x0, _, x1, _ = self.bounds()
        return x1 - x0

    @property
    def height(self) -> float:
        _, y0, _, y1 = self.bounds()
        return y1 - y0

    def fold_lines(self) -> list[Segment]:
        """The folds, with collinear pieces that touch joined into one dashed line."""
        return merge_segments(self.folds)

    def cuts(self) -> list[Path]:
        """Every cut: straight edges merged and without the folds, curves as they are, then the slots."""
        straight: list[Segment] = []
        curves: list[Path] = []
        for part in self.parts:
            for a, b, op in _edges(part.path):
                if op[0] == "L":
                    straight.append((a, b))
                else:
                    curves.append((("M", *a), op))
        lines = subtract(merge_segments(straight), merge_segments(self.folds))
        return [(("M", *a), ("L", *b)) for a, b in lines] + curves + list(self.slots)

    def moved(self, dx: float, dy: float, angle: float = 0.0) -> Net:
        """The net turned by `angle` degrees about the origin, then moved by (dx, dy)."""
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

        def point(x: float, y: float) -> Point:
            return c * x - s * y + dx, s * x + c * y + dy

        return Net(
            parts=[replace(p, path=transform_path(p.path, angle, dx, dy)) for p in self.parts],
            folds=[(point(*a), point(*b)) for a, b in self.folds],
            slots=[transform_path(path, angle, dx, dy) for path in self.slots],
            regions=[replace(r, cx=point(r.cx, r.cy)[0], cy=point(r.cx, r.cy)[1], angle=r.angle + angle)
                     for r in self.regions])

    def placed(self, x: float, y: float, turned: bool = False) -> Net:
        """The net with its lower-left corner at (x, y), turned a quarter (counter-clockwise) when asked."""
        net = self.moved(0, 0, 90) if turned else self
        x0, y0, _, _ = net.bounds()
        return net.moved(x - x0, y - y0)

    def part(self, name: str) -> Part:
        """The part with this name."""
        return next(p for p in self.parts if p.name == name)


def _edges(path: Path):
    """(start, end, op) of every drawing operation of a closed path; Z closes with a line."""
    start = current = None
    for op in path:
        if op[0] == "M":
            start = current = (op[1], op[2])
        elif op[0] == "Z":
            if start is not None and current is not None and math.dist(start, current) > EPS:
                yield current, start, ("L", *start)
            current = start
        else:
            end = (op[-2], op[-1])
            yield current, end, op
            current = end


def rect_path(x: float, y: float, w: float, h: float) -> Path:
    """A closed rectangle with lower-left corner (x, y)."""
    return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))


def subtract(lines: list[Segment], holes: list[Segment]) -> list[Segment]:
    """The parts of `lines` not covered by collinear `holes` (both already merged)."""
    result: list[Segment] = []
    for a, b in lines:
        length = math.dist(a, b)
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        spans = [(0.0, length)]
        for c, d in holes:
            # collinear: both ends of the hole lie on the line through a, b
            if any(abs((p[0] - a[0]) * uy - (p[1] - a[1]) * ux) > EPS for p in (c, d)):
                continue
            t1 = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
            t2 = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
            lo, hi = min(t1, t2), max(t1, t2)
            spans = [
                piece
                for s, e in spans
                for piece in ((s, min(e, lo)), (max(s, hi), e))
                if piece[1] - piece[0] > EPS
            ]
        result += [((a[0] + s * ux, a[1] + s * uy), (a[0] + e * ux, a[1] + e * uy)) for s, e in spans]
    return result


def convex_overlap(p: list[Point], q: list[Point], tol: float = 1e-3) -> bool:
    """True when two convex polygons share area (touching edges do not count): the separating axis test."""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y2 - y1, x1 - x2
            length = math.hypot(nx, ny)
            if length < EPS:
                continue
            nx, ny = nx / length, ny / length
            a = [x * nx + y * ny for x, y in p]
            b = [x * nx + y * ny for x, y in q]
            if max(a) <= min(b) + tol or max(b) <= min(a) + tol:
                return False
    return True


def polygon_points(path: Path) -> list[Point]:
    """The corner points of a path made of straight lines (move-to and line-to)."""
    return [(op[1], op[2]) for op in path if op[0] in ("M", "L")]
