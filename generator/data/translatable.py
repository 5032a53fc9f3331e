"""Every text of a game that a translation may give in another language, with where its source text is
written.

A text is named by its path in a translation file (`i18n/<language>.yaml`):

    ("game", "title")                                   game.yaml title, subtitle, ages, play_time
    ("game", "extras", "Bell", "name")                  an extra, by its name in the source language
    ("decks", "toppings", "name")                       a deck's name and description
    ("toppings", "pepperoni", "name")                   a card's name and its text and list fields
    ("tables", "players", "name"), ("tables", "players", "rows", "red", "name")
    ("boards", "city", "notes")                         board name, title and notes; ("boards", "city",
    "streets",
                                                        "<id>", "name"), spaces' label and color_name, zones'
                                                        caption and text
    ("components", "cars", "items", "red-car", "name")  a component's name, description, assembly, label,
    title,
                                                        total, notes, columns' header and text, items, die
                                                        faces

Layouts' fixed words (`layouts:`) are listed by generator.cards.translation, the tool's own words (`tool:`) by
generator.core.phrases. Fields that are data (counts, references, colours, numbers, addresses) are never
translated: `explain_not_text` says why, for the message of a translation that tries.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.core.yamlio import YDict, load_yaml
from generator.data.component_models import DieFile, ItemsFile, SheetFile
from generator.data.game import Game, Record
from generator.data.models import CARD_KEYS, BoardSpace, FieldSpec, Street, Zone

_LETTER = re.compile(r"[^\W\d_]")
GAME_TEXTS = ("title", "subtitle", "ages", "play_time")
CARD_DATA = (*(key for key in CARD_KEYS if key != "name"), "code", "deck", "index")
SECTIONS = ("game", "decks", "tables", "boards", "components", "layouts", "tool")


@dataclass(frozen=True)
class Translatable:
    """One text a translation may give: its path in the translation file, the source text (a string, or a list
    of strings for list fields and notes) and where that source text is written."""

    path: tuple[str, ...]
    source: Any
    file: str
    line: int

    @property
    def key(self) -> str:
        """'toppings.pepperoni.name'."""
        return ".".join(self.path)

    @property
    def is_list(self) -> bool:
        return isinstance(self.source, list)

    @property
    def empty(self) -> bool:
        """No words in the source text (none at all, or only numbers and signs such as '12' or '9+'): nothing
        to translate, though a translation may still give one."""
        texts = self.source if self.is_list else [self.source]
        return not any(_LETTER.search(str(text)) for text in texts if text)


def _line(raw: Any, key: Any, default: int) -> int:
    return raw.line_of(key) if isinstance(raw, YDict) and key in raw else default


def _record_texts(prefix: tuple[str, ...], record: Record, specs: dict[str, FieldSpec]) -> list[Translatable]:
    """A card, table row or item: its name and its translatable fields."""
    out = [Translatable(prefix + ("name",), record.name, record.file, record.line_of("name"))]
    for key, spec in specs.items():
        if spec.translatable:
            value = record.fields.get(key)
            value = list(value or []) if spec.type == "list" else ("" if value is None else str(value))
            out.append(Translatable(prefix + (key,), value, record.file, record.line_of(key)))
    return out


def _items_of(raw: Any, section: str) -> list:
    items = raw.get(section) if isinstance(raw, YDict) else None
    return items if isinstance(items, list) else []


def _board_texts(game: Game) -> list[Translatable]:
    out = []
    for board in game.boards.values():
        model, raw, file = board.model, board.raw, board.file
        base = ("boards", board.id)
        out.append(Translatable(base + ("name",), model.name, file, _line(raw, "name", raw.line)))
        out.append(Translatable(base + ("title",), model.title, file, _line(raw, "title", raw.line)))
        out.append(Translatable(base + ("notes",), list(model.notes), file, _line(raw, "notes", raw.line)))
        sections: tuple[tuple[str, tuple[str, str], Sequence[Street | BoardSpace | Zone]], ...] = (
            ("streets", ("name", "color_name"), model.streets),
            ("spaces", ("label", "color_name"), model.spaces),
            ("zones", ("caption", "text"), model.zones))
        for section, keys, items in sections:
            raws = _items_of(raw, section)
            for index, item in enumerate(items):
                item_raw = raws[index] if index < len(raws) else None
                for key in keys:
                    line = _line(item_raw, key, getattr(item_raw, "line", raw.line))
                    out.append(
                        Translatable(base + (section, item.id, key), getattr(item, key) or "", file, line)
                    )
    return out


def _component_texts(game: Game) -> list[Translatable]:
    out = []
    for component in game.components.values():
        model, file = component.model, component.file
        base = ("components", component.id)
        for key in model.text_keys:
            out.append(Translatable(base + (key,), getattr(model, key) or "", file, component.line_of(key)))
        if isinstance(model, SheetFile):
            out.append(Translatable(base + ("notes",), list(model.notes), file, component.line_of("notes")))
            for number, column in enumerate(model.columns, start=1):
                for key in ("header", "text"):
                    out.append(
                        Translatable(
                            base + ("columns", str(number), key),
                            getattr(column, key) or "",
                            file,
                            component.line_of("columns"),
                        )
                    )
        if isinstance(model, ItemsFile):
            for item in component.items:
                out += _record_texts(base + ("items", item.id), item, model.fields)
        if isinstance(model, DieFile):
            for number, face in enumerate(model.faces or [], start=1):
                if face.text is not None:
                    item = component.items[number - 1]
                    out.append(
                        Translatable(base + ("faces", str(number), "text"), face.text, item.file, item.line)
                    )
    return out


def translatable(game: Game) -> list[Translatable]:
    """Every place of the game's data a translation may give a text for, in file order (layouts and the tool's
    words are listed elsewhere)."""
    shown = game.show(game.dir / "game.yaml")
    raw_game = load_yaml(game.dir / "game.yaml", shown)
    config = game.config
    out = [
        Translatable(("game", key), getattr(config, key) or "", shown, _line(raw_game, key, 1))
        for key in GAME_TEXTS
    ]
    extras = _items_of(raw_game, "extras")
    for index, extra in enumerate(config.extras):
        line = (
            extras[index].line
            if index < len(extras) and hasattr(extras[index], "line")
            else _line(raw_game, "extras", 1)
        )
        out.append(Translatable(("game", "extras", extra.name, "name"), extra.name, shown, line))
        out.append(Translatable(("game", "extras", extra.name, "note"), extra.note, shown, line))
    for deck in game.decks.values():
        out.append(
            Translatable(
                ("decks", deck.id, "name"), deck.name, deck.file, deck.key_lines.get("name", deck.line)
            )
        )
        out.append(Translatable(("decks", deck.id, "description"), deck.description, deck.file,
                                deck.key_lines.get("description", deck.line)))
    for deck in game.decks.values():
        for card in deck.cards:
            out += _record_texts((deck.id, card.id), card, deck.field_specs)
    for table in game.tables.values():
        out.append(Translatable(("tables", table.id, "name"), table.name, table.file, table.line))
        for row in table.rows:
            out += _record_texts(("tables", table.id, "rows", row.id), row, table.field_specs)
    return out + _board_texts(game) + _component_texts(game)


def explain_not_text(game: Game, path: tuple[str, ...], key: str) -> str | None:
    """Why `key` under `path` of a translation file is not translated, when it names something real that is
    data rather than words (None when the key names nothing of the game)."""
    if not path:
        if key == "settings":
            return ("settings are rule parameters, never translated; expected them only in game.yaml (a "
                    "translation gives texts, not numbers)")
        return None
    if path == ("game",) and key in type(game.config).model_fields:
        return (f"game.yaml '{key}' is not a text players read; expected only "
                f"{', '.join(GAME_TEXTS)} and extras under game:")
    if len(path) == 2 and path[0] in game.decks:
        return _record_key(key, game.decks[path[0]].field_specs, "card")
    if len(path) == 4 and path[0] == "tables" and path[1] in game.tables and path[2] == "rows":
        return _record_key(key, game.tables[path[1]].field_specs, "row")
    if len(path) == 4 and path[0] == "components" and path[2] == "items" and path[1] in game.components:
        return _record_key(key, getattr(game.components[path[1]].model, "fields", {}), "item")
    return None


def _record_key(key: str, specs: dict[str, FieldSpec], what: str) -> str | None:
    if key in CARD_DATA:
        kind = "a count" if key == "copies" else "an id" if key in ("id", "code") else "a file or layout name"
        return (
            f"'{key}' is {kind}, not words, and is never translated; expected only the {what}'s name and its "
            "text fields"
        )
    spec = specs.get(key)
    if spec is None or spec.translatable:
        return None
    if spec.type == "address":
        return (
            f"'{key}' is an address, printed from the board's house numbers and street names; expected the "
            "street names translated under boards: <board>: streets: instead"
        )
    return (
        f"'{key}' is a {spec.type} field (data, not words) and is never translated; expected only the "
        f"{what}'s "
        "name and its text fields (a field declared `translate: true` may be translated)"
    )
