"""The print check's back page read back: the grid captions stay inside the safe area, whatever their
language."""

from __future__ import annotations

import pypdfium2
import pytest
from PIL import ImageOps
from reportlab.pdfgen.canvas import Canvas

from generator.cards.calibration import draw_check
from generator.cards.marks import INK
from generator.cards.print_options import SheetOptions
from generator.core.errors import InputError
from generator.core.fonts import BODY, register_fonts
from generator.core.geometry import PAPERS
from generator.core.phrases import Phrases

LONG = "X nach rechts positiv, Y nach oben positiv, alle Verschiebungen in Millimetern"


def _check_pdf(tmp_path, paper: str, caption: str, back_offset=(0.0, 0.0)) -> pypdfium2.PdfDocument:
    register_fonts()
    path = tmp_path / f"check-{paper}.pdf"
    canvas = Canvas(str(path), pagesize=PAPERS[paper].size, invariant=1, initialFontName=BODY)
    draw_check(canvas, "Test", paper, SheetOptions(back_offset=back_offset),
               Phrases("de", {"check.grid_axes": caption}))
    canvas.save()
    return pypdfium2.PdfDocument(str(path))


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("back_offset", [(0.0, 0.0), (4.0, 3.0)])
def test_a_long_grid_caption_wraps_inside_the_safe_area(tmp_path, paper, back_offset):
    pdf = _check_pdf(tmp_path, paper, LONG, back_offset)
    page = pdf[1]
    pw, ph = page.get_size()
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars()) if text.get_text_range(i, 1).strip()]
    for left, bottom, right, top in boxes:
        assert left >= INK - 0.5 and right <= pw - INK + 0.5, (left, right)
        assert bottom >= INK - 0.5 and top <= ph - INK + 0.5, (bottom, top)
    # every word of the caption is printed under all four grids (wrapped, not cut off)
    words = " ".join(text.get_text_range().split())
    assert words.count("Y nach oben positiv") == 4 and words.count("Verschiebungen") == 4
    # and no ink at all within 6 mm of the paper edge
    scale = 2.0
    image = page.render(scale=scale).to_pil().convert("L")
    x0, y0, x1, y1 = ImageOps.invert(image).point(lambda v: 255 if v > 5 else 0).getbbox()
    w, h = image.size
    assert min(x0, y0, w - x1, h - y1) / scale >= INK - 1 / scale


def test_a_caption_that_cannot_fit_is_an_error(tmp_path):
    with pytest.raises(InputError, match="check.grid_axes.*does not fit"):
        _check_pdf(tmp_path, "letter", "Verschiebungsmessrasterbeschriftungsüberlänge" * 2)
