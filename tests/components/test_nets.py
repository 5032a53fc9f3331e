"""Nets as pure geometry: a die folds into a cube with one glue tab per open edge, a tuck box's folds give
its inside size, a standee's halves and slots line up, and no cut or fold line ever ends in the paper."""

from __future__ import annotations

import math

import pytest

from generator.components.die_net import CROSS, cube_edges, die_net, fold
from generator.components.nets import Net, convex_overlap, polygon_points
from generator.components.standee_net import SLOT_WIDTH, StandeeSize, standee_net
from generator.components.tuckbox_net import tuckbox_net
from generator.core.units import mm
from generator.data.component_models import TuckboxFile, fits_every_paper, tuckbox_sizes
from tests.components.pdf_lines import loose_ends


def _net_lines(net: Net):
    cuts = []
    for path in net.cuts():
        points = [(op[-2], op[-1]) for op in path if op[0] != "Z"]
        cuts += list(zip(points, points[1:], strict=False))
        if path[-1][0] == "Z":
            cuts.append((points[-1], points[0]))
    return cuts, net.fold_lines()


def _edge_covered(a, b, lines, tol=1e-3) -> bool:
    """Every point of the straight edge a-b lies on one of the lines (pieces of it may be cut, others
    folded)."""
    from tests.components.pdf_lines import _on_segment

    samples = [(a[0] + (b[0] - a[0]) * t / 40, a[1] + (b[1] - a[1]) * t / 40) for t in range(41)]
    return all(any(_on_segment(p, c, d, tol) for c, d in lines) for p in samples)


def _every_part_edge_is_a_line(net: Net) -> None:
    cuts, folds = _net_lines(net)
    for part in net.parts:
        points = [(op[-2], op[-1]) for op in part.path if op[0] != "Z"]
        for op_index, op in enumerate(part.path[1:], start=1):
            if op[0] != "L":
                continue
            a, b = points[op_index - 1], points[op_index]
            assert _edge_covered(a, b, cuts + folds), (part.name, a, b)


def test_rolling_a_cube_over_the_cross_gives_six_faces_opposite_in_sevens():
    lying = fold(CROSS)
    downs = {face: o.down for face, o in lying.items()}
    assert len(set(downs.values())) == 6
    for a, b in ((1, 6), (2, 5), (3, 4)):
        assert downs[a] == tuple(-v for v in downs[b])


def test_die_net_has_one_glue_tab_on_each_open_cube_edge():
    net = die_net(mm(16))
    groups = cube_edges(net.cells)
    assert len(groups) == 7 and all(len(edges) == 2 for edges in groups.values())  # 14 outer edges pair up
    for edges in groups.values():
        assert sum(1 for edge in edges if edge in net.tabs) == 1
    assert len(net.net.folds) == 5 + 7  # the five folds between faces and one at the foot of each tab
    # tabs overlap neither a face nor each other (touching is allowed)
    polygons = [polygon_points(p.path) for p in net.net.parts]
    for i in range(len(polygons)):
        for j in range(i + 1, len(polygons)):
            assert not convex_overlap(polygons[i], polygons[j]), (
                net.net.parts[i].name,
                net.net.parts[j].name,
            )
    tab = next(p for p in net.net.parts if p.role == "tab")
    a, b, c, d = polygon_points(tab.path)
    angle = math.degrees(math.atan2(abs(c[1] - b[1]), abs(c[0] - b[0])))
    assert angle == pytest.approx(45)  # 45-degree ends


def test_die_net_lines_meet_and_cover_every_edge():
    net = die_net(mm(16)).net
    cuts, folds = _net_lines(net)
    assert loose_ends(cuts, folds, tol=1e-3) == []
    _every_part_edge_is_a_line(net)
    assert net.width == pytest.approx(3 * mm(16) + 2 * mm(5.5))


def _box(cards=91, boxes=1):
    model = TuckboxFile.model_validate({"component": "box", "kind": "tuckbox", "name": "Box", "deck": "d"})
    return model, tuckbox_sizes(model, mm(63.5), mm(88.9), cards, boxes)


def test_tuckbox_folds_measure_the_inside():
    model, (box,) = _box()
    net = tuckbox_net(box)
    verticals = sorted({round(a[0], 4) for a, b in net.fold_lines() if abs(a[0] - b[0]) < 1e-6
                        and abs(a[1] - b[1]) > mm(50)})
    assert len(verticals) == 4
    widths = [b - a for a, b in zip(verticals, verticals[1:], strict=False)]
    # front, back
    assert widths[0] == pytest.approx(mm(63.5 + 2)) and widths[2] == pytest.approx(mm(63.5 + 2))
    assert widths[1] == pytest.approx(91 * mm(0.32) + mm(2))  # the depth
    heights = [
        abs(a[1] - b[1]) for a, b in net.fold_lines() if abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) > mm(50)
    ]
    assert set(round(h, 4) for h in heights) == {round(mm(88.9 + 2), 4)}
    assert (net.width, net.height) == (pytest.approx(box.net_size[0]), pytest.approx(box.net_size[1]))


def test_tuckbox_lines_meet_and_cover_every_edge():
    _, (box,) = _box(33)
    net = tuckbox_net(box)
    cuts, folds = _net_lines(net)
    assert loose_ends(cuts, folds, tol=1e-3) == []
    _every_part_edge_is_a_line(net)
    front = net.part("front")
    assert any(op[0] == "C" for op in front.path)  # the thumb notch


def test_a_deep_deck_is_shared_between_boxes_that_fit_the_paper():
    model, sizes = _box(231, 1)
    assert not fits_every_paper(*sizes[0].net_size)
    model, sizes = _box(231, 3)
    assert [s.cards for s in sizes] == [77, 77, 77]
    assert all(fits_every_paper(*s.net_size) for s in sizes)


def test_standee_halves_mirror_about_the_fold_and_the_slots_interlock():
    size = StandeeSize(mm(22), mm(17), mm(8), mm(24))
    net = standee_net(size)
    fold_y = mm(8) + mm(17)
    folds_y = sorted({round(a[1], 4) for a, b in net.fold_lines()})
    assert round(fold_y, 4) in folds_y
    front, back = net.part("figure-front"), net.part("figure-back")
    mirrored = sorted((round(x, 4), round(2 * fold_y - y, 4)) for x, y in polygon_points(front.path))
    assert mirrored == sorted((round(x, 4), round(y, 4)) for x, y in polygon_points(back.path))
    slots = [polygon_points(s) for s in net.slots]
    heights = sorted(round(max(y for _, y in s) - min(y for _, y in s), 4) for s in slots)
    widths = {round(max(x for x, _ in s) - min(x for x, _ in s), 4) for s in slots}
    assert widths == {round(SLOT_WIDTH, 4)}
    # the figure's feet are slotted half their height from the edge; the base's slot straddles its fold by the
    # same
    assert heights[:2] == [round(mm(4), 4)] * 2 and heights[2] == round(mm(8), 4)
    cuts, folds = _net_lines(net)
    assert loose_ends(cuts, folds, tol=1e-3) == []
