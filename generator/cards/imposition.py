"""Imposition: where cards, crop marks, cut lines and labels go on a home-print sheet. Pure geometry in
points.

Coordinates are PDF points with the origin at the lower-left corner of the page. Marks and cut lines:
`generator.cards.marks`; labels: `generator.cards.labels`.

Decisions:
- By default cards are butted together (shared cut lines); with a `gap` they stand that far apart and keep
their
  size. The grid is centred on the page in the orientation that holds the most cards (portrait on a tie).
  Poker cards give 3 x 3 on Letter and A4, mini cards 6 x 3 (18-up).
- Each card shows as much of its bleed as the room allows, so a cut a little off never shows white or a
  neighbour's colour: half the gutter between cards (none when butted), and on the outer edges of the grid
  what the margin leaves after room for the crop marks.
- Nothing but marks is drawn within `INK` (6 mm) of the paper edge, and marks keep `MARK_INK` (5 mm). Labels
need
  about 9.5 mm of margin on one side (A4 18-up mini cards with a 3 mm gap leave none and go without). Every
  cut has a crop mark in the margin at both of its ends (one end beside a fold line).
- Duplex `long` flips the paper about its long edge: on portrait pages columns are mirrored, on landscape
pages
  rows. `short` is the other way round. `none` puts each deck's backs, unmirrored, after its fronts.
- `fold` puts fronts on one half and their backs on the other, mirrored about the fold line, for single-sided
  printing; the paper is folded, glued and then cut.
- For a print-and-cut machine (`cut_machines`) the grid is the one that fits the machine's cut area with the
  full bleed, centred there (fewer cards where the area is smaller than the paper); such a sheet has no crop
  marks, cut lines or labels, only the machine's registration marks (drawn by the sheet writer).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field, replace
from itertools import pairwise

from generator.cards.cut_machines import CutMachine, cut_area, machine_grid
from generator.cards.labels import Strip, mirrored_side
from generator.cards.marks import (
    INK,
    MARK_GAP,
    MARK_MODES,
    Line,
    Margin,
    bleed_margin,
    crop_marks,
    cut_lines,
    cut_positions,
)
from generator.core.geometry import EPS, PaperError, Rect, paper_of
from generator.core.units import mm

LABEL_CLEAR = mm(2)   # labels keep this far from a cut line along the margin
FOLD_GAP = mm(4)      # each half's grid keeps this far from the fold line


class LayoutError(ValueError):
    """A card size that does not fit the paper, or sheet options that make no sense."""


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box and the clip box (trim plus the bleed shown around it)."""

    col: int
    row: int  # 0 = top row
    trim: Rect
    clip: Rect


@dataclass(frozen=True)
class BleedFit:
    """How a sheet holds its cards' bleed, for the print check: `per_page` cards where `without` would fit
    with no bleed beyond the grid (fewer, so every outer card edge keeps its full bleed), the least bleed
    shown beyond an outer card edge (less than `bleed` only for a card too large for the paper with it),
    and whether the crop marks are short ticks in the bleed (no room beyond it)."""

    bleed: float
    shown: float
    per_page: int
    without: int
    ticks: bool

    @property
    def fewer(self) -> bool:
        return self.per_page < self.without

    @property
    def full(self) -> bool:
        return self.shown >= self.bleed - EPS


@dataclass
class Sheet:
    """The geometry shared by every page of one deck (or of decks packed together) on one paper."""

    paper: str
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    layout: str
    duplex: str
    fronts: list[Slot]
    # backs[i] holds the back of fronts[i] (on the back page, or beside it for fold)
    backs: list[Slot]
    marks: list[Line]          # crop marks (none with marks='lines')
    strips: list[Strip]
    fold: Line | None = None
    gap: float = 0.0
    mark_mode: str = "crop"
    lines: list[Line] = field(default_factory=list)  # full-length cut lines (marks='lines' or 'both')
    bleed: float = 0.0
    fit: BleedFit | None = None
    back_axis: str | None = None  # how a back slot comes from its front: mirrored 'x' or 'y', None: the same
    back_shift: tuple[float, float] = (0.0, 0.0)
    machine: CutMachine | None = None  # the print-and-cut machine the sheet is laid out for

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    def art_boxes(self) -> list[Rect]:
        """Every area of the front page that carries card art (cards and their shown bleed)."""
        return [s.clip for s in self.fronts] + ([s.clip for s in self.backs] if self.layout == "fold" else [])

    def cut_trims(self) -> list[Rect]:
        """The card outlines a cutter follows on the printed side that is cut (the fronts)."""
        return [s.trim for s in self.fronts]

    def page_slots(self, side: str, filled: Collection[int]) -> list[Slot]:
        """The front or back slots of a page whose cards stand in the slots `filled` only: a card beside an
        empty slot shows its full bleed on that side too, as that edge is an outer cut now."""
        fronts = [self._opened(i, set(filled)) if i in filled else slot for i, slot in enumerate(self.fronts)]
        if side == "front":
            return fronts
        backs = []
        for front, back in zip(fronts, self.backs, strict=True):
            clip = front.clip
            if self.back_axis is not None:
                clip = clip.mirrored(self.back_axis, self.page_w, self.page_h).shifted(*self.back_shift)
            backs.append(replace(back, clip=clip))
        return backs

    def _opened(self, index: int, filled: set[int]) -> Slot:
        slot = self.fronts[index]
        col, row, cols, rows = slot.col, slot.row, self.cols, self.rows

        def empty(c: int, r: int) -> bool:
            return 0 <= c < cols and 0 <= r < rows and r * cols + c not in filled

        t, c, b = slot.trim, slot.clip, self.bleed
        x, y, x2, y2 = c.x, c.y, c.x2, c.y2
        if empty(col - 1, row):
            x = min(x, t.x - b)
        if empty(col + 1, row):
            x2 = max(x2, t.x2 + b)
        if empty(col, row - 1):  # row 0 is the top row
            y2 = max(y2, t.y2 + b)
        if empty(col, row + 1):
            y = min(y, t.y - b)
        return replace(slot, clip=Rect(x, y, x2 - x, y2 - y))


@dataclass(frozen=True)
class PagePlan:
    """One page of a deck: which card (position in the deck's print order) goes in which slot."""

    side: str        # 'front', 'back' or 'fold'
    sheet: int       # 0-based sheet number within the deck
    sheets: int
    cells: tuple[tuple[int, int], ...]  # (slot index, card number)


def _count(avail: float, size: float, gap: float) -> int:
    return max(0, math.floor((avail + gap + EPS) / (size + gap)))


@dataclass(frozen=True)
class SlotGrid:
    """Where the cards go on a page: `cols` x `rows` cards of cw x ch, `gap` apart, lower-left at (x0, y0)."""

    x0: float
    y0: float
    cols: int
    rows: int
    cw: float
    ch: float
    gap: float


def _grid(grid: SlotGrid, margins: dict[str, Margin | None], bleed: float, page: Rect, mark_mode: str
          ) -> tuple[list[Slot], list[Line], list[Strip]]:
    """Slots, crop marks and label strips of a grid of cards."""
    x0, y0, cols, rows, cw, ch, gap = grid.x0, grid.y0, grid.cols, grid.rows, grid.cw, grid.ch, grid.gap
    inner = min(bleed, gap / 2)
    shown = {side: (m.shown if m is not None else 0.0) for side, m in margins.items()}
    slots = []
    for row in range(rows):
        for col in range(cols):
            trim = Rect(x0 + col * (cw + gap), y0 + (rows - 1 - row) * (ch + gap), cw, ch)
            left = shown["left"] if col == 0 else inner
            right = shown["right"] if col == cols - 1 else inner
            top = shown["top"] if row == 0 else inner
            bottom = shown["bottom"] if row == rows - 1 else inner
            clip = Rect(trim.x - left, trim.y - bottom, trim.w + left + right, trim.h + top + bottom)
            slots.append(Slot(col, row, trim, clip))
    outline = Rect(x0, y0, cols * cw + (cols - 1) * gap, rows * ch + (rows - 1) * gap)
    xs, ys = cut_positions([s.trim for s in slots])
    if mark_mode == "lines":  # a margin with no room for lines beyond the bleed keeps its ticks in the bleed
        margins = {side: m if m is not None and m.in_bleed else None for side, m in margins.items()}
    marks = crop_marks(xs, ys, outline, margins)
    strips: list[Strip] = []
    for side, margin in margins.items():
        if margin is None:
            continue
        depth = margin.depth - INK - (margin.shown + MARK_GAP)
        if depth <= 0:
            continue
        cuts = xs if side in ("bottom", "top") else ys
        for a, b in [(a + LABEL_CLEAR, b - LABEL_CLEAR) for a, b in pairwise(cuts)]:
            if b - a <= 0:
                continue
            if side == "bottom":
                strips.append(Strip(side, Rect(a, page.y + INK, b - a, depth), 0))
            elif side == "top":
                strips.append(Strip(side, Rect(a, page.y2 - INK - depth, b - a, depth), 0))
            elif side == "left":
                strips.append(Strip(side, Rect(page.x + INK, a, depth, b - a), 90))
            else:
                strips.append(Strip(side, Rect(page.x2 - INK - depth, a, depth, b - a), 90))
    strips.sort(key=lambda s: ("bottom", "top", "left", "right").index(s.side))
    return slots, marks, strips


def _oriented(paper: str, landscape: bool) -> tuple[float, float]:
    try:
        w, h = paper_of(paper).size
    except PaperError as exc:
        raise LayoutError(str(exc)) from None
    return (max(w, h), min(w, h)) if landscape else (min(w, h), max(w, h))


def _mirror_axis(duplex: str, landscape: bool) -> str:
    """'x' mirrors columns, 'y' rows: flipping about the long edge mirrors across it."""
    long_is_vertical = not landscape
    if duplex == "long":
        return "x" if long_is_vertical else "y"
    return "y" if long_is_vertical else "x"


def _fits_message(paper: str, cw: float, ch: float) -> str:
    try:
        name = paper_of(paper).name
    except PaperError:
        name = paper
    return (f"a {cw / mm(1):.1f} x {ch / mm(1):.1f} mm card does not fit on {name} paper "
            f"with {INK / mm(1):.0f} mm clear of every edge")


def _check_options(gap: float, mark_mode: str) -> None:
    if mark_mode not in MARK_MODES:
        raise LayoutError(f"unknown marks '{mark_mode}'; expected one of: {', '.join(MARK_MODES)}")
    if not gap >= 0 or gap > mm(50):  # `not >=` also refuses NaN
        raise LayoutError(f"gap {gap / mm(1):g} mm is out of range; expected 0 to 50 mm")


def duplex_sheet(  # noqa: PLR0913 - each of the sheet options, as keywords with defaults
    paper: str,
    card_w: float,
    card_h: float,
    bleed: float,
    duplex: str = "long",
    back_offset: tuple[float, float] = (0.0, 0.0),
    gap: float = 0.0,
    marks: str = "crop",
    machine: CutMachine | None = None,
) -> Sheet:
    """A grid of fronts; backs mirrored for duplex `long`/`short`, or unmirrored for `none`; inside the cut
    area of a print-and-cut `machine` when one is given."""
    if duplex not in ("long", "short", "none"):
        raise LayoutError(f"unknown duplex mode '{duplex}'; expected long, short or none")
    _check_options(gap, marks)
    full: tuple | None = None   # the grid that holds the full bleed beyond every outer card edge
    plain: tuple | None = None  # the grid that holds the cards alone
    for landscape in (False, True):
        pw, ph = _oriented(paper, landscape)
        for room, best in ((INK + bleed, full), (INK, plain)):
            cols, rows = _count(pw - 2 * room, card_w, gap), _count(ph - 2 * room, card_h, gap)
            if machine is not None:  # the cards and their bleed inside the machine's cut area, nothing less
                cols, rows = machine_grid(machine, pw, ph, (card_w, card_h), gap, bleed)
            if cols * rows and (best is None or cols * rows > best[2] * best[3]):
                best = (pw, ph, cols, rows)
            if room == INK:
                plain = best
            else:
                full = best
    if machine is not None and full is None:
        area = cut_area(machine, *_oriented(paper, False))
        raise LayoutError(f"a {card_w / mm(1):.1f} x {card_h / mm(1):.1f} mm card with {bleed / mm(1):g} mm "
                          f"bleed does not fit the {machine.label} cut area of {area.w / mm(1):.2f} x "
                          f"{area.h / mm(1):.2f} mm on {paper} paper")
    if plain is None:
        raise LayoutError(
            _fits_message(paper, card_w, card_h) + (f" and {gap / mm(1):g} mm gaps" if gap else "")
        )
    pw, ph, cols, rows = full or plain
    without = cols * rows if machine is not None else plain[2] * plain[3]  # a machine: its area is the limit
    gw, gh = cols * card_w + (cols - 1) * gap, rows * card_h + (rows - 1) * gap
    x0, y0 = (pw - gw) / 2, (ph - gh) / 2
    page = Rect(0, 0, pw, ph)
    side_x, side_y = bleed_margin(x0, bleed), bleed_margin(y0, bleed)
    margins = {"left": side_x, "right": side_x, "bottom": side_y, "top": side_y}
    grid = SlotGrid(x0, y0, cols, rows, card_w, card_h, gap)
    fronts, crop, strips = _grid(grid, margins, bleed, page, marks)
    if machine is not None:  # only the registration marks: crop marks or labels could be read as marks
        crop, strips = [], []
    axis = _mirror_axis(duplex, pw > ph)
    if duplex == "none":
        backs = list(fronts)
    else:
        dx, dy = back_offset
        backs = []
        for slot in fronts:
            trim, clip = slot.trim.mirrored(axis, pw, ph), slot.clip.mirrored(axis, pw, ph)
            col = cols - 1 - slot.col if axis == "x" else slot.col
            row = rows - 1 - slot.row if axis == "y" else slot.row
            backs.append(Slot(col, row, trim.shifted(dx, dy), clip.shifted(dx, dy)))
    lines = cut_lines([s.trim for s in fronts], pw, ph, [s.clip for s in fronts]) \
        if marks in ("lines", "both") and machine is None else []
    fit = _fit(bleed, margins, cols * rows, without)
    return Sheet(paper, pw, ph, card_w, card_h, cols, rows, "duplex", duplex, fronts, backs, crop, strips,
                 gap=gap, mark_mode=marks, lines=lines, bleed=bleed, fit=fit,
                 back_axis=None if duplex == "none" else axis, back_shift=back_offset, machine=machine)


def fold_sheet(paper: str, card_w: float, card_h: float, bleed: float, gap: float = 0.0,
               marks: str = "crop") -> Sheet:
    """Fronts on one half, backs mirrored on the other half about the fold line; printed single-sided."""
    _check_options(gap, marks)
    full: tuple | None = None   # as in duplex_sheet: with the full bleed beyond the outer edges, or without
    plain: tuple | None = None
    for landscape in (False, True):
        pw, ph = _oriented(paper, landscape)
        # 'x': vertical fold line, fronts left; 'y': horizontal fold line, fronts on top
        for axis in ("x", "y"):
            for room, best in ((INK + bleed, full), (INK, plain)):
                half_w = pw / 2 - room - FOLD_GAP if axis == "x" else pw - 2 * room
                half_h = ph - 2 * room if axis == "x" else ph / 2 - room - FOLD_GAP
                cols, rows = _count(half_w, card_w, gap), _count(half_h, card_h, gap)
                if cols * rows and (best is None or cols * rows > best[4] * best[5]):
                    best = (pw, ph, axis, landscape, cols, rows)
                if room == INK:
                    plain = best
                else:
                    full = best
    if plain is None:
        raise LayoutError(_fits_message(paper, card_w, card_h) + " on half a sheet (fold layout)")
    pw, ph, axis, _landscape, cols, rows = full or plain
    without = plain[4] * plain[5]
    page = Rect(0, 0, pw, ph)
    gw, gh = cols * card_w + (cols - 1) * gap, rows * card_h + (rows - 1) * gap
    if axis == "x":
        x0, y0 = pw / 2 - FOLD_GAP - gw, (ph - gh) / 2
        side_y = bleed_margin(y0, bleed)
        margins = {"left": bleed_margin(x0, bleed), "right": None, "bottom": side_y, "top": side_y}
        fold = Line(pw / 2, INK, pw / 2, ph - INK)
    else:
        x0, y0 = (pw - gw) / 2, ph / 2 + FOLD_GAP
        top = ph - y0 - gh
        side_x = bleed_margin(x0, bleed)
        margins = {"left": side_x, "right": side_x, "bottom": None, "top": bleed_margin(top, bleed)}
        fold = Line(INK, ph / 2, pw - INK, ph / 2)
    grid = SlotGrid(x0, y0, cols, rows, card_w, card_h, gap)
    fronts, crop, strips = _grid(grid, margins, bleed, page, marks)
    inner = min(bleed, FOLD_GAP - MARK_GAP)
    fronts = [_extend_toward_fold(s, axis, cols, rows, inner) for s in fronts]
    backs = [Slot(cols - 1 - s.col if axis == "x" else s.col, rows - 1 - s.row if axis == "y" else s.row,
                  s.trim.mirrored(axis, pw, ph), s.clip.mirrored(axis, pw, ph)) for s in fronts]
    back_strips = [
        Strip(mirrored_side(st.side, axis), st.box.mirrored(axis, pw, ph), st.angle) for st in strips
    ]
    lines = []
    if marks in ("lines", "both"):  # fronts and backs share the page: lines run past both halves
        both = fronts + backs
        lines = [ln for ln in cut_lines([s.trim for s in both], pw, ph, [s.clip for s in both])
                 if not _on_fold(ln, fold)]
    fit = _fit(bleed, margins, cols * rows, without)
    return Sheet(paper, pw, ph, card_w, card_h, cols, rows, "fold", "none", fronts, backs, crop,
                 strips + back_strips, fold=fold, gap=gap, mark_mode=marks, lines=lines, bleed=bleed, fit=fit,
                 back_axis=axis)


def _fit(bleed: float, margins: dict[str, Margin | None], per_page: int, without: int) -> BleedFit:
    used = [m for m in margins.values() if m is not None]
    return BleedFit(bleed, min(m.shown for m in used), per_page, without, any(m.in_bleed for m in used))


def _on_fold(line: Line, fold: Line) -> bool:
    """A cut line that would run along the fold line (it never does for cards, but keep the fold clean)."""
    return (
        line.vertical == fold.vertical
        and abs((line.x1 - fold.x1) if fold.vertical else (line.y1 - fold.y1)) < FOLD_GAP / 2
    )


def _extend_toward_fold(slot: Slot, axis: str, cols: int, rows: int, amount: float) -> Slot:
    """Show bleed on the grid edge next to the fold (it is folded under, not cut, so a little bleed helps)."""
    clip = slot.clip
    if axis == "x" and slot.col == cols - 1:
        clip = Rect(clip.x, clip.y, slot.trim.x2 + amount - clip.x, clip.h)
    elif axis == "y" and slot.row == rows - 1:
        clip = Rect(clip.x, slot.trim.y - amount, clip.w, clip.y2 - (slot.trim.y - amount))
    return Slot(slot.col, slot.row, slot.trim, clip)


def make_sheet(  # noqa: PLR0913 - each of the sheet options, as keywords with defaults
        paper: str, card_size: tuple[float, float], bleed: float, layout: str = "duplex",
        duplex: str = "long", back_offset: tuple[float, float] = (0.0, 0.0), gap: float = 0.0,
        marks: str = "crop", machine: CutMachine | None = None) -> Sheet:
    """The sheet geometry for a card size (width, height) on a paper, for the `duplex` or `fold` layout (a
    print-and-cut `machine`: duplex only)."""
    card_w, card_h = card_size
    if machine is not None and layout != "duplex":
        raise LayoutError(f"a sheet for {machine.label} is laid out as duplex pages; expected --layout "
                          "duplex")
    if machine is not None:
        return duplex_sheet(paper, card_w, card_h, bleed, duplex, back_offset, gap, marks, machine)
    if layout == "fold":
        return fold_sheet(paper, card_w, card_h, bleed, gap, marks)
    if layout != "duplex":
        raise LayoutError(f"unknown sheet layout '{layout}'; expected duplex or fold")
    return duplex_sheet(paper, card_w, card_h, bleed, duplex, back_offset, gap, marks)


CHECK_INSET = mm(25)  # calibration targets sit this far in from both edges of a corner


@dataclass(frozen=True)
class Target:
    """A registration target of the print check: its centre on the front page and on the back page."""

    name: str
    front: tuple[float, float]
    back: tuple[float, float]


def calibration_targets(paper: str, duplex: str = "long",
                        back_offset: tuple[float, float] = (0.0, 0.0)) -> list[Target]:
    """Four corner targets of the portrait print-check page, and where the back of each lands.

    The back position is mirrored as the card backs are (`none` and fold sheets are checked as `long`) and
    shifted by `back_offset`, so a reading on the back's rulers is what is still left to correct.
    """
    pw, ph = _oriented(paper, False)
    axis = _mirror_axis("short" if duplex == "short" else "long", False)
    dx, dy = back_offset
    targets = []
    for name, x, y in (("A", CHECK_INSET, ph - CHECK_INSET), ("B", pw - CHECK_INSET, ph - CHECK_INSET),
                       ("C", CHECK_INSET, CHECK_INSET), ("D", pw - CHECK_INSET, CHECK_INSET)):
        bx, by = (pw - x, y) if axis == "x" else (x, ph - y)
        targets.append(Target(name, (x, y), (bx + dx, by + dy)))
    return targets


def plan_pages(count: int, sheet: Sheet) -> Iterator[PagePlan]:
    """The pages of `count` physical cards (one deck, or decks packed together) in print order, lazily."""
    per = sheet.per_page
    sheets = max(1, math.ceil(count / per))

    def cells(s: int) -> tuple[tuple[int, int], ...]:
        return tuple((i, s * per + i) for i in range(min(per, count - s * per)))

    if sheet.layout == "fold":
        for s in range(sheets):
            yield PagePlan("fold", s, sheets, cells(s))
        return
    for s in range(sheets):
        yield PagePlan("front", s, sheets, cells(s))
        if sheet.duplex != "none":
            yield PagePlan("back", s, sheets, cells(s))
    if sheet.duplex == "none":
        for s in range(sheets):
            yield PagePlan("back", s, sheets, cells(s))
