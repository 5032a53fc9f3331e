"""Raster pictures made ready for the PDF: each file read once, embedded as little as it can be.

A JPEG is embedded as its own bytes (DCTDecode) and a plain PNG (8-bit grey or RGB, not interlaced, no
transparency) as its own compressed rows (FlateDecode with the PNG predictor): neither is decoded. A picture
that must be worked on is decoded once: a PNG with an alpha channel (a soft mask only when some pixel is
transparent), the ink saver's fade, art bleed (`bleed: mirror | extend`), and a picture finer than the game's
ceiling (game.yaml `max_image_dpi`, 600 dpi by default, at the size it is printed), which is downsampled with
a Lanczos filter so a 6000 px scan on a poker card does not ship 20 MB. JPEGs stay JPEGs (quality 90, colour
not subsampled), everything else is Flate.

What was decoded and resampled is kept by content: in memory for the process and, during a build, in the build
folder (`build/.cache/pictures/<key>.pic`, one file per picture: a JSON line of its facts, then its encoded
pixels; pixel data only, never code). A key names the file's bytes (SHA-256), what was done to it and this
module's format, so a changed picture is a new entry and a damaged entry is made again. The cache gives the
same bytes as the work it saves: a PDF is byte-identical with and without it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import struct
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.core.limits import DEFAULT_IMAGE_DPI
from generator.core.pdfimages import EncodedImage, FileBytes
from generator.core.usercache import file_digest
from generator.core.write import atomic_write

FORMAT = "pnp-picture 1"
JPEG_QUALITY = 90
# a picture at most this much above the ceiling is kept as it is: resampling would soften it for little saving
RESAMPLE_SLACK = 1.1
MEMORY_ENTRIES = 16
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

_folder: list[Path | None] = [None]  # the build folder's picture cache, while a build draws
_memory: OrderedDict[str, EncodedImage] = OrderedDict()
decodes = [0]  # pictures decoded by this process (the tests count them)


def keep_in(folder: Path | None) -> None:
    """Keep decoded pictures in `folder` (the build's `.cache/pictures`), or only in memory (None)."""
    _folder[0] = folder


def forget() -> None:
    """Forget the pictures kept in memory (the next use reads the folder's cache or decodes again)."""
    _memory.clear()


@dataclass(frozen=True)
class ArtBleed:
    """Raster art drawn to the trim, run out into the bleed: the box at the trim (w, h in pt), the bleed on
    each side (left, top, right, bottom in pt) and how (`mirror` or `extend`)."""

    w: float
    h: float
    pads: tuple[float, ...]
    mode: str


@dataclass(frozen=True)
class Recipe:
    """What is done to a picture for one placement: printed at `shown` (w, h in pt) with at most `max_dpi`,
    moved `fade` towards white, perhaps with its bleed made from its edges."""

    shown: tuple[float, float]
    max_dpi: float = DEFAULT_IMAGE_DPI
    fade: float = 0.0
    bleed: ArtBleed | None = None

    def text(self) -> str:
        """The recipe as written into a cache key."""
        bleed = self.bleed
        made = "" if bleed is None else f"{bleed.w:.3f},{bleed.h:.3f},{bleed.pads},{bleed.mode}"
        return f"{self.shown[0]:.3f},{self.shown[1]:.3f};{self.max_dpi:g};{self.fade:g};{made}"


def target_pixels(size: tuple[int, int], shown: tuple[float, float],
                  max_dpi: float) -> tuple[int, int] | None:
    """The pixel size a picture of `size` printed at `shown` (pt) is resampled to, or None when it is not
    finer than `max_dpi` (by more than RESAMPLE_SLACK)."""
    width, height = size
    scale = max(shown[0] / 72 * max_dpi / width, shown[1] / 72 * max_dpi / height)
    if scale * RESAMPLE_SLACK >= 1:
        return None
    return max(1, math.ceil(width * scale - 1e-6)), max(1, math.ceil(height * scale - 1e-6))


@dataclass(frozen=True)
class _File:
    """A picture file as read: its bytes' digest, format, mode and size, and for a plain PNG its rows."""

    digest: str
    format: str
    mode: str
    size: tuple[int, int]
    data: bytes
    png_rows: tuple[tuple[int, int], ...] | None  # where a PNG embeddable as it is has its rows (IDAT data)


def encoded(path: Path, recipe: Recipe) -> EncodedImage:
    """The picture at `path` ready to embed as `recipe` asks: as it is when nothing needs doing, else decoded,
    worked on and encoded (kept in memory and in the build's cache)."""
    stat = path.stat()
    header = jpeg_file_header(str(path), stat.st_mtime_ns, stat.st_size)
    if header is not None and recipe.fade == 0 and recipe.bleed is None \
            and target_pixels(header[1], recipe.shown, recipe.max_dpi) is None:
        # the file as it is, read only when the PDF is written (core.pdfimages.FileBytes)
        source = FileBytes(str(path), stat.st_size, stat.st_mtime_ns)
        return _jpeg(file_digest(path), header[1], header[0], source)
    found = _read(str(path), stat.st_mtime_ns, stat.st_size)
    plain = recipe.fade == 0 and recipe.bleed is None and target_pixels(found.size, recipe.shown,
                                                                        recipe.max_dpi) is None
    if plain and found.format == "JPEG" and found.mode in _COLOUR_SPACES:
        return _jpeg(found.digest, found.size, found.mode, found.data)
    if plain and found.png_rows is not None:  # its rows copied from the file when the PDF is written
        rows = FileBytes(str(path), stat.st_size, stat.st_mtime_ns, found.png_rows)
        return EncodedImage(key=found.digest, width=found.size[0], height=found.size[1],
                            colour_space=_COLOUR_SPACES[found.mode], filter="FlateDecode",
                            data=rows, predictor_colours=len(found.mode))
    key = hashlib.sha256(f"{FORMAT};{found.digest};{recipe.text()}".encode()).hexdigest()
    made = _memory.get(key)
    if made is None:
        made = _from_folder(key)
        if made is None:
            made = _worked(found, recipe, key)
            _to_folder(made)
        _memory[key] = made
        while len(_memory) > MEMORY_ENTRIES:
            _memory.popitem(last=False)
    _memory.move_to_end(key)
    return made


_COLOUR_SPACES = {"RGB": "DeviceRGB", "L": "DeviceGray", "CMYK": "DeviceCMYK"}


def _jpeg(key: str, size: tuple[int, int], mode: str, data: bytes | FileBytes) -> EncodedImage:
    # CMYK JPEGs are written inverted (Adobe's way, as Pillow writes them and ReportLab reads them)
    return EncodedImage(key=key, width=size[0], height=size[1], colour_space=_COLOUR_SPACES[mode],
                        filter="DCTDecode", data=data, decode=(1, 0) * 4 if mode == "CMYK" else ())


@functools.lru_cache(maxsize=4)  # the same file placed on the faces drawn one after another
def _read(path: str, _mtime_ns: int, _size: int) -> _File:
    data = Path(path).read_bytes()
    header = jpeg_header(io.BytesIO(data))
    if header is not None:
        (mode, size), form, transparency = header, "JPEG", False
    else:
        with Image.open(io.BytesIO(data)) as image:
            form, mode, size = image.format or "", image.mode, image.size
            transparency = "transparency" in image.info
    rows = png_row_spans(data) if form == "PNG" and mode in ("RGB", "L") and not transparency else None
    # the digest remembered by the file's stamp, as the build's own input hashing has it (core.usercache)
    return _File(file_digest(Path(path)), form, mode, size, data, rows)


@functools.lru_cache(maxsize=8192)  # a few numbers a file version: read by the check, reused by the drawing
def jpeg_file_header(path: str, _mtime_ns: int, _size: int) -> tuple[str, tuple[int, int]] | None:
    """`jpeg_header` of the file at `path` (read up to its first scan), once per file version."""
    with open(path, "rb") as file:
        return jpeg_header(file)


# the frame markers (SOF0-15 but DHT, JPG and DAC), and what Pillow calls a JPEG of 1, 3 or 4 components
_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_MODES = {1: "L", 3: "RGB", 4: "CMYK"}
# application segments whose contents Pillow reads while opening (and may refuse): left to Pillow
_PILLOW_READS = ((0xE1, b"Exif\0\0"), (0xE2, b"MPF\0"), (0xED, b"Photoshop 3.0\0"))
_SHORTEST = ((0xE0, b"JFIF", 7), (0xE2, b"ICC_PROFILE\0", 14), (0xEE, b"Adobe", 7))


def jpeg_header(stream: io.BufferedIOBase | io.BytesIO) -> tuple[str, tuple[int, int]] | None:
    """The mode and pixel size of a plain 8-bit JPEG read from its markers up to its first scan (what
    Pillow would say, without opening it as a picture: a JPEG is embedded as it is), or None when Pillow must
    look: not a JPEG, an unusual structure, or segments Pillow reads and may refuse (Exif, multi-picture,
    Photoshop resources, a bad quantization table, a short JFIF, ICC or Adobe segment)."""
    if stream.read(2) != b"\xff\xd8":
        return None
    found = None
    while True:
        marker = stream.read(2)
        if len(marker) < 2 or marker[0] != 0xFF or marker[1] in (0x00, 0xFF):
            return None
        kind = marker[1]
        if kind == 0xDA:  # the first scan: the frame came before it
            return found
        if kind == 0x01 or 0xD0 <= kind <= 0xD9:  # markers without a segment: none belongs here
            return None
        size = stream.read(2)
        length = int.from_bytes(size, "big") - 2 if len(size) == 2 else -1
        body = stream.read(length) if length >= 0 else b""
        if length < 0 or len(body) != length:
            return None
        if kind in _FRAMES:
            if found is not None or length < 6 or body[0] != 8 or body[5] not in _JPEG_MODES \
                    or length < 6 + 3 * body[5]:
                return None
            width, height = int.from_bytes(body[3:5], "big"), int.from_bytes(body[1:3], "big")
            if not (width and height):
                return None
            found = _JPEG_MODES[body[5]], (width, height)
        elif _left_to_pillow(kind, body):
            return None


def _left_to_pillow(kind: int, body: bytes) -> bool:
    """True for a segment Pillow reads while opening a JPEG and may refuse, or is told apart by (above)."""
    if kind == 0xDB:  # quantization tables: whole ones (64 values of 1 or 2 bytes each), as Pillow checks
        at = 0
        while at < len(body):
            at += 1 + (64 if body[at] // 16 == 0 else 128)
        return at != len(body)
    return any(kind == app and body.startswith(start) for app, start in _PILLOW_READS) or any(
        kind == app and body.startswith(start) and len(body) < shortest for app, start, shortest in _SHORTEST)


def png_rows(data: bytes) -> bytes | None:
    """A PNG's compressed rows (its IDAT chunks joined) when PDF can show them as they are (8 bits, grey or
    RGB, not interlaced, no transparency chunk), else None."""
    spans = png_row_spans(data)
    return None if spans is None else b"".join(data[at:at + length] for at, length in spans)


def png_row_spans(data: bytes) -> tuple[tuple[int, int], ...] | None:
    """Where a PNG has its compressed rows (offset and length of each IDAT chunk's data) when PDF can show
    them as they are (see png_rows), else None."""
    at, rows = len(_PNG_SIGNATURE), []
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length] if kind == b"IHDR" else b""
        if kind == b"IHDR":
            _w, _h, depth, colour, _compression, _filter, interlace = struct.unpack(">IIBBBBB", body[:13])
            if depth != 8 or colour not in (0, 2) or interlace:
                return None
        elif kind == b"tRNS":
            return None
        elif kind == b"IDAT":  # a chunk cut short runs past the end: no IEND follows, so None
            rows.append((at + 8, length))
        elif kind == b"IEND":
            return tuple(rows) if rows else None
        at += 12 + length
    return None


def _worked(found: _File, recipe: Recipe, key: str) -> EncodedImage:
    """Decode the picture, do what the recipe asks and encode it."""
    decodes[0] += 1
    with Image.open(io.BytesIO(found.data)) as opened:
        target = target_pixels(opened.size, recipe.shown, recipe.max_dpi) if recipe.bleed is None else None
        if target is not None and opened.format == "JPEG":
            opened.draft(opened.mode, target)  # decoded at a fraction of its size when that is still enough
        picture = _workable(opened, jpeg=found.format == "JPEG")
    if recipe.bleed is not None:
        picture = with_art_bleed(picture, recipe.bleed)
        target = target_pixels(picture.size, recipe.shown, recipe.max_dpi)
    if target is not None and target != picture.size:
        picture = picture.resize(target, Image.Resampling.LANCZOS)
    if recipe.fade:
        picture = _faded(picture, recipe.fade)
    alpha = None
    if picture.mode == "RGBA":
        alpha = picture.getchannel("A")
        picture = picture.convert("RGB")
        if alpha.getextrema()[0] == 255:  # opaque after all: no soft mask
            alpha = None
    if found.format == "JPEG" and alpha is None:
        out = io.BytesIO()
        picture.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=0)
        return _jpeg(key, picture.size, picture.mode, out.getvalue())
    mask = None if alpha is None else _flate(alpha, hashlib.sha256(f"{key};mask".encode()).hexdigest())
    made = _flate(picture, key)
    return EncodedImage(key=made.key, width=made.width, height=made.height,
                        colour_space=made.colour_space, filter=made.filter, data=made.data,
                        predictor_colours=made.predictor_colours, mask=mask)


def _workable(image: Image.Image, jpeg: bool) -> Image.Image:
    """The decoded picture as RGB, L or CMYK (a JPEG's own mode), or RGBA when it has transparency."""
    if jpeg and image.mode in _COLOUR_SPACES:
        image.load()
        return image.copy()
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        return image.convert("RGBA")
    if image.mode in _COLOUR_SPACES:
        image.load()
        return image.copy()
    if image.mode.startswith("I;16") or image.mode == "I":  # 16-bit grey: its top 8 bits, not clipped
        return image.convert("I").point(lambda value: value / 256).convert("L")
    if image.mode in ("1", "F"):
        return image.convert("L")
    return image.convert("RGB")


def _faded(picture: Image.Image, fade: float) -> Image.Image:
    """Every colour moved `fade` of the way towards white (the ink saver's backs), transparency kept."""
    white = {"RGB": (255, 255, 255), "RGBA": (255, 255, 255, 255), "L": 255, "CMYK": (0, 0, 0, 0)}
    blended = Image.blend(picture, Image.new(picture.mode, picture.size, white[picture.mode]), fade)
    if picture.mode == "RGBA":
        blended.putalpha(picture.getchannel("A"))
    return blended


def _flate(picture: Image.Image, key: str) -> EncodedImage:
    """A picture as Flate data of PNG rows (Pillow's PNG encoder filters each row, zlib packs them)."""
    out = io.BytesIO()
    picture.save(out, "PNG", compress_level=6)
    rows = png_rows(out.getvalue())
    if rows is None:
        raise ValueError(f"Pillow wrote a {picture.mode} PNG PDF cannot show as it is")
    return EncodedImage(key=key, width=picture.width, height=picture.height,
                        colour_space=_COLOUR_SPACES[picture.mode], filter="FlateDecode", data=rows,
                        predictor_colours=len(picture.mode))


def with_art_bleed(picture: Image.Image, bleed: ArtBleed) -> Image.Image:
    """Raster art covering the box at the trim with its edges mirrored or stretched out into the bleed."""
    w, h = bleed.w, bleed.h
    # cover: the middle of the picture with the box's proportions
    px_w, px_h = picture.size
    if px_w / px_h > w / h:
        keep = round(px_h * w / h)
        picture = picture.crop(((px_w - keep) // 2, 0, (px_w - keep) // 2 + keep, px_h))
    else:
        keep = round(px_w * h / w)
        picture = picture.crop((0, (px_h - keep) // 2, px_w, (px_h - keep) // 2 + keep))
    scale = picture.width / w  # pixels per point
    left, top, right, bottom = (min(round(p * scale), side) for p, side in
                                zip(bleed.pads, (picture.width, picture.height) * 2, strict=True))
    out = Image.new(picture.mode, (picture.width + left + right, picture.height + top + bottom))
    out.paste(picture, (left, top))
    width, height = picture.size
    mirror = bleed.mode == "mirror"

    def strip(box, size, flip=None):
        part = picture.crop(box)
        if mirror:
            part = part.transpose(flip) if flip is not None else part
            return part.resize(size) if part.size != size else part
        return part.resize(size)  # extend: the last row or column of pixels, stretched

    flip_x, flip_y = Image.Transpose.FLIP_LEFT_RIGHT, Image.Transpose.FLIP_TOP_BOTTOM

    def edge(pixels: int) -> int:  # how much of the art's edge a strip is made from
        return pixels if mirror else 1

    if left:
        out.paste(strip((0, 0, edge(left), height), (left, height), flip_x), (0, top))
    if right:
        out.paste(strip((width - edge(right), 0, width, height), (right, height), flip_x),
                  (left + width, top))
    if top:
        out.paste(strip((0, 0, width, edge(top)), (width, top), flip_y), (left, 0))
    if bottom:
        out.paste(strip((0, height - edge(bottom), width, height), (width, bottom), flip_y),
                  (left, top + height))
    corners = ((0, 0, left, top, 0, 0), (left + width, 0, right, top, width - 1, 0),
               (0, top + height, left, bottom, 0, height - 1),
               (left + width, top + height, right, bottom, width - 1, height - 1))
    for cx, cy, sx, sy, px, py in corners:
        if not (sx and sy):
            continue
        if mirror:  # the art's corner turned half round
            x0, y0 = (0 if px == 0 else width - sx), (0 if py == 0 else height - sy)
            corner = picture.crop((x0, y0, x0 + sx, y0 + sy)).transpose(Image.Transpose.ROTATE_180)
        else:  # the corner pixel, stretched
            corner = Image.new(picture.mode, (sx, sy), picture.getpixel((px, py)))
        out.paste(corner, (cx, cy))
    return out


# -- the build folder's cache
# -----------------------------------------------------------------------------------------------------------
_FACTS = ("width", "height", "colour_space", "filter", "bits", "predictor_colours", "decode")


def _entry(image: EncodedImage) -> dict:
    facts: dict = {name: getattr(image, name) for name in _FACTS}
    facts["decode"] = list(image.decode)
    facts["length"] = image.length
    return facts


def _to_folder(image: EncodedImage) -> None:
    """Write the picture's entry (a failure to write costs only the time it would have saved)."""
    folder = _folder[0]
    if folder is None:
        return
    head = {"format": FORMAT, "key": image.key, **_entry(image),
            "mask": None if image.mask is None else {"key": image.mask.key, **_entry(image.mask)}}
    body = json.dumps(head, sort_keys=True).encode() + b"\n" + image.content() \
        + (image.mask.content() if image.mask is not None else b"")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / f"{image.key}.pic", body)
    except OSError:
        pass


def _from_folder(key: str) -> EncodedImage | None:
    """The picture's entry in the build's cache, or None when it is missing or not as written."""
    folder = _folder[0]
    if folder is None:
        return None
    try:
        body = (folder / f"{key}.pic").read_bytes()
        line, _, rest = body.partition(b"\n")
        head = json.loads(line)
        if head.get("format") != FORMAT or head.get("key") != key:
            return None
        mask = head.get("mask")
        length = head["length"]
        mask_length = mask["length"] if mask else 0
        if len(rest) != length + mask_length:
            return None
        made_mask = None if not mask else _image(mask["key"], mask, rest[length:])
        return _image(key, head, rest[:length], made_mask)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _image(key: str, facts: dict, data: bytes, mask: EncodedImage | None = None) -> EncodedImage:
    if not isinstance(key, str) or facts["colour_space"] not in _COLOUR_SPACES.values() \
            or facts["filter"] not in ("DCTDecode", "FlateDecode"):
        raise ValueError("not a picture entry")
    return EncodedImage(key=key, width=int(facts["width"]), height=int(facts["height"]),
                        colour_space=facts["colour_space"], filter=facts["filter"], data=data,
                        bits=int(facts["bits"]), predictor_colours=int(facts["predictor_colours"]),
                        decode=tuple(int(v) for v in facts["decode"]), mask=mask)
