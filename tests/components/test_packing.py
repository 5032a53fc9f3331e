"""Component sheets packed: every kind of a game's components shares the sheets, the largest pieces first and
each piece on the first sheet with room for it (pure geometry), and the bundled games' sheet counts read back
from their PDFs."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.components.pages import Piece, lay_out, packing_order
from generator.core.contract import BuildOptions
from generator.core.units import mm
from tests.fixtures.built import built_game


def _overlap(a, b) -> bool:
    return a.x < b.x2 and b.x < a.x2 and a.y < b.y2 and b.y < a.y2


def test_a_small_piece_goes_back_to_the_first_sheet_with_room():
    big = Piece(("net", "a", 1), mm(190), mm(170))
    other = Piece(("net", "b", 1), mm(190), mm(170))
    small = Piece(("die", "c", 1), mm(60), mm(60))
    pages = lay_out("letter", [big, other, small])
    assert len(pages) == 2  # the die fills the room under the first net, not a third sheet
    assert small in [p.piece for p in pages[0].pieces]
    for page in pages:
        boxes = page.boxes()
        assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_largest_first_keeps_print_order_among_equals():
    a, b = Piece(("x", "a", 1), 10, 10), Piece(("x", "b", 1), 10, 10)
    big = Piece(("x", "c", 1), 20, 20)
    assert packing_order([a, b, big]) == [big, a, b]


@pytest.mark.parametrize(("game", "most"), [("order-up-pizza", 2), ("short-order-hero", 4),
                                             ("order-up-trading", 2)])
def test_the_bundled_component_sheets(tmp_path_factory, game, most):
    """Pizza took 3 sheets (its dice and standees on a sheet of their own), now 2; Short Order Hero's four
    tuck-box nets are each wider than half and taller than half a sheet: 4 is the fewest."""
    root = built_game(tmp_path_factory.mktemp(game), game, BuildOptions(papers=("letter", "a4"), jobs=1))
    for paper in ("letter", "a4"):
        pdf = pdfium.PdfDocument(str(root / "build" / game / f"components-{paper}.pdf"))
        try:
            assert len(pdf) <= most, (game, paper, len(pdf))
        finally:
            pdf.close()
