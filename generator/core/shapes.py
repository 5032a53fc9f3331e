"""Round, hexagonal and square outlines in points: sizes, paths, containment. Pure geometry, no ReportLab.

A shape is centred on (0, 0), y up. Its size is `across`: a circle's diameter, a hexagon's width across flats,
a square's side. With circumradius r a hexagon is 2r across corners and sqrt(3) r across flats; a `flat`
hexagon has a flat top and bottom (corners left and right), a `pointy` one corners at the top and bottom.

Paths are tuples of operations, the same as a PDF path: ("M", x, y), ("L", x, y),
("C", x1, y1, x2, y2, x3, y3) and ("Z",). Arcs are cubic Beziers (a quarter circle each).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SHAPES = ("circle", "hex", "square", "rounded")
KAPPA = 4 * (math.sqrt(2) - 1) / 3  # control-point distance of a quarter-circle Bezier, per unit radius
SQRT3 = math.sqrt(3)

PathOp = tuple
Path = tuple[PathOp, ...]


@dataclass(frozen=True)
class Shape:
    """A token or card outline: `kind` circle | hex | square | rounded, `across` in points."""

    kind: str
    across: float
    orientation: str = "flat"   # hex only
    radius: float = 0.0         # rounded only: corner radius

    def __post_init__(self):
        if self.kind not in SHAPES:
            raise ValueError(f"unknown shape '{self.kind}'; expected one of {', '.join(SHAPES)}")
        if not self.across > 0:
            raise ValueError("a shape needs a positive size")

    @property
    def circumradius(self) -> float:
        """Centre to corner (a circle's radius)."""
        if self.kind == "hex":
            return self.across / SQRT3
        if self.kind == "circle":
            return self.across / 2
        return self.across / math.sqrt(2)

    @property
    def width(self) -> float:
        """Width of the bounding box."""
        if self.kind == "hex" and self.orientation == "flat":
            return 2 * self.circumradius
        return self.across

    @property
    def height(self) -> float:
        """Height of the bounding box."""
        if self.kind == "hex" and self.orientation == "pointy":
            return 2 * self.circumradius
        return self.across

    def grown(self, amount: float) -> Shape:
        """The outline moved outwards by `amount` on every side (a bleed or a gap around the shape)."""
        radius = self.radius + amount if self.kind == "rounded" else self.radius
        return Shape(self.kind, self.across + 2 * amount, self.orientation, max(0.0, radius))

    def turned(self) -> Shape:
        """The shape turned a quarter turn: a flat hexagon becomes a pointy one (others look the same)."""
        if self.kind != "hex":
            return self
        return Shape(self.kind, self.across, "pointy" if self.orientation == "flat" else "flat", self.radius)

    def corners(self) -> list[tuple[float, float]]:
        """The corners of a hexagon or square, counter-clockwise (empty for round outlines)."""
        if self.kind == "hex":
            r = self.circumradius
            start = 0.0 if self.orientation == "flat" else 30.0
            return [(r * math.cos(math.radians(start + 60 * i)), r * math.sin(math.radians(start + 60 * i)))
                    for i in range(6)]
        if self.kind == "square":
            h = self.across / 2
            return [(h, -h), (h, h), (-h, h), (-h, -h)]
        return []

    def path(self, cx: float = 0.0, cy: float = 0.0) -> Path:
        """The closed outline centred on (cx, cy)."""
        if self.kind == "circle":
            return circle_path(cx, cy, self.across / 2)
        if self.kind == "rounded":
            h = self.across / 2
            return rounded_rect_path(cx - h, cy - h, self.across, self.across, min(self.radius, h))
        points = [(cx + x, cy + y) for x, y in self.corners()]
        return polygon_path(points)

    def edges(
        self, cx: float = 0.0, cy: float = 0.0
    ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """The straight edges of a hexagon or square centred on (cx, cy) (empty for round outlines)."""
        points = [(cx + x, cy + y) for x, y in self.corners()]
        return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]

    def inner_distance(self, x: float, y: float) -> float:
        """How far (x, y), relative to the centre, lies inside the outline (negative: outside)."""
        if self.kind == "circle":
            return self.across / 2 - math.hypot(x, y)
        if self.kind == "rounded":
            h = self.across / 2
            r = min(self.radius, h)
            dx, dy = abs(x) - (h - r), abs(y) - (h - r)
            if dx > 0 and dy > 0:
                return r - math.hypot(dx, dy)
            return h - max(abs(x), abs(y))
        # a convex polygon: the smallest distance to an edge line (apothem minus the projection)
        apothem = self.across / 2
        corners = self.corners()
        best = math.inf
        for i, (ax, ay) in enumerate(corners):
            bx, by = corners[(i + 1) % len(corners)]
            nx, ny = (ax + bx) / 2, (ay + by) / 2
            length = math.hypot(nx, ny)
            best = min(best, apothem - (x * nx + y * ny) / length)
        return best

    def holds_rect(self, left: float, top: float, width: float, height: float, margin: float = 0.0) -> bool:
        """True when a rectangle (given from the bounding box's top-left corner, y down) lies `margin`
        inside."""
        x0 = left - self.width / 2
        y0 = self.height / 2 - top
        corners = [(x0, y0), (x0 + width, y0), (x0, y0 - height), (x0 + width, y0 - height)]
        return all(self.inner_distance(x, y) >= margin - 1e-6 for x, y in corners)

    def describe(self) -> str:
        """'25.4 mm hex (flat)', for messages and the manifest."""
        size = f"{self.across / (72 / 25.4):.1f} mm"
        if self.kind == "hex":
            return f"{size} {self.orientation} hex"
        return f"{size} {self.kind}"


def polygon_path(points: list[tuple[float, float]]) -> Path:
    """A closed polygon."""
    ops: list[PathOp] = [("M", *points[0])]
    ops += [("L", *p) for p in points[1:]]
    return tuple(ops + [("Z",)])


def arc_ops(cx: float, cy: float, r: float, start_deg: float, sweep_deg: float) -> list[PathOp]:
    """Bezier segments of a circular arc (no move-to): at most a quarter turn per segment."""
    steps = max(1, math.ceil(abs(sweep_deg) / 90 - 1e-9))
    step = math.radians(sweep_deg / steps)
    k = 4 / 3 * math.tan(step / 4)
    ops = []
    angle = math.radians(start_deg)
    for _ in range(steps):
        a, b = angle, angle + step
        x0, y0 = cx + r * math.cos(a), cy + r * math.sin(a)
        x3, y3 = cx + r * math.cos(b), cy + r * math.sin(b)
        x1, y1 = x0 - k * r * math.sin(a), y0 + k * r * math.cos(a)
        x2, y2 = x3 + k * r * math.sin(b), y3 - k * r * math.cos(b)
        ops.append(("C", x1, y1, x2, y2, x3, y3))
        angle = b
    return ops


def circle_path(cx: float, cy: float, r: float) -> Path:
    """A full circle as four quarter Beziers, starting at the rightmost point."""
    return tuple([("M", cx + r, cy)] + arc_ops(cx, cy, r, 0, 360) + [("Z",)])


def rounded_rect_path(x: float, y: float, w: float, h: float, r: float) -> Path:
    """A rectangle with quarter-circle corners of radius r (lower-left corner at (x, y))."""
    if r <= 0:
        return polygon_path([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    ops: list[PathOp] = [("M", x + r, y), ("L", x + w - r, y)]
    ops += arc_ops(x + w - r, y + r, r, -90, 90)
    ops.append(("L", x + w, y + h - r))
    ops += arc_ops(x + w - r, y + h - r, r, 0, 90)
    ops.append(("L", x + r, y + h))
    ops += arc_ops(x + r, y + h - r, r, 90, 90)
    ops.append(("L", x, y + r))
    ops += arc_ops(x + r, y + r, r, 180, 90)
    return tuple(ops + [("Z",)])


def transform_path(path: Path, angle_deg: float = 0.0, dx: float = 0.0, dy: float = 0.0,
                   mirror_x: bool = False) -> Path:
    """The path turned by `angle_deg` about the origin (after an optional mirror in x), then moved by (dx,
    dy)."""
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))

    def move(x: float, y: float) -> tuple[float, float]:
        if mirror_x:
            x = -x
        return c * x - s * y + dx, s * x + c * y + dy

    out: list[PathOp] = []
    for op in path:
        if op[0] == "Z":
            out.append(op)
        else:
            coords: list[float] = []
            for i in range(1, len(op), 2):
                coords += move(op[i], op[i + 1])
            out.append((op[0], *coords))
    return tuple(out)


def pdf_path_ops(path: Path) -> str:
    """The path as PDF content-stream operators (m, l, c, h), numbers with up to 4 decimals."""
    names = {"M": "m", "L": "l", "C": "c", "Z": "h"}
    lines = []
    for op in path:
        numbers = " ".join(_num(v) for v in op[1:])
        lines.append(f"{numbers} {names[op[0]]}".strip())
    return "\n".join(lines)


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
