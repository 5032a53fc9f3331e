"""Imposition geometry (generator.cards.imposition): pure arithmetic, no ReportLab."""

from __future__ import annotations

from itertools import pairwise

import pytest

from generator.cards.imposition import (
    INK,
    LayoutError,
    calibration_targets,
    make_sheet,
    place_labels,
    plan_pages,
)
from generator.core.geometry import EPS, PAPERS, Rect
from generator.core.units import mm

POKER = (mm(63.5), mm(88.9))
MINI = (mm(44.5), mm(63.5))
BLEED = mm(3)


def _page(sheet) -> Rect:
    return Rect(0, 0, sheet.page_w, sheet.page_h)


def _safe_page(sheet) -> Rect:
    return Rect(INK, INK, sheet.page_w - 2 * INK, sheet.page_h - 2 * INK)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_is_nine_up_portrait_centred_and_butted(paper):
    sheet = make_sheet(paper, *POKER, BLEED)
    assert (sheet.cols, sheet.rows, sheet.landscape) == (3, 3, False)
    assert (sheet.page_w, sheet.page_h) == pytest.approx(sorted(PAPERS[paper].size))
    xs = sorted({s.trim.x for s in sheet.fronts})
    ys = sorted({s.trim.y for s in sheet.fronts})
    assert [b - a for a, b in pairwise(xs)] == pytest.approx([POKER[0]] * 2)  # butted: shared cut lines
    assert [b - a for a, b in pairwise(ys)] == pytest.approx([POKER[1]] * 2)
    left, right = xs[0], sheet.page_w - (xs[-1] + POKER[0])
    bottom, top = ys[0], sheet.page_h - (ys[-1] + POKER[1])
    assert left == pytest.approx(right) and bottom == pytest.approx(top)
    assert sheet.fronts[0].row == 0 and sheet.fronts[0].trim.y == pytest.approx(ys[-1])  # reading order: top row first


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", [POKER, MINI, (mm(57.15), mm(88.9)), (mm(70), mm(120)), (mm(70), mm(70))])
@pytest.mark.parametrize("layout", ["duplex", "fold"])
def test_all_ink_stays_six_mm_from_the_paper_edge(paper, size, layout):
    sheet = make_sheet(paper, *size, BLEED, layout=layout)
    for box in sheet.ink_boxes():
        assert _safe_page(sheet).contains(box, EPS), box
    for strip in sheet.strips:
        assert _safe_page(sheet).contains(strip.box, EPS)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_lie_outside_the_grid_on_every_cut_line(paper):
    sheet = make_sheet(paper, *POKER, BLEED)
    art = [s.clip for s in sheet.fronts]
    for mark in sheet.marks:
        assert not any(mark.bbox().overlaps(box) for box in art)
        assert not any(_touches_interior(mark, s.trim) for s in sheet.fronts)
    cut_x = sorted({round(s.trim.x, 3) for s in sheet.fronts} | {round(s.trim.x2, 3) for s in sheet.fronts})
    cut_y = sorted({round(s.trim.y, 3) for s in sheet.fronts} | {round(s.trim.y2, 3) for s in sheet.fronts})
    marked_x = {round(m.x1, 3) for m in sheet.marks if m.x1 == m.x2}
    marked_y = {round(m.y1, 3) for m in sheet.marks if m.y1 == m.y2}
    assert set(cut_y) == marked_y  # the side margins always have room for the row cuts
    if paper == "a4":
        assert set(cut_x) == marked_x
    else:  # Letter: 6.35 mm above/below the grid leaves no room above the 6 mm ink margin
        assert marked_x == set()


def _touches_interior(mark, rect: Rect) -> bool:
    box = mark.bbox()
    return rect.x < box.x < rect.x2 and rect.y < box.y < rect.y2


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_bleed_shows_only_on_the_outer_edges_of_the_grid(paper):
    sheet = make_sheet(paper, *POKER, BLEED)
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
    long = make_sheet(paper, *POKER, BLEED, duplex="long")
    short = make_sheet(paper, *POKER, BLEED, duplex="short")
    for front, back in zip(long.fronts, long.backs, strict=True):
        assert (back.col, back.row) == (2 - front.col, front.row)
        assert back.trim.x == pytest.approx(long.page_w - front.trim.x2)
        assert back.trim.y == pytest.approx(front.trim.y)
    for front, back in zip(short.fronts, short.backs, strict=True):
        assert (back.col, back.row) == (front.col, 2 - front.row)
        assert back.trim.y == pytest.approx(short.page_h - front.trim.y2)
    none = make_sheet(paper, *POKER, BLEED, duplex="none")
    assert [b.trim for b in none.backs] == [f.trim for f in none.fronts]


def test_landscape_sheets_flip_long_edge_about_the_horizontal_axis():
    sheet = make_sheet("letter", *MINI, BLEED, duplex="long")
    assert sheet.landscape
    for front, back in zip(sheet.fronts, sheet.backs, strict=True):
        assert back.col == front.col and back.row == sheet.rows - 1 - front.row


def test_back_offset_moves_every_back():
    plain = make_sheet("a4", *POKER, BLEED)
    shifted = make_sheet("a4", *POKER, BLEED, back_offset=(mm(1), mm(-2)))
    for a, b in zip(plain.backs, shifted.backs, strict=True):
        assert b.trim.x - a.trim.x == pytest.approx(mm(1))
        assert b.trim.y - a.trim.y == pytest.approx(mm(-2))
    assert [s.trim for s in plain.fronts] == [s.trim for s in shifted.fronts]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_mini_cards_are_eighteen_up(paper):
    sheet = make_sheet(paper, *MINI, BLEED)
    assert (sheet.cols, sheet.rows, sheet.per_page, sheet.landscape) == (6, 3, 18, True)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fold_layout_mirrors_backs_about_the_fold_line(paper):
    sheet = make_sheet(paper, *POKER, BLEED, layout="fold")
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
        make_sheet("a4", mm(250), mm(300), BLEED)
    with pytest.raises(LayoutError, match="half a sheet"):
        make_sheet("letter", mm(150), mm(200), BLEED, layout="fold")


def test_pages_alternate_fronts_and_backs_and_cover_every_card():
    sheet = make_sheet("letter", *POKER, BLEED)
    pages = list(plan_pages(91, sheet))
    assert len(pages) == 22 and [p.side for p in pages[:4]] == ["front", "back", "front", "back"]
    numbers = [n for p in pages if p.side == "front" for _, n in p.cells]
    assert numbers == list(range(91))
    assert [p.cells for p in pages if p.side == "back"] == [p.cells for p in pages if p.side == "front"]
    assert len(pages[-1].cells) == 1 and pages[-1].sheets == 11
    none = list(plan_pages(20, make_sheet("letter", *POKER, BLEED, duplex="none")))
    assert [p.side for p in none] == ["front"] * 3 + ["back"] * 3
    fold = list(plan_pages(10, make_sheet("letter", *POKER, BLEED, layout="fold")))
    assert [p.side for p in fold] == ["fold"] * 3


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", [POKER, MINI])
def test_labels_fit_in_the_margins_clear_of_marks_and_cards(paper, size):
    sheet = make_sheet(paper, *size, BLEED)
    placed = place_labels(sheet.strips, [(mm(38), 8.4), (mm(38), 8.4), (mm(35), 8.4), (mm(32), 8.4)])
    assert all(p is not None for p in placed)
    obstacles = [s.clip for s in sheet.fronts] + [m.bbox() for m in sheet.marks]
    for p in placed:
        assert _safe_page(sheet).contains(p.box, EPS)
        assert not any(p.box.overlaps(o) for o in obstacles)
    assert not any(a.box.overlaps(b.box) for i, a in enumerate(placed) for b in placed[i + 1:])


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_print_check_targets_are_mirrored_like_the_backs(paper):
    pw, ph = sorted(PAPERS[paper].size)
    long = {t.name: t for t in calibration_targets(paper, "long")}
    assert long["A"].front[0] < pw / 2 < long["B"].front[0] and long["A"].front[1] > ph / 2 > long["C"].front[1]
    for target in long.values():
        assert target.back == pytest.approx((pw - target.front[0], target.front[1]))  # columns mirrored
        x, y = target.front
        assert INK + mm(10) < x < pw - INK - mm(10) and INK + mm(10) < y < ph - INK - mm(10)  # grid and labels fit
    for target in calibration_targets(paper, "short", (2.0, -1.0)):
        assert target.back == pytest.approx((target.front[0] + 2.0, ph - target.front[1] - 1.0))  # rows, shifted
    # the card backs of a portrait sheet move the same way
    sheet = make_sheet(paper, *POKER, BLEED, duplex="short", back_offset=(2.0, -1.0))
    front, back = sheet.fronts[0].trim, sheet.backs[0].trim
    assert back.x == pytest.approx(front.x + 2.0) and back.y == pytest.approx(ph - front.y - front.h - 1.0)
