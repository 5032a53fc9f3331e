"""Shapes and their packing (pure geometry): sizes of hexagons and circles, honeycombs that share cut edges,
hex-offset circles, and that nothing ever overlaps or leaves its rectangle."""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.core.packing import merge_segments, pack
from generator.core.shapes import Shape
from generator.core.units import INCH, mm
from generator.data.component_models import sheet_room


def test_hexagon_sizes_follow_the_circumradius():
    flat = Shape("hex", INCH)  # 1 in across flats
    r = INCH / math.sqrt(3)
    assert flat.circumradius == pytest.approx(r)
    assert (flat.width, flat.height) == (pytest.approx(2 * r), pytest.approx(INCH))
    pointy = Shape("hex", INCH, "pointy")
    assert (pointy.width, pointy.height) == (pytest.approx(INCH), pytest.approx(2 * r))
    corners = flat.corners()
    assert len(corners) == 6
    edges = [math.dist(corners[i], corners[(i + 1) % 6]) for i in range(6)]
    assert edges == [pytest.approx(r)] * 6
    assert max(y for _, y in corners) == pytest.approx(INCH / 2)  # flat top: across flats is the height


def test_inner_distance_and_boxes_inside_a_shape():
    circle = Shape("circle", mm(20))
    assert circle.inner_distance(0, 0) == pytest.approx(mm(10))
    assert circle.inner_distance(mm(10), 0) == pytest.approx(0, abs=1e-9)
    # a box in the corner of the square around a circle is outside the circle
    assert not circle.holds_rect(0, 0, mm(4), mm(4))
    assert circle.holds_rect(mm(5), mm(5), mm(10), mm(10), margin=mm(1.5))
    hexagon = Shape("hex", mm(30))
    assert hexagon.inner_distance(0, 0) == pytest.approx(mm(15))
    assert hexagon.inner_distance(0, mm(15)) == pytest.approx(0, abs=1e-6)
    rounded = Shape("rounded", mm(20), radius=mm(4))
    assert rounded.inner_distance(mm(10), mm(10)) < 0  # the cut-away corner
    assert rounded.inner_distance(mm(9), 0) == pytest.approx(mm(1))


def _no_overlap(packing, shape_across: float) -> None:
    centres = [(s.x, s.y) for s in packing.spots]
    for a, b in combinations(centres, 2):
        assert math.dist(a, b) >= shape_across + packing.gap - 1e-6


def test_hundred_one_inch_hexes_fill_a_letter_page_as_a_honeycomb():
    width, height = sheet_room("letter")
    packing = pack(Shape("hex", INCH), width, height, 0.0, limit=100)
    assert packing.count >= 70
    _no_overlap(packing, INCH)
    # neighbours touch: the nearest centre of each token is exactly one across-flats away
    centres = [(s.x, s.y) for s in packing.spots]
    nearest = [min(math.dist(c, o) for o in centres if o is not c) for c in centres]
    assert all(d == pytest.approx(INCH) for d in nearest)
    # shared edges are cut once: far fewer lines than six per token
    edges = [edge for s in packing.spots for edge in packing.shape.edges(s.x, s.y)]
    cuts = merge_segments(edges)
    assert len(cuts) < 6 * packing.count * 0.6
    assert packing.width <= width + 1e-6 and packing.height <= height + 1e-6


def test_hundred_one_inch_circles_sit_in_a_hex_offset_grid():
    width, height = sheet_room("letter")
    packing = pack(Shape("circle", INCH), width, height, 0.0, limit=100)
    assert packing.count >= 60
    _no_overlap(packing, INCH)
    # rows (or columns) d x sqrt(3)/2 apart, alternate ones offset by d/2: inner circles touch six others
    levels = [sorted({round(getattr(s, axis), 3) for s in packing.spots}) for axis in ("x", "y")]
    pitch = INCH * math.sqrt(3) / 2
    assert any(
        all(abs(b - a - pitch) < 0.01 for a, b in zip(level, level[1:], strict=False)) for level in levels
    )
    centres = [(s.x, s.y) for s in packing.spots]
    touching = [sum(1 for o in centres if abs(math.dist(c, o) - INCH) < 1e-6) for c in centres]
    assert max(touching) == 6
    assert len(packing.cuts()) == packing.count                   # one outline per circle


def test_a_gap_keeps_tokens_apart_and_still_fits():
    width, height = sheet_room("a4")
    packing = pack(Shape("circle", INCH), width, height, mm(2))
    _no_overlap(packing, INCH)
    assert packing.count >= 60


def test_a_short_run_takes_the_least_height():
    packing = pack(Shape("hex", INCH), *sheet_room("letter"), limit=5)
    assert packing.count == 5
    assert packing.height <= 2 * INCH / math.sqrt(3) + 1e-6  # one row: the tokens laid pointy


def test_squares_share_straight_cut_lines():
    packing = pack(Shape("square", mm(20)), mm(100), mm(60), 0.0)
    assert packing.count == 15
    assert len(packing.cuts()) == 6 + 4  # six vertical and four horizontal lines, each the grid's full length


def test_nothing_fits_when_the_shape_is_larger_than_the_room():
    assert pack(Shape("hex", mm(300)), *sheet_room("letter")) is None


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(["hex", "circle", "square", "rounded"]), across=st.floats(mm(8), mm(60)),
       width=st.floats(mm(20), mm(200)), height=st.floats(mm(20), mm(260)), gap=st.sampled_from([0.0, mm(2)]),
       orientation=st.sampled_from(["flat", "pointy"]))
def test_every_packing_stays_in_its_rectangle_without_overlaps(kind, across, width, height, gap, orientation):
    shape = Shape(kind, across, orientation, radius=mm(2))
    packing = pack(shape, width, height, gap)
    if packing is None:
        assert (
            max(shape.width, shape.height) > min(width, height) - 1e-6
            or shape.width > width
            or shape.height > height
        )
        return
    placed = packing.shape
    for spot in packing.spots:
        assert placed.width / 2 - 1e-6 <= spot.x <= width - placed.width / 2 + 1e-6
        assert placed.height / 2 - 1e-6 <= spot.y <= height - placed.height / 2 + 1e-6
    _no_overlap(packing, across)
