"""PDF/X in press CMYK (`pdfx: x-1a` or `x-4` in a shop preset, `--colour cmyk` card sheets; issue 34).

Each card face is rendered at the preset's dpi (RGB, as the PNG exports are) and converted once per face:
- sRGB to the press CMYK of the preset's `cmyk_profile` through littleCMS (Pillow's ImageCms), relative
  colorimetric with black point compensation; the bundled presets name pnp's own FOGRA39 profile
  (generator/assets/profiles/pnp-fogra39.icc, zlib licence, built from free data: see its README), so no
  build needs Ghostscript or carries its AGPL profile, and a designer may name a shop's own .icc file;
- neutral pixels (grey and black) and near-black ones (text, its edges tinted by what lies under it) as black
  ink alone, so black text is pure K, not a four-colour black that shows colour fringes when plates shift;
- a large black area (a whole window of `RICH_WINDOW` black) as the shop's rich black, C60 M40 Y40 K100;
- the total ink held at the preset's `ink_limit` by taking cyan, magenta and yellow back (black is kept).
The PDF is written object by object: DeviceCMYK images only (no RGB, no transparency, no fonts: the text is in
the images), MediaBox = BleedBox = trim + bleed, TrimBox on the trim, an OutputIntent naming the preset's
registered output condition (`output_condition:` the identifier, `output_condition_name:` its text), the
PDF/X keys, fixed dates and a document ID from the content, so the same input gives the same bytes. The
versions (`PDFX_VERSIONS`):
- X-1a:2003 (PDF 1.4): the output condition is named, the profile used to convert is not embedded;
- X-4 (PDF 1.6): the profile is embedded in the OutputIntent (DestOutputProfile, which X-4 requires) and an
  XMP metadata stream carries the version (pdfxid:GTS_PDFXVersion) beside the Info dictionary. X-4 would allow
  transparency and ICC-based colour; these files have neither, so they print the same on an X-1a workflow.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageFilter, ImageMath

from generator.core.errors import InputError, Problem
from generator.core.units import INCH, mm


@dataclass(frozen=True)
class PdfxVersion:
    """What one PDF/X version is and allows: its version key, the highest PDF version it is based on, whether
    transparency and ICC-based colour are allowed, and whether the OutputIntent must embed the output profile
    and the version must be in XMP metadata."""

    key: str
    pdf: str
    transparency: bool
    icc_colour: bool
    embeds_profile: bool
    xmp: bool


# the versions pnp writes and checks (a preset's `pdfx:`; aliases below); a preset naming another is an error
PDFX_VERSIONS = {
    "x-1a": PdfxVersion("PDF/X-1a:2003", "1.4", transparency=False, icc_colour=False, embeds_profile=False,
                        xmp=False),
    "x-4": PdfxVersion("PDF/X-4", "1.6", transparency=True, icc_colour=True, embeds_profile=True, xmp=True),
}
PDFX_ALIASES = {"1a": "x-1a", "pdf/x-1a": "x-1a", "pdf/x-1a:2003": "x-1a", "4": "x-4", "pdf/x-4": "x-4"}
BY_KEY = {version.key: version for version in PDFX_VERSIONS.values()}  # a file's GTS_PDFXVersion -> version


def pdfx_version(name: object) -> str | None:
    """The PDFX_VERSIONS key a preset's `pdfx:` value names (x-1a, 1a, PDF/X-1a:2003; x-4, 4, PDF/X-4), or
    None."""
    text = str(name).strip().lower()
    text = PDFX_ALIASES.get(text, text)
    return text if text in PDFX_VERSIONS else None


RICH_BLACK = (153, 102, 102, 255)  # C60 M40 Y40 K100 in 0-255 (DriveThruCards' rich black, 240 %)
RICH_WINDOW = mm(2)   # a black area at least this wide all round gets rich black
NEUTRAL = 3           # RGB channels this close together are a grey (printed with black ink alone)
NEAR_BLACK, NEAR_BLACK_TINT = 48, 16  # as dark as this, channels this close: black text's edge, black ink
FIXED_DATE = "D:20000101000000+00'00'"  # reproducible files; the shop reads the boxes, not the date


class ProfileError(ValueError):
    """A CMYK profile that cannot be used: missing, not ICC, or not CMYK."""


@dataclass(frozen=True)
class PdfxSpec:
    """What a preset asks of a PDF/X file."""

    version: str            # a key of PDFX_VERSIONS
    ink_limit: float        # percent, total of the four inks
    profile: Path           # the CMYK output profile used to convert
    condition: str          # the registered output condition, e.g. 'FOGRA39' or 'CGATS TR 001' (SWOP)
    registry: str = "http://www.color.org"
    dpi: float = 300
    condition_name: str = ""  # its human-readable name (OutputCondition, Info); the identifier when empty


def cmyk_profile(path: Path) -> ImageCms.ImageCmsProfile:
    """The ICC profile at `path` when it is a CMYK output profile; ProfileError otherwise."""
    if not path.is_file():
        raise ProfileError(f"no CMYK profile at {path}")
    try:
        profile = ImageCms.getOpenProfile(str(path))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise ProfileError(f"{path} is not an ICC profile ({exc})") from None
    space = profile.profile.xcolor_space.strip()
    if space != "CMYK":
        raise ProfileError(f"{path} is a {space} profile; expected a CMYK (press) profile")
    return profile


MIN_INK, MAX_INK = 100.0, 400.0  # total ink limits a preset may ask for, in percent


def pdfx_spec(raw, shown: str, dpi: float, folder: Path) -> PdfxSpec | None:
    """The PDF/X part of a preset (`pdfx`, `ink_limit`, `output_condition`, `output_condition_name`,
    `cmyk_profile`), each problem located at its key; a relative `cmyk_profile` is taken from `folder`, the
    preset's own."""
    if raw.get("pdfx") is None:
        return None

    def fail(key: str, text: str) -> InputError:
        return InputError(Problem(shown, raw.line_of(key) or raw.line, f"{key}: {text}"))

    version = pdfx_version(raw["pdfx"])
    if version is None:
        raise fail("pdfx", f"'{raw['pdfx']}' is not a PDF/X version pnp writes; expected one of: "
                           f"{', '.join(PDFX_VERSIONS)}")
    text = str(raw.get("ink_limit", "")).strip()
    try:
        limit = float(text.removesuffix("%"))
    except ValueError:
        raise fail("ink_limit", f"'{text}' is not a percentage; expected e.g. 240%") from None
    if not MIN_INK <= limit <= MAX_INK:
        raise fail("ink_limit", f"{limit:g} % is out of range; expected {MIN_INK:g} to {MAX_INK:g} %")
    condition = str(raw.get("output_condition") or "").strip()
    if not condition:
        raise fail("output_condition" if "output_condition" in raw else "pdfx",
                   "a PDF/X preset needs `output_condition:`, the registered name of its press "
                   "(e.g. FOGRA39, or CGATS TR 001 for SWOP)")
    condition_name = str(raw.get("output_condition_name") or "").strip()
    places = raw.get("cmyk_profile")
    if not places:
        raise fail("pdfx", "a PDF/X preset needs `cmyk_profile:`, the CMYK profile (one path or a list of "
                           "places to look) its colours are converted with")
    listed = [places] if isinstance(places, str) else places
    candidates = [(folder / Path(str(p)).expanduser()).resolve() for p in listed]
    found = next((p for p in candidates if p.is_file()), None)
    if found is None:
        raise fail("cmyk_profile", "no CMYK profile at " + " or ".join(map(str, candidates))
                   + "; expected an ICC CMYK output profile file (a path relative to the preset's folder, "
                     "or absolute)")
    try:
        cmyk_profile(found)
    except ProfileError as exc:
        raise fail("cmyk_profile", str(exc)) from None
    return PdfxSpec(version, limit, found, condition, dpi=dpi, condition_name=condition_name)


_TRANSFORMS: dict[Path, ImageCms.ImageCmsTransform] = {}


def _transform(profile_path: Path) -> ImageCms.ImageCmsTransform:
    if profile_path not in _TRANSFORMS:  # built once per profile: littleCMS precomputes its tables
        _TRANSFORMS[profile_path] = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), cmyk_profile(profile_path), "RGB", "CMYK",
            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
            flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return _TRANSFORMS[profile_path]


def _mask(image: Image.Image, test) -> Image.Image:
    return image.point(lambda v: 255 if test(v) else 0)


def to_cmyk(image: Image.Image, spec: PdfxSpec) -> Image.Image:
    """An RGB face as press CMYK: ICC converted, neutrals as black ink alone, large blacks rich, ink
    limited (see the module notes)."""
    rgb = image.convert("RGB")
    converted = ImageCms.applyTransform(rgb, _transform(spec.profile))
    assert converted is not None  # None only for a conversion in place, which this is not
    c, m, y, k = converted.split()
    r, g, b = rgb.split()
    lightest = ImageChops.lighter(ImageChops.lighter(r, g), b)
    spread = ImageChops.subtract(lightest, ImageChops.darker(ImageChops.darker(r, g), b))
    # greys, and the near-blacks of text (its anti-aliased edges tinted a little by what lies under it)
    neutral = ImageChops.lighter(_mask(spread, lambda v: v <= NEUTRAL),
                                 ImageChops.multiply(_mask(lightest, lambda v: v <= NEAR_BLACK),
                                                     _mask(spread, lambda v: v <= NEAR_BLACK_TINT)))
    grey = rgb.convert("L")
    none = Image.new("L", rgb.size, 0)
    c, m, y = (Image.composite(none, ink, neutral) for ink in (c, m, y))
    k = Image.composite(ImageChops.invert(grey), k, neutral)
    black = ImageChops.multiply(neutral, _mask(grey, lambda v: v <= 24))
    radius = max(1, round(RICH_WINDOW / INCH * spec.dpi / 2))
    large = ImageChops.multiply(_mask(black.filter(ImageFilter.BoxBlur(radius)), lambda v: v >= 254), black)
    c, m, y, k = (Image.composite(Image.new("L", rgb.size, value), ink, large)
                  for value, ink in zip(RICH_BLACK, (c, m, y, k), strict=True))
    inks = {"C": c.convert("F"), "M": m.convert("F"), "Y": y.convert("F"), "K": k.convert("F"),
            "limit": spec.ink_limit / 100 * 255}

    def held(name: str) -> Image.Image:  # colour inks scaled down so that with black they keep the limit
        return ImageMath.lambda_eval(
            lambda a: a["convert"](a[name] * a["min"](a["max"](a["limit"] - a["K"], 0.0)
                                                      / a["max"](a["C"] + a["M"] + a["Y"], 1.0), 1.0), "L"),
            **inks)

    return Image.merge("CMYK", (held("C"), held("M"), held("Y"), k))


def max_ink(image: Image.Image) -> float:
    """The largest total of the four inks of any pixel of a CMYK image, in percent."""
    c, m, y, k = (band.convert("F") for band in image.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    return float(total.getextrema()[1]) / 255 * 100


@dataclass(frozen=True)
class PdfxPage:
    """One page: a CMYK image filling it, the page size and the bleed around the trim (points)."""

    image: Image.Image
    width: float
    height: float
    bleed: float


def _string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return "(" + escaped.encode("latin-1", "replace").decode("latin-1") + ")"


def _number(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _xmp(version: PdfxVersion, title: str, digest: str) -> bytes:
    """The XMP packet of a PDF/X-4 file: the version, dates as the Info dictionary has them, the title and
    document identifiers from the content."""
    date = "2000-01-01T00:00:00+00:00"  # FIXED_DATE
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    uuid = f"{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escaped}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmp:CreatorTool>pnp</xmp:CreatorTool>
   <pdf:Producer>pnp</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{uuid}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{uuid}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{version.key}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>""".encode()


def pdfx_bytes(pages: Iterable[PdfxPage], spec: PdfxSpec, title: str) -> bytes:
    """The PDF/X file of the pages, taken one at a time (each image stored once however many pages show
    it)."""
    version = PDFX_VERSIONS[spec.version]
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(header: str, data: bytes) -> bytes:
        return f"<< {header} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"

    images: dict[bytes, int] = {}
    page_refs = []
    pages_ref = 2
    add(b"")  # 1: catalog, written last
    add(b"")  # 2: the page tree
    content_digest = hashlib.sha256(title.encode())
    for page in pages:
        raw = page.image.tobytes()
        key = hashlib.sha256(raw + repr(page.image.size).encode()).digest()
        content_digest.update(key)
        if key not in images:
            w, h = page.image.size
            images[key] = add(stream(f"/Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace "
                                     "/DeviceCMYK /BitsPerComponent 8 /Filter /FlateDecode",
                                     zlib.compress(raw, 6)))
        content = add(stream("", f"q {_number(page.width)} 0 0 {_number(page.height)} 0 0 cm /Im0 Do Q"
                                 .encode()))
        b = page.bleed
        box = f"[0 0 {_number(page.width)} {_number(page.height)}]"
        trim = f"[{_number(b)} {_number(b)} {_number(page.width - b)} {_number(page.height - b)}]"
        page_refs.append(add(
            f"<< /Type /Page /Parent {pages_ref} 0 R /MediaBox {box} /BleedBox {box} /TrimBox {trim} "
            f"/Resources << /XObject << /Im0 {images[key]} 0 R >> >> /Contents {content} 0 R >>".encode()))
    objects[1] = (f"<< /Type /Pages /Count {len(page_refs)} /Kids ["
                  + " ".join(f"{r} 0 R" for r in page_refs) + "] >>").encode()
    profile = ""
    if version.embeds_profile:  # the output profile travels in the file
        icc = add(stream("/N 4 /Filter /FlateDecode", zlib.compress(spec.profile.read_bytes(), 9)))
        profile = f" /DestOutputProfile {icc} 0 R"
    name = _string(spec.condition_name or spec.condition)
    intent = add((f"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier {_string(spec.condition)} "
                  f"/OutputCondition {name} /RegistryName {_string(spec.registry)} "
                  f"/Info {name}{profile} >>").encode())
    metadata = ""
    if version.xmp:
        packet = _xmp(version, title, content_digest.hexdigest())
        metadata = f" /Metadata {add(stream('/Type /Metadata /Subtype /XML', packet))} 0 R"
    objects[0] = (f"<< /Type /Catalog /Pages {pages_ref} 0 R /OutputIntents [{intent} 0 R]{metadata} >>"
                  .encode())
    info = add((f"<< /Title {_string(title)} /Creator (pnp) /Producer (pnp) /CreationDate ({FIXED_DATE}) "
                f"/ModDate ({FIXED_DATE}) /Trapped /False "
                f"/GTS_PDFXVersion {_string(version.key)} >>").encode())
    out = bytearray(f"%PDF-{version.pdf}\n%\xe2\xe3\xcf\xd3\n".encode("latin-1"))
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    digest = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R "
            f"/ID [<{digest}> <{digest}>] >>\nstartxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)
