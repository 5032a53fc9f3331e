"""Component images: token and standee faces as PNGs, and the texture of a die (used by the TTS export).

`build/<game>/png/<component>/<CODE>.png` per token or standee item (and `back.png` for a second face), RGBA
with everything outside the outline transparent (what TTS and image editors cut a token out by), plus
`components.csv` (file, code, name, copies).

The die texture places faces in two rows of three (2 4 5 above 1 3 6, faces 1 and 6 turned over) as a
third-party tool for TTS dice does; TTS's own template was not found, so check a die in TTS once.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.components.art import draw_die_face
from generator.components.faces import faces_for
from generator.components.nets import Region, rect_path
from generator.core.fonts import BODY, register_fonts
from generator.data.components import Component
from generator.data.game import Card, Game
from generator.exports.png import export_png, remove_stale, write_cards_csv, write_png
from generator.exports.raster import pixels, render_pages

DEFAULT_DPI = 300
DIE_TEXTURE = 1024
DIE_CELLS = {2: (0, 0), 4: (1, 0), 5: (2, 0), 1: (0, 1), 3: (1, 1), 6: (2, 1)}  # (column, row) in the texture
DIE_TURNED = {1, 6}


def _faces_pdf(game: Game, component: Component, faces: list[Card | None]) -> tuple[bytes, float, float]:
    """A PDF with one page per face of a token or standee item (None: the component's back), page = the
    face."""
    register_fonts()
    renderer = faces_for(game)
    w, h = component.face_size()
    shape = component.shape
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(w, h), invariant=1, initialFontName=BODY, pageCompression=1)
    for card in faces:
        clip = shape.path(w / 2, h / 2) if shape is not None else rect_path(0, 0, w, h)
        renderer.place_clipped(canvas, component, card, w / 2, h / 2, clip)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue(), w, h


def face_pngs(game: Game, component: Component, dpi: float = DEFAULT_DPI) -> list[tuple[str, Image.Image]]:
    """(file name, RGBA image) of each item's front and the component's back (tokens with two faces, standees
    with a back layout), transparent outside the outline."""
    faces: list[Card | None] = list(component.items)
    names = [f"{item.code}.png" for item in component.items]
    if component.model.has_back_face():
        faces.append(None)
        names.append("back.png")
    pdf, w, h = _faces_pdf(game, component, faces)
    size = (pixels(w, dpi), pixels(h, dpi))
    return list(zip(names, render_pages(pdf, [size] * len(faces), alpha=True), strict=True))


def export_component_pngs(game: Game, build_dir: Path, dpi: float = DEFAULT_DPI) -> list[Path]:
    """Token and standee faces as PNGs in build/<game>/png/<component>/, with components.csv."""
    written: list[Path] = []
    for component in game.components.values():
        if not component.model.lists_items:
            continue
        folder = build_dir / game.build_path / "png" / component.id
        files = [write_png(image, folder / name, dpi) for name, image in face_pngs(game, component, dpi)]
        rows = [{"file": f"{item.code}.png", "code": item.code, "name": item.name, "copies": item.copies}
                for item in component.items]
        files.append(write_cards_csv(folder / "components.csv", rows))
        remove_stale(folder, {p.name for p in files})
        written += files
    return written


def die_texture(game: Game, component: Component) -> Image.Image:
    """The six faces of a die on one square texture for a TTS Custom Dice (two rows of three)."""
    register_fonts()
    faces = faces_for(game)
    cell = DIE_TEXTURE / 3
    side = 72.0  # drawn on a one-inch page and rendered at DIE_TEXTURE pixels
    scale = side / DIE_TEXTURE
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(side, side), invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.rect(0, 0, side, side, stroke=0, fill=1)
    for number, (col, row) in DIE_CELLS.items():
        top = DIE_TEXTURE / 2 - cell + row * cell  # the two rows sit in the middle of the square
        cx = (col + 0.5) * cell * scale
        cy = side - (top + cell / 2) * scale
        angle = 180 if number in DIE_TURNED else 0
        draw_die_face(
            canvas,
            faces,
            component,
            number,
            Region(f"face-{number}", cx, cy, cell * scale, cell * scale, angle=angle),
        )
    canvas.showPage()
    canvas.save()
    return next(render_pages(buffer.getvalue(), [(DIE_TEXTURE, DIE_TEXTURE)]))


def export_game_pngs(
    game: Game, build_dir: Path, dpi: float = DEFAULT_DPI, bleed_pt: float | None = None
) -> list[Path]:
    """`pnp export png`: every card type (generator.exports.png) and every token and standee face."""
    written = (
        export_png(game, build_dir, dpi) if bleed_pt is None else export_png(game, build_dir, dpi, bleed_pt)
    )
    return written + export_component_pngs(game, build_dir, dpi)
