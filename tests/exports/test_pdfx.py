"""PDF/X-1a:2003 in press CMYK for DriveThruCards and `pnp preflight` (issue 34), checked against independent
tools: Ghostscript's tiffsep separations for the total ink, PDFium for the images' colour spaces and
resolution."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image, ImageChops, ImageCms, ImageDraw, ImageMath
from pypdf import PdfReader
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import InputError
from generator.core.pdfx import PdfxSpec, max_ink, to_cmyk
from generator.core.units import INCH
from generator.data.project import ASSETS
from generator.exports import pod
from generator.exports.preflight import Rules, preflight
from tests.conftest import run_pnp

GS = shutil.which("gs")
PROFILE = ASSETS / "profiles" / "pnp-fogra39.icc"  # pnp's own press profile, the presets' default
needs_gs = pytest.mark.skipif(GS is None, reason="Ghostscript is not installed")
X1A = Rules(pdfx="PDF/X-1a:2003", cmyk=True, ink_limit=240, min_dpi=300)


def gs_max_ink(path: Path, folder: Path) -> tuple[float, set[str]]:
    """Ghostscript's separations of every page at 150 dpi: the largest total ink of any pixel (percent) and
    the names of the separations it made (only the four process inks for a CMYK-only file)."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r150",
                    "-o", str(folder / "p%03d.tif"), str(path)], check=True, capture_output=True)
    worst, names = 0.0, set()
    for composite in sorted(folder.glob("p[0-9][0-9][0-9].tif")):
        bands = []
        for ink in ("Cyan", "Magenta", "Yellow", "Black"):
            with Image.open(folder / f"{composite.stem}({ink}).tif") as band:
                bands.append(ImageChops.invert(band.convert("L")).convert("F"))  # tiffsep: 255 is no ink
        total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=bands[0], m=bands[1],
                                      y=bands[2], k=bands[3])
        worst = max(worst, total.getextrema()[1] / 255 * 100)
        names |= {p.name.split("(")[1].rstrip(").tif") for p in folder.glob(f"{composite.stem}(*).tif")}
    return worst, names


def _exported(tmp_path_factory, game: str, shop: str) -> list[Path]:
    """`pnp export pod GAME --shop SHOP` in a copy of the game: the shop's PDFs."""
    from generator.data.project import Project

    root = tmp_path_factory.mktemp(f"pdfx-{shop}")
    shutil.copytree(Path(__file__).parents[2] / "cards" / game, root / "cards" / game)
    shutil.copytree(Path(__file__).parents[2] / "templates", root / "templates")
    project = Project(root)
    result = run_pnp("export", "pod", game, "--shop", shop, project=project)
    assert result.exit_code == 0, result.output
    return sorted((project.build_dir / game / "pod" / shop).glob("*.pdf"))


@pytest.fixture(scope="module")
def shop_files(tmp_path_factory):
    return _exported(tmp_path_factory, "order-up-trading", "drivethrucards")


@needs_gs
def test_drivethrucards_files_are_pdfx_1a_that_preflight_and_ghostscript_accept(shop_files, tmp_path):
    assert [p.stem for p in shop_files] == ["ingredients", "recipes", "rules"]
    for path in shop_files:
        assert preflight(path, X1A) == []
        reader = PdfReader(path)
        assert reader.pdf_header == "%PDF-1.4" and reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
        intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
        assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
        assert intent["/OutputCondition"] == "Coated FOGRA39 (ISO 12647-2:2004)"
        assert intent["/RegistryName"] == "http://www.color.org" and "/DestOutputProfile" not in intent
        bleed = 0.125 * INCH
        for page in reader.pages:
            assert "/TrimBox" in page and "/BleedBox" in page and "/ArtBox" not in page
            trim, box = [float(v) for v in page["/TrimBox"]], [float(v) for v in page["/BleedBox"]]
            assert trim[0] == pytest.approx(bleed) and box == [float(v) for v in page["/MediaBox"]]
            assert (trim[2] - trim[0], trim[3] - trim[1]) == pytest.approx((2.5 * INCH, 3.5 * INCH), abs=0.01)
        # PDFium: every image DeviceCMYK, at least 300 dpi where it is printed
        for page in pypdfium2.PdfDocument(str(path)):
            for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
                meta = image.get_metadata()
                assert meta.colorspace == pdfium_c.FPDF_COLORSPACE_DEVICECMYK
                assert min(meta.horizontal_dpi, meta.vertical_dpi) >= 299.5
        # Ghostscript: the four process inks only, at most 240 % anywhere
        worst, names = gs_max_ink(path, tmp_path / path.stem)
        assert names == {"Cyan", "Magenta", "Yellow", "Black"} and worst <= 240.5, (path.name, worst)


def test_the_conversion_gives_pure_black_text_rich_black_areas_and_holds_the_ink_limit():
    spec = PdfxSpec("x-1a", 240, PROFILE, "FOGRA39")
    image = Image.new("RGB", (600, 600), (20, 40, 160))  # a deep blue: far over 240 % when converted plainly
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 200, 200), fill=(0, 0, 0))            # a large black area
    draw.text((300, 300), "Black text", fill=(0, 0, 0))         # small black text
    draw.rectangle((400, 0, 599, 100), fill=(128, 128, 128))    # a grey
    plain = ImageCms.applyTransform(image, ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(str(PROFILE)), "RGB", "CMYK"))
    assert max_ink(plain) > 260  # the profile alone would break the limit
    cmyk = to_cmyk(image, spec)
    assert max_ink(cmyk) <= 240.01
    assert cmyk.getpixel((100, 100)) == (153, 102, 102, 255)  # C60 M40 Y40 K100
    c, m, y, k = cmyk.getpixel((500, 50))
    assert (c, m, y) == (0, 0, 0) and 120 <= k <= 135          # grey: black ink alone
    # the text's dark pixels (anti-aliased over the blue: (1, 1, 6) and so on) are black ink alone
    text = [cmyk.getpixel((x, yy)) for x in range(295, 420) for yy in range(295, 325)
            if max(rgb := image.getpixel((x, yy))) <= 48 and max(rgb) - min(rgb) <= 16]
    assert len(text) > 20 and all(p[:3] == (0, 0, 0) and p[3] > 200 for p in text)  # pure K


def _bad_pdf(path: Path) -> None:
    """A page with everything a shop refuses: an RGB 40 x 30 px picture 2 in wide, an unembedded font, a
    0.1 pt line, a 400 % colour, no TrimBox; a second page with boxes, but text at its trim edge (and the
    unembedded font)."""
    canvas = Canvas(str(path), pagesize=(200, 280))
    canvas.drawImage(ImageReader(Image.new("RGB", (40, 30), "red")), 20, 20, 144, 108)
    canvas.setFont("Helvetica", 9)
    canvas.drawString(30, 200, "Helvetica, not embedded")
    canvas.setLineWidth(0.1)
    canvas.line(10, 150, 190, 150)
    canvas.setFillColorCMYK(1, 1, 1, 1)
    canvas.rect(120, 200, 40, 40, stroke=0, fill=1)
    canvas.showPage()
    canvas.setTrimBox((9, 9, 191, 271))
    canvas.setBleedBox((0, 0, 200, 280))
    canvas.setFillColorCMYK(0, 0, 0, 1)
    canvas.rect(0, 0, 200, 280, stroke=0, fill=1)
    canvas.setFillColorCMYK(0, 0, 0, 0)
    canvas.setFont("Helvetica", 9)
    canvas.drawString(12, 140, "at the cut")
    canvas.showPage()
    canvas.save()


def test_preflight_names_every_problem_and_its_page(tmp_path):
    path = tmp_path / "bad.pdf"
    _bad_pdf(path)
    lines = preflight(path, X1A)
    text = "\n".join(lines)
    assert "bad.pdf: GTS_PDFXVersion is ''" in text and "bad.pdf: no OutputIntent" in text
    page1 = [line for line in lines if line.startswith("bad.pdf page 1:")]
    for words in ("no TrimBox", "is RGB; expected CMYK", "40 x 30 px prints at 20 dpi", "is not embedded",
                  "a line 0.1 pt wide", "total ink 400 %"):
        assert any(words in line for line in page1), (words, page1)
    page2 = [line.removeprefix("bad.pdf page 2: ") for line in lines if line.startswith("bad.pdf page 2:")]
    assert [line.split(" (")[0].split(" near")[0] for line in page2] == [
        "font /Helvetica is not embedded", "text outside the safe zone"], page2


@needs_gs
def test_preflight_s_total_ink_agrees_with_ghostscript(tmp_path, shop_files):
    path = tmp_path / "bad.pdf"
    _bad_pdf(path)
    worst, _ = gs_max_ink(path, tmp_path / "bad")
    assert worst > 240 and any("total ink 400 %" in line for line in preflight(path, X1A))
    for shop_file in shop_files[:1]:
        gs_worst, _ = gs_max_ink(shop_file, tmp_path / "shop")
        assert gs_worst <= 240.5 and not any("total ink" in line for line in preflight(shop_file, X1A))


def test_preflight_cli_reports_one_line_per_problem_and_exits_1(tmp_path, tmp_project):
    path = tmp_path / "bad.pdf"
    _bad_pdf(path)
    result = run_pnp("preflight", str(path), "--shop", "drivethrucards", project=tmp_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "bad.pdf page 1: no TrimBox" in result.output
    missing = run_pnp("preflight", str(tmp_path / "none.pdf"), project=tmp_project)
    assert missing.exit_code == 1 and "no such file" in missing.output


PRESET = """name: Test shop
format: pdf
bleed: 0.125in
pdfx: x-1a
ink_limit: {ink}
output_condition: CGATS TR 001
cmyk_profile: {profile}
"""


@pytest.mark.parametrize("case, words", [
    ("no profile", "needs `cmyk_profile:`"), ("missing", "no CMYK profile at"),
    ("not icc", "is not an ICC profile"), ("not cmyk", "is a RGB profile; expected a CMYK"),
    ("ink 0", "0 % is out of range; expected 100 to 400 %"), ("ink 500", "500 % is out of range"),
    ("pdfx x-9", "'x-9' is not a PDF/X version pnp writes"),
])
def test_a_broken_pdfx_preset_is_located(tmp_path, monkeypatch, case, words):
    (tmp_path / "junk.icc").write_text("not a profile")
    ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    (tmp_path / "srgb.icc").write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    profile = {"missing": tmp_path / "none.icc", "not icc": tmp_path / "junk.icc",
               "not cmyk": tmp_path / "srgb.icc"}.get(case, PROFILE)
    ink = {"ink 0": "0%", "ink 500": "500%"}.get(case, "240%")
    text = PRESET.format(ink=ink, profile=profile)
    if case == "no profile":
        text = text.replace(f"cmyk_profile: {profile}\n", "")
    if case == "pdfx x-9":
        text = text.replace("pdfx: x-1a", "pdfx: x-9")
    (tmp_path / "testshop.yaml").write_text(text)
    monkeypatch.setattr(pod, "PRESET_DIR", tmp_path)
    with pytest.raises(InputError) as info:
        pod.load_preset("testshop")
    line = str(info.value)
    assert "generator/assets/presets/testshop.yaml:" in line and words in line, line


@pytest.fixture(scope="module")
def press_files(tmp_path_factory):
    return _exported(tmp_path_factory, "go-fish", "press")


@needs_gs
def test_press_files_are_pdfx_4_with_the_profile_embedded(press_files, tmp_path):
    assert press_files
    for path in press_files:
        reader = PdfReader(path)
        assert reader.pdf_header == "%PDF-1.6" and reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
        root = reader.trailer["/Root"]
        xmp = root["/Metadata"].get_object().get_data()
        assert b"<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        assert b"<pdf:Trapped>False</pdf:Trapped>" in xmp and b"<xmpMM:DocumentID>uuid:" in xmp
        intent = root["/OutputIntents"][0].get_object()
        profile = intent["/DestOutputProfile"].get_object()
        assert profile["/N"] == 4 and profile.get_data() == PROFILE.read_bytes()
        for page in reader.pages:
            trim, bleed = [float(v) for v in page["/TrimBox"]], [float(v) for v in page["/BleedBox"]]
            assert trim[0] == pytest.approx(0.125 * INCH) and bleed == [float(v) for v in page["/MediaBox"]]
        assert b"/DeviceRGB" not in path.read_bytes()
        # pnp's preflight: as the shop asks, and as the version the file claims (no shop given)
        assert preflight(path, pod.preflight_rules(pod.load_preset("press"))) == []
        assert preflight(path, Rules()) == []
        assert any("expected 'PDF/X-1a:2003'" in line for line in preflight(path, X1A))
        worst, names = gs_max_ink(path, tmp_path / path.stem)
        assert names == {"Cyan", "Magenta", "Yellow", "Black"} and worst <= 300.5, (path.name, worst)


def _claiming(path: Path, version: str, transparent: bool, xmp: str | None = None) -> Path:
    """A CMYK page that claims `version` in its Info dictionary (and `xmp`'s version in XMP), with a 50 %
    transparent fill when `transparent`; no OutputIntent."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, StreamObject

    canvas = Canvas(str(path), pagesize=(100, 100), trimBox=(0, 0, 100, 100))
    canvas.setFillColorCMYK(0, 1, 0, 0)
    if transparent:
        canvas.setFillAlpha(0.5)
    canvas.rect(10, 10, 50, 50, stroke=0, fill=1)
    canvas.save()
    writer = PdfWriter(clone_from=str(path))
    writer.add_metadata({"/GTS_PDFXVersion": version})
    if xmp is not None:
        stream = StreamObject()
        stream.set_data(f"<x><pdfxid:GTS_PDFXVersion>{xmp}</pdfxid:GTS_PDFXVersion></x>".encode())
        writer._root_object[NameObject("/Metadata")] = writer._add_object(stream)
    writer.write(path)
    return path


def test_preflight_checks_the_conformance_of_the_version_a_file_claims(tmp_path):
    x1a = "\n".join(preflight(_claiming(tmp_path / "a.pdf", "PDF/X-1a:2003", True), Rules()))
    assert "transparent; PDF/X-1a:2003 allows none" in x1a and "no OutputIntent" in x1a
    x4 = "\n".join(preflight(_claiming(tmp_path / "b.pdf", "PDF/X-4", True, xmp="PDF/X-4"), Rules()))
    assert "transparent" not in x4 and "no OutputIntent" in x4  # X-4 keeps transparency
    assert "no XMP" not in x4
    x4_no_xmp = "\n".join(preflight(_claiming(tmp_path / "c.pdf", "PDF/X-4", False), Rules()))
    assert "no XMP metadata naming the version (pdfxid:GTS_PDFXVersion); PDF/X-4 needs it" in x4_no_xmp
    mixed = "\n".join(preflight(_claiming(tmp_path / "d.pdf", "PDF/X-4", False, xmp="PDF/X-1a:2003"),
                                 Rules()))
    assert "the XMP metadata says 'PDF/X-1a:2003'; expected 'PDF/X-4'" in mixed
    other = preflight(_claiming(tmp_path / "e.pdf", "PDF/X-3:2002", False), Rules())
    assert other[0] == "e.pdf: claims 'PDF/X-3:2002'; pnp checks 'PDF/X-1a:2003', 'PDF/X-4'"
    plain = Canvas(str(tmp_path / "f.pdf"), pagesize=(100, 100), trimBox=(0, 0, 100, 100))
    plain.setFillAlpha(0.5)
    plain.rect(10, 10, 50, 50, stroke=0, fill=1)
    plain.save()
    unclaimed = "\n".join(preflight(tmp_path / "f.pdf", Rules()))  # a file that claims nothing: no PDF/X
    assert "transparent" not in unclaimed and "OutputIntent" not in unclaimed and "GTS" not in unclaimed


@needs_gs
def test_preflight_finds_an_x4_file_without_its_profile(press_files, tmp_path):
    raw = press_files[0].read_bytes().replace(b"/DestOutputProfile", b"/DestOutputProfilX", 1)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(raw)  # same length: the cross-reference table still holds
    lines = preflight(broken, Rules())
    assert ("broken.pdf: the OutputIntent embeds no output profile (DestOutputProfile); PDF/X-4 needs one"
            in lines)


def test_a_preset_may_name_its_pdfx_version_by_alias(tmp_path, monkeypatch):
    monkeypatch.setattr(pod, "PRESET_DIR", tmp_path)
    for written, key in (("4", "x-4"), ("PDF/X-4", "x-4"), ("1a", "x-1a"), ("x-1a", "x-1a")):
        (tmp_path / "testshop.yaml").write_text(PRESET.format(ink="240%", profile=PROFILE)
                                                .replace("pdfx: x-1a", f"pdfx: {written}"))
        assert pod.load_preset("testshop").pdfx.version == key
