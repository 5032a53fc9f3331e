"""Pictures in card layouts: `image:` boxes showing a PNG, JPG or SVG from the game folder.

`fit: contain` (the default) shows the whole picture inside the box, centred; `fit: cover` fills the box and
crops what sticks out. A raster picture printed at less than 300 dpi looks soft, so it gives a warning (not an
error: a rough draft may use a placeholder).
"""

from __future__ import annotations

import functools
import struct
import warnings
import zlib
from pathlib import Path

from PIL import Image, UnidentifiedImageError
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import InputError
from generator.core.lfs import lfs_pointer
from generator.core.limits import DEFAULT_IMAGE_DPI, MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_SVG_BYTES
from generator.core.pdfimages import place_image
from generator.core.units import INCH, mm
from generator.data.project import Project
from generator.faces import embedding, icons
from generator.faces.svg import reference_problem

SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
MIN_DPI = 300
FITS = ("contain", "cover")
JPEG_TAIL = 65_536  # bytes: how much of a big JPEG's end is read to see it is whole
JPEG_END = 4_096  # bytes: read first (found there, its end marker is the tail's last)


class ImageProblem(ValueError):
    """An image value that cannot be shown (outside the game folder, missing, not a picture)."""


def locate(project: Project, game_dir: Path, value: str, shown_dir: str) -> Path:
    """The picture file named by `value` (relative to the game folder), which must stay inside that folder
    (links resolved by Project.inside), be no larger than the limits and read as a picture."""
    try:
        path = project.inside(value, game_dir, what="image")
    except InputError as exc:
        raise ImageProblem(exc.problems[0].message) from None
    if game_dir.resolve() not in path.parents:
        raise ImageProblem(f"image '{value}' is outside the game folder; expected a path inside {shown_dir}")
    if not path.is_file():
        raise ImageProblem(f"image '{value}' not found; expected a PNG, JPG or SVG file in {shown_dir}")
    pointer = lfs_pointer(path, value)
    if pointer:
        raise ImageProblem(pointer)
    if path.suffix.lower() not in SUFFIXES:
        raise ImageProblem(f"image '{value}' is not a picture; expected a .png, .jpg or .svg file")
    limit = MAX_SVG_BYTES if path.suffix.lower() == ".svg" else MAX_IMAGE_BYTES
    size = path.stat().st_size
    if size > limit:
        raise ImageProblem(
            f"image '{value}' is {size:,} bytes; expected at most {limit:,} bytes (pnp's limit)"
        )
    if path.suffix.lower() != ".svg":
        pixel_size(path)  # an unreadable or oversized raster file fails now, located, not while drawing
    else:
        trouble = reference_problem(path, project)
        if trouble:
            raise ImageProblem(f"image '{value}': {trouble}")
    return path


def pixel_size(path: Path) -> tuple[int, int]:
    """Width and height in pixels of a raster picture, checked once per file version: at most MAX_IMAGE_PIXELS
    and decodable (a truncated file fails here, not while a PDF is drawn)."""
    stat = path.stat()
    return _pixel_size(str(path), stat.st_mtime_ns, stat.st_size)


@functools.cache  # a few numbers a picture: each file version is read once a process
def _pixel_size(path: str, _mtime_ns: int, _size: int) -> tuple[int, int]:
    name = Path(path).name
    too_big = (
        f"image '{name}' has more than {MAX_IMAGE_PIXELS:,} pixels; expected a smaller picture (pnp's limit)"
    )
    try:
        # a plain JPEG's size from its markers: it is embedded as it is, so Pillow need not open it
        header = embedding.jpeg_file_header(path, _mtime_ns, _size)
        if header is not None and header[1][0] * header[1][1] <= MAX_IMAGE_PIXELS:
            trouble = _damage(path, "JPEG")
            if trouble:
                raise OSError(trouble)
            return header[1]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                width, height = image.size
                if width * height > MAX_IMAGE_PIXELS:
                    raise ImageProblem(f"image '{name}' is {width} x {height} pixels; expected at most "
                                       f"{MAX_IMAGE_PIXELS:,} pixels (pnp's limit)")
                trouble = _damage(path, image.format or "")
                if trouble is None:
                    image.load()  # a format whose structure is not checked below: decoded
                elif trouble:
                    raise OSError(trouble)
                return width, height
    except Image.DecompressionBombError:
        raise ImageProblem(too_big) from None
    except UnidentifiedImageError:
        raise ImageProblem(f"image '{name}' cannot be read as a picture (not a picture file pnp knows, or "
                           "damaged); expected a PNG, JPG or SVG file") from None
    # the reason without the file's full path (the box names it)
    except (OSError, SyntaxError, EOFError) as exc:
        reason = str(exc).replace(f"'{path}'", f"'{name}'").replace(path, name)
        raise ImageProblem(
            f"image '{name}' cannot be read as a picture ({reason}); expected a PNG, JPG or SVG file"
        ) from None


def _damage(path: str, form: str) -> str | None:
    """What is wrong with the structure of a JPEG or PNG file ("" when nothing), without decoding its
    pixels (a JPEG or plain PNG is embedded as it is, so decoding it only to check it would cost more than
    the rest of the build): a JPEG's last scan must end with its end marker, a PNG's chunks must all be
    whole, with their checksums, up to its end chunk. None for other formats."""
    if form == "JPEG":
        # the end marker cannot appear inside a scan's coded data (0xFF is stuffed there); a big file's end is
        # read only (a thumbnail's own end marker lies near the start)
        with open(path, "rb") as file:
            size = file.seek(0, 2)
            big = size > 4 * JPEG_TAIL
            if big:  # its last bytes first: the end marker is nearly always there, and then so is the answer
                file.seek(size - JPEG_END)
                data = file.read()
                if data.rfind(b"\xff\xd9") < 0:
                    file.seek(size - JPEG_TAIL)
                    data = file.read()
            else:
                file.seek(0)
                data = file.read()
        # whole: the last end marker after the last scan (looked for after it only: most of a tail is a scan)
        end = data.rfind(b"\xff\xd9")
        whole = end >= 0 and data.find(b"\xff\xda", end) < 0 and (
            big or data.rfind(b"\xff\xda", 0, end) >= 0)
        return "" if whole else "the file is truncated"
    if form != "PNG":
        return None
    data = Path(path).read_bytes()
    at = 8
    while at + 12 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        end = at + 12 + length
        if end > len(data):
            break
        if zlib.crc32(data[at + 4:end - 4]) != struct.unpack(">I", data[end - 4:end])[0]:
            return f"the {kind.decode('latin-1')} chunk is damaged (its checksum does not match)"
        if kind == b"IEND":
            return ""
        at = end
    return "the file is truncated"


def _scale(natural_w: float, natural_h: float, w: float, h: float, fit: str) -> float:
    """How much the picture is scaled to contain it in, or make it cover, a w x h box."""
    pick = max if fit == "cover" else min
    return pick(w / natural_w, h / natural_h)


def print_dpi(path: Path, w: float, h: float, fit: str) -> float | None:
    """The resolution of a raster picture as printed in a w x h pt box; None for vector (SVG) pictures."""
    if path.suffix.lower() == ".svg":
        return None
    px_w, px_h = pixel_size(path)
    shown_w = px_w * _scale(px_w, px_h, w, h, fit)  # printed width in points
    return px_w / (shown_w / INCH)


def low_dpi_message(path: Path, value: str, w: float, h: float, fit: str) -> str | None:
    """A warning when a raster picture prints below MIN_DPI in a w x h pt box, else None."""
    dpi = print_dpi(path, w, h, fit)
    if dpi is None or dpi >= MIN_DPI - 0.5:
        return None
    px_w, px_h = pixel_size(path)
    return (f"image '{value}' ({px_w} x {px_h} px) prints at {dpi:.0f} dpi in its {w / mm(1):.1f} x "
            f"{h / mm(1):.1f} mm box; expected at least {MIN_DPI} dpi for a sharp print")


def draw_image(canvas: Canvas, path: Path, box: tuple[float, float, float, float], fit: str = "contain",
               fade: float = 0.0, max_dpi: float = DEFAULT_IMAGE_DPI) -> None:
    """Draw the picture centred in the box (x, y, w, h): all of it (`contain`) or filling it, cropped
    (`cover`); `fade` moves every colour that far towards white (the ink saver's backs). A raster picture
    finer than `max_dpi` as printed is downsampled (generator.faces.embedding)."""
    x, y, w, h = box
    if path.suffix.lower() == ".svg":
        icons.draw_icon(canvas, path, box, fit=fit, fade=fade)
        return
    px_w, px_h = pixel_size(path)
    scale = _scale(px_w, px_h, w, h, fit)
    shown_w, shown_h = px_w * scale, px_h * scale
    image = embedding.encoded(path, embedding.Recipe((shown_w, shown_h), max_dpi, fade))
    at_x, at_y = x + (w - shown_w) / 2, y + (h - shown_h) / 2
    if fit == "contain":
        place_image(canvas, image, at_x, at_y, shown_w, shown_h)
        return
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    place_image(canvas, image, at_x, at_y, shown_w, shown_h)
    canvas.restoreState()


def draw_art_bleed(canvas: Canvas, path: Path, inner: tuple[float, float, float, float],
                   outer: tuple[float, float, float, float], mode: str, fade: float = 0.0,
                   max_dpi: float = DEFAULT_IMAGE_DPI) -> None:
    """Raster art covering `inner` (the box at the trim), its edges mirrored or stretched out to `outer`."""
    ix, iy, iw, ih = inner
    ox, oy, ow, oh = outer
    pads = (ix - ox, (oy + oh) - (iy + ih), (ox + ow) - (ix + iw), iy - oy)  # left, top, right, bottom in pt
    bleed = embedding.ArtBleed(iw, ih, tuple(round(p, 3) for p in pads), mode)
    image = embedding.encoded(path, embedding.Recipe((ow, oh), max_dpi, fade, bleed))
    place_image(canvas, image, ox, oy, ow, oh)
