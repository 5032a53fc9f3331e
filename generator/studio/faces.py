"""Card faces for the studio: which faces a game has, a fingerprint of what each is drawn from, and PNG
images.

A face is drawn by the same card renderer as the PDFs (`draw_front` / `draw_back`, each face a Form XObject)
on a page of trim plus the game's bleed, and rasterised by pypdfium2 at an exact pixel size, so the studio
shows what prints. The fingerprint hashes the face's rendered boxes (texts, colours, icons, geometry, image
bytes) and the files every face shares (fonts, icon libraries, the game's pictures), so an edit re-draws only
the faces it changes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY, font_files, register_fonts
from generator.data.game import Card, Deck, Game
from generator.data.project import BUILTIN_ICONS
from generator.data.spreadsheet import SUFFIXES as SPREADSHEET_SUFFIXES
from generator.exports.raster import pixels, render_pages
from generator.faces.backs import BackFace
from generator.faces.boxes.base import Resolved
from generator.faces.face import draw_back, draw_front, renderer_for
from generator.pipeline.incremental import digest

GRID_DPI = 120    # the grid: a poker card with 3 mm bleed is 328 px wide
PRINT_DPI = 300   # the large view: print resolution
BACK = "@back"    # face keys of backs start so (card ids are slugs, so never '@...')
# the data itself, YAML or a spreadsheet's cells, is read through the renderer, not hashed as files: one
# edited cell changes the fingerprints of the faces that show it, as a YAML edit does, not of every face
SOURCE_SUFFIXES = (".yaml", ".yml", *SPREADSHEET_SUFFIXES)


@dataclass(frozen=True)
class FaceRef:
    """One drawn face of a game: a card type's front, or one of a deck's backs (shared, or drawn for one
    card)."""

    deck: Deck
    card: Card | None          # the front's card; None for a back
    back: BackFace | None = None

    @property
    def key(self) -> str:
        """'deck/card-id', 'deck/@back' (the deck's usual back) or 'deck/@back-<form key>': stable while ids
        are."""
        if self.back is None:
            return f"{self.deck.id}/{self.card.id}"
        return (
            f"{self.deck.id}/{BACK}"
            if self.back.key == "B"
            else f"{self.deck.id}/{BACK}-{self.back.key.lower()}"
        )

    @property
    def shown_by(self) -> Card:
        """The card whose data the face is drawn with (a shared back: the first card that shows it)."""
        return self.back.cards[0] if self.back is not None else self.card

    @property
    def drawn_for(self) -> Card | None:
        """The card the face is drawn for: None for the deck's usual back, which is drawn for no card in
        particular (so without the version stamp, as the exports draw it)."""
        return None if self.back is not None and self.back.key == "B" else self.shown_by


def faces_of(game: Game) -> list[FaceRef]:
    """Every face of the game in print order: each deck's fronts, then its backs (InputError: a back layout
    fails)."""
    renderer = renderer_for(game)
    refs = []
    for deck in game.decks.values():
        refs += [FaceRef(deck, card) for card in deck.cards]
        # the backs as the exports group them: a back that differs from card to card only by its version
        # stamp is shown once, as the deck's usual back
        refs += [FaceRef(deck, None, back) for back in (renderer.unstamped_backs(deck) if deck.cards else [])]
    return refs


def _listing(folder: Path, skip_sources: bool = False, within: Path | None = None) -> list[Path]:
    if not folder.is_dir():
        return []
    root = within.resolve() if within is not None else None
    return sorted(p for p in folder.rglob("*") if p.is_file() and not p.name.startswith(".")
                  and not (skip_sources and p.suffix.lower() in SOURCE_SUFFIXES)
                  # links out of the project are never read
                  and (root is None or root in p.resolve().parents))


def shared_look(game: Game) -> str:
    """A hash of the files every face of the game may draw: fonts, icon libraries and the game's own
    pictures."""
    project = game.project
    parts = [
        digest(sorted(font_files().values())),
        digest(_listing(BUILTIN_ICONS), BUILTIN_ICONS),
        digest(_listing(project.templates_dir / "icons", within=project.root), project.root),
        # icons/, images, fonts; not the YAML data
        digest(_listing(game.dir, skip_sources=True, within=project.root), game.dir),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _plain(value):
    """Box data as JSON-ready values; an image path becomes a hash of its bytes (a new picture is a
    change)."""
    if isinstance(value, Path):
        try:
            return "file:" + hashlib.sha256(value.read_bytes()).hexdigest()
        except OSError:
            return f"missing:{value}"
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Resolved):  # what a box kind resolved: its fields
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return repr(value)


def fingerprints(game: Game) -> dict[str, str]:
    """Face key -> hash of what the face is drawn from. Raises InputError when a layout or template fails."""
    renderer = renderer_for(game)
    renderer.check()
    shared = shared_look(game)
    result = {}
    for face in faces_of(game):
        drawn = renderer.resolved(face.deck, face.drawn_for, back=face.back is not None)
        boxes = [[box.name, box.kind, round(box.x, 4), round(box.y, 4), round(box.w, 4), round(box.h, 4),
                  _plain(box.spec), _plain(data)] for box, data in drawn]
        text = json.dumps([shared, face.deck.size_pt, game.bleed_pt, game.safe_pt, boxes], sort_keys=True)
        result[face.key] = hashlib.sha256(text.encode()).hexdigest()[:20]
    return result


def warnings(game: Game) -> list[str]:
    """The renderer's located warnings of a checked game (pictures printing below 300 dpi)."""
    return list(renderer_for(game).warnings)


def face_page_size(game: Game, deck: Deck) -> tuple[float, float]:
    """The drawn page of a face in points: the trim plus the game's bleed on every side."""
    tw, th = deck.size_pt
    return tw + 2 * game.bleed_pt, th + 2 * game.bleed_pt


def face_pixels(game: Game, deck: Deck, dpi: float) -> tuple[int, int]:
    """The pixel size of a face image (trim plus bleed) at `dpi`."""
    width, height = face_page_size(game, deck)
    return pixels(width, dpi), pixels(height, dpi)


def _faces_pdf(game: Game, deck: Deck, faces: list[FaceRef], ink: str = "normal") -> bytes:
    register_fonts()
    size = face_page_size(game, deck)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=size, invariant=1, initialFontName=BODY, pageCompression=0)
    for face in faces:
        if face.back is not None:
            draw_back(canvas, game, deck, 0, 0, card=face.drawn_for, ink=ink)
        else:
            draw_front(canvas, game, face.card, 0, 0, ink=ink)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def png_bytes(image) -> bytes:
    """An RGB image as PNG bytes (fast compression: these are served, not archived)."""
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def render_faces(game: Game, faces: list[FaceRef], dpi: float = GRID_DPI,
                 ink: str = "normal") -> tuple[dict[str, bytes], list[Problem]]:
    """PNG bytes of each face at `dpi`, one PDF per deck; a face that fails to draw (a text that does not fit)
    is left out and its problems returned, so the others still show. `ink="saver"`: as `pnp build --ink saver`
    prints it."""
    images: dict[str, bytes] = {}
    problems: list[Problem] = []
    by_deck: dict[str, list[FaceRef]] = {}
    for face in faces:
        by_deck.setdefault(face.deck.id, []).append(face)
    for group in by_deck.values():
        deck = group[0].deck
        size = face_pixels(game, deck, dpi)
        try:
            batches = [(group, _faces_pdf(game, deck, group, ink))]
        except InputError:  # draw one by one to keep every face that does draw
            batches = []
            for face in group:
                try:
                    batches.append(([face], _faces_pdf(game, deck, [face], ink)))
                except InputError as exc:
                    problems.extend(exc.problems)
        for drawn, pdf in batches:
            for face, image in zip(drawn, render_pages(pdf, [size] * len(drawn)), strict=True):
                images[face.key] = png_bytes(image)
    return images, problems
