"""`pnp preview`: one contact sheet PNG per deck, every card type once, labelled with its code and copies."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

from generator.core.errors import InputError, Problem
from generator.core.fonts import cannot_draw, uncovered
from generator.data.game import Deck, Game
from generator.exports.png import Face, deck_backs, face_images, write_png
from generator.exports.raster import corner_mask, draw_text, text_width

CARD_WIDTH = 240      # px per card on the sheet
GAP = 16              # px between cards and around the sheet
LABEL = 22            # px of label text under each card
HEADER = 58           # px of deck title at the top
MAX_COLS = 8
BACKGROUND = "#eceae4"
INK = "#222222"
MUTED = "#666666"


def _header_problems(game: Game, deck: Deck) -> list[Problem]:
    """The game title and deck name as the sheet's header sets them (the game's title font, with its
    fallbacks): a character no face draws is a located problem, never a gap in the header."""
    title = game.fonts["title"]
    problems = []
    game_file = next((shown for shown, kind in game.files.items() if kind == "game"), "game.yaml")
    for text, file, line, what in ((game.title, game_file, game.line_of("title"), "the game's title"),
                                   (deck.name, deck.file, deck.key_lines.get("name", deck.line),
                                    f"deck '{deck.id}' name")):
        missing = [char for char, _style in uncovered(text, title)]
        if missing:
            problems.append(
                Problem(file, line, cannot_draw(missing, title, f"{what} (the preview's header)"))
            )
    return problems


def contact_sheet(game: Game, deck: Deck, card_width: int = CARD_WIDTH) -> Image.Image:
    """The deck's faces (trimmed) in a grid with the backs last, each labelled 'CODE  x copies' (a back: what
    it is the back of and how many cards show it)."""
    tw, th = deck.size_pt
    cell = (card_width, round(card_width * th / tw))
    cards = list(deck.cards)
    backs = deck_backs(game, deck)
    faces = [Face(card, tw, th, trimmed=True) for card in cards]
    faces += [Face(back.cards[0], tw, th, trimmed=True, back=True) for back, _ in backs]
    labels = [(card.code, f"\u00d7 {card.copies}") for card in cards]
    labels += [
        (
            stem if back.card is None else f"back {back.card.code}",
            f"shared by {sum(c.copies for c in back.cards)}"
            if back.card is None
            else f"\u00d7 {back.card.copies}",
        )
        for back, stem in backs
    ]
    images = list(face_images(game, deck, faces, sizes=[cell] * len(faces)))
    radius = game.corner_radius_pt * cell[0] / tw
    mask = corner_mask(cell, radius) if radius else None
    count = len(faces)
    cols = min(MAX_COLS, max(3, math.ceil(math.sqrt(count * 1.4))))
    rows = math.ceil(count / cols)
    pitch = (cell[0] + GAP, cell[1] + LABEL + GAP)
    size = (GAP + cols * pitch[0], HEADER + rows * pitch[1] + GAP // 2)
    problems = _header_problems(game, deck)
    if problems:
        raise InputError(problems)
    title, body = game.fonts["title"], game.fonts["body"]
    sheet = Image.new("RGB", size, BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    draw_text(draw, (GAP, 14), f"{game.title} \u00b7 {deck.name}", title, 26, INK)
    summary = (f"{len(cards)} card type{'s' if len(cards) != 1 else ''}, {deck.copies} "
               f"card{'s' if deck.copies != 1 else ''}")
    width = text_width(draw, summary, body, 16)
    draw_text(draw, (size[0] - GAP - width, 22), summary, body, 16, MUTED)
    for index, ((code, copies), image) in enumerate(zip(labels, images, strict=True)):
        x = GAP + (index % cols) * pitch[0]
        y = HEADER + (index // cols) * pitch[1]
        if radius:  # the game's rounded corners (corner_radius)
            sheet.paste(image, (x, y), mask)
            draw.rounded_rectangle(
                (x - 1, y - 1, x + cell[0], y + cell[1]), radius=radius + 1, outline="#b5b1a8"
            )
        else:
            sheet.paste(image, (x, y))
            draw.rectangle((x - 1, y - 1, x + cell[0], y + cell[1]), outline="#b5b1a8")
        draw_text(draw, (x, y + cell[1] + 4), code, body, 15, INK, style="bold")
        width = text_width(draw, copies, body, 15)
        draw_text(draw, (x + cell[0] - width, y + cell[1] + 4), copies, body, 15, MUTED)
    return sheet


def write_previews(game: Game, build_dir: Path) -> list[Path]:
    """build/<game>/preview/<deck>.png for every deck of the game."""
    folder = build_dir / game.id / "preview"
    return [
        write_png(contact_sheet(game, deck), folder / f"{deck.id}.png", dpi=72)
        for deck in game.decks.values()
    ]
