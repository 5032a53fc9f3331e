"""Where every piece of a game's components goes on the sheets. Pure geometry in points, no ReportLab.

Pieces (nets, pads) and runs of tokens are laid out in print order, top to bottom, onto portrait pages:
each page starts as one free rectangle (the paper less its margins and the label strip at the foot); a piece
goes into the first free rectangle, in reading order, that holds it (upright, else turned a quarter), and
that rectangle is split in two around it. Tokens fill a free rectangle as a packed block
(generator.core.packing) and go on to the next rectangle or page until every copy is placed. Nothing ever
overlaps, and pieces keep `SPACING` apart so their cut lines stay separate. Once a page is full, its pieces
and blocks move across together so that they are centred between the side margins (they were packed from the
left).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from generator.core.geometry import Rect, paper_of
from generator.core.packing import Packing, pack
from generator.core.shapes import Shape
from generator.core.units import mm
from generator.data.component_models import LABEL_STRIP, SHEET_MARGIN

SPACING = mm(4)
EPS = 1e-6


@dataclass(frozen=True)
class Piece:
    """A rectangle-bounded piece: `key` tells the drawing what it is, (width, height) its box."""

    key: tuple
    width: float
    height: float
    turnable: bool = True


@dataclass(frozen=True)
class TokenRun:
    """Copies of a component's tokens to place: `count` of them, sheet gap `gap`."""

    component: str
    shape: Shape
    count: int
    gap: float
    two_sided: bool


@dataclass(frozen=True)
class Placed:
    """A piece on a page: lower-left corner (x, y), turned a quarter counter-clockwise when `turned`."""

    piece: Piece
    x: float
    y: float
    turned: bool

    @property
    def box(self) -> Rect:
        w, h = (self.piece.height, self.piece.width) if self.turned else (self.piece.width, self.piece.height)
        return Rect(self.x, self.y, w, h)


@dataclass(frozen=True)
class Block:
    """Tokens on a page: copies `first` .. `first + count - 1` of a component, packed (page coordinates)."""

    component: str
    first: int
    packing: Packing
    two_sided: bool

    @property
    def box(self) -> Rect:
        xs = [s.x for s in self.packing.spots]
        ys = [s.y for s in self.packing.spots]
        w, h = self.packing.shape.width, self.packing.shape.height
        return Rect(min(xs) - w / 2, min(ys) - h / 2, max(xs) - min(xs) + w, max(ys) - min(ys) + h)


@dataclass
class PageLayout:
    """One page: its pieces and token blocks; `free` are the rectangles still empty."""

    paper: str
    width: float
    height: float
    pieces: list[Placed] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    free: list[Rect] = field(default_factory=list)

    @property
    def two_sided(self) -> bool:
        """A page with tokens that have backs is followed by a back page."""
        return any(block.two_sided for block in self.blocks)

    def boxes(self) -> list[Rect]:
        return [p.box for p in self.pieces] + [b.box for b in self.blocks]


class TooLarge(ValueError):
    """A piece that does not fit on an empty page."""


def room(paper: str) -> Rect:
    """The part of a portrait page that pieces may use."""
    w, h = paper_of(paper).size
    return Rect(
        SHEET_MARGIN, SHEET_MARGIN + LABEL_STRIP, w - 2 * SHEET_MARGIN, h - 2 * SHEET_MARGIN - LABEL_STRIP
    )


def _new_page(paper: str) -> PageLayout:
    w, h = paper_of(paper).size
    return PageLayout(paper, w, h, free=[room(paper)])


def _split(free: Rect, used_w: float, used_h: float) -> list[Rect]:
    """The rest of a free rectangle after a block in its top-left corner: the split that keeps the biggest
    part."""
    right_w = free.w - used_w - SPACING
    below_h = free.h - used_h - SPACING
    # a: the right part as tall as the block, the part below full width; b: the right part full height
    a = [
        Rect(free.x + used_w + SPACING, free.y2 - used_h, right_w, used_h),
        Rect(free.x, free.y, free.w, below_h),
    ]
    b = [Rect(free.x + used_w + SPACING, free.y, right_w, free.h), Rect(free.x, free.y, used_w, below_h)]
    keep = lambda rects: [r for r in rects if r.w > EPS and r.h > EPS]  # noqa: E731
    biggest = lambda rects: max([r.w * r.h for r in keep(rects)] + [0.0])  # noqa: E731
    return keep(a) if biggest(a) >= biggest(b) else keep(b)


def _reading_order(rects: list[Rect]) -> list[Rect]:
    return sorted(rects, key=lambda r: (-round(r.y2, 3), round(r.x, 3)))


def _fit(page: PageLayout, piece: Piece) -> tuple[int, bool] | None:
    """The first free rectangle in reading order that holds the piece (upright if it can), or None."""
    for index, free in enumerate(page.free):
        for turned in ((False, True) if piece.turnable else (False,)):
            w, h = (piece.height, piece.width) if turned else (piece.width, piece.height)
            if w <= free.w + EPS and h <= free.h + EPS:
                return index, turned
    return None


def _place_piece(page: PageLayout, piece: Piece) -> bool:
    found = _fit(page, piece)
    if found is None:
        return False
    index, turned = found
    free = page.free.pop(index)
    w, h = (piece.height, piece.width) if turned else (piece.width, piece.height)
    page.pieces.append(Placed(piece, free.x, free.y2 - h, turned))
    page.free = _reading_order(page.free + _split(free, w, h))
    return True


def _place_tokens(page: PageLayout, run: TokenRun, first: int) -> int:
    """Place as many tokens of the run as fit in the page's free rectangles; returns how many were placed."""
    placed = 0
    while first + placed < run.count:
        for index, free in enumerate(page.free):
            packing = pack(run.shape, free.w, free.h, run.gap, limit=run.count - first - placed)
            if packing is None or not packing.spots:
                continue
            top_left = packing.shifted(free.x, free.y2 - packing.height)
            page.blocks.append(Block(run.component, first + placed, top_left, run.two_sided))
            placed += packing.count
            page.free.pop(index)
            page.free = _reading_order(page.free + _split(free, packing.width, packing.height))
            break
        else:
            return placed
    return placed


def packing_order(runs: list[Piece | TokenRun]) -> list[Piece | TokenRun]:
    """Largest pieces first (by area; equal ones keep their print order), then the token runs, which fill
    the gaps the pieces leave: first-fit decreasing, the fewest sheets for all the kinds of components
    together."""
    pieces = sorted((r for r in runs if isinstance(r, Piece)), key=lambda p: -p.width * p.height)
    return [*pieces, *(r for r in runs if isinstance(r, TokenRun))]


def lay_out(paper: str, runs: list[Piece | TokenRun]) -> list[PageLayout]:
    """Every piece and token run on pages of `paper`, each into the first page with room for it (all the
    kinds of a game share the sheets, packing_order), a new page only when none has; TooLarge names a piece
    no page holds."""
    pages = [_new_page(paper)]
    for run in packing_order(runs):
        if isinstance(run, TokenRun):
            done = 0
            while done < run.count:
                for page in pages:
                    done += _place_tokens(page, run, done)
                    if done >= run.count:
                        break
                else:
                    if not pages[-1].pieces and not pages[-1].blocks:
                        raise TooLarge(
                            f"a {run.shape.describe()} token does not fit on a {paper_of(paper).name} page"
                        )
                    pages.append(_new_page(paper))
        elif not any(_place_piece(page, run) for page in pages):
            pages.append(_new_page(paper))
            if not _place_piece(pages[-1], run):
                raise TooLarge(
                    f"a piece of {run.width / mm(1):.0f} x {run.height / mm(1):.0f} mm does not "
                    f"fit on a {paper_of(paper).name} page"
                )
    return [_centred(page) for page in pages if page.pieces or page.blocks]


def _centred(page: PageLayout) -> PageLayout:
    """The page with its pieces and blocks moved across as one so that they are centred between the
    margins."""
    space = room(page.paper)
    boxes = page.boxes()
    dx = (
        space.x
        + (space.w - (max(b.x2 for b in boxes) - min(b.x for b in boxes))) / 2
        - min(b.x for b in boxes)
    )
    if abs(dx) <= EPS:
        return page
    page.pieces = [replace(p, x=p.x + dx) for p in page.pieces]
    page.blocks = [replace(b, packing=b.packing.shifted(dx, 0.0)) for b in page.blocks]
    page.free = [replace(r, x=r.x + dx) for r in page.free]
    return page
