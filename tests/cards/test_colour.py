"""`--colour cmyk`: the colour stage turns the card sheets into PDF/X in press CMYK, read back with pypdf and
checked with Ghostscript's ink coverage; the default build stays RGB."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from generator.cards.colour import in_press_cmyk, press_spec
from generator.data.project import ASSETS
from generator.exports.preflight import Rules, preflight
from tests.conftest import run_pnp

GS = shutil.which("gs")
PROFILE = ASSETS / "profiles" / "pnp-fogra39.icc"  # the press preset's profile, bundled


def _rgb_sheet(path: Path) -> dict:
    """A small RGB 'sheet': black text, a saturated blue area, a grey and white paper, on two pages."""
    canvas = Canvas(str(path), pagesize=(144, 144))
    canvas.setTitle("Test sheet")
    canvas.setFillColorRGB(0.1, 0.2, 0.7)
    canvas.rect(0, 72, 144, 72, stroke=0, fill=1)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(10, 20, "Black text")
    canvas.setFillColorRGB(0.5, 0.5, 0.5)
    canvas.rect(100, 10, 30, 30, stroke=0, fill=1)
    canvas.showPage()
    canvas.setFillColorRGB(1, 0, 0)
    canvas.rect(20, 20, 40, 40, stroke=0, fill=1)
    canvas.showPage()
    canvas.save()
    return {"pages": 2}


def test_the_colour_stage_writes_pdfx_with_cmyk_only_and_pure_black_text(tmp_path):
    out = tmp_path / "cards-letter-cmyk.pdf"
    facts = in_press_cmyk(_rgb_sheet, out)
    spec = press_spec()
    assert facts == {"pages": 2, "colour": "cmyk", "pdfx": "PDF/X-4"}
    assert not (tmp_path / "cards-letter-cmyk-rgb.pdf").exists()  # the RGB drawing is not left behind
    reader = PdfReader(out)
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4" and reader.metadata["/Title"] == "Test sheet"
    raw = out.read_bytes()
    assert b"/DeviceRGB" not in raw and b"/ICCBased" not in raw
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/OutputCondition"] == intent["/Info"] == "Coated FOGRA39 (ISO 12647-2:2004)"
    assert intent["/DestOutputProfile"].get_object().get_data() == PROFILE.read_bytes()
    for page in reader.pages:
        trim, media = ([float(v) for v in page[box]] for box in ("/TrimBox", "/MediaBox"))
        assert trim == media == [0, 0, 144, 144]
        for image in page["/Resources"]["/XObject"].values():
            assert image.get_object()["/ColorSpace"] == "/DeviceCMYK"
    assert preflight(out, Rules(min_dpi=300)) == []  # checked as the PDF/X-4 it claims
    assert preflight(out, Rules(pdfx="PDF/X-4", cmyk=True, ink_limit=spec.ink_limit)) == []
    # the text's pixels: black ink alone; the blue held at the ink limit
    pdf = pypdfium2.PdfDocument(str(out))
    image_object = next(pdf[0].get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)))
    assert image_object.get_metadata().colorspace == pdfium_c.FPDF_COLORSPACE_DEVICECMYK
    data = reader.pages[0]["/Resources"]["/XObject"]["/Im0"].get_object()
    cmyk = Image.frombytes("CMYK", (int(data["/Width"]), int(data["/Height"])), data.get_data())
    scale = cmyk.width / 144
    dark = [cmyk.getpixel((x, y)) for x in range(int(12 * scale), int(80 * scale))
            for y in range(int((144 - 30) * scale), int((144 - 20) * scale))
            if cmyk.getpixel((x, y))[3] > 200]
    assert len(dark) > 50 and all(p[:3] == (0, 0, 0) for p in dark)
    grey = cmyk.getpixel((int(115 * scale), int((144 - 25) * scale)))
    assert grey[:3] == (0, 0, 0) and 110 <= grey[3] <= 140
    assert max(sum(cmyk.getpixel((int(72 * scale), int(36 * scale)))) / 255 * 100, 0) <= spec.ink_limit + 0.5


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed")
def test_ghostscript_reads_the_cmyk_sheets_as_cmyk(tmp_path):
    out = tmp_path / "sheet.pdf"
    in_press_cmyk(_rgb_sheet, out)
    result = subprocess.run([GS, "-q", "-dSAFER", "-o", "-", "-sDEVICE=inkcov", str(out)], check=True,
                            capture_output=True, text=True)
    lines = [line.split() for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 2 and all(line[-2:] == ["CMYK", "OK"] for line in lines)
    c, m, y, k = (float(v) for v in lines[0][:4])
    assert k > 0 and c > 0 and m > 0  # the blue is colour ink, the text black
    c, m, y, k = (float(v) for v in lines[1][:4])
    assert m > 0 and y > 0 and k < m  # the red page: magenta and yellow, little black


def test_a_default_build_stays_rgb_and_cmyk_is_its_own_file(tmp_project):
    game = tmp_project.root / "cards" / "go-fish" / "game.yaml"
    result = run_pnp("build", "go-fish", "--paper", "letter", project=tmp_project)
    assert result.exit_code == 0, result.output
    folder = tmp_project.build_dir / "go-fish"
    raw = (folder / "cards-letter.pdf").read_bytes()
    assert b"GTS_PDFXVersion" not in raw and not (folder / "cards-letter-cmyk.pdf").exists()
    text = game.read_text()
    if "print:" in text:
        pytest.skip("go-fish has its own print: block")
    game.write_text(text + "\nprint:\n  colour: cmky\n")
    bad = run_pnp("build", "go-fish", "--paper", "letter", project=tmp_project)
    assert bad.exit_code == 1 and "game.yaml:" in bad.output and "colour" in bad.output
    assert "Traceback" not in bad.output


@pytest.mark.skipif(not os.environ.get("PNP_SLOW"), reason="a whole game's sheets at 300 dpi: PNP_SLOW=1")
def test_pnp_build_colour_cmyk_passes_the_preflight(tmp_project):
    result = run_pnp("build", "go-fish", "--paper", "a4", "--colour", "cmyk", "--cut-machine", "cricut",
                     project=tmp_project)
    assert result.exit_code == 0, result.output
    out = tmp_project.build_dir / "go-fish" / "cards-a4-cricut-cmyk.pdf"
    assert preflight(out, Rules(pdfx="PDF/X-4", cmyk=True, ink_limit=300)) == []
    cuts = sorted((tmp_project.build_dir / "go-fish").glob("cards-a4-cricut-cmyk-cut-*.svg"))
    assert len(PdfReader(out).pages) == 2 + 2 * len(cuts)  # the print check, then fronts and backs
