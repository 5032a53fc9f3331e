"""`pnp schema`: every JSON Schema an editor needs, the data files' (generator.data.schema) and the card
layouts'."""

from __future__ import annotations

from pathlib import Path

from generator.data.game import Game
from generator.data.schema import write_schemas
from generator.faces.layout import LayoutFile


def layout_schema() -> dict:
    """The schema of a card layout file (cards/<game>/layouts/*.yaml, templates/layouts/*.yaml)."""
    schema = LayoutFile.model_json_schema()
    schema["title"] = "a card layout (cards/<game>/layouts/*.yaml, templates/layouts/*.yaml)"
    return schema


def write_all_schemas(out_dir: Path, games: list[Game]) -> list[Path]:
    """build/schema/: game, deck, table, board, component, file (any game-folder file), layout, and per game
    one schema per deck that knows the deck's own card fields."""
    return write_schemas(out_dir, games, extra={"layout": layout_schema()})
