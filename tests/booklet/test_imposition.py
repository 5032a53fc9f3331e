"""Saddle-stitch imposition maths: page order per sheet side, padding and scale-to-fit."""

from __future__ import annotations

import pytest

from generator.booklet.imposition import fit, halves, imposition, padded_count


def _order(pages: int) -> list[tuple[str, int | None, int | None]]:
    return [(side.side, side.left, side.right) for side in imposition(pages)]


def test_four_pages_is_one_sheet():
    assert _order(4) == [("front", 4, 1), ("back", 2, 3)]


def test_eight_pages_nest_two_sheets():
    assert _order(8) == [("front", 8, 1), ("back", 2, 7), ("front", 6, 3), ("back", 4, 5)]


def test_twelve_pages():
    assert _order(12) == [("front", 12, 1), ("back", 2, 11), ("front", 10, 3), ("back", 4, 9),
                          ("front", 8, 5), ("back", 6, 7)]


def test_sixteen_pages_outer_and_inner_sheet():
    order = _order(16)
    assert len(order) == 8
    assert order[0] == ("front", 16, 1) and order[1] == ("back", 2, 15)
    assert order[-2] == ("front", 10, 7) and order[-1] == ("back", 8, 9)


@pytest.mark.parametrize("pages", range(1, 41))
def test_every_page_once_and_facing_pages_add_up(pages):
    n = padded_count(pages)
    assert n % 4 == 0 and n - 4 < pages <= n
    sides = imposition(pages)
    assert len(sides) == n // 2
    seen = [p for s in sides for p in (s.left, s.right) if p is not None]
    assert sorted(seen) == list(range(1, pages + 1))
    for side in sides:  # the two halves of a sheet side are always pages k and n+1-k
        left = side.left if side.left is not None else None
        right = side.right if side.right is not None else None
        expected = (
            [n - 2 * side.sheet, 1 + 2 * side.sheet]
            if side.side == "front"
            else [2 + 2 * side.sheet, n - 1 - 2 * side.sheet]
        )
        assert [left, right] == [p if p <= pages else None for p in expected]


def test_padding_pages_are_blank():
    assert _order(5) == [("front", None, 1), ("back", 2, None), ("front", None, 3), ("back", 4, 5)]


def test_no_pages_is_an_error():
    with pytest.raises(ValueError):
        padded_count(0)


def test_half_letter_fills_half_a_letter_sheet_and_shrinks_on_a4():
    left, right = halves(792, 612)
    assert left == (0.0, 0.0, 396.0, 612) and right == (396.0, 0.0, 396.0, 612)
    exact = fit(396, 612, *right)
    assert (exact.scale, exact.x, exact.y) == (1.0, 396.0, 0.0)
    a4 = fit(396, 612, *halves(841.89, 595.28)[0])
    assert a4.scale == pytest.approx(595.28 / 612)
    assert a4.y == pytest.approx(0.0) and a4.x > 0  # centred across the half sheet


def test_back_matter_stays_on_the_back_cover_with_the_blanks_before_it():
    sides = imposition(10, back=1)  # 10 pages on 12: pages 10 and 11 of the booklet blank, page 10 last
    order = {}
    for side in sides:
        for position, page in ((side.sheet, side.left), (side.sheet, side.right)):
            order.setdefault(page, []).append(position)
    assert sides[0].left == 10 and sides[0].right == 1  # back cover and cover on the outer sheet
    pages = [p for side in sides for p in (side.left, side.right)]
    assert sorted(p for p in pages if p) == list(range(1, 11)) and pages.count(None) == 2
    assert imposition(8, back=1) == imposition(8)  # no padding: nothing moves
    assert imposition(10, back=0)[0].left is None  # without back matter the last pages are the blanks
