"""No stray images (issue 34): no spacer or other tiny picture in any PDF pnp writes. Every image XObject of
every page, inside forms too, is read back with pypdf."""

from __future__ import annotations

import os
from pathlib import Path

from tests.conftest import run_pnp
from tests.pdf_images import page_images

TINY = 8  # px: a picture this small on a side is a spacer or a mistake, never art


def images(path: Path) -> list[tuple[int, str, int, int]]:
    """(page number, name, width px, height px) of every image XObject a page of the PDF uses, forms
    included."""
    return [(number, name, int(xobject["/Width"]), int(xobject["/Height"]))
            for number, name, _, xobject in page_images(path)]


def tiny_images(folder: Path) -> list[str]:
    """One line per image smaller than TINY px on a side in any PDF under `folder`."""
    return [f"{pdf.relative_to(folder)} page {page}: {name} is {w}x{h} px"
            for pdf in sorted(folder.rglob("*.pdf")) for page, name, w, h in images(pdf)
            if min(w, h) < TINY]


def test_a_game_s_pdfs_and_shop_files_hold_no_tiny_image(tmp_project):
    """Card sheets, rules, booklets, components and the print-shop PDF of a game with inline icons."""
    games = ["order-up-trading"] if not os.environ.get("PNP_SLOW") else []
    result = run_pnp("build", *games, "--force", project=tmp_project)
    assert result.exit_code == 0, result.output
    shop = run_pnp("export", "pod", "order-up-trading", "--shop", "drivethrucards", project=tmp_project)
    assert shop.exit_code == 0, shop.output
    # the command's own output, here rather than in a second export of its own (tests/exports/test_exports.py)
    assert "PDF/X-1a" in shop.output and "CMYK" in shop.output
    folder = tmp_project.build_dir / "order-up-trading" / "pod" / "drivethrucards"
    assert sorted(p.name for p in folder.iterdir()) == ["ingredients.pdf", "recipes.pdf", "rules.pdf"]
    pdfs = list(tmp_project.build_dir.rglob("*.pdf"))
    assert len(pdfs) >= 8 and any("pod" in str(p) or "drivethru" in str(p) for p in pdfs), pdfs
    assert tiny_images(tmp_project.build_dir) == []


def test_the_scan_finds_a_one_pixel_image_inside_a_form(tmp_path):
    """The scan sees a 1x1 picture drawn inside a form, as ReportLab placed the old spacer of inline icons."""
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    canvas = Canvas(str(tmp_path / "spacer.pdf"), pagesize=(100, 100), invariant=1)
    canvas.drawImage(ImageReader(Image.new("RGB", (40, 30), "red")), 50, 50, 40, 30)
    canvas.beginForm("holder")
    canvas.drawImage(ImageReader(Image.new("RGBA", (1, 1), (255, 255, 255, 0))), 10, 10, 12, 12, mask="auto")
    canvas.endForm()
    canvas.doForm("holder")
    canvas.showPage()
    canvas.save()
    assert sorted((w, h) for _, _, w, h in images(tmp_path / "spacer.pdf")) == [(1, 1), (40, 30)]
    assert len(tiny_images(tmp_path)) == 1 and "1x1 px" in tiny_images(tmp_path)[0]
