"""PDF/X-1a:2003 in CMYK for print shops that ask for it (`pdfx: x-1a` in a preset, issue 34).

Each card face is rendered at the preset's dpi (RGB, as the PNG exports are) and converted once per face:
- sRGB to the press CMYK of the preset's `cmyk_profile` through littleCMS (Pillow's ImageCms), relative
  colorimetric with black point compensation;
- neutral pixels (grey and black) and near-black ones (text, its edges tinted by what lies under it) as black
  ink alone, so black text is pure K, not a four-colour black that shows colour fringes when plates shift;
- a large black area (a whole window of `RICH_WINDOW` black) as the shop's rich black, C60 M40 Y40 K100;
- the total ink held at the preset's `ink_limit` by taking cyan, magenta and yellow back (black is kept).
The PDF is written object by object: DeviceCMYK images only (no RGB, no transparency, no fonts: the text is in
the images), MediaBox = BleedBox = trim + bleed, TrimBox on the trim, an OutputIntent naming the preset's
registered output condition (the profile is used to convert, not embedded), the PDF/X keys, fixed dates and a
document ID from the content, so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageCms, ImageFilter, ImageMath

from generator.core.units import INCH, mm

PDFX_VERSIONS = {"x-1a": "PDF/X-1a:2003"}  # the versions pnp writes; a preset naming another is an error
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
    condition: str          # the registered output condition, e.g. 'CGATS TR 001' (SWOP)
    registry: str = "http://www.color.org"
    dpi: float = 300


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
    c, m, y, k = ImageCms.applyTransform(rgb, _transform(spec.profile)).split()
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


def pdfx_bytes(pages: list[PdfxPage], spec: PdfxSpec, title: str) -> bytes:
    """The PDF/X file of the pages (each image stored once however many pages show it)."""
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
    for page in pages:
        raw = page.image.tobytes()
        key = hashlib.sha256(raw + repr(page.image.size).encode()).digest()
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
    intent = add((f"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier {_string(spec.condition)} "
                  f"/OutputCondition {_string(spec.condition)} /RegistryName {_string(spec.registry)} "
                  f"/Info {_string(spec.condition)} >>").encode())
    objects[0] = f"<< /Type /Catalog /Pages {pages_ref} 0 R /OutputIntents [{intent} 0 R] >>".encode()
    info = add((f"<< /Title {_string(title)} /Creator (pnp) /Producer (pnp) /CreationDate ({FIXED_DATE}) "
                f"/ModDate ({FIXED_DATE}) /Trapped /False "
                f"/GTS_PDFXVersion {_string(PDFX_VERSIONS[spec.version])} >>").encode())
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
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
