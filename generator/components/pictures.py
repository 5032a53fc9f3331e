"""Pictures for the rules: each component flat (as printed) and made up, drawn by the same art as the sheets.

A made-up piece is drawn in cabinet projection: its front face as it is, its top and right side slanted back
at 45 degrees at half depth, so the front art of a tuck box or die reads undistorted. Each kind's module
(generator.components.kinds) measures and draws its own picture; `Picture` sets the flat piece and the made-up
one side by side with an arrow between, measures itself first (natural size) and is scaled to the room the
rules give it.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.kinds import kind_of
from generator.components.kinds.base import DEPTH
from generator.core.units import mm
from generator.data.components import Component
from generator.data.game import Game

GAP = mm(10)     # between the flat piece and the made-up one
ARROW = "#9a9a9a"


@dataclass
class Picture:
    """A component flat and made up, side by side; (width, height) in points before scaling."""

    game: Game
    component: Component
    width: float = 0.0
    height: float = 0.0

    def __post_init__(self):
        self.kind = kind_of(self.component)
        self.flat = self.kind.picture_flat_size(self.game, self.component)
        self.box = self.kind.picture_made_box(self.game, self.component)
        self.made = self._made_size()
        w1, h1 = self.flat
        w2, h2 = self.made
        self.width = w1 + (GAP * 2 + w2 if w2 else 0.0)
        self.height = max(h1, h2)

    def _made_size(self) -> tuple[float, float]:
        w, h, d = self.box
        if not w:
            return 0.0, 0.0
        return w + d * DEPTH, h + d * DEPTH

    def draw(self, canvas: Canvas, x: float, y: float, scale: float) -> None:
        """Draw the picture with its lower-left corner at (x, y), scaled."""
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        w1, h1 = self.flat
        canvas.saveState()
        canvas.translate(0, (self.height - h1) / 2)
        self.kind.draw_picture_flat(canvas, self.game, self.component)
        canvas.restoreState()
        if self.made[0]:
            mid = self.height / 2
            canvas.setStrokeColor(HexColor(ARROW))
            canvas.setFillColor(HexColor(ARROW))
            canvas.setLineWidth(1.5 / scale)
            ax0, ax1 = w1 + GAP * 0.25, w1 + GAP * 1.6
            canvas.line(ax0, mid, ax1, mid)
            head = GAP * 0.3
            path = canvas.beginPath()
            path.moveTo(ax1 + head, mid)
            path.lineTo(ax1, mid + head * 0.6)
            path.lineTo(ax1, mid - head * 0.6)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)
            canvas.translate(w1 + GAP * 2, (self.height - self.made[1]) / 2)
            self.kind.draw_picture_made(canvas, self.game, self.component, self.box)
        canvas.restoreState()
