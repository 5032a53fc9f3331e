"""The colour-vision simulation and distances: published reference values, and what collapses."""

from __future__ import annotations

import pytest

from generator.core.colour_vision import DEFICIENCIES, ciede2000, collapses, delta_e, simulate, svg_matrix

RED, GREEN, BLUE, BLACK, WHITE = (214, 40, 40), (46, 158, 68), (31, 95, 191), (0, 0, 0), (255, 255, 255)


@pytest.mark.parametrize(("one", "other", "expected"), [
    # pairs 1, 7 and 17 of Sharma, Wu and Dalal's CIEDE2000 test data
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
])
def test_ciede2000_matches_the_published_pairs(one, other, expected):
    assert ciede2000(one, other) == pytest.approx(expected, abs=1e-4)


def test_greys_are_seen_as_they_are_and_red_green_collapse_for_deuteranopes():
    for deficiency in DEFICIENCIES:
        assert simulate(WHITE, deficiency) == WHITE and simulate(BLACK, deficiency) == BLACK
        assert simulate((128, 128, 128), deficiency) == pytest.approx((128, 128, 128), abs=1)
    assert delta_e(RED, GREEN) > 60
    assert delta_e(RED, GREEN, "deuteranopia") < 10  # the classic confusion
    assert delta_e(RED, GREEN, "tritanopia") > 60
    assert delta_e(BLUE, GREEN, "tritanopia") < delta_e(BLUE, GREEN) / 2


def test_colour_alone_collapses_and_a_mark_tells_pieces_apart():
    area = 1.0  # mm² a pixel
    assert [name for name, _, _ in collapses([RED] * 400, [GREEN] * 400, area)] == ["deuteranopia"]
    # the same colours with a letter's strokes (4 mm²) drawn differently on each
    assert collapses([RED] * 396 + [BLACK] * 4, [GREEN] * 392 + [BLACK] * 4 + [WHITE] * 4, area) == []
    assert collapses([RED] * 400, [BLUE] * 400, area) == []  # told apart in every vision
    assert collapses([RED] * 400, [RED] * 400, area) == []   # the same picture: not a colour matter


def test_the_studio_filter_is_the_simulation_as_an_svg_colour_matrix():
    """The feColorMatrix values (4 x 5, on linear RGB) applied by hand give what `simulate` gives."""
    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def encoded(value: float) -> int:
        v = min(1.0, max(0.0, value))
        return round((12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055) * 255)

    for deficiency in DEFICIENCIES:
        values = [float(v) for v in svg_matrix(deficiency).split()]
        assert len(values) == 20 and values[15:] == [0.0, 0.0, 0.0, 1.0, 0.0]  # alpha kept
        for rgb in ((214, 40, 40), (46, 139, 87), (31, 95, 191), (255, 255, 255), (0, 0, 0)):
            lin = [linear(c) for c in rgb] + [1.0, 1.0]
            out = tuple(encoded(sum(m * c for m, c in zip(values[row * 5:row * 5 + 5], lin, strict=True)))
                        for row in range(3))
            assert out == simulate(rgb, deficiency), (deficiency, rgb)
