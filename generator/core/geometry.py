"""Plain geometry shared by the imposition and board planners (points, lower-left origin; no ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.units import MM

EPS = 1e-6  # rectangles that only touch (up to rounding) do not overlap


@dataclass(frozen=True)
class Paper:
    """A paper size: the name printed on sheets and its portrait width and height in points."""

    name: str
    width: float
    height: float

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) upright."""
        return self.width, self.height

    @property
    def landscape(self) -> tuple[float, float]:
        """(width, height) turned sideways."""
        return self.height, self.width


PAPERS = {"letter": Paper("Letter", 612.0, 792.0), "a4": Paper("A4", 210 * MM, 297 * MM)}


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

    def shifted(self, dx: float, dy: float) -> Rect:
        """The same rectangle moved by (dx, dy)."""
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def mirrored(self, axis: str, page_w: float, page_h: float) -> Rect:
        """Mirror image about the page's vertical centre line (axis 'x') or horizontal one ('y')."""
        if axis == "x":
            return Rect(page_w - self.x - self.w, self.y, self.w, self.h)
        return Rect(self.x, page_h - self.y - self.h, self.w, self.h)

    def overlaps(self, other: Rect, pad: float = 0.0) -> bool:
        """True when the two rectangles share area (closer than `pad`); butted edges do not count."""
        reach = pad - EPS
        return (self.x < other.x2 + reach and other.x < self.x2 + reach
                and self.y < other.y2 + reach and other.y < self.y2 + reach)

    def contains(self, other: Rect, tol: float = 0.01) -> bool:
        """True when `other` lies inside this rectangle."""
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.x2 <= self.x2 + tol and other.y2 <= self.y2 + tol)
