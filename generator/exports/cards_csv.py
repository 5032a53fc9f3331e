"""`pnp export csv`: each deck's cards as a CSV file in the cell syntax a `cards_from:` spreadsheet is read
with.

Columns: id, name, copies, then layout, back, icon and image when any card gives them, then the deck's fields
in their declared order. A card's layout is written only when it differs from the deck's. Reading the file
back with `cards_from:` gives the same cards (tested), so a designer can move a deck between YAML and a
spreadsheet. The file is UTF-8 with a byte-order mark, which Excel needs to show accents and Cyrillic right.
A cell a spreadsheet would run as a formula is written after an apostrophe (generator.core.csvsafe), which the
reader drops again.
"""

from __future__ import annotations

from pathlib import Path

from generator.core.csvsafe import csv_text
from generator.core.write import atomic_write
from generator.data.cells import CORE_TYPES, format_cell
from generator.data.game import Card, Deck, Game
from generator.data.models import OPTIONAL_CARD_KEYS, REQUIRED_CARD_KEYS


def _core_value(deck: Deck, card: Card, key: str):
    if key == "layout":
        return card.layout if card.layout != deck.layout else None
    return getattr(card, key)


def deck_rows(deck: Deck) -> list[list[str]]:
    """The header row and one row per card type."""
    optional = [key for key in OPTIONAL_CARD_KEYS
                if any(_core_value(deck, card, key) is not None for card in deck.cards)]
    header = [*REQUIRED_CARD_KEYS, *optional, *deck.field_specs]
    rows = [header]
    for card in deck.cards:
        row = [card.id, card.name, str(card.copies)]
        row += [format_cell(_core_value(deck, card, key), CORE_TYPES[key]) for key in optional]
        row += [format_cell(card.fields.get(key), spec.type) for key, spec in deck.field_specs.items()]
        rows.append(row)
    return rows


def deck_csv(deck: Deck) -> str:
    """The deck as CSV text (without the byte-order mark)."""
    return csv_text(deck_rows(deck))


def export_csv(game: Game, build_dir: Path) -> list[Path]:
    """build/<game>/csv/<deck>.csv for every deck of the game."""
    folder = build_dir / game.id / "csv"
    return [atomic_write(folder / f"{deck.id}.csv", ("\ufeff" + deck_csv(deck)).encode("utf-8"))
            for deck in game.decks.values()]
