"""`pnp export pod --shop SHOP`: files for a print-on-demand shop, from the YAML presets in
generator/assets/presets/.

A preset is data: `format: pdf` (one PDF per deck, a back page then its front for every physical card, trim
plus bleed with TrimBox/BleedBox) or `format: png` (one PNG per card type at the pixel size its `sizes:` table
gives for the deck's card size, else trim + 2 x `bleed` at `dpi`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.fonts import BODY, register_fonts
from generator.core.pdfx import PDFX_VERSIONS, PdfxPage, PdfxSpec, pdfx_bytes, pdfx_spec, to_cmyk
from generator.core.units import INCH, UnitError, to_pt
from generator.core.write import atomic_write
from generator.core.yamlio import load_yaml
from generator.data.expand import expand_deck
from generator.data.game import Deck, Game
from generator.data.project import PRESETS_DIR
from generator.exports.png import (
    Face,
    back_stem,
    deck_backs,
    face_images,
    remove_stale,
    size_name,
    with_bleed,
    write_cards_csv,
    write_png,
)
from generator.exports.preflight import Rules, preflight
from generator.faces.face import draw_back, draw_front

PRESET_DIR = PRESETS_DIR
FORMATS = ("pdf", "png")


@dataclass(frozen=True)
class Preset:
    """A print shop's card file specification."""

    shop: str
    name: str
    format: str
    dpi: float = 300
    bleed_pt: float | None = None
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)
    order: str = "back-front"
    note: str = ""
    pdfx: PdfxSpec | None = None  # `pdfx:` set: a PDF/X file in press CMYK (exports.pdfx)
    rotate_landscape: bool = False  # landscape cards go into the portrait template, turned a quarter


def known_shops() -> list[str]:
    """The shops with a preset file."""
    return sorted(p.stem for p in PRESET_DIR.glob("*.yaml"))


def load_preset(shop: str) -> Preset:
    """The preset of `shop`, or an InputError listing the known shops."""
    known = known_shops()
    path = PRESET_DIR / f"{shop}.yaml"
    if shop not in known:
        raise InputError(
            Problem(
                "", 0, f"no print-shop preset '{shop}'{did_you_mean(shop, known)}; known: {known_list(known)}"
            )
        )
    shown = f"generator/assets/presets/{path.name}"
    raw = load_yaml(path, shown)
    try:
        fmt = raw["format"]
        if fmt not in FORMATS:
            raise ValueError(f"format '{fmt}' is not one of {', '.join(FORMATS)}")
        sizes = {str(k): (int(v[0]), int(v[1])) for k, v in (raw.get("sizes") or {}).items()}
        bleed = to_pt(raw["bleed"]) if raw.get("bleed") is not None else None
        if fmt == "pdf" and bleed is None:
            raise ValueError("a pdf preset needs `bleed:`")
        dpi = float(raw.get("dpi", 300))
        return Preset(shop=shop, name=str(raw.get("name", shop)), format=fmt, dpi=dpi,
                      bleed_pt=bleed, sizes=sizes, order=str(raw.get("order", "back-front")),
                      note=str(raw.get("note", "")).strip(), pdfx=pdfx_spec(raw, shown, dpi, path.parent),
                      rotate_landscape=bool(raw.get("rotate_landscape", False)))
    except (KeyError, ValueError, TypeError, IndexError, UnitError) as exc:
        raise InputError(Problem(shown, raw.line, f"broken preset: {exc}")) from None


def turned(preset: Preset, deck: Deck) -> bool:
    """True when the shop takes the deck's landscape cards in its portrait template, turned a quarter (art
    rotated 90 degrees counter-clockwise: the card's top along the template's left edge)."""
    w, h = deck.size_pt
    return preset.rotate_landscape and w > h and size_name(deck, turned=True) in preset.sizes


def turned_notes(preset: Preset, game: Game) -> list[str]:
    """A line for each deck whose landscape cards the export turns into the shop's portrait template."""
    return [f"{game.id}: deck '{deck.id}': landscape cards turned a quarter into {preset.name}'s portrait "
            f"{size_name(deck, turned=True)} template (rotated 90 degrees counter-clockwise: the card's top "
            "along the left edge)" for deck in game.decks.values() if turned(preset, deck)]


def pixel_size(preset: Preset, deck: Deck) -> tuple[int, int]:
    """The upload image size of the deck's cards for this shop (portrait for turned cards), or an InputError
    naming the deck's size."""
    name = size_name(deck, turned=turned(preset, deck))
    if name in preset.sizes:
        return preset.sizes[name]
    if preset.bleed_pt is not None:
        tw, th = deck.size_pt
        return (round((tw + 2 * preset.bleed_pt) / INCH * preset.dpi),
                round((th + 2 * preset.bleed_pt) / INCH * preset.dpi))
    shown = name or f"{deck.size_mm[0]:g} x {deck.size_mm[1]:g} mm"
    raise InputError(Problem(deck.file, deck.key_lines.get("size", deck.line),
                             f"deck '{deck.id}': {preset.name} has no card template for size {shown}; "
                             f"expected one of {', '.join(preset.sizes)}"))


def check_sizes(preset: Preset, game: Game) -> None:
    """Fail early (before writing anything) when a deck does not fit the shop's templates."""
    problems = []
    for deck in game.decks.values():
        try:
            width_px, height_px = pixel_size(preset, deck)
            tw, th = deck.size_pt[::-1] if turned(preset, deck) else deck.size_pt
            if width_px / preset.dpi * INCH < tw - 0.5 or height_px / preset.dpi * INCH < th - 0.5:
                raise InputError(Problem(deck.file, deck.line, f"deck '{deck.id}': the card is larger than "
                                         f"{preset.name}'s {width_px} x {height_px} px template"))
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)


def preflight_rules(preset: Preset, safe: float = 0.125 * INCH) -> Rules:
    """What `pnp preflight --shop` checks for this shop's files: PDF/X, CMYK only and the ink limit when the
    preset asks for PDF/X; images at the preset's dpi; text `safe` inside the trim."""
    spec = preset.pdfx
    if spec is None:
        return Rules(min_dpi=preset.dpi, safe=safe)
    return Rules(pdfx=PDFX_VERSIONS[spec.version].key, cmyk=True, ink_limit=spec.ink_limit,
                 min_dpi=preset.dpi, safe=safe)


def export_pod(game: Game, preset: Preset, build_dir: Path) -> list[Path]:
    """Every deck of the game in the shop's format under build/<game>/pod/<shop>/; a PDF the shop's preflight
    finds a problem in fails the export (InputError, one line per problem)."""
    check_sizes(preset, game)
    folder = build_dir / game.build_path / "pod" / preset.shop
    written: list[Path] = []
    problems: list[Problem] = []
    for deck in game.decks.values():
        if preset.format == "pdf":
            path = write_deck_pdf(game, deck, preset, folder / f"{deck.id}.pdf")
            written.append(path)
            problems += [Problem("", 0, f"preflight ({preset.name}): {line}")
                         for line in preflight(path, preflight_rules(preset, game.safe_pt))]
        else:
            written += write_deck_pngs(game, deck, preset, folder / deck.id)
    if problems:
        raise InputError(problems)
    return written


def write_deck_pdf(game: Game, deck: Deck, preset: Preset, path: Path) -> Path:
    """One PDF per deck: for every physical card its back page then its front page, trim + bleed, boxes
    set (a PDF/X file in press CMYK when the preset asks for one)."""
    if preset.pdfx is not None:
        return write_deck_pdfx(game, deck, preset, preset.pdfx, path)
    register_fonts()
    tw, th = deck.size_pt
    b = preset.bleed_pt
    drawn = with_bleed(game, b)
    page = (tw + 2 * b, th + 2 * b)

    def produce(tmp: Path) -> None:
        canvas = Canvas(str(tmp), pagesize=page, invariant=1, initialFontName=BODY, pageCompression=1,
                        trimBox=(b, b, b + tw, b + th), bleedBox=(0, 0, page[0], page[1]))
        canvas.setTitle(f"{game.title}: {deck.name} ({preset.name})")
        canvas.setAuthor(game.title)
        canvas.setCreator("pnp")
        sides = ("back", "front") if preset.order == "back-front" else ("front", "back")
        for card in expand_deck(deck):
            for side in sides:
                if side == "back":
                    draw_back(canvas, drawn, deck, 0, 0, card=card)
                else:
                    draw_front(canvas, drawn, card, 0, 0)
                canvas.showPage()
        canvas.save()

    return atomic_write(path, produce)


def write_deck_pdfx(game: Game, deck: Deck, preset: Preset, spec: PdfxSpec, path: Path) -> Path:
    """The deck as PDF/X: every different face rendered once at the preset's dpi and converted to press
    CMYK, then a back page and a front page for every physical card, in the preset's order."""
    tw, th = deck.size_pt
    b = preset.bleed_pt or 0.0
    page = (tw + 2 * b, th + 2 * b)
    size = pixel_size(preset, deck)
    backs = deck_backs(game, deck)
    faces = [Face(back.cards[0], *page, back=True) for back, _ in backs]
    faces += [Face(c, *page) for c in deck.cards]
    images = [to_cmyk(image, spec) for image in face_images(with_bleed(game, b), deck, faces, preset.dpi,
                                                            sizes=[size] * len(faces))]
    by_back = {stem: images[i] for i, (_, stem) in enumerate(backs)}
    by_card = {card.id: images[len(backs) + i] for i, card in enumerate(deck.cards)}
    sides = ("back", "front") if preset.order == "back-front" else ("front", "back")
    pages = [PdfxPage(by_back[back_stem(backs, card)] if side == "back" else by_card[card.id], *page, b)
             for card in expand_deck(deck) for side in sides]
    return atomic_write(path, pdfx_bytes(pages, spec, f"{game.title}: {deck.name} ({preset.name})"))


def write_deck_pngs(game: Game, deck: Deck, preset: Preset, folder: Path) -> list[Path]:
    """<CODE>.png per card type and each drawn back (back.png for the deck's usual back) at the shop's pixel
    size, plus cards.csv with the quantities and each card's back."""
    width_px, height_px = pixel_size(preset, deck)
    quarter = turned(preset, deck)
    if quarter:  # drawn landscape, then turned into the portrait template
        width_px, height_px = height_px, width_px
    page = (width_px / preset.dpi * INCH, height_px / preset.dpi * INCH)
    backs = deck_backs(game, deck)
    faces = [Face(back.cards[0], *page, back=True) for back, _ in backs] + [
        Face(card, *page) for card in deck.cards
    ]
    names = [f"{stem}.png" for _, stem in backs] + [f"{card.code}.png" for card in deck.cards]
    images = face_images(game, deck, faces, preset.dpi, sizes=[(width_px, height_px)] * len(faces))
    if quarter:
        images = (image.transpose(Image.Transpose.ROTATE_90) for image in images)
    written = [write_png(image, folder / name, preset.dpi) for image, name in zip(images, names, strict=True)]
    rows = [{"file": f"{card.code}.png", "code": card.code, "name": card.name, "copies": card.copies,
             "back_file": f"{back_stem(backs, card)}.png"} for card in deck.cards]
    written.append(write_cards_csv(folder / "cards.csv", rows))
    remove_stale(folder, {p.name for p in written})
    return written
