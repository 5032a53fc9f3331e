"""Shape boxes: a filled or outlined rect, rounded rect, circle, ellipse or band (`shape:` with
`fill`/`stroke`).

`Panels` draws the filled and outlined shapes of every kind that has them (a text box may have a fill too),
each run of operators recorded once per canvas.
"""

from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Problems
from generator.core.units import to_pt
from generator.faces.boxes.base import Box, BoxKind, Drawing, Painted, Rect4, Resolved
from generator.faces.text import PaintColour

SHAPE_MEMO = 20_000  # recorded shapes per canvas (a few MB at most), for decks whose every card differs
CORNERED = ("line", "polygon", "star", "hexagon")  # shapes drawn as a path through corners
HEXAGON = ((0.0, 0.5), (0.25, 0.0), (0.75, 0.0), (1.0, 0.5), (0.75, 1.0), (0.25, 1.0))  # flat top and bottom


@dataclass(frozen=True, slots=True, kw_only=True)
class ShapeData(Resolved):
    """What a shape box shows on one card: its fill and outline colours."""

    def painted(self, box: Box, rect: Rect4) -> Painted | None:
        """The area the fill covers, in the box's shape (None for the shapes made of corners and for a
        gradient, whose colour is not one)."""
        shape = box.get("shape", "rect")
        if not self.fill or shape in CORNERED or box.get("gradient") or box.get("rotate"):
            return None
        radius = to_pt(box.get("radius", "2mm")) if shape == "rounded" else 0.0
        return Painted(rect, shape, radius, self.fill)


class ShapeBox(BoxKind):
    """A box of `shape: rect|rounded|circle|ellipse|band`, drawn in its `fill` and `stroke`."""

    key = "shape"
    templated = ()
    inside_safe = False
    worded = False

    @classmethod
    def check(cls, box: Box, problems: Problems) -> None:
        """A polygon has three corners or more; `points` belong to lines and polygons."""
        shape, points = box.get("shape", "rect"), box.get("points")
        if shape == "polygon" and (points is None or len(points) < 3):
            count = len(points) if points else 0
            problems.add(box.file, box.line, f"box '{box.name}' is a polygon with {count or 'no'} "
                         f"point{'' if count == 1 else 's'}; expected `points:` with at least 3 corners "
                         "[x, y] (fractions of the box)")
        elif points is not None and shape not in ("line", "polygon"):
            problems.add(box.file, box.line, f"box '{box.name}' is a {shape} with `points`, which only lines "
                         "and polygons have; expected shape: polygon (or no points)")

    @classmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        return ()

    @classmethod
    def bleeds(cls, box: Box) -> bool:
        return True

    def resolve(self, box: Box, context: dict) -> ShapeData:
        fill, stroke = self.renderer.paints(box, context)
        return ShapeData(fill=fill, stroke=stroke)

    def warnings(self, box: Box, data: Resolved, deck, context: dict) -> list[str]:
        return []

    def draw(self, canvas: Canvas, box: Box, data: Resolved, rect: Rect4, face: Drawing) -> None:
        self.renderer.panels.draw(canvas, box, data, *rect)

    def let_go(self, form: str) -> None:
        return None  # it keeps nothing per face


class Panels:
    """Draws boxes' fills and outlines. A shape is a closed run of operators (q ... Q) that depends only on
    its colours, line width, shape and place: the same box in the same colours on every card of a deck is
    written from the operators recorded on its first drawing on a canvas."""

    def __init__(self):
        self._shapes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # canvas -> key -> operators

    def draw(self, canvas: Canvas, box: Box, data: Resolved, x, y, w, h) -> None:
        """Draw the box's shape in the fill and stroke of `data` (nothing when it has neither)."""
        fill, stroke = data.fill, data.stroke
        shape = box.get("shape", "rect")
        if shape in CORNERED or box.get("gradient") or box.get("dash"):
            draw_path_shape(canvas, box, data, x, y, w, h)
            return
        if not fill and not stroke:
            return
        width = (data.stroke_width or to_pt(box.get("stroke_width", "0.75pt"))) if stroke else None
        shape = box.get("shape", "rect")
        # Recorded only while no transparency is set, since a colour then writes no graphics-state change.
        key = (fill, stroke, width, shape, box.get("radius"), x, y, w, h, canvas._fillMode)  # noqa: SLF001
        opaque = canvas._extgstate.getValue("ca") == 1 and canvas._extgstate.getValue("CA") == 1  # noqa: SLF001
        known = self._shapes.setdefault(canvas, {})
        if opaque and key in known:
            canvas._code.append(known[key])  # noqa: SLF001
            return
        start = len(canvas._code)  # noqa: SLF001
        canvas.saveState()
        if fill:
            canvas.setFillColor(colour(fill))
        if stroke:
            canvas.setStrokeColor(colour(stroke))
            canvas.setLineWidth(width)
        args = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        if shape == "rounded":
            canvas.roundRect(x, y, w, h, to_pt(box.get("radius", "2mm")), **args)
        elif shape == "circle":
            r = min(w, h) / 2
            canvas.circle(x + w / 2, y + h / 2, r, **args)
        elif shape == "ellipse":
            canvas.ellipse(x, y, x + w, y + h, **args)
        else:
            canvas.rect(x, y, w, h, **args)
        canvas.restoreState()
        if opaque and len(known) < SHAPE_MEMO:
            known[key] = "\n".join(canvas._code[start:])  # noqa: SLF001


@functools.lru_cache(maxsize=4096)
def colour(value: str) -> PaintColour:
    """The ReportLab colour of a checked #rrggbb value (made once: every card of a deck asks for the same
    few), without an alpha of its own so a box's `opacity` holds (see PaintColour)."""
    return PaintColour(value)


def corners(box: Box) -> list[tuple[float, float]]:
    """The corners of a shape drawn through corners, as fractions of its box from the top-left."""
    shape = box.get("shape", "rect")
    if shape == "hexagon":
        return list(HEXAGON)
    if shape == "star":
        count, inner = int(box.get("star_points", 5)), float(box.get("star_inner", 0.45))
        return [(0.5 + 0.5 * (1.0 if k % 2 == 0 else inner) * math.cos(-math.pi / 2 + k * math.pi / count),
                 0.5 + 0.5 * (1.0 if k % 2 == 0 else inner) * math.sin(-math.pi / 2 + k * math.pi / count))
                for k in range(2 * count)]
    if shape in ("line", "polygon"):
        return [(float(fx), float(fy)) for fx, fy in box.get("points", [[0, 0], [1, 1]])]
    return [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def _outline_path(canvas: Canvas, box: Box, x, y, w, h):
    """The box's shape as a path on the canvas (PDF coordinates: (x, y) is its lower-left corner)."""
    path = canvas.beginPath()
    shape = box.get("shape", "rect")
    if shape == "rounded":
        path.roundRect(x, y, w, h, to_pt(box.get("radius", "2mm")))
    elif shape == "circle":
        path.circle(x + w / 2, y + h / 2, min(w, h) / 2)
    elif shape == "ellipse":
        path.ellipse(x, y, w, h)
    else:
        points = corners(box)
        path.moveTo(x + points[0][0] * w, y + h - points[0][1] * h)
        for fx, fy in points[1:]:
            path.lineTo(x + fx * w, y + h - fy * h)
        if shape != "line":
            path.close()
    return path


def draw_path_shape(canvas: Canvas, box: Box, data: Resolved, x, y, w, h) -> None:
    """A shape with corners, a gradient fill or a dashed stroke, drawn as a path (never recorded: rarer)."""
    shape = box.get("shape", "rect")
    gradient = box.get("gradient")
    fill = None if shape == "line" else data.fill
    stroke = data.stroke or (data.fill if shape == "line" else None)
    if not (fill or stroke or (gradient and shape != "line")):
        return
    canvas.saveState()
    if gradient and shape != "line":
        canvas.saveState()
        canvas.clipPath(_outline_path(canvas, box, x, y, w, h), stroke=0, fill=0)
        colours = [colour(value) for value in gradient["colors"]]
        if gradient.get("kind", "linear") == "radial":
            canvas.radialGradient(x + w / 2, y + h / 2, math.hypot(w, h) / 2, colours, extend=True)
        else:
            turn = math.radians(float(gradient.get("angle", 90)))
            dx, dy = math.cos(turn) * w / 2, -math.sin(turn) * h / 2  # y down in the layout, up in PDF
            cx, cy = x + w / 2, y + h / 2
            canvas.linearGradient(cx - dx, cy - dy, cx + dx, cy + dy, colours, extend=True)
        canvas.restoreState()
        fill = None
    if fill:
        canvas.setFillColor(colour(fill))
    if stroke:
        canvas.setStrokeColor(colour(stroke))
        canvas.setLineWidth(data.stroke_width or to_pt(box.get("stroke_width", "0.75pt")))
        dash = box.get("dash")
        if dash is not None:
            canvas.setDash([to_pt(length) for length in (dash if isinstance(dash, list) else [dash, dash])])
    if fill or stroke:
        canvas.drawPath(_outline_path(canvas, box, x, y, w, h), stroke=1 if stroke else 0,
                        fill=1 if fill else 0)
    canvas.restoreState()
