"""Imposition geometry (generator.cards.imposition): pure arithmetic, no ReportLab."""

from __future__ import annotations

from itertools import pairwise

import pytest

from generator.cards.imposition import LayoutError, calibration_targets, make_sheet, plan_pages
from generator.cards.labels import place_labels
from generator.cards.marks import CUT_LINE_WIDTH, INK, MARK_GAP, MARK_INK, MARK_MIN, bleed_margin, margin_use
from generator.core.geometry import EPS, PAPERS, Rect
from generator.core.units import CARD_SIZES_MM, mm

POKER = (mm(63.5), mm(88.9))
MINI = (mm(44.5), mm(63.5))
BLEED = mm(3)


def _page(sheet) -> Rect:
    return Rect(0, 0, sheet.page_w, sheet.page_h)


def _safe_page(sheet) -> Rect:
    return Rect(INK, INK, sheet.page_w - 2 * INK, sheet.page_h - 2 * INK)


@pytest.mark.parametrize("paper, grid", [("letter", (4, 2, True)), ("a4", (3, 3, False))])
def test_poker_is_nine_up_on_a4_eight_up_on_letter_centred_and_butted(paper, grid):
    """Letter cannot hold 9-up poker with its bleed above and below (266.7 + 2 x (3 + 6) mm > 279.4 mm): it
    is 8-up landscape, so every outer card edge keeps its full bleed (issue 34)."""
    sheet = make_sheet(paper, POKER, BLEED)
    assert (sheet.cols, sheet.rows, sheet.landscape) == grid
    assert (sheet.fit.per_page, sheet.fit.without, sheet.fit.full) == (grid[0] * grid[1], 9, True)
    size = sorted(PAPERS[paper].size)
    assert (sheet.page_w, sheet.page_h) == pytest.approx(size[::-1] if sheet.landscape else size)
    xs = sorted({s.trim.x for s in sheet.fronts})
    ys = sorted({s.trim.y for s in sheet.fronts})
    assert [b - a for a, b in pairwise(xs)] == pytest.approx([POKER[0]] * (sheet.cols - 1))  # butted
    assert [b - a for a, b in pairwise(ys)] == pytest.approx([POKER[1]] * (sheet.rows - 1))
    left, right = xs[0], sheet.page_w - (xs[-1] + POKER[0])
    bottom, top = ys[0], sheet.page_h - (ys[-1] + POKER[1])
    assert left == pytest.approx(right) and bottom == pytest.approx(top)
    # reading order: top row first
    assert sheet.fronts[0].row == 0 and sheet.fronts[0].trim.y == pytest.approx(ys[-1])


def _marks_safe_page(sheet) -> Rect:
    return Rect(MARK_INK, MARK_INK, sheet.page_w - 2 * MARK_INK, sheet.page_h - 2 * MARK_INK)


PRESETS = {name: (mm(w), mm(h)) for name, (w, h) in CARD_SIZES_MM.items()}


def _cuts(sheet) -> tuple[set, set]:
    trims = sheet.cut_trims()
    return (
        {round(v, 3) for t in trims for v in (t.x, t.x2)},
        {round(v, 3) for t in trims for v in (t.y, t.y2)},
    )


def outer_bleeds(sheet, slots=None) -> list[tuple[int, str, float]]:
    """(slot, side, bleed shown) of every outer card edge: an edge of the grid or one beside an empty slot
    (`slots`: the page's filled slots; default all)."""
    slots = sheet.fronts if slots is None else slots
    at = {(s.col, s.row) for s in slots}
    found = []
    for i, s in enumerate(slots):
        for side, (dc, dr), shown in (("left", (-1, 0), s.trim.x - s.clip.x),
                                      ("right", (1, 0), s.clip.x2 - s.trim.x2),
                                      ("top", (0, -1), s.clip.y2 - s.trim.y2),
                                      ("bottom", (0, 1), s.trim.y - s.clip.y)):
            if (s.col + dc, s.row + dr) not in at:
                found.append((i, side, shown))
    return found


def _crosses_art(line, sheet) -> bool:
    """True when the stroked line (its width across, butt ends) covers part of a card."""
    half = CUT_LINE_WIDTH / 2 - 1e-3
    b = line.bbox()
    box = Rect(b.x - half, b.y, 2 * half, b.h) if line.vertical else Rect(b.x, b.y - half, b.w, 2 * half)
    return any(box.overlaps(s.trim) for s in sheet.fronts + sheet.backs)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", sorted(PRESETS))
@pytest.mark.parametrize("gap", [0.0, mm(3)])
@pytest.mark.parametrize("layout", ["duplex", "fold"])
def test_every_paper_size_and_gap(paper, size, gap, layout):
    """The sheet rules for Letter/A4 x every card size preset x butted/3 mm gap x duplex/fold."""
    cw, ch = PRESETS[size]
    sheet = make_sheet(paper, (cw, ch), BLEED, layout=layout, gap=gap, marks="both")
    trims = [s.trim for s in sheet.fronts]
    # cards keep their size and stand `gap` apart
    assert all(t.w == pytest.approx(cw) and t.h == pytest.approx(ch) for t in trims)
    xs, ys = sorted({round(t.x, 6) for t in trims}), sorted({round(t.y, 6) for t in trims})
    assert [b - a for a, b in pairwise(xs)] == pytest.approx([cw + gap] * (len(xs) - 1))
    assert [b - a for a, b in pairwise(ys)] == pytest.approx([ch + gap] * (len(ys) - 1))
    assert len(xs) * len(ys) == sheet.per_page == sheet.cols * sheet.rows
    # art and labels keep 6 mm from the edge, marks and cut lines 5 mm
    for box in sheet.art_boxes() + [st.box for st in sheet.strips]:
        assert _safe_page(sheet).contains(box, EPS), box
    for line in sheet.marks + sheet.lines:
        assert _marks_safe_page(sheet).contains(line.bbox(), EPS), line
    # shown bleed: never more than the bleed, never into a neighbour, at most half the gutter between cards
    art = sheet.art_boxes()
    assert not any(a.overlaps(b) for i, a in enumerate(art) for b in art[i + 1:])
    for slot in sheet.fronts:
        assert slot.trim.inset(-BLEED).contains(slot.clip, 1e-6) and slot.clip.contains(slot.trim, 1e-6)
        if 0 < slot.col < sheet.cols - 1:
            assert slot.trim.x - slot.clip.x == pytest.approx(min(BLEED, gap / 2))
    # every outer card edge shows the full bleed (the fold side of a fold sheet is folded, not cut)
    fold_side = {"x": "right", "y": "bottom"}.get(
        "x" if sheet.fold is not None and sheet.fold.vertical else "y") if layout == "fold" else None
    edges = [(i, side, shown) for i, side, shown in outer_bleeds(sheet) if side != fold_side]
    assert edges and all(shown == pytest.approx(BLEED) for _, _, shown in edges), edges
    assert sheet.fit.full and sheet.fit.per_page == sheet.per_page <= sheet.fit.without
    # every cut has a crop mark at both of its ends (fold: at the end away from the fold) and a cut line
    cut_x, cut_y = _cuts(sheet)
    for cuts, vertical in ((cut_x, True), (cut_y, False)):
        for pos in cuts:
            ends = [
                m
                for m in sheet.marks
                if m.vertical == vertical and round(m.x1 if vertical else m.y1, 3) == pos
            ]
            assert len(ends) >= (1 if layout == "fold" else 2), (pos, vertical)
            assert all(m.length >= MARK_MIN - EPS for m in ends)
            # a cut line, or ticks in the bleed where the margin has no room for a line beyond it
            assert sheet.fit.ticks or any(
                ln.vertical == vertical and abs((ln.x1 if vertical else ln.y1) - pos) <= CUT_LINE_WIDTH
                for ln in sheet.lines), (pos, vertical)
    # neither marks nor lines cross a card; marks cross its shown bleed only as ticks in it (no room beyond)
    for mark in sheet.marks:
        assert not any(mark.bbox().overlaps(s.trim) for s in sheet.fronts + sheet.backs), mark
        assert sheet.fit.ticks or not any(mark.bbox().overlaps(box) for box in art), mark
    for line in sheet.lines:
        assert not _crosses_art(line, sheet), line
        assert not any(line.bbox().overlaps(box) for box in art), line  # cut lines never lie on the bleed


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_lie_outside_the_grid_on_every_cut_line(paper):
    """Every column and row cut has its marks in the margins, beyond the full bleed."""
    sheet = make_sheet(paper, POKER, BLEED)
    cut_x, cut_y = _cuts(sheet)
    marked_x = {round(m.x1, 3) for m in sheet.marks if m.vertical}
    marked_y = {round(m.y1, 3) for m in sheet.marks if not m.vertical}
    assert marked_x == cut_x and marked_y == cut_y
    top = [m for m in sheet.marks if m.vertical and m.y1 > sheet.page_h / 2]
    assert len(top) == sheet.cols + 1 and all(m.y2 <= sheet.page_h - MARK_INK + EPS for m in top)
    assert all(m.y1 >= max(s.clip.y2 for s in sheet.fronts) for m in top)  # beyond the bleed
    left = min(s.clip.x for s in sheet.fronts)
    assert min(s.trim.x for s in sheet.fronts) - left == pytest.approx(BLEED)
    first_mark = min(m.x2 for m in sheet.marks if not m.vertical)
    assert first_mark < left
    assert sorted(cut_x)[1] - sorted(cut_x)[0] == pytest.approx(POKER[0], abs=1e-3)


def test_margin_use_gives_marks_room_before_bleed():
    letter_top = margin_use((mm(279.4) - 3 * POKER[1]) / 2, BLEED)
    assert letter_top.shown == 0 and letter_top.start == 0
    assert letter_top.length == pytest.approx(mm(1.35), abs=1e-3)
    roomy = margin_use(mm(15.15), BLEED)
    assert roomy.shown == pytest.approx(BLEED) and roomy.length == pytest.approx(mm(5))
    middle = margin_use(mm(9.75), BLEED)
    assert middle.length == pytest.approx(mm(3)) and 0 < middle.shown < BLEED


def test_bleed_margin_keeps_the_full_bleed_then_marks_beyond_it_or_ticks_in_it():
    roomy = bleed_margin(mm(15.15), BLEED)  # A4 9-up poker, above and below
    assert roomy.shown == pytest.approx(BLEED) and not roomy.in_bleed
    assert roomy.start == pytest.approx(BLEED + MARK_GAP) and roomy.length == pytest.approx(mm(5))
    tight = bleed_margin(mm(9.2), BLEED)  # 3 mm bleed + 6 mm ink leave 0.2 mm: marks go into the bleed
    assert tight.shown == pytest.approx(BLEED) and tight.in_bleed
    assert tight.start == pytest.approx(MARK_GAP) and tight.start + tight.length == pytest.approx(BLEED)
    short = bleed_margin(mm(7), BLEED)  # a card too large for its bleed: what the ink margin allows
    assert short.shown == pytest.approx(mm(1)) and short.length >= MARK_MIN - EPS


def test_cut_lines_run_from_the_printable_edge_to_the_bleed_and_never_over_it():
    """Outer and inner cuts alike: on the cut, from 5 mm off the paper edge to 0.5 mm short of the bleed
    (issue 34: the outer lines lay over the bleed); with a gap wider than twice the bleed, also through the
    gutters' bare middle."""
    for gap in (0.0, mm(4)):
        sheet = make_sheet("a4", POKER, BLEED, gap=gap, marks="lines")
        assert sheet.marks == [] and sheet.lines
        top = max(s.clip.y2 for s in sheet.fronts)
        for x in sorted({round(v, 3) for s in sheet.fronts for v in (s.trim.x, s.trim.x2)}):
            pieces = sorted((ln for ln in sheet.lines if ln.vertical and round(ln.x1, 3) == x),
                            key=lambda ln: ln.y1)
            assert len(pieces) == 2, (gap, x)  # below and above the grid only: the gutters show bleed
            assert pieces[1].y1 == pytest.approx(top + MARK_GAP)
            assert pieces[1].y2 == pytest.approx(sheet.page_h - MARK_INK)
    wide = make_sheet("a4", MINI, BLEED, gap=mm(10), marks="lines")
    inner = [ln for ln in wide.lines if not ln.vertical]
    assert any(ln.x1 > min(s.clip.x2 for s in wide.fronts) for ln in inner)  # through the gutters' middle


def test_a_gap_too_wide_or_unknown_marks_fail_clearly():
    with pytest.raises(LayoutError, match="gap"):
        make_sheet("a4", POKER, BLEED, gap=mm(60))
    with pytest.raises(LayoutError, match="unknown marks"):
        make_sheet("a4", POKER, BLEED, marks="dots")
    with pytest.raises(LayoutError, match="3 mm gaps"):
        make_sheet("letter", (mm(250), mm(300)), BLEED, gap=mm(3))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_full_bleed_shows_on_every_outer_edge_of_the_grid_and_none_between_butted_cards(paper):
    sheet = make_sheet(paper, POKER, BLEED)
    outer = {(i, side) for i, side, _ in outer_bleeds(sheet)}
    for i, side, shown in outer_bleeds(sheet):
        assert shown == pytest.approx(BLEED), (i, side)
    for i, s in enumerate(sheet.fronts):
        for side, shown in (("left", s.trim.x - s.clip.x), ("right", s.clip.x2 - s.trim.x2),
                            ("top", s.clip.y2 - s.trim.y2), ("bottom", s.trim.y - s.clip.y)):
            if (i, side) not in outer:
                assert shown == pytest.approx(0.0, abs=1e-9), (i, side)
    clips = [s.clip for s in sheet.fronts]
    assert not any(a.overlaps(b) for i, a in enumerate(clips) for b in clips[i + 1:])


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("gap", [0.0, mm(3)])
@pytest.mark.parametrize("layout, duplex", [("duplex", "long"), ("duplex", "short"), ("duplex", "none"),
                                            ("fold", "none")])
def test_a_card_beside_an_empty_slot_shows_its_full_bleed_there_on_both_sides(paper, gap, layout, duplex):
    """The lone card of a sheet, and the last row of a partial sheet: each edge beside an empty slot is an
    outer cut, so it shows the full bleed, on the front and on its back, and no art overlaps."""
    sheet = make_sheet(paper, POKER, BLEED, layout=layout, duplex=duplex, gap=gap,
                       back_offset=(mm(1), 0.0) if duplex == "long" else (0.0, 0.0))
    for count in range(1, sheet.per_page):
        filled = set(range(count))
        fronts, backs = sheet.page_slots("front", filled), sheet.page_slots("back", filled)
        page = [fronts[i] for i in sorted(filled)]
        fold_side = None
        if layout == "fold":
            fold_side = "right" if sheet.fold.vertical else "bottom"
        edges = [(i, side, shown) for i, side, shown in outer_bleeds(sheet, page) if side != fold_side]
        assert all(shown == pytest.approx(BLEED) for _, _, shown in edges), (count, edges)
        for i in filled:  # the back shows the same bleed as its front, mirrored
            if sheet.back_axis is None:
                assert backs[i].clip == fronts[i].clip
            else:
                mirrored = fronts[i].clip.mirrored(sheet.back_axis, sheet.page_w, sheet.page_h)
                assert backs[i].clip == mirrored.shifted(*sheet.back_shift)
            assert backs[i].clip.contains(backs[i].trim, 1e-6)
        art = [fronts[i].clip for i in filled] + ([backs[i].clip for i in filled] if layout == "fold" else [])
        assert all(_safe_page(sheet).contains(box, EPS) for box in art)
        # two cards' bleed meet only in the corner of an empty slot where an edge of each ends (the last
        # row's first empty slot under a full row): at most bleed x bleed, all of it cut away
        for j, a in enumerate(art):
            for b in art[j + 1:]:
                if a.overlaps(b):
                    w, h = min(a.x2, b.x2) - max(a.x, b.x), min(a.y2, b.y2) - max(a.y, b.y)
                    corner = Rect(max(a.x, b.x), max(a.y, b.y), w, h)
                    assert w <= BLEED + EPS and h <= BLEED + EPS, (count, a, b)
                    assert not any(corner.overlaps(fronts[i].trim) for i in filled)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_long_edge_duplex_mirrors_columns_short_edge_mirrors_rows(paper):
    long = make_sheet(paper, POKER, BLEED, duplex="long")
    short = make_sheet(paper, POKER, BLEED, duplex="short")
    if long.landscape:  # Letter poker is landscape: its long edge is horizontal (see the next test)
        long, short = short, long
    for front, back in zip(long.fronts, long.backs, strict=True):
        assert (back.col, back.row) == (long.cols - 1 - front.col, front.row)
        assert back.trim.x == pytest.approx(long.page_w - front.trim.x2)
        assert back.trim.y == pytest.approx(front.trim.y)
    for front, back in zip(short.fronts, short.backs, strict=True):
        assert (back.col, back.row) == (front.col, short.rows - 1 - front.row)
        assert back.trim.y == pytest.approx(short.page_h - front.trim.y2)
    none = make_sheet(paper, POKER, BLEED, duplex="none")
    assert [b.trim for b in none.backs] == [f.trim for f in none.fronts]


def test_landscape_sheets_flip_long_edge_about_the_horizontal_axis():
    sheet = make_sheet("letter", POKER, BLEED, duplex="long")
    assert sheet.landscape
    for front, back in zip(sheet.fronts, sheet.backs, strict=True):
        assert back.col == front.col and back.row == sheet.rows - 1 - front.row


def test_back_offset_moves_every_back():
    plain = make_sheet("a4", POKER, BLEED)
    shifted = make_sheet("a4", POKER, BLEED, back_offset=(mm(1), mm(-2)))
    for a, b in zip(plain.backs, shifted.backs, strict=True):
        assert b.trim.x - a.trim.x == pytest.approx(mm(1))
        assert b.trim.y - a.trim.y == pytest.approx(mm(-2))
    assert [s.trim for s in plain.fronts] == [s.trim for s in shifted.fronts]


@pytest.mark.parametrize("paper, grid", [("letter", (4, 4, 16, False)), ("a4", (6, 3, 18, True))])
def test_mini_cards_are_eighteen_up_on_a4_and_sixteen_up_on_letter(paper, grid):
    """Letter's 18-up mini grid leaves 6.35 mm at its sides: no room for the bleed, so 16-up."""
    sheet = make_sheet(paper, MINI, BLEED)
    assert (sheet.cols, sheet.rows, sheet.per_page, sheet.landscape) == grid


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fold_layout_mirrors_backs_about_the_fold_line(paper):
    sheet = make_sheet(paper, POKER, BLEED, layout="fold")
    assert sheet.per_page == 4 and sheet.fold is not None
    if sheet.fold.vertical:
        fold_x = sheet.fold.x1
        for front, back in zip(sheet.fronts, sheet.backs, strict=True):
            assert front.trim.x2 <= fold_x and back.trim.x >= fold_x
            assert fold_x - front.trim.x2 == pytest.approx(back.trim.x - fold_x)  # as far from the fold
            assert front.trim.y == pytest.approx(back.trim.y)
    else:  # Letter: a row of four above the fold, their backs below it
        fold_y = sheet.fold.y1
        for front, back in zip(sheet.fronts, sheet.backs, strict=True):
            assert front.trim.y >= fold_y >= back.trim.y2
            assert front.trim.y - fold_y == pytest.approx(fold_y - back.trim.y2)
            assert front.trim.x == pytest.approx(back.trim.x)
    boxes = [s.clip for s in sheet.fronts + sheet.backs]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert not any(sheet.fold.bbox().overlaps(b) for b in boxes)


def test_a_card_too_big_for_the_paper_fails_clearly():
    with pytest.raises(LayoutError, match="does not fit on A4 paper with 6 mm clear"):
        make_sheet("a4", (mm(250), mm(300)), BLEED)
    with pytest.raises(LayoutError, match="half a sheet"):
        make_sheet("letter", (mm(150), mm(200)), BLEED, layout="fold")


def test_pages_alternate_fronts_and_backs_and_cover_every_card():
    sheet = make_sheet("letter", POKER, BLEED)
    pages = list(plan_pages(91, sheet))  # 8-up
    assert len(pages) == 24 and [p.side for p in pages[:4]] == ["front", "back", "front", "back"]
    numbers = [n for p in pages if p.side == "front" for _, n in p.cells]
    assert numbers == list(range(91))
    assert [p.cells for p in pages if p.side == "back"] == [p.cells for p in pages if p.side == "front"]
    assert len(pages[-1].cells) == 3 and pages[-1].sheets == 12
    none = list(plan_pages(20, make_sheet("letter", POKER, BLEED, duplex="none")))
    assert [p.side for p in none] == ["front"] * 3 + ["back"] * 3
    fold = list(plan_pages(10, make_sheet("letter", POKER, BLEED, layout="fold")))
    assert [p.side for p in fold] == ["fold"] * 3


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", [POKER, MINI])
@pytest.mark.parametrize("gap", [0.0, mm(3)])
def test_labels_fit_in_the_margins_clear_of_marks_and_cards(paper, size, gap):
    sheet = make_sheet(paper, size, BLEED, gap=gap, marks="both")
    placed = place_labels(sheet.strips, [(mm(38), 8.4), (mm(38), 8.4), (mm(35), 8.4), (mm(32), 8.4)])
    assert all(p is not None for p in placed)
    obstacles = [s.clip for s in sheet.fronts] + [m.bbox() for m in sheet.marks + sheet.lines]
    for p in placed:
        assert _safe_page(sheet).contains(p.box, EPS)
        assert not any(p.box.overlaps(o) for o in obstacles)
    assert not any(a.box.overlaps(b.box) for i, a in enumerate(placed) for b in placed[i + 1:])


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_print_check_targets_are_mirrored_like_the_backs(paper):
    pw, ph = sorted(PAPERS[paper].size)
    long = {t.name: t for t in calibration_targets(paper, "long")}
    assert (
        long["A"].front[0] < pw / 2 < long["B"].front[0] and long["A"].front[1] > ph / 2 > long["C"].front[1]
    )
    for target in long.values():
        assert target.back == pytest.approx((pw - target.front[0], target.front[1]))  # columns mirrored
        x, y = target.front
        # grid and labels fit
        assert INK + mm(10) < x < pw - INK - mm(10) and INK + mm(10) < y < ph - INK - mm(10)
    for target in calibration_targets(paper, "short", (2.0, -1.0)):
        # rows, shifted
        assert target.back == pytest.approx((target.front[0] + 2.0, ph - target.front[1] - 1.0))
    # the card backs of a portrait sheet move the same way
    sheet = make_sheet(paper, PRESETS["tarot"], BLEED, duplex="short", back_offset=(2.0, -1.0))
    assert not sheet.landscape
    front, back = sheet.fronts[0].trim, sheet.backs[0].trim
    assert back.x == pytest.approx(front.x + 2.0) and back.y == pytest.approx(ph - front.y - front.h - 1.0)
