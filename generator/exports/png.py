"""`pnp export png`: every card type (and each deck's back) as a PNG with bleed plus a trimmed PNG, and
cards.csv.

The faces are drawn by the card renderer (generator.faces.face) into one PDF per deck, each face once as a
Form XObject, and rasterised by pypdfium2 at exact pixel sizes (generator.exports.raster). The shared helpers
here (a game seen with another bleed, face PDFs of any page size, the size name of a deck) are used by the
print-shop, TTS and preview exports too.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.core.csvsafe import csv_text
from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY, register_fonts
from generator.core.limits import MAX_BLEED_PT, MAX_EXPORT_PIXELS
from generator.core.units import CARD_SIZES_MM, INCH
from generator.core.write import atomic_write
from generator.data.game import Card, Deck, Game
from generator.exports.raster import pixels, render_pages, round_corners, save_png
from generator.faces.backs import BackFace
from generator.faces.face import draw_back, draw_front, renderer_for

DEFAULT_DPI = 300
# the US print-shop bleed: poker 2.5 x 3.5 in becomes 2.75 x 3.75 in = 825 x 1125 px
DEFAULT_BLEED_PT = INCH / 8


@dataclass(frozen=True)
class Face:
    """One page of a face PDF: a card's front, or (back=True, or no card) the back it shows, on a page of the
    given size."""

    card: Card | None
    width_pt: float
    height_pt: float
    trimmed: bool = False  # True: the page is the trim box (no bleed)
    back: bool = False


def deck_backs(game: Game, deck: Deck) -> list[tuple[BackFace, str]]:
    """The deck's drawn backs with the file stem each is exported as: `back` for the deck's usual back,
    `<CODE>-back` for a back drawn for one card, `back-<layout>` for another back shared by several cards."""
    out = []
    for face in renderer_for(game).unstamped_backs(deck):  # a stamp is no reason for a back per card
        if face.key == "B":
            stem = "back"
        elif face.card is not None:
            stem = f"{face.card.code}-back"
        else:
            stem = f"back-{face.layout}"
        out.append((face, stem))
    return out


def back_stem(backs: list[tuple[BackFace, str]], card: Card) -> str:
    """The file stem of the back a card shows."""
    return next(stem for face, stem in backs if card in face.cards)


def with_bleed(game: Game, bleed_pt: float) -> Game:
    """The same game drawn with another bleed: full-bleed boxes then run out to `bleed_pt` (not just 3 mm)."""
    config = game.config.model_copy(update={"bleed": f"{bleed_pt:.6f}pt"})
    return dataclasses.replace(game, config=config)


def size_name(deck: Deck, turned: bool = False) -> str | None:
    """The named card size of a deck ('poker', 'bridge', ...; `turned`: of its cards turned a quarter), or
    None for a custom size."""
    width, height = deck.size_mm[::-1] if turned else deck.size_mm
    for name, (w, h) in CARD_SIZES_MM.items():
        if abs(w - width) < 0.01 and abs(h - height) < 0.01:
            return name
    return None


def draw_faces_pdf(game: Game, deck: Deck, faces: list[Face], path: Path | None = None) -> bytes:
    """A PDF with one page per face, the trim centred on each page; bleed pages show the art running out."""
    register_fonts()
    tw, th = deck.size_pt
    needed = max([max(f.width_pt - tw, f.height_pt - th) / 2 for f in faces if not f.trimmed] + [0.0])
    drawn = with_bleed(game, needed) if needed > 0 else game
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(tw, th), invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(f"{game.title}: {deck.name}")
    for face in faces:
        canvas.setPageSize((face.width_pt, face.height_pt))
        if face.trimmed:
            x, y, bleed = (face.width_pt - tw) / 2, (face.height_pt - th) / 2, False
        else:
            x, y, bleed = (face.width_pt - tw) / 2 - needed, (face.height_pt - th) / 2 - needed, True
        if face.back or face.card is None:
            draw_back(canvas, drawn, deck, x, y, bleed=bleed, card=face.card)
        else:
            draw_front(canvas, drawn, face.card, x, y, bleed=bleed)
        canvas.showPage()
    canvas.save()
    data = buffer.getvalue()
    if path is not None:
        atomic_write(path, data)
    return data


def face_images(game: Game, deck: Deck, faces: list[Face], dpi: float = DEFAULT_DPI,
                sizes: list[tuple[int, int]] | None = None) -> Iterator[Image.Image]:
    """Each face as an RGB image: at `sizes` pixels when given, else the page size at `dpi` rounded per
    side."""
    pdf = draw_faces_pdf(game, deck, faces)
    if sizes is None:
        sizes = [(pixels(f.width_pt, dpi), pixels(f.height_pt, dpi)) for f in faces]
    yield from render_pages(pdf, sizes)


def write_png(image: Image.Image, path: Path, dpi: float = DEFAULT_DPI) -> Path:
    """Write an image as PNG atomically."""
    return atomic_write(path, lambda tmp: save_png(image, tmp, dpi))


def write_cards_csv(path: Path, rows: list[dict]) -> Path:
    """The listing of a folder of card images: file, trimmed file, code, name, copies (one row per card
    type)."""
    columns = list(rows[0]) if rows else ["file", "code", "name", "copies"]
    table = [columns] + [["" if row.get(key) is None else str(row[key]) for key in columns] for row in rows]
    return atomic_write(path, csv_text(table))  # a name such as '=2+5' is written as text, never a formula


def remove_stale(
    folder: Path, keep: set[str], patterns: tuple[str, ...] = ("*.png", "*.csv", "*.pdf", "*.json")
) -> None:
    """Delete earlier exports in `folder` that this export did not write (a card removed from the data)."""
    if not folder.is_dir():
        return
    for pattern in patterns:
        for old in folder.glob(pattern):
            if old.name not in keep:
                old.unlink()


def export_deck_png(game: Game, deck: Deck, folder: Path, dpi: float = DEFAULT_DPI,
                    bleed_pt: float = DEFAULT_BLEED_PT) -> list[Path]:
    """<CODE>.png (trim + bleed) and <CODE>-trim.png per card type, each drawn back (back.png / back-trim.png
    for the deck's usual back, see `deck_backs`) and cards.csv naming each card's back. With the game's
    `corner_radius` the trimmed images have round, transparent corners (print-shop images stay square)."""
    tw, th = deck.size_pt
    full = (tw + 2 * bleed_pt, th + 2 * bleed_pt)
    backs = deck_backs(game, deck)
    faces, names = [], []
    for back, stem in backs:
        faces += [Face(back.cards[0], *full, back=True), Face(back.cards[0], tw, th, trimmed=True, back=True)]
        names += [f"{stem}.png", f"{stem}-trim.png"]
    for card in deck.cards:
        faces += [Face(card, *full), Face(card, tw, th, trimmed=True)]
        names += [f"{card.code}.png", f"{card.code}-trim.png"]
    radius = game.corner_radius_pt / INCH * dpi  # trimmed faces get the game's rounded corners
    images = (round_corners(image, radius) if face.trimmed else image
              for image, face in zip(face_images(game, deck, faces, dpi), faces, strict=True))
    written = [write_png(image, folder / name, dpi) for image, name in zip(images, names, strict=True)]
    rows = [{"file": f"{card.code}.png", "trim_file": f"{card.code}-trim.png", "code": card.code,
             "name": card.name, "copies": card.copies, "back_file": f"{back_stem(backs, card)}.png"}
            for card in deck.cards]
    written.append(write_cards_csv(folder / "cards.csv", rows))
    remove_stale(folder, {p.name for p in written})
    return written


def check_png_options(game: Game, dpi: float, bleed_pt: float) -> None:
    """The bleed is from 0 to MAX_BLEED_PT (a negative bleed would crop the card) and no image gets more than
    MAX_EXPORT_PIXELS pixels; a located InputError otherwise."""
    if not 0 <= bleed_pt <= MAX_BLEED_PT:
        raise InputError(
            Problem(
                "",
                0,
                f"--bleed: {bleed_pt / INCH:g} in; expected from 0 to "
                f"{MAX_BLEED_PT / INCH:g} in (a negative bleed would cut into the card)",
            )
        )
    for deck in game.decks.values():
        tw, th = deck.size_pt
        pixels_w, pixels_h = pixels(tw + 2 * bleed_pt, dpi), pixels(th + 2 * bleed_pt, dpi)
        if pixels_w * pixels_h > MAX_EXPORT_PIXELS:
            raise InputError(
                Problem(
                    deck.file,
                    deck.line,
                    f"deck '{deck.id}' would export {pixels_w} x {pixels_h} px "
                    f"images at {dpi:g} dpi; expected at most {MAX_EXPORT_PIXELS:,} pixels "
                    "(a lower --dpi or a smaller card)",
                )
            )


def export_png(
    game: Game, build_dir: Path, dpi: float = DEFAULT_DPI, bleed_pt: float = DEFAULT_BLEED_PT
) -> list[Path]:
    """Every deck of the game into build/<game>/png/<deck>/ (options checked first, see check_png_options)."""
    check_png_options(game, dpi, bleed_pt)
    written: list[Path] = []
    for deck in game.decks.values():
        written += export_deck_png(game, deck, build_dir / game.build_path / "png" / deck.id, dpi, bleed_pt)
    return written

