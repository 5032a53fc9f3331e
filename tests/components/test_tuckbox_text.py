"""Tuck-box text where a folded box shows it whole: the banner beside the deck's back art (never over it), and
the text of the sides and the lid at least 3 mm from every fold. The geometry is pure (tuckbox_net); the
bundled games' tuckboxes-full.pdf is measured from the characters pypdfium2 reads back."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.components.kinds.tuckbox import FULL_MARGIN, net
from generator.components.tuckbox_net import FOLD_CLEARANCE, panel_layout, side_text_room
from generator.core.contract import BuildOptions
from generator.core.units import mm
from generator.data.components import tuckbox_plan
from generator.data.load import load_game
from tests.fixtures.built import built_game

TOL = 0.05 * mm(1)


@pytest.mark.parametrize("foot", [True, False])
@pytest.mark.parametrize(("width", "height"), [(mm(65), mm(90)), (mm(46), mm(65)), (mm(72), mm(122))])
def test_the_banner_and_the_art_share_the_panel_without_overlapping(width, height, foot):
    layout = panel_layout(width, height, banner_at_foot=foot)
    band_low, band_high = layout.band_y - layout.band_h / 2, layout.band_y + layout.band_h / 2
    x0, y0, x1, y1 = layout.art
    assert -height / 2 < band_low < band_high < height / 2  # the banner inside its panel
    assert -width / 2 < x0 < x1 < width / 2 and -height / 2 < y0 < y1 < height / 2
    assert y0 >= band_high if foot else y1 <= band_low  # the art clear of the banner
    assert y1 - y0 > height / 2  # and still most of the panel


def test_side_text_keeps_3mm_from_each_fold():
    assert side_text_room(mm(9)) == pytest.approx(mm(3))
    assert side_text_room(mm(5)) == 0.0  # too narrow: no text at all


@pytest.fixture(scope="module", params=["short-order-hero", "order-up-pizza", "order-up-trading"])
def boxes(request, tmp_path_factory):
    root = built_game(tmp_path_factory.mktemp(request.param), request.param,
                      BuildOptions(papers=("letter",), jobs=1))
    from generator.data.project import Project

    game = load_game(Project(root), request.param)
    return game, root / "build" / request.param / "tuckboxes-full.pdf"


def _chars(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    text = page.get_textpage()
    return [(text.get_text_range(i, 1), text.get_charbox(i)) for i in range(text.count_chars())
            if text.get_text_range(i, 1).strip()]


def test_printed_side_and_lid_text_is_3mm_from_the_folds_and_the_banner_covers_no_art(boxes):
    game, path = boxes
    nets = [net(game, c, box.number) for c in game.components.values() if c.kind == "tuckbox"
            for box in tuckbox_plan(c, game.decks)]
    pdf = pdfium.PdfDocument(str(path))
    try:
        assert len(pdf) == len(nets)
        for page_index, flat in enumerate(nets):
            regions = {r.name: r for r in flat.regions}
            chars = _chars(pdf[page_index])
            assert chars
            for name in ("side-left", "side-right", "lid"):
                r = regions[name]
                across = r.angle % 180 == 90  # a side's folds are vertical lines, the lid's horizontal
                low = FULL_MARGIN + (r.cx - r.height / 2 if across else r.cy - r.height / 2)
                high = low + r.height
                inside = [box for _, box in chars if _within(box, FULL_MARGIN, r)]
                assert inside or side_text_room(r.height) < mm(2), (name, page_index)
                for left, bottom, right, top in inside:
                    lo, hi = (left, right) if across else (bottom, top)
                    assert lo - low >= FOLD_CLEARANCE - TOL and high - hi >= FOLD_CLEARANCE - TOL, (
                        name, page_index, (lo - low) / mm(1), (high - hi) / mm(1))
            front = regions["front"]
            layout = panel_layout(front.width, front.height, banner_at_foot=True)
            band = (FULL_MARGIN + front.cy + layout.band_y - layout.band_h / 2,
                    FULL_MARGIN + front.cy + layout.band_y + layout.band_h / 2)
            art_low = FULL_MARGIN + front.cy + layout.art[1]
            for _, (left, bottom, right, top) in [c for c in chars if _within(c[1], FULL_MARGIN, front)]:
                in_band = bottom >= band[0] - TOL and top <= band[1] + TOL
                assert in_band or bottom >= art_low - TOL  # the banner's text, or the art's above it
                if in_band:
                    assert left >= FULL_MARGIN + front.cx - front.width / 2
                    assert right <= FULL_MARGIN + front.cx + front.width / 2
    finally:
        pdf.close()


def _within(box, margin: float, region) -> bool:
    """The character's centre lies in the region (as placed on the page)."""
    left, bottom, right, top = box
    across = region.angle % 180 == 90
    w, h = (region.height, region.width) if across else (region.width, region.height)
    x, y = (left + right) / 2 - margin, (bottom + top) / 2 - margin
    return abs(x - region.cx) <= w / 2 and abs(y - region.cy) <= h / 2
