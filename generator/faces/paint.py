"""What lies under a point of a card face: the filled shapes and pictures of a layout as plain geometry.

The legibility check (what a text sits on) and the ink saver (which text must change colour once the fills are
tinted) both ask it. Coordinates are those of the face form: points, origin at the lower-left of the bleed
box. No ReportLab.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from generator.core.geometry import Rect

PAPER = "#ffffff"
SAMPLES = (7, 5)  # points sampled across and up a text's area


@dataclass(frozen=True)
class Paint:
    """One thing drawn on a face that text may sit on: an area of one colour, or a picture (`color` None)."""

    index: int     # position in the drawing order
    name: str      # the layout box
    rect: Rect
    shape: str     # rect, rounded, circle, ellipse or band
    radius: float
    color: str | None

    @property
    def area(self) -> float:
        if self.shape in ("circle", "ellipse"):
            if self.shape == "circle":
                r = min(self.rect.w, self.rect.h) / 2
                return math.pi * r * r
            return math.pi * self.rect.w * self.rect.h / 4
        return self.rect.w * self.rect.h

    def covers(self, x: float, y: float) -> bool:
        """True when the point lies inside the painted shape."""
        r = self.rect
        if not (r.x <= x <= r.x2 and r.y <= y <= r.y2):
            return False
        if self.shape == "circle":
            radius = min(r.w, r.h) / 2
            return (x - r.cx) ** 2 + (y - r.cy) ** 2 <= radius * radius
        if self.shape == "ellipse":
            return ((x - r.cx) / (r.w / 2)) ** 2 + ((y - r.cy) / (r.h / 2)) ** 2 <= 1
        if self.shape == "rounded" and self.radius > 0:
            rad = min(self.radius, r.w / 2, r.h / 2)
            dx = max(r.x + rad - x, 0.0, x - (r.x2 - rad))
            dy = max(r.y + rad - y, 0.0, y - (r.y2 - rad))
            return dx * dx + dy * dy <= rad * rad
        return True


def face_paints(resolved: list, placed_rect: Callable) -> list[Paint]:
    """The filled boxes and pictures of a face, in drawing order. `resolved` holds (box, data) pairs as the
    card renderer resolves them (data a `generator.faces.boxes.base.Resolved`, or None for a box not drawn);
    `placed_rect(box)` gives a box's rectangle (x, y, w, h) on the face form."""
    paints = []
    for index, (box, data) in enumerate(resolved):
        if not data:
            continue
        painted = data.painted(box, placed_rect(box))  # what the box's kind lays on the face
        if painted is not None:
            paints.append(
                Paint(index, box.name, Rect(*painted.rect), painted.shape, painted.radius, painted.color)
            )
    return paints


def backdrop(paints: list[Paint], area: Rect, upto: int) -> list[Paint | None]:
    """What shows under `area` from the things drawn up to box `upto` in drawing order (a text box's own fill
    is drawn under its text): the topmost paint at each sampled point, None where only the paper shows. Each
    paint (or the paper) is listed once."""
    nx, ny = SAMPLES
    seen: dict[object, Paint | None] = {}
    under = [p for p in paints if p.index <= upto]
    for i in range(nx):
        for j in range(ny):
            x = area.x + area.w * (i + 0.5) / nx
            y = area.y + area.h * (j + 0.5) / ny
            top = next((p for p in reversed(under) if p.covers(x, y)), None)
            seen.setdefault(top.index if top else "paper", top)
    return list(seen.values())
