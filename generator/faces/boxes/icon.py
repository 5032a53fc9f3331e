"""Icon boxes: one icon of the game (`icon:` a name or a template giving one), drawn square, centred in its
box."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Problems
from generator.faces.boxes.base import Box, BoxKind, Drawing, Painted, Picture, Rect4


@dataclass(frozen=True, slots=True, kw_only=True)
class IconData(Picture):
    """What an icon box shows on one card: the icon's name."""

    icon: str

    def painted(self, box: Box, rect: Rect4) -> Painted | None:
        x, y, w, h = rect
        side = min(w, h)  # an icon is drawn square, centred in its box
        return Painted((x + (w - side) / 2, y + (h - side) / 2, side, side), "rect", 0.0, None)


class IconBox(BoxKind):
    """A box of `icon: <name>`."""

    key = "icon"
    templated = ("icon",)
    inside_safe = True
    worded = False

    @classmethod
    def check(cls, box: Box, problems: Problems) -> None:
        return None  # the icon's name is checked for each card (it may be a template)

    @classmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        return ()

    @classmethod
    def bleeds(cls, box: Box) -> bool:
        return False

    def resolve(self, box: Box, context: dict) -> IconData | None:
        renderer = self.renderer
        name = renderer.value(box, "icon", context)
        if not name:
            return None
        problem = renderer.icons.problem(name)
        if problem is not None:
            raise renderer.fail_at_field(box, context, name, problem)
        fill, stroke = renderer.paints(box, context)
        return IconData(icon=name, fill=fill, stroke=stroke)

    def warnings(self, box: Box, data: IconData, deck, context: dict) -> list[str]:
        """What of the icon's SVG is not drawn (a filter, a mask, ...), located at the SVG and the box."""
        renderer = self.renderer
        return [f"{line} (box '{box.name}' of {box.file}:{box.line})"
                for line in renderer.icons.undrawn(data.icon, renderer.game.show)]

    def draw(self, canvas: Canvas, box: Box, data: IconData, rect: Rect4, face: Drawing) -> None:
        x, y, w, h = rect
        side = min(w, h)
        self.renderer.icons.draw(canvas, data.icon, x + (w - side) / 2, y + (h - side) / 2, side, side,
                                 fade=data.fade)

    def let_go(self, form: str) -> None:
        return None  # it keeps nothing per face
