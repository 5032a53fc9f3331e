"""What every box kind of the card layouts offers: the protocol a kind module implements, and what it resolves
to.

A kind module (`generator.faces.boxes.<kind>`) owns all of its kind's behaviour: the layout keys it checks as
a layout is read, how one of its boxes resolves for one card into a typed value (a frozen dataclass,
`Resolved`), how that value is drawn on a canvas, and what it lays on the face for the ink saver and the
legibility check (`Resolved.painted`, `Resolved.lettered`). The table of kinds is
`generator.faces.boxes.BOX_KINDS`. No ReportLab here: the geometry of a face (generator.faces.paint) reads
these values without it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from generator.core.errors import Problem, Problems

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from generator.data.game import Deck
    from generator.faces.face import CardRenderer

# x, y, width, height on the face form (PDF points, lower-left origin)
Rect4 = tuple[float, float, float, float]


@dataclass
class Box:
    """A resolved box: geometry in points (top-left origin), its kind and every style key after `extends`."""

    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    spec: dict
    file: str
    line: int
    text_from: tuple[str, str, int] | None = None  # (layout, file, line) where its `text` is written
    translated: tuple[str, int] | None = None  # (file, line) of the translation that gave its text

    def get(self, key: str, default=None):
        """A style key of this box, or `default`."""
        value = self.spec.get(key)
        return default if value is None else value


@dataclass(frozen=True)
class Painted:
    """What a box lays on a face that text may sit on: an area of one colour, or a picture (`color` None)."""

    rect: Rect4
    shape: str     # rect, rounded, circle, ellipse or band
    radius: float
    color: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Resolved:
    """What a box of any kind shows on one card: its fill and outline colours (None: none drawn)."""

    # its letters are read: the legibility check and the ink saver look at them
    lettered: ClassVar[bool] = False

    fill: str | None = None
    stroke: str | None = None
    stroke_width: float | None = None  # pt; None: the box's own `stroke_width` (the ink saver sets one)

    def painted(self, box: Box, rect: Rect4) -> Painted | None:
        """What the box lays on the face at `rect` (its placed rectangle), or None when it paints nothing: its
        fill as a rectangle (a kind drawn in another outline says so)."""
        return Painted(rect, "rect", 0.0, self.fill) if self.fill else None


@dataclass(frozen=True, slots=True, kw_only=True)
class Picture(Resolved):
    """What a box drawing a picture shows; `fade` moves it towards white (the ink saver's backs)."""

    fade: float = 0.0

    def painted(self, box: Box, rect: Rect4) -> Painted | None:
        return Painted(rect, "rect", 0.0, None)


@dataclass(frozen=True)
class Drawing:
    """The face being drawn: its template context, its form name and whether what is laid out now is kept for
    the next paper (`keep`)."""

    context: dict
    form: str
    keep: bool


class BoxKind(ABC):
    """One kind of box. The class says how its layout keys are checked (before any card is drawn); an
    instance, made by each card renderer, resolves and draws the kind's boxes and holds the kind's own
    caches."""

    key: ClassVar[str]  # the layout key that makes a box this kind (also the name in BOX_KINDS)
    # its own keys that may be templates (besides `when`, `fill`, `stroke`)
    templated: ClassVar[tuple[str, ...]]
    # it holds what a player reads: inside the safe zone and a shaped card's outline
    inside_safe: ClassVar[bool]
    worded: ClassVar[bool]  # its key holds words a translation may give (the game's layout words)

    def __init__(self, renderer: CardRenderer):
        self.renderer = renderer

    @classmethod
    @abstractmethod
    def check(cls, box: Box, problems: Problems) -> None:
        """Add a located problem for each of the box's own keys that does not fit together (as the layout is
        read)."""

    @classmethod
    @abstractmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        """The font names the box draws with (each must be a font of the game)."""

    @classmethod
    @abstractmethod
    def bleeds(cls, box: Box) -> bool:
        """Whether the box's edges touching the trim run into the bleed when it does not say (`bleed:`)."""

    @abstractmethod
    def resolve(self, box: Box, context: dict) -> Resolved | None:
        """What the box shows on one face (`context`: its template variables), or None when it shows nothing;
        InputError located at the box (or the card field it shows) when that cannot be drawn."""

    @abstractmethod
    def warnings(self, box: Box, data: Resolved, deck: Deck, context: dict) -> list[str]:
        """Located warnings about what a resolved box shows (it is drawn anyway)."""

    @abstractmethod
    def draw(self, canvas: Canvas, box: Box, data: Resolved, rect: Rect4, face: Drawing) -> None:
        """Draw a resolved box at `rect` on the face form."""

    @abstractmethod
    def let_go(self, form: str) -> None:
        """The face `form` is drawn for the last time: what the kind kept of it for the next paper can go."""


def unlisted(box: Box, known) -> Problem:
    """The located problem of a box whose kind no module draws."""
    return Problem(
        box.file,
        box.line,
        f"box '{box.name}' is a {box.kind!r} box, which no box kind module draws; "
        f"expected one of: {', '.join(known)}",
    )
