"""Shape boxes: a filled or outlined rect, rounded rect, circle, ellipse or band (`shape:` with
`fill`/`stroke`).

`Panels` draws the filled and outlined shapes of every kind that has them (a text box may have a fill too),
each run of operators recorded once per canvas.
"""

from __future__ import annotations

import functools
import weakref
from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Problems
from generator.core.units import to_pt
from generator.faces.boxes.base import Box, BoxKind, Drawing, Painted, Rect4, Resolved

SHAPE_MEMO = 20_000  # recorded shapes per canvas (a few MB at most), for decks whose every card differs


@dataclass(frozen=True, slots=True, kw_only=True)
class ShapeData(Resolved):
    """What a shape box shows on one card: its fill and outline colours."""

    def painted(self, box: Box, rect: Rect4) -> Painted | None:
        """The area the fill covers, in the box's shape."""
        if not self.fill:
            return None
        shape = box.get("shape", "rect")
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
        return None  # its keys are checked by the layout model (BoxSpec)

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
def colour(value: str) -> HexColor:
    """The ReportLab colour of a checked #rrggbb value (made once: every card of a deck asks for the same
    few)."""
    return HexColor(value)
