"""Imposition geometry (generator.cards.imposition): pure arithmetic, no ReportLab."""

from __future__ import annotations

from itertools import pairwise

import pytest

from generator.cards.imposition import LayoutError, calibration_targets, make_sheet, plan_pages
from generator.cards.labels import place_labels
from generator.cards.marks import CUT_LINE_WIDTH, INK, MARK_INK, MARK_MIN, margin_use
from generator.core.geometry import EPS, PAPERS, Rect
from generator.core.units import CARD_SIZES_MM, mm

POKER = (mm(63.5), mm(88.9))
MINI = (mm(44.5), mm(63.5))
BLEED = mm(3)


def _page(sheet) -> Rect:
    return Rect(0, 0, sheet.page_w, sheet.page_h)


def _safe_page(sheet) -> Rect:
    return Rect(INK, INK, sheet.page_w - 2 * INK, sheet.page_h - 2 * INK)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_is_nine_up_portrait_centred_and_butted(paper):
    sheet = make_sheet(paper, POKER, BLEED)
    assert (sheet.cols, sheet.rows, sheet.landscape) == (3, 3, False)
    assert (sheet.page_w, sheet.page_h) == pytest.approx(sorted(PAPERS[paper].size))
    xs = sorted({s.trim.x for s in sheet.fronts})
    ys = sorted({s.trim.y for s in sheet.fronts})
    assert [b - a for a, b in pairwise(xs)] == pytest.approx([POKER[0]] * 2)  # butted: shared cut lines
    assert [b - a for a, b in pairwise(ys)] == pytest.approx([POKER[1]] * 2)
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
            assert any(ln.vertical == vertical and abs((ln.x1 if vertical else ln.y1) - pos) <= CUT_LINE_WIDTH
                       for ln in sheet.lines), (pos, vertical)
    # neither marks nor lines cross a card, marks not even its shown bleed
    for mark in sheet.marks:
        assert not any(mark.bbox().overlaps(box) for box in art), mark
    for line in sheet.lines:
        assert not _crosses_art(line, sheet), line


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_lie_outside_the_grid_on_every_cut_line(paper):
    """The issue's case: Letter 9-up poker has 6.35 mm above and below the grid and still marks every column
    cut."""
    sheet = make_sheet(paper, POKER, BLEED)
    cut_x, cut_y = _cuts(sheet)
    marked_x = {round(m.x1, 3) for m in sheet.marks if m.vertical}
    marked_y = {round(m.y1, 3) for m in sheet.marks if not m.vertical}
    assert marked_x == cut_x and marked_y == cut_y
    top = [m for m in sheet.marks if m.vertical and m.y1 > sheet.page_h / 2]
    assert len(top) == 4 and all(m.y2 <= sheet.page_h - MARK_INK + EPS for m in top)
    # the outer columns show bleed only as far as the crop marks allow: a cut to the marks gives the card size
    left = min(s.clip.x for s in sheet.fronts)
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


def test_butted_cut_lines_stop_at_the_cards_and_gapped_ones_run_the_whole_page():
    butted = make_sheet("a4", POKER, BLEED, marks="lines")
    assert butted.marks == [] and butted.lines
    inner_x = sorted({round(s.trim.x, 3) for s in butted.fronts})[1]
    inner = [ln for ln in butted.lines if ln.vertical and round(ln.x1, 3) == inner_x]
    assert len(inner) == 2  # above and below the grid only
    gapped = make_sheet("a4", POKER, BLEED, gap=mm(4), marks="lines")
    full = [ln for ln in gapped.lines if ln.vertical]
    assert full and all(ln.length == pytest.approx(gapped.page_h - 2 * MARK_INK) for ln in full)
    assert len(full) == 2 * gapped.cols  # both edges of every column


def test_a_gap_too_wide_or_unknown_marks_fail_clearly():
    with pytest.raises(LayoutError, match="gap"):
        make_sheet("a4", POKER, BLEED, gap=mm(60))
    with pytest.raises(LayoutError, match="unknown marks"):
        make_sheet("a4", POKER, BLEED, marks="dots")
    with pytest.raises(LayoutError, match="3 mm gaps"):
        make_sheet("letter", (mm(250), mm(300)), BLEED, gap=mm(3))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_bleed_shows_only_on_the_outer_edges_of_the_grid(paper):
    sheet = make_sheet(paper, POKER, BLEED)
    middle = next(s for s in sheet.fronts if (s.col, s.row) == (1, 1))
    assert middle.clip == middle.trim
    corner = next(s for s in sheet.fronts if (s.col, s.row) == (0, 0))
    assert corner.clip.x < corner.trim.x and corner.clip.y2 > corner.trim.y2 - 1e-9
    assert corner.clip.x2 == pytest.approx(corner.trim.x2)
    assert corner.trim.x - corner.clip.x <= BLEED + 1e-9
    clips = [s.clip for s in sheet.fronts]
    assert not any(a.overlaps(b) for i, a in enumerate(clips) for b in clips[i + 1:])


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_long_edge_duplex_mirrors_columns_short_edge_mirrors_rows(paper):
    long = make_sheet(paper, POKER, BLEED, duplex="long")
    short = make_sheet(paper, POKER, BLEED, duplex="short")
    for front, back in zip(long.fronts, long.backs, strict=True):
        assert (back.col, back.row) == (2 - front.col, front.row)
        assert back.trim.x == pytest.approx(long.page_w - front.trim.x2)
        assert back.trim.y == pytest.approx(front.trim.y)
    for front, back in zip(short.fronts, short.backs, strict=True):
        assert (back.col, back.row) == (front.col, 2 - front.row)
        assert back.trim.y == pytest.approx(short.page_h - front.trim.y2)
    none = make_sheet(paper, POKER, BLEED, duplex="none")
    assert [b.trim for b in none.backs] == [f.trim for f in none.fronts]


def test_landscape_sheets_flip_long_edge_about_the_horizontal_axis():
    sheet = make_sheet("letter", MINI, BLEED, duplex="long")
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


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_mini_cards_are_eighteen_up(paper):
    sheet = make_sheet(paper, MINI, BLEED)
    assert (sheet.cols, sheet.rows, sheet.per_page, sheet.landscape) == (6, 3, 18, True)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fold_layout_mirrors_backs_about_the_fold_line(paper):
    sheet = make_sheet(paper, POKER, BLEED, layout="fold")
    assert sheet.per_page == 4 and sheet.fold is not None
    fold_x = sheet.fold.x1
    assert sheet.fold.x1 == sheet.fold.x2
    for front, back in zip(sheet.fronts, sheet.backs, strict=True):
        assert front.trim.x2 <= fold_x and back.trim.x >= fold_x
        assert fold_x - front.trim.x2 == pytest.approx(back.trim.x - fold_x)  # same distance from the fold
        assert front.trim.y == pytest.approx(back.trim.y)
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
    pages = list(plan_pages(91, sheet))
    assert len(pages) == 22 and [p.side for p in pages[:4]] == ["front", "back", "front", "back"]
    numbers = [n for p in pages if p.side == "front" for _, n in p.cells]
    assert numbers == list(range(91))
    assert [p.cells for p in pages if p.side == "back"] == [p.cells for p in pages if p.side == "front"]
    assert len(pages[-1].cells) == 1 and pages[-1].sheets == 11
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
    if paper == "a4" and size == MINI and gap:  # 18-up with gaps leaves 6.75 and 7.5 mm: no room for a label
        assert placed == [None] * 4
        return
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
    sheet = make_sheet(paper, POKER, BLEED, duplex="short", back_offset=(2.0, -1.0))
    front, back = sheet.fronts[0].trim, sheet.backs[0].trim
    assert back.x == pytest.approx(front.x + 2.0) and back.y == pytest.approx(ph - front.y - front.h - 1.0)
