"""Plain geometry shared by the imposition and board planners (points, lower-left origin; no ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

PAPERS_PT = {"letter": (612.0, 792.0), "a4": (595.2756, 841.8898)}  # portrait (width, height)


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in points, lower-left origin."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x2(self) -> float:
        return self.x + self.w

    @property
    def y2(self) -> float:
        return self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    def inset(self, d: float) -> Rect:
        """The rectangle shrunk by d on every side (grown when d < 0)."""
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def overlaps(self, other: Rect, pad: float = 0.0) -> bool:
        """True when the two rectangles share area (closer than `pad`)."""
        return (self.x < other.x2 + pad and other.x < self.x2 + pad
                and self.y < other.y2 + pad and other.y < self.y2 + pad)

    def contains(self, other: Rect, tol: float = 0.01) -> bool:
        """True when `other` lies inside this rectangle."""
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.x2 <= self.x2 + tol and other.y2 <= self.y2 + tol)
