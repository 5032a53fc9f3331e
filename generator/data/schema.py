"""JSON Schemas of the YAML files, so editors can autocomplete keys and flag mistakes."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from generator.core.write import atomic_write
from generator.data.component_models import MODELS as COMPONENT_MODELS
from generator.data.game import Game
from generator.data.load import RULES_KEY
from generator.data.models import BoardFile, DeckFile, GameConfig, TableFile, row_model

GENERIC: dict[str, type[BaseModel]] = {
    "game": GameConfig, "deck": DeckFile, "table": TableFile, "board": BoardFile,
    **{f"component-{kind}": model for kind, model in COMPONENT_MODELS.items()}}


def generic_schemas() -> dict[str, dict]:
    """Schema per file kind (game, deck, table, board, and each kind of component file)."""
    out = {}
    for kind, model in GENERIC.items():
        schema = model.model_json_schema()
        schema["title"] = (
            f"{kind}.yaml"
            if kind == "game"
            else f"a {kind.replace('component-', '')} component file"
            if kind.startswith("component-")
            else f"a {kind} file"
        )
        out[kind] = schema
    return out


def deck_schema(deck) -> dict:
    """Schema of one deck file whose cards are checked against the deck's own declared fields."""
    schema = DeckFile.model_json_schema()
    card = row_model(deck.id.title().replace("-", ""), deck.field_specs, card=True).model_json_schema()
    defs = schema.setdefault("$defs", {})
    defs.update(card.pop("$defs", {}))
    defs["Card"] = card
    schema["properties"]["cards"] = {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/Card"}}
    schema["title"] = f"{deck.name} ({deck.file})"
    return schema


# A rules file of the rules language (generator.rules, docs/rules-language.md; `turn:` marks it, as the loader
# reads it): its top-level keys, each checked in depth by `pnp validate`, which reads and plays it.
RULES_FILE_KEYS = (
    "players",
    "tables",
    "values",
    "counters",
    "zones",
    "setup",
    "turn",
    "after_turn",
    "skip_turn",
    "actions",
    "end",
    "score",
    "tie_breaks",
    "winner",
    "bots",
    "goals",
    "turn_cap",
    "options",
    "snapshot",
)
RULES_FILE_SCHEMA = {"title": "a rules file (`pnp docs rules-language`)", "type": "object",
                     "properties": {key: {} for key in RULES_FILE_KEYS}, "additionalProperties": False}


def file_schema() -> dict:
    """One schema for every YAML file of a game folder (cards/*/*.yaml), so one editor mapping covers them:
    the top-level key picks the kind (deck, table, board, component with its kind), a file with none is
    game.yaml."""
    kinds = ["deck", "table", "board", "component"]
    # a component file may name a deck (a tuck box's `deck:`), so `component:` decides first
    branches = [
        {
            "if": {"required": [kind], "not": {"required": ["component"]}},
            "then": {"$ref": f"{kind}.schema.json"},
        }
        for kind in kinds[:3]
    ]
    branches.append({"if": {"required": ["component"]}, "then": {"allOf": [
        {"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
         "then": {"$ref": f"component-{kind}.schema.json"}} for kind in COMPONENT_MODELS]}})
    branches.append(
        {
            "if": {"required": [RULES_KEY], "not": {"anyOf": [{"required": [kind]} for kind in kinds]}},
            "then": RULES_FILE_SCHEMA,
        }
    )
    branches.append({"if": {"not": {"anyOf": [{"required": [kind]} for kind in kinds + [RULES_KEY]]}},
                     "then": {"$ref": "game.schema.json"}})
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "a file of a game folder (cards/<game>/*.yaml)",
        "type": "object",
        "allOf": branches,
    }


def write_schemas(out_dir: Path, games: list[Game], extra: dict[str, dict] | None = None) -> list[Path]:
    """Write the generic schemas (plus `extra` ones, e.g. the layout schema of the cards stage), the schema of
    any game-folder file, and one per deck of each game; returns the files written."""
    written = []
    schemas = generic_schemas() | {"file": file_schema()} | (extra or {})
    for kind, schema in schemas.items():
        written.append(
            atomic_write(out_dir / f"{kind}.schema.json", json.dumps(schema, indent=2, sort_keys=True) + "\n")
        )
    for game in games:
        for deck in game.decks.values():
            path = out_dir / game.id / f"{deck.id}.schema.json"
            written.append(atomic_write(path, json.dumps(deck_schema(deck), indent=2, sort_keys=True) + "\n"))
    return written
