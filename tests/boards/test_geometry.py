"""generator.boards.plan without ReportLab: tiling maths, orientation choice, label placement."""

from __future__ import annotations

import subprocess
import sys
from itertools import combinations

import pytest

from generator.boards.plan import HOUSE_MIN_PT, free_cell_blocks, plan_board, plan_spaces
from generator.boards.tiling import plan_tiling, tiles_along
from generator.core.geometry import PAPERS, Rect
from generator.core.units import MM
from generator.data.models import BoardFile

MARGIN, OVERLAP = 6 * MM, 12 * MM


def test_board_geometry_does_not_import_reportlab():
    code = ("import sys, generator.boards.plan; print(sorted(m for m in sys.modules if "
            "m.startswith('reportlab')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(("length", "area", "expected"), [
    (100, 200, 1), (200, 200, 1), (201, 200, 2), (388, 200, 2), (389, 200, 3), (576, 200, 3), (577, 200, 4),
])
def test_tiles_along_counts_with_overlap(length, area, expected):
    # n tiles of 200 with 12 overlap cover 200 + (n - 1) * 188
    assert tiles_along(length, area, 12) == expected


def test_tiles_along_rejects_overlap_as_large_as_the_page():
    with pytest.raises(ValueError):
        tiles_along(500, 30, 30)


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("board_mm", [(326, 218), (220, 60), (500, 500), (180, 150), (420, 297)])
def test_tiles_cover_the_board_and_overlap_exactly(paper, board_mm):
    board = (board_mm[0] * MM, board_mm[1] * MM)
    tiling = plan_tiling(board, PAPERS[paper].size, MARGIN, OVERLAP)
    aw, ah = tiling.area
    assert aw == pytest.approx(tiling.page[0] - 2 * MARGIN)
    assert ah == pytest.approx(tiling.page[1] - 2 * MARGIN)
    assert len(tiling.tiles) == tiling.rows * tiling.cols == tiling.pages
    regions = {(t.row, t.col): t.region for t in tiling.tiles}
    for (r, c), region in regions.items():
        assert (region.w, region.h) == pytest.approx((aw, ah))
        if (r, c + 1) in regions:  # neighbours share exactly `overlap`
            assert region.x2 - regions[(r, c + 1)].x == pytest.approx(OVERLAP)
            assert regions[(r, c + 1)].y == pytest.approx(region.y)
        if (r + 1, c) in regions:
            assert regions[(r + 1, c)].y2 - region.y == pytest.approx(OVERLAP)
    # the union covers the whole board, with the spare paper split evenly around it
    left, right = min(g.x for g in regions.values()), max(g.x2 for g in regions.values())
    bottom, top = min(g.y for g in regions.values()), max(g.y2 for g in regions.values())
    assert left <= 1e-6 and bottom <= 1e-6 and right >= board[0] - 1e-6 and top >= board[1] - 1e-6
    assert -left == pytest.approx(right - board[0]) and -bottom == pytest.approx(top - board[1])
    # one fewer tile in either direction would not cover the board
    if tiling.cols > 1:
        assert (tiling.cols - 1) * aw - (tiling.cols - 2) * OVERLAP < board[0]
    if tiling.rows > 1:
        assert (tiling.rows - 1) * ah - (tiling.rows - 2) * OVERLAP < board[1]


def test_orientation_is_the_one_with_fewest_pages():
    letter = PAPERS["letter"].size
    # 326 x 218 mm: portrait 2 columns x 1 row = 2 pages; landscape 2 x 2 = 4
    city = plan_tiling((326 * MM, 218 * MM), letter, MARGIN, OVERLAP)
    assert (city.orientation, city.rows, city.cols) == ("portrait", 1, 2)
    # a 260 x 150 mm strip fits one landscape page but needs two portrait ones
    strip = plan_tiling((260 * MM, 150 * MM), letter, MARGIN, OVERLAP)
    assert (strip.orientation, strip.pages) == ("landscape", 1)
    assert strip.page == (792.0, 612.0)
    # a tie keeps portrait
    square = plan_tiling((150 * MM, 150 * MM), letter, MARGIN, OVERLAP)
    assert (square.orientation, square.pages) == ("portrait", 1)


def test_offset_maps_tile_region_onto_the_printable_area():
    tiling = plan_tiling((500 * MM, 400 * MM), PAPERS["a4"].size, MARGIN, OVERLAP)
    for tile in tiling.tiles:
        dx, dy = tiling.offset(tile)
        assert tile.region.x + dx == pytest.approx(MARGIN)
        assert tile.region.y2 + dy == pytest.approx(tiling.page[1] - MARGIN)
    assert [t.name for t in tiling.tiles][:2] == ["row 1 col 1", "row 1 col 2"]


def test_free_cell_blocks_finds_the_biggest_empty_rectangle():
    used = {(c, r) for c in range(5) for r in range(5) if c in (0, 4) or r in (0, 4)}
    blocks = free_cell_blocks(5, 5, used)
    assert blocks[0] == (1, 1, 3, 3)
    assert all(not any((c, r) in used for c in range(b[0], b[0] + b[2]) for r in range(b[1], b[1] + b[3]))
               for b in blocks)


def ring_board(n: int = 9, cell: str = "18mm") -> BoardFile:
    """A ring road of n x n cells with two streets, two restaurants and house numbers."""
    spaces = [
        {"id": f"c{c}r{r}", "at": [c, r]}
        for r in range(n)
        for c in range(n)
        if r in (0, n - 1) or c in (0, n - 1)
    ]
    for space in spaces:
        if space["at"] in ([0, 0], [n - 1, n - 1]):
            space.update(kind="restaurant", color="#d62828", color_name="Red", label="Red restaurant")
    top = [f"c{c}r0" for c in range(1, n - 1)]
    left = [f"c0r{r}" for r in range(1, n - 1)]
    return BoardFile.model_validate({
        "board": "ring", "name": "Ring", "grid": {"cols": n, "rows": n, "cell": cell, "margin": "10mm"},
        "connect_adjacent": True, "spaces": spaces,
        "streets": [
            {"id": "top-road", "name": "Top Road", "color": "#f77f00", "color_name": "Orange", "spaces": top,
             "houses": {10 * (i + 1) + 1: sid for i, sid in enumerate(top)}},
            {"id": "west-way", "name": "West Way", "color": "#12a4a8", "color_name": "Teal", "spaces": left,
             "houses": {10 * (i + 1) + 1: sid for i, sid in enumerate(left)}},
        ],
        "notes": ["Drive carefully."],
    })


def test_plan_places_every_house_number_and_both_street_ends_without_overlaps():
    model = ring_board()
    plan = plan_board(model)
    houses = plan.house_labels()
    for street in model.streets:
        for number, sid in street.houses.items():
            assert houses[sid] == str(number)
        assert plan.street_labels()[street.id] == 2
    for label in plan.labels:
        assert plan.trim.inset(3 * MM).contains(label.rect), label
        if label.kind == "house":
            assert label.size >= HOUSE_MIN_PT
            assert plan.spaces[label.ref].rect.contains(label.rect)
        else:
            assert not any(label.rect.overlaps(s.rect) for s in plan.spaces.values()), label
    for a, b in combinations([lab for lab in plan.labels if lab.kind != "house"], 2):
        assert not a.rect.overlaps(b.rect), (a, b)
    for box in (plan.title_box, plan.legend_box, plan.notes_box):
        assert box is not None
        assert not any(box.overlaps(lab.rect) for lab in plan.labels)
        assert not any(box.overlaps(s.rect) for s in plan.spaces.values())
    assert plan.dropped == []


def test_the_checks_plan_of_spaces_is_the_drawn_plans_without_names_or_boxes():
    model = ring_board()
    full, spaces = plan_board(model), plan_spaces(model)
    assert (spaces.width, spaces.height, spaces.trim) == (full.width, full.height, full.trim)
    assert {sid: (s.rect, s.fill, s.streets, s.house) for sid, s in spaces.spaces.items()} == \
        {sid: (s.rect, s.fill, s.streets, s.house) for sid, s in full.spaces.items()}
    assert spaces.labels == [label for label in full.labels if label.kind == "house"]
    assert spaces.house_labels() == full.house_labels() and spaces.roads == [] and spaces.title_box is None


def test_street_names_run_along_their_street():
    plan = plan_board(ring_board())
    by_street = {}
    for label in plan.labels:
        if label.kind == "street":
            by_street.setdefault(label.ref, []).append(label)
    assert {lab.angle for lab in by_street["top-road"]} == {0}  # horizontal street, horizontal text
    assert {lab.angle for lab in by_street["west-way"]} == {90}  # vertical street, turned text
    top = sorted(by_street["top-road"], key=lambda lab: lab.rect.x)
    first, last = plan.spaces["c1r0"].rect, plan.spaces["c7r0"].rect
    assert top[0].rect.x < first.x2 and top[1].rect.x2 > last.x  # one name at each end


def test_streets_get_distinct_patterns_for_greyscale():
    model = ring_board()
    plan = plan_board(model)
    assert len(set(plan.street_patterns.values())) == len(model.streets)
    assert plan.spaces["c2r0"].pattern == plan.street_patterns["top-road"]


def test_small_zone_for_cards_is_reported():
    data = ring_board().model_dump()
    data["zones"] = [{"id": "deck", "caption": "Deck", "at": [1, 1], "size": [2, 2], "kind": "cards"}]
    plan = plan_board(BoardFile.model_validate(data))
    assert any("deck" in w and "smaller than a card" in w for w in plan.warnings)


def test_rect_overlap_and_containment():
    a = Rect(0, 0, 10, 10)
    assert a.overlaps(Rect(9, 9, 5, 5)) and not a.overlaps(Rect(10, 0, 5, 5))
    assert a.contains(Rect(1, 1, 2, 2)) and not a.contains(Rect(8, 8, 5, 5))
