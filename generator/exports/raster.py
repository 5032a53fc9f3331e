"""PDF pages to RGB images at an exact pixel size (pypdfium2), shared by the PNG, print-shop, TTS and preview
exports.

`page.render(scale=dpi/72)` rounds the bitmap size up (198 pt x 300/72 = 825.0000000000001 -> 826 px), so the
page is rendered straight into a bitmap of the wanted size instead: the scale is derived from the target
pixels.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw, ImageFont

from generator.core.fonts import Family, face_runs
from generator.core.units import INCH

WHITE = (255, 255, 255, 255)
CLEAR = (0, 0, 0, 0)


def pixels(length_pt: float, dpi: float) -> int:
    """The pixel count of a length at `dpi`, rounded to the nearest pixel (2.75 in at 300 dpi -> 825)."""
    return int(round(length_pt / INCH * dpi + 1e-9))


def render_page(page: pdfium.PdfPage, width_px: int, height_px: int, alpha: bool = False) -> Image.Image:
    """One page stretched onto exactly width_px x height_px pixels, as an RGB image on white (RGBA on
    transparent with `alpha`: what is not drawn stays see-through, as a shaped token's corners)."""
    bitmap = pdfium.PdfBitmap.new_native(
        width_px, height_px, pdfium_c.FPDFBitmap_BGRA if alpha else pdfium_c.FPDFBitmap_BGR
    )
    bitmap.fill_rect(CLEAR if alpha else WHITE, 0, 0, width_px, height_px)
    pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width_px, height_px, 0, pdfium_c.FPDF_ANNOT)
    image = bitmap.to_pil().convert("RGBA" if alpha else "RGB")  # copies the pixels out of pdfium's buffer
    bitmap.close()
    return image


def render_pages(pdf_path: Path | bytes, sizes: list[tuple[int, int]] | None = None,
                 dpi: float = 300, alpha: bool = False) -> Iterator[Image.Image]:
    """Every page of a PDF as an RGB (or RGBA) image: at `sizes[i]` pixels when given, else at `dpi`."""
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            if sizes is not None:
                width_px, height_px = sizes[index]
            else:
                width_pt, height_pt = page.get_size()
                width_px, height_px = pixels(width_pt, dpi), pixels(height_pt, dpi)
            try:
                yield render_page(page, width_px, height_px, alpha)
            finally:
                page.close()
    finally:
        pdf.close()


def save_png(image: Image.Image, path: Path, dpi: float = 300) -> None:
    """Write an RGB (or RGBA) PNG with its resolution recorded (pHYs), deterministically (no timestamps by
    PIL)."""
    image.save(path, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=3)


def corner_mask(size: tuple[int, int], radius_px: float) -> Image.Image:
    """An 8-bit mask of a rounded rectangle filling `size` (smooth edges: drawn 4x larger and scaled down)."""
    scale = 4
    big = Image.new("L", (size[0] * scale, size[1] * scale), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1), radius=radius_px * scale, fill=255
    )
    return big.resize(size, Image.Resampling.LANCZOS)


def round_corners(image: Image.Image, radius_px: float) -> Image.Image:
    """The image with its corners cut round (transparent): a trimmed card face with the game's
    `corner_radius`."""
    if radius_px <= 0:
        return image
    rounded = image.convert("RGBA")
    rounded.putalpha(corner_mask(image.size, radius_px))
    return rounded


# --- text on raster images, with the fonts' fallback faces (as the PDFs set it)
# ---------------------------------

@functools.lru_cache(maxsize=64)
def _pil_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def text_width(
    draw: ImageDraw.ImageDraw, text: str, family: Family, size: int, style: str = "regular"
) -> float:
    """The width in pixels of `text` as `draw_text` draws it."""
    return sum(
        draw.textlength(part, font=_pil_font(str(face.path), size))
        for face, part in face_runs(text, family, style)
    )


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, family: Family, size: int,
              fill: str, style: str = "regular") -> None:
    """`text` with its top-left at `xy`, each character in the family's face or, when it lacks it, in a
    fallback face (all on the family face's baseline); a character no face draws is refused, never left
    out."""
    x, top = xy
    baseline = top + _pil_font(str(family.face(style).path), size).getmetrics()[0]
    for face, part in face_runs(text, family, style):
        font = _pil_font(str(face.path), size)
        draw.text((x, baseline), part, font=font, fill=fill, anchor="ls")
        x += draw.textlength(part, font=font)
