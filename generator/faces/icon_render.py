"""How an icon's svglib Drawing is drawn into its form: renderPDF without font changes, optionally faded to
white.

Imported only when an icon's operators are not known yet (generator.faces.icon_forms): a build whose icons are
all in the cache needs neither svglib nor ReportLab's graphics renderer.
"""

from __future__ import annotations

from reportlab.graphics import renderPDF
from reportlab.lib.colors import Color


class ShapeRenderer(renderPDF._PDFRenderer):
    """renderPDF without font changes: icons hold no text, and its default font is base-14 Helvetica."""

    def applyStateChanges(self, delta, newState):
        delta = {k: v for k, v in delta.items() if k not in ("fontName", "fontSize")}
        super().applyStateChanges(delta, newState)


class FadedRenderer(ShapeRenderer):
    """Every colour moved `fade` of the way to white: a light version of the icon (the ink saver's backs)."""

    def __init__(self, fade: float):
        super().__init__()
        self.fade = fade

    def applyStateChanges(self, delta, newState):
        for key in ("fillColor", "strokeColor"):
            color = delta.get(key)
            if color is not None and hasattr(color, "rgb"):
                r, g, b = color.rgb()
                f = self.fade
                delta = dict(delta, **{key: Color(r + (1 - r) * f, g + (1 - g) * f, b + (1 - b) * f,
                                                  alpha=getattr(color, "alpha", 1))})
        super().applyStateChanges(delta, newState)


def draw_drawing(drawing, canvas, fade: float = 0.0) -> None:
    """Draw an icon's Drawing at the origin of the canvas (an open form), its colours faded by `fade`."""
    (FadedRenderer(fade) if fade else ShapeRenderer()).draw(drawing, canvas, 0, 0, showBoundary=False)
