"""Plain geometry shared by the imposition and board planners (points, lower-left origin; no ReportLab)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.core.units import MM, PT_PER_UNIT

EPS = 1e-6  # rectangles that only touch (up to rounding) do not overlap


@dataclass(frozen=True)
class Paper:
    """A paper size: the name printed on sheets and its portrait width and height in points."""

    name: str
    width: float
    height: float
    inch: bool = False  # a US paper: its print check measures an inch (else 25 mm)

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) upright."""
        return self.width, self.height

    @property
    def landscape(self) -> tuple[float, float]:
        """(width, height) turned sideways."""
        return self.height, self.width


# The two home papers every build makes by default (and every component is checked against)
PAPERS = {"letter": Paper("Letter", 612.0, 792.0, inch=True), "a4": Paper("A4", 210 * MM, 297 * MM)}
# Papers named with --paper or a game's `paper:` besides those (US Legal and Tabloid/11x17, ISO A3)
MORE_PAPERS = {"legal": Paper("Legal", 612.0, 1008.0, inch=True),
               "tabloid": Paper("Tabloid", 792.0, 1224.0, inch=True), "a3": Paper("A3", 297 * MM, 420 * MM)}
NAMED_PAPERS = {**PAPERS, **MORE_PAPERS}
# A custom sheet, WIDTHxHEIGHT with one unit: '300x450mm', '12x18in'. Its sides keep within these.
MIN_PAPER_SIDE = 50 * MM   # smaller holds no card with its margins
MAX_PAPER_SIDE = 1200 * MM  # larger than any printer's sheet (A0 is 841 x 1189 mm)
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)\s*$", re.IGNORECASE)


class PaperError(ValueError):
    """A paper name that is neither a known paper nor a usable WIDTHxHEIGHT size."""


def paper_of(name: str) -> Paper:
    """The paper a name stands for: a named paper (letter, a4, legal, tabloid, a3) or a custom 'WxH<unit>'
    sheet; PaperError says what is wrong."""
    if name in NAMED_PAPERS:
        return NAMED_PAPERS[name]
    match = _CUSTOM.match(str(name))
    if match is None:
        raise PaperError(f"unknown paper '{name}'; expected one of: {', '.join(NAMED_PAPERS)}, or a size "
                         "WIDTHxHEIGHT with its unit, e.g. 300x450mm or 12x18in")
    width, height, unit = float(match.group(1)), float(match.group(2)), match.group(3).lower()
    w, h = width * PT_PER_UNIT[unit], height * PT_PER_UNIT[unit]
    if not (MIN_PAPER_SIDE <= min(w, h) and max(w, h) <= MAX_PAPER_SIDE):
        raise PaperError(f"paper {name}: out of range; expected each side from {MIN_PAPER_SIDE / MM:g} to "
                         f"{MAX_PAPER_SIDE / MM:g} mm")
    return Paper(f"{width:g} × {height:g} {unit}", min(w, h), max(w, h), inch=unit == "in")


def paper_key(name: str) -> str:
    """The name a paper goes by in file names and options: 'letter', or a custom size as '300x450mm'."""
    if name in NAMED_PAPERS:
        return name
    paper_of(name)  # refuses a bad one
    match = _CUSTOM.match(name)
    assert match is not None
    return f"{float(match.group(1)):g}x{float(match.group(2)):g}{match.group(3).lower()}"


def check_square(name: str) -> tuple[float, str]:
    """The side of the square a print check on this paper measures, and the phrase that names it: an inch on
    US papers and sizes given in inches, else 25 mm."""
    return (PT_PER_UNIT["in"], "units.inch") if paper_of(name).inch else (25 * MM, "units.mm25")


def paper_words(name: str, say) -> str:
    """The paper as a sheet names it: the language's word for a named paper (`say`: Phrases.t), else its
    size."""
    return say(f"paper.{name}") if name in NAMED_PAPERS else paper_of(name).name


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
