"""`pnp preflight`: what a print shop's preflight checks, on any PDF, one line per problem naming the page.

What is checked (`Rules` says which, from the shop's preset):
- PDF/X (a preset with `pdfx:`, or any file that claims a version in GTS_PDFXVersion): the version key,
  Trapped, an OutputIntent of /GTS_PDFX naming its output condition, a document ID, no encryption, the PDF
  version the PDF/X version is based on at most (1.4 for X-1a:2003, 1.6 for X-4); X-4 also an embedded
  CMYK output profile (DestOutputProfile) and the version in XMP metadata; X-1a no ICC-based colour and no
  transparency;
- colour: no RGB (DeviceRGB, an RGB ICC or indexed-RGB space, `rg`/`RG`/three-number `sc`) in a CMYK file;
- total ink: the largest sum of the four inks of any pixel of a CMYK image and of any `k`/`K` colour, against
  the preset's `ink_limit`;
- images: resolution at the size they are printed (pypdfium2 reads it from the placement), transparency (soft
  masks, masks, ExtGState alpha or blend modes, which PDF/X-1a forbids and X-4 allows);
- strokes thinner than `HAIRLINE` (0.25 pt) that are drawn (`w` before a stroking operator);
- fonts: every font (Type 3 aside) has its font file embedded;
- boxes: a TrimBox on every page (no ArtBox beside it), inside the BleedBox, inside the MediaBox;
- text: every character inside the safe zone (`safe` inside the TrimBox), on pages that have a TrimBox.
Exports of a shop that asks for it run `preflight` on what they wrote and fail on a problem.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2
import pypdfium2.raw as pdfium_c
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject, NameObject

from generator.core.pdfx import BY_KEY, PdfxVersion
from generator.core.units import mm

HAIRLINE = 0.25  # pt: a shop's thinnest rule
STROKES = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
RGB_SPACES = {"/DeviceRGB", "/CalRGB"}


@dataclass(frozen=True)
class Rules:
    """What one preflight checks: PDF/X version (None: not PDF/X), CMYK only, ink limit (percent, None: not
    checked), the least image resolution, and the safe zone inside the trim (points)."""

    pdfx: str | None = None
    cmyk: bool = False
    ink_limit: float | None = None
    min_dpi: float = 300
    safe: float = mm(3)


def _resolve(value):
    return value.get_object() if isinstance(value, IndirectObject) else value


def _space_is_rgb(space) -> bool:
    space = _resolve(space)
    if isinstance(space, NameObject):
        return str(space) in RGB_SPACES
    if isinstance(space, ArrayObject) and space:
        kind = str(space[0])
        if kind == "/ICCBased":
            return int(_resolve(space[1]).get("/N", 0)) == 3
        if kind == "/Indexed":
            return _space_is_rgb(space[1])
        return kind in RGB_SPACES
    return False


def _is_icc(space) -> bool:
    space = _resolve(space)
    if isinstance(space, ArrayObject) and space and str(space[0]) == "/Indexed":
        return _is_icc(space[1])
    return isinstance(space, ArrayObject) and bool(space) and str(space[0]) == "/ICCBased"


def _walk(resources, seen: set[int]):
    """Every resource dictionary reachable from a page's (its forms' and patterns' too), once each."""
    resources = _resolve(resources)
    if not isinstance(resources, DictionaryObject) or id(resources) in seen:
        return
    seen.add(id(resources))
    yield resources
    for xobject in (_resolve(resources.get("/XObject")) or {}).values():
        xobject = _resolve(xobject)
        if xobject.get("/Subtype") == "/Form":
            yield from _walk(xobject.get("/Resources"), seen)


def _image(xobject) -> Image.Image | None:
    """A DeviceCMYK 8-bit image XObject as a Pillow image (None for any other kind)."""
    if str(xobject.get("/ColorSpace")) != "/DeviceCMYK" or int(xobject.get("/BitsPerComponent", 0)) != 8:
        return None
    try:
        data = xobject.get_data()
    except (ValueError, NotImplementedError):
        return None
    size = (int(xobject["/Width"]), int(xobject["/Height"]))
    if str(xobject.get("/Filter")) == "/DCTDecode":
        return Image.open(io.BytesIO(data))
    return Image.frombytes("CMYK", size, data) if len(data) == size[0] * size[1] * 4 else None


def _ink(image: Image.Image) -> float:
    from generator.core.pdfx import max_ink

    return max_ink(image)


XMP_VERSION = re.compile(rb"pdfxid:GTS_PDFXVersion(?:>|=[\"'])([^<\"']*)")


def _claimed(reader: PdfReader) -> str:
    """The PDF/X version a file claims: its Info dictionary's GTS_PDFXVersion, else its XMP's ('' if
    none)."""
    info = reader.metadata or {}
    if info.get("/GTS_PDFXVersion"):
        return str(info["/GTS_PDFXVersion"])
    match = XMP_VERSION.search(_xmp(reader))
    return match.group(1).decode("utf-8", "replace") if match else ""


def _xmp(reader: PdfReader) -> bytes:
    metadata = _resolve(_resolve(reader.trailer["/Root"]).get("/Metadata"))
    try:
        return metadata.get_data() if metadata is not None else b""
    except Exception:  # noqa: BLE001 - unreadable metadata is reported as missing
        return b""


def _version(rules: Rules) -> PdfxVersion | None:
    return BY_KEY.get(rules.pdfx or "")


def _streams(page) -> list:
    """The content streams of a page and of the forms it uses."""
    found = [page.get_contents()] if page.get_contents() is not None else []
    for resources in _walk(page.get("/Resources"), set()):
        for xobject in (_resolve(resources.get("/XObject")) or {}).values():
            xobject = _resolve(xobject)
            if xobject.get("/Subtype") == "/Form":
                found.append(xobject)
    return found


def _operations(stream, reader) -> list[tuple[list, bytes]]:
    try:
        return ContentStream(stream, reader).operations
    except Exception:  # noqa: BLE001 - a content stream pypdf cannot parse is reported, not a crash
        return [([], b"unreadable")]


def _box(page, name: str):
    return [float(v) for v in page[name]] if name in page else None  # not the property: it adds the key


def _inside(inner, outer, tol: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol and inner[2] <= outer[2] + tol
            and inner[3] <= outer[3] + tol)


def preflight(path: Path, rules: Rules) -> list[str]:
    """Every problem of the PDF at `path` under `rules`, one line each: '<file> page N: what is wrong'."""
    name = path.name
    try:
        reader = PdfReader(path)
    except Exception as exc:  # noqa: BLE001 - a broken file is a problem to report
        return [f"{name}: not a readable PDF ({exc})"]
    claimed = _claimed(reader)
    if rules.pdfx is None and claimed:  # no shop given: the file is checked as the version it claims
        rules = replace(rules, pdfx=claimed, cmyk=True)
    problems = _document(reader, rules, name)
    pdf = pypdfium2.PdfDocument(str(path))
    for number, page in enumerate(reader.pages, 1):
        where = f"{name} page {number}"
        problems += [f"{where}: {text}" for text in _page(reader, page, pdf[number - 1], rules)]
    return problems


def _document(reader: PdfReader, rules: Rules, name: str) -> list[str]:
    if rules.pdfx is None:
        return []
    problems = []
    info = reader.metadata or {}
    version = _version(rules)
    if version is None:
        known = "', '".join(BY_KEY)
        return [f"{name}: claims '{rules.pdfx}'; pnp checks '{known}'"]
    if str(info.get("/GTS_PDFXVersion", "")) != rules.pdfx:
        problems.append(f"GTS_PDFXVersion is '{info.get('/GTS_PDFXVersion', '')}'; expected '{rules.pdfx}'")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        problems.append("Trapped is not set; expected /True or /False")
    intents = [_resolve(i) for i in (_resolve(reader.trailer["/Root"]).get("/OutputIntents") or [])]
    pdfx = [i for i in intents if str(i.get("/S")) == "/GTS_PDFX"]
    if not pdfx:
        problems.append("no OutputIntent of /GTS_PDFX; expected one naming the press condition")
    elif not str(pdfx[0].get("/OutputConditionIdentifier", "")):
        problems.append("the OutputIntent names no OutputConditionIdentifier")
    problems += _profile_and_xmp(reader, pdfx[0] if pdfx else None, version, rules)
    if "/ID" not in reader.trailer:
        problems.append("no document ID in the trailer")
    if reader.is_encrypted:
        problems.append("encrypted; PDF/X forbids it")
    if float(reader.pdf_header.removeprefix("%PDF-")) > float(version.pdf):
        problems.append(f"{reader.pdf_header}; {version.key} is PDF {version.pdf} at most")
    return [f"{name}: {text}" for text in problems]


def _profile_and_xmp(reader: PdfReader, intent, version: PdfxVersion, rules: Rules) -> list[str]:
    """What a version that embeds its output profile and names itself in XMP (X-4) asks besides."""
    problems = []
    if intent is not None and version.embeds_profile:
        profile = _resolve(intent.get("/DestOutputProfile"))
        if profile is None:
            problems.append(f"the OutputIntent embeds no output profile (DestOutputProfile); {version.key} "
                            "needs one")
        elif rules.cmyk and int(profile.get("/N", 0)) != 4:
            problems.append(f"the output profile has {profile.get('/N')} components; expected a CMYK one (4)")
    if version.xmp:
        found = XMP_VERSION.search(_xmp(reader))
        if found is None:
            problems.append(f"no XMP metadata naming the version (pdfxid:GTS_PDFXVersion); {version.key} "
                            "needs it")
        elif found.group(1).decode("utf-8", "replace") != version.key:
            problems.append(f"the XMP metadata says '{found.group(1).decode('utf-8', 'replace')}'; "
                            f"expected '{version.key}'")
    return problems


def _page(reader: PdfReader, page, drawn, rules: Rules) -> list[str]:
    trim = _box(page, "/TrimBox")
    problems = _boxes(page)
    found, worst_ink = _resources(page, rules)
    problems += found
    found, stream_ink = _drawing(reader, page, rules)
    problems += found
    worst_ink = max(worst_ink, stream_ink)
    if rules.ink_limit is not None and worst_ink > rules.ink_limit + 0.5:
        problems.append(f"total ink {worst_ink:.0f} %; expected at most {rules.ink_limit:g} %")
    problems += _resolution(drawn, rules)
    if trim is not None:
        problems += _text_outside(drawn, trim, rules.safe)
    return list(dict.fromkeys(problems))


def _boxes(page) -> list[str]:
    problems = []
    media, trim, bleed, art = (_box(page, k) for k in ("/MediaBox", "/TrimBox", "/BleedBox", "/ArtBox"))
    if trim is None:
        problems.append("no TrimBox")
    elif art is not None:
        problems.append("both a TrimBox and an ArtBox; expected the TrimBox alone")
    outer = bleed or media
    if trim is not None and outer is not None and not _inside(trim, outer):
        problems.append(f"the TrimBox {trim} is not inside the {'BleedBox' if bleed else 'MediaBox'} {outer}")
    if bleed is not None and media is not None and not _inside(bleed, media):
        problems.append(f"the BleedBox {bleed} is not inside the MediaBox {media}")
    return problems


def _resources(page, rules: Rules) -> tuple[list[str], float]:
    """Problems of the images, fonts and graphics states a page uses, and the most ink of its CMYK images."""
    problems: list[str] = []
    worst_ink = 0.0
    version = _version(rules)
    for resources in _walk(page.get("/Resources"), set()):
        for key, xobject in (_resolve(resources.get("/XObject")) or {}).items():
            xobject = _resolve(xobject)
            if xobject.get("/Subtype") != "/Image":
                continue
            space = xobject.get("/ColorSpace")
            if rules.cmyk and _space_is_rgb(space) and not (version and version.icc_colour
                                                             and _is_icc(space)):
                problems.append(f"image {key} is RGB; expected CMYK")
            if version and not version.icc_colour and _is_icc(space):
                problems.append(f"image {key} has ICC-based colour; {version.key} allows device CMYK only")
            if version and not version.transparency and ("/SMask" in xobject or "/Mask" in xobject):
                problems.append(f"image {key} has transparency (a mask); {version.key} allows none")
            image = _image(xobject) if rules.ink_limit is not None else None
            if image is not None:
                worst_ink = max(worst_ink, _ink(image))
        for font_key, font in (_resolve(resources.get("/Font")) or {}).items():
            problems += _font_problem(font_key, _resolve(font))
        for state_key, state in (_resolve(resources.get("/ExtGState")) or {}).items():
            state = _resolve(state)
            alpha = min(float(state.get("/ca", 1)), float(state.get("/CA", 1)))
            if version and not version.transparency and (
                    alpha < 1 or str(state.get("/SMask", "/None")) != "/None"
                    or str(state.get("/BM", "/Normal")) not in ("/Normal", "/Compatible")):
                problems.append(f"graphics state {state_key} is transparent; {version.key} allows none")
    return problems, worst_ink


def _drawing(reader: PdfReader, page, rules: Rules) -> tuple[list[str], float]:
    """Problems of a page's drawing operators (hairlines, RGB colours) and the most ink of its `k` colours."""
    problems: list[str] = []
    thinnest, worst_ink = None, 0.0
    for stream in _streams(page):
        width = 1.0
        for operands, operator in _operations(stream, reader):
            if operator == b"unreadable":
                problems.append("a content stream cannot be read")
            elif operator == b"w" and operands:
                width = float(operands[0])
            elif operator in STROKES and width < HAIRLINE:
                thinnest = min(width, thinnest if thinnest is not None else width)
            elif rules.cmyk and (operator in (b"rg", b"RG")
                                 or (operator in (b"sc", b"SC", b"scn", b"SCN") and len(operands) == 3)):
                problems.append(f"an RGB colour ({operator.decode()}); expected CMYK")
            elif operator in (b"k", b"K") and len(operands) == 4:
                worst_ink = max(worst_ink, sum(float(v) for v in operands) * 100)
    if thinnest is not None:
        problems.append(f"a line {thinnest:g} pt wide; expected at least {HAIRLINE:g} pt")
    return problems, worst_ink


def _font_problem(key, font) -> list[str]:
    if str(font.get("/Subtype")) == "/Type3":
        return []
    fonts = [_resolve(f) for f in font.get("/DescendantFonts", [])] or [font]
    for item in fonts:
        descriptor = _resolve(item.get("/FontDescriptor"))
        if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            return [f"font {item.get('/BaseFont', key)} is not embedded"]
    return []


def _resolution(page, rules: Rules) -> list[str]:
    problems = []
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=8):
        meta = obj.get_metadata()
        dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
        if dpi < rules.min_dpi - 0.5:
            problems.append(f"an image of {meta.width} x {meta.height} px prints at {dpi:.0f} dpi; "
                            f"expected at least {rules.min_dpi:g} dpi")
    return problems


def _text_outside(page, trim: list[float], safe: float) -> list[str]:
    text = page.get_textpage()
    left, bottom, right, top = trim[0] + safe, trim[1] + safe, trim[2] - safe, trim[3] - safe
    for index in range(text.count_chars()):
        x0, y0, x1, y1 = text.get_charbox(index)
        if x1 > x0 and (x0 < left - 0.5 or y0 < bottom - 0.5 or x1 > right + 0.5 or y1 > top + 0.5):
            return [f"text outside the safe zone ({safe / mm(1):g} mm inside the trim) near "
                    f"x {x0:.0f}, y {y0:.0f} pt"]
    return []
