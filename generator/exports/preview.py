"""`pnp preview`: one contact sheet PNG per deck, every card type once, labelled with its code and copies."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from generator.core.fonts import BODY, BODY_BOLD, TITLE, font_files
from generator.data.game import Deck, Game
from generator.exports.png import Face, deck_backs, face_images, write_png
from generator.exports.raster import corner_mask

CARD_WIDTH = 240      # px per card on the sheet
GAP = 16              # px between cards and around the sheet
LABEL = 22            # px of label text under each card
HEADER = 58           # px of deck title at the top
MAX_COLS = 8
BACKGROUND = "#eceae4"
INK = "#222222"
MUTED = "#666666"


def _font(face: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_files()[face]), size)


def contact_sheet(game: Game, deck: Deck, card_width: int = CARD_WIDTH) -> Image.Image:
    """The deck's faces (trimmed) in a grid with the backs last, each labelled 'CODE  x copies' (a back: what it is
    the back of and how many cards show it)."""
    tw, th = deck.size_pt
    cell = (card_width, round(card_width * th / tw))
    cards = list(deck.cards)
    backs = deck_backs(game, deck)
    faces = [Face(card, tw, th, trimmed=True) for card in cards]
    faces += [Face(back.cards[0], tw, th, trimmed=True, back=True) for back, _ in backs]
    labels = [(card.code, f"\u00d7 {card.copies}") for card in cards]
    labels += [(stem if back.card is None else f"back {back.card.code}",
                f"shared by {sum(c.copies for c in back.cards)}" if back.card is None else f"\u00d7 {back.card.copies}")
               for back, stem in backs]
    images = list(face_images(game, deck, faces, sizes=[cell] * len(faces)))
    radius = game.corner_radius_pt * cell[0] / tw
    mask = corner_mask(cell, radius) if radius else None
    count = len(faces)
    cols = min(MAX_COLS, max(3, math.ceil(math.sqrt(count * 1.4))))
    rows = math.ceil(count / cols)
    pitch = (cell[0] + GAP, cell[1] + LABEL + GAP)
    size = (GAP + cols * pitch[0], HEADER + rows * pitch[1] + GAP // 2)
    sheet = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    draw.text((GAP, 14), f"{game.title} \u00b7 {deck.name}", font=_font(TITLE, 26), fill=INK)
    summary = f"{len(cards)} card type{'s' if len(cards) != 1 else ''}, {deck.copies} card{'s' if deck.copies != 1 else ''}"
    summary_font = _font(BODY, 16)
    width = draw.textlength(summary, font=summary_font)
    draw.text((size[0] - GAP - width, 22), summary, font=summary_font, fill=MUTED)
    bold, body = _font(BODY_BOLD, 15), _font(BODY, 15)
    for index, ((code, copies), image) in enumerate(zip(labels, images, strict=True)):
        x = GAP + (index % cols) * pitch[0]
        y = HEADER + (index // cols) * pitch[1]
        if radius:  # the game's rounded corners (corner_radius)
            sheet.paste(image, (x, y), mask)
            draw.rounded_rectangle((x - 1, y - 1, x + cell[0], y + cell[1]), radius=radius + 1, outline="#b5b1a8")
        else:
            sheet.paste(image, (x, y))
            draw.rectangle((x - 1, y - 1, x + cell[0], y + cell[1]), outline="#b5b1a8")
        draw.text((x, y + cell[1] + 4), code, font=bold, fill=INK)
        width = draw.textlength(copies, font=body)
        draw.text((x + cell[0] - width, y + cell[1] + 4), copies, font=body, fill=MUTED)
    return sheet


def write_previews(game: Game, build_dir: Path) -> list[Path]:
    """build/<game>/preview/<deck>.png for every deck of the game."""
    folder = build_dir / game.id / "preview"
    return [write_png(contact_sheet(game, deck), folder / f"{deck.id}.png", dpi=72) for deck in game.decks.values()]
