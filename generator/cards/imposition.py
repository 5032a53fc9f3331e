"""Imposition: where cards, crop marks and labels go on a home-print sheet. Pure geometry in points, no ReportLab.

Coordinates are PDF points with the origin at the lower-left corner of the page.

Decisions:
- Cards are butted together (shared cut lines); the grid is centred on the page in the orientation that holds the
  most cards (portrait on a tie). Poker cards give 3 x 3 on Letter and A4, mini cards 6 x 3 (18-up).
- Butted cards cannot all show their bleed, so each card is clipped to its trim box, except on the outer edges of
  the grid where as much bleed is shown as the margin allows after room for the crop marks.
- Nothing is drawn within `ink` (6 mm) of the paper edge. Crop marks sit outside the grid, on every cut line,
  beyond the shown bleed, so they never cross art. A side without room for marks (Letter 3 x 3 poker has only
  6.35 mm above and below the grid) gets none; its cards are cut along the card edges.
- Duplex `long` flips the paper about its long edge: on portrait pages columns are mirrored, on landscape pages
  rows. `short` is the other way round. `none` puts each deck's backs, unmirrored, after its fronts.
- `fold` puts fronts on one half and their backs on the other, mirrored about the fold line, for single-sided
  printing; the paper is folded, glued and then cut.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise

from generator.core.geometry import EPS, PAPERS, Rect
from generator.core.units import mm

FLIP = {"long": "flip on the long edge", "short": "flip on the short edge"}  # how to print each duplex mode
INK = mm(6)           # nothing is printed closer to the paper edge than this
MARK_GAP = mm(0.5)    # between the shown bleed and a crop mark
MARK_PREF = mm(3)     # crop marks get this much room before any bleed is shown
MARK_MAX = mm(5)
MARK_MIN = mm(1.5)
LABEL_CLEAR = mm(2)   # labels keep this far from a cut line along the margin
FOLD_GAP = mm(4)      # each half's grid keeps this far from the fold line


class LayoutError(ValueError):
    """A card size that does not fit the paper, or labels that find no room."""


@dataclass(frozen=True)
class Slot:
    """One card position: its trim box and the clip box (trim plus the bleed shown on outer grid edges)."""

    col: int
    row: int  # 0 = top row
    trim: Rect
    clip: Rect


@dataclass(frozen=True)
class Line:
    """A straight line segment (crop mark or fold line)."""

    x1: float
    y1: float
    x2: float
    y2: float

    def bbox(self) -> Rect:
        return Rect(min(self.x1, self.x2), min(self.y1, self.y2), abs(self.x2 - self.x1), abs(self.y2 - self.y1))


@dataclass(frozen=True)
class Strip:
    """A free stretch of margin for a label: `length` along the edge, `depth` across; angle 90 reads upwards."""

    side: str
    box: Rect
    angle: int

    @property
    def length(self) -> float:
        return self.box.h if self.angle else self.box.w

    @property
    def depth(self) -> float:
        return self.box.w if self.angle else self.box.h


@dataclass(frozen=True)
class Placement:
    """Where a label goes: draw it from `origin` rotated by `angle`; `box` is its area on the page."""

    origin: tuple[float, float]
    angle: int
    box: Rect


@dataclass
class Sheet:
    """The geometry shared by every page of one deck on one paper."""

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
    backs: list[Slot]          # backs[i] holds the back of fronts[i] (on the back page, or beside it for fold)
    marks: list[Line]
    strips: list[Strip]
    fold: Line | None = None
    back_marks: list[Line] = field(default_factory=list)

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def landscape(self) -> bool:
        return self.page_w > self.page_h

    def ink_boxes(self) -> list[Rect]:
        """Every area of the front page that may carry ink (for margin checks)."""
        boxes = [s.clip for s in self.fronts] + [m.bbox() for m in self.marks]
        if self.layout == "fold":
            boxes += [s.clip for s in self.backs]
        if self.fold:
            boxes.append(self.fold.bbox())
        return boxes


@dataclass(frozen=True)
class PagePlan:
    """One page of a deck: which card (position in the deck's print order) goes in which slot."""

    side: str        # 'front', 'back' or 'fold'
    sheet: int       # 0-based sheet number within the deck
    sheets: int
    cells: tuple[tuple[int, int], ...]  # (slot index, card number)


def _count(avail: float, size: float) -> int:
    return max(0, math.floor((avail + EPS) / size))


def _side_room(room: float, bleed: float) -> tuple[float, float]:
    """(bleed shown, crop mark length) for a margin with `room` points of printable space."""
    shown = min(bleed, max(0.0, room - MARK_GAP - MARK_PREF))
    length = min(MARK_MAX, room - shown - MARK_GAP)
    if length < MARK_MIN:
        return min(bleed, max(0.0, room)), 0.0
    return shown, length


def _grid(x0: float, y0: float, cols: int, rows: int, cw: float, ch: float, rooms: dict[str, float],
          bleed: float, page: Rect) -> tuple[list[Slot], list[Line], list[Strip]]:
    """Slots, crop marks and label strips of a butted grid whose lower-left corner is (x0, y0)."""
    shown, marks_len = {}, {}
    for side, room in rooms.items():
        shown[side], marks_len[side] = _side_room(room, bleed) if room is not None else (0.0, 0.0)
    slots = []
    for row in range(rows):
        for col in range(cols):
            trim = Rect(x0 + col * cw, y0 + (rows - 1 - row) * ch, cw, ch)
            left = shown["left"] if col == 0 else 0.0
            right = shown["right"] if col == cols - 1 else 0.0
            top = shown["top"] if row == 0 else 0.0
            bottom = shown["bottom"] if row == rows - 1 else 0.0
            clip = Rect(trim.x - left, trim.y - bottom, trim.w + left + right, trim.h + top + bottom)
            slots.append(Slot(col, row, trim, clip))
    x1, y1 = x0 + cols * cw, y0 + rows * ch
    xs = [x0 + c * cw for c in range(cols + 1)]
    ys = [y0 + r * ch for r in range(rows + 1)]
    marks: list[Line] = []
    strips: list[Strip] = []
    for side in ("bottom", "top", "left", "right"):
        if rooms.get(side) is None:
            continue
        start = shown[side] + MARK_GAP
        length = marks_len[side]
        if length:
            for pos in (xs if side in ("bottom", "top") else ys):
                if side == "bottom":
                    marks.append(Line(pos, y0 - start - length, pos, y0 - start))
                elif side == "top":
                    marks.append(Line(pos, y1 + start, pos, y1 + start + length))
                elif side == "left":
                    marks.append(Line(x0 - start - length, pos, x0 - start, pos))
                else:
                    marks.append(Line(x1 + start, pos, x1 + start + length, pos))
        depth = rooms[side] - start
        if depth <= 0:
            continue
        cuts = xs if side in ("bottom", "top") else ys
        segments = ([(a + LABEL_CLEAR, b - LABEL_CLEAR) for a, b in pairwise(cuts)] if length
                    else [(cuts[0], cuts[-1])])
        for a, b in segments:
            if side == "bottom":
                strips.append(Strip(side, Rect(a, page.y + INK, b - a, depth), 0))
            elif side == "top":
                strips.append(Strip(side, Rect(a, page.y2 - INK - depth, b - a, depth), 0))
            elif side == "left":
                strips.append(Strip(side, Rect(page.x + INK, a, depth, b - a), 90))
            else:
                strips.append(Strip(side, Rect(page.x2 - INK - depth, a, depth, b - a), 90))
    return slots, marks, strips


def _oriented(paper: str, landscape: bool) -> tuple[float, float]:
    if paper not in PAPERS:
        raise LayoutError(f"unknown paper '{paper}'; expected one of: {', '.join(PAPERS)}")
    w, h = PAPERS[paper].size
    return (max(w, h), min(w, h)) if landscape else (min(w, h), max(w, h))


def _mirror_axis(duplex: str, landscape: bool) -> str:
    """'x' mirrors columns, 'y' rows: flipping about the long edge mirrors across it."""
    long_is_vertical = not landscape
    if duplex == "long":
        return "x" if long_is_vertical else "y"
    return "y" if long_is_vertical else "x"


def _fits_message(paper: str, cw: float, ch: float) -> str:
    return (f"a {cw / mm(1):.1f} x {ch / mm(1):.1f} mm card does not fit on {PAPERS[paper].name if paper in PAPERS else paper} paper "
            f"with {INK / mm(1):.0f} mm clear of every edge")


def duplex_sheet(paper: str, card_w: float, card_h: float, bleed: float, duplex: str = "long",
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> Sheet:
    """Butted grid of fronts; backs mirrored for duplex `long`/`short`, or unmirrored for `none`."""
    if duplex not in ("long", "short", "none"):
        raise LayoutError(f"unknown duplex mode '{duplex}'; expected long, short or none")
    best = None
    for landscape in (False, True):
        pw, ph = _oriented(paper, landscape)
        cols, rows = _count(pw - 2 * INK, card_w), _count(ph - 2 * INK, card_h)
        if cols * rows and (best is None or cols * rows > best[2] * best[3]):
            best = (pw, ph, cols, rows)
    if best is None:
        raise LayoutError(_fits_message(paper, card_w, card_h))
    pw, ph, cols, rows = best
    x0, y0 = (pw - cols * card_w) / 2, (ph - rows * card_h) / 2
    room_x, room_y = x0 - INK, y0 - INK
    page = Rect(0, 0, pw, ph)
    rooms = {"left": room_x, "right": room_x, "bottom": room_y, "top": room_y}
    fronts, marks, strips = _grid(x0, y0, cols, rows, card_w, card_h, rooms, bleed, page)
    if duplex == "none":
        backs = list(fronts)
    else:
        axis = _mirror_axis(duplex, pw > ph)
        dx, dy = back_offset
        backs = []
        for slot in fronts:
            trim, clip = slot.trim.mirrored(axis, pw, ph), slot.clip.mirrored(axis, pw, ph)
            col = cols - 1 - slot.col if axis == "x" else slot.col
            row = rows - 1 - slot.row if axis == "y" else slot.row
            backs.append(Slot(col, row, trim.shifted(dx, dy), clip.shifted(dx, dy)))
    return Sheet(paper, pw, ph, card_w, card_h, cols, rows, "duplex", duplex, fronts, backs, marks, strips)


def fold_sheet(paper: str, card_w: float, card_h: float, bleed: float) -> Sheet:
    """Fronts on one half, backs mirrored on the other half about the fold line; printed single-sided."""
    best = None
    for landscape in (False, True):
        pw, ph = _oriented(paper, landscape)
        for axis in ("x", "y"):  # 'x': vertical fold line, fronts left; 'y': horizontal fold line, fronts on top
            half_w = pw / 2 - INK - FOLD_GAP if axis == "x" else pw - 2 * INK
            half_h = ph - 2 * INK if axis == "x" else ph / 2 - INK - FOLD_GAP
            cols, rows = _count(half_w, card_w), _count(half_h, card_h)
            if cols * rows and (best is None or cols * rows > best[4] * best[5]):
                best = (pw, ph, axis, landscape, cols, rows)
    if best is None:
        raise LayoutError(_fits_message(paper, card_w, card_h) + " on half a sheet (fold layout)")
    pw, ph, axis, _landscape, cols, rows = best
    page = Rect(0, 0, pw, ph)
    gw, gh = cols * card_w, rows * card_h
    fold_room = FOLD_GAP - MARK_GAP
    if axis == "x":
        x0, y0 = pw / 2 - FOLD_GAP - gw, (ph - gh) / 2
        rooms = {"left": x0 - INK, "right": None, "bottom": y0 - INK, "top": y0 - INK}
        fold = Line(pw / 2, INK, pw / 2, ph - INK)
    else:
        x0, y0 = (pw - gw) / 2, ph / 2 + FOLD_GAP
        rooms = {"left": x0 - INK, "right": x0 - INK, "bottom": None, "top": ph - y0 - gh - INK}
        fold = Line(INK, ph / 2, pw - INK, ph / 2)
    fronts, marks, strips = _grid(x0, y0, cols, rows, card_w, card_h, rooms, bleed, page)
    inner = min(bleed, fold_room)
    fronts = [_extend_toward_fold(s, axis, cols, rows, inner) for s in fronts]
    backs = [Slot(cols - 1 - s.col if axis == "x" else s.col, rows - 1 - s.row if axis == "y" else s.row,
                  s.trim.mirrored(axis, pw, ph), s.clip.mirrored(axis, pw, ph)) for s in fronts]
    back_strips = [Strip(_mirrored_side(st.side, axis), st.box.mirrored(axis, pw, ph), st.angle) for st in strips]
    back_marks = [_mirror_line(m, axis, pw, ph) for m in marks]
    sheet = Sheet(paper, pw, ph, card_w, card_h, cols, rows, "fold", "none", fronts, backs, marks,
                  strips + back_strips, fold=fold)
    sheet.back_marks = back_marks
    return sheet


def _mirrored_side(side: str, axis: str) -> str:
    swap = {"left": "right", "right": "left"} if axis == "x" else {"top": "bottom", "bottom": "top"}
    return swap.get(side, side)


def _mirror_line(line: Line, axis: str, pw: float, ph: float) -> Line:
    if axis == "x":
        return Line(pw - line.x1, line.y1, pw - line.x2, line.y2)
    return Line(line.x1, ph - line.y1, line.x2, ph - line.y2)


def _extend_toward_fold(slot: Slot, axis: str, cols: int, rows: int, amount: float) -> Slot:
    """Show bleed on the grid edge next to the fold (it is folded under, not cut, so a little bleed helps)."""
    clip = slot.clip
    if axis == "x" and slot.col == cols - 1:
        clip = Rect(clip.x, clip.y, clip.w + amount, clip.h)
    elif axis == "y" and slot.row == rows - 1:
        clip = Rect(clip.x, clip.y - amount, clip.w, clip.h + amount)
    return Slot(slot.col, slot.row, slot.trim, clip)


def make_sheet(paper: str, card_w: float, card_h: float, bleed: float, layout: str = "duplex",
               duplex: str = "long", back_offset: tuple[float, float] = (0.0, 0.0)) -> Sheet:
    """The sheet geometry for a card size on a paper, for the `duplex` or `fold` layout."""
    if layout == "fold":
        return fold_sheet(paper, card_w, card_h, bleed)
    if layout != "duplex":
        raise LayoutError(f"unknown sheet layout '{layout}'; expected duplex or fold")
    return duplex_sheet(paper, card_w, card_h, bleed, duplex, back_offset)


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
    """The pages of a deck of `count` physical cards, in print order (lazily, one page at a time)."""
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


def place_labels(strips: list[Strip], sizes: list[tuple[float, float]], spacing: float = mm(4),
                 prefer: tuple[str, ...] = ("bottom", "top", "left", "right")) -> list[Placement | None]:
    """First-fit packing of labels (length, depth) into margin strips; None for a label that finds no room."""
    order = sorted(range(len(strips)), key=lambda i: (prefer.index(strips[i].side), i))
    used = {i: 0.0 for i in order}
    result: list[Placement | None] = []
    for length, depth in sizes:
        placed = None
        for i in order:
            strip = strips[i]
            start = used[i] + (spacing if used[i] else 0.0)
            if depth > strip.depth + EPS or start + length > strip.length + EPS:
                continue
            used[i] = start + length
            b = strip.box
            if strip.angle == 0:
                # hug the edge nearest the grid so the label reads as belonging to the sheet
                y = b.y2 - depth if strip.side == "bottom" else b.y
                placed = Placement((b.x + start, y), 0, Rect(b.x + start, y, length, depth))
            else:
                x = b.x2 - depth if strip.side == "left" else b.x
                placed = Placement((x + depth, b.y + start), 90, Rect(x, b.y + start, depth, length))
            break
        result.append(placed)
    return result
