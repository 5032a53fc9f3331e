"""Translations as data: `cards/<game>/i18n/<language>.yaml` gives a game's texts in another language.

    game: {title: Objednávka!, subtitle: Hra o rozvozu pizzy}
    decks: {toppings: {name: Balíček přísad}}
    toppings:                                  # a deck id: its cards by id, their name and text fields
      pepperoni: {name: Feferonky}
    tables: {players: {name: Barvy hráčů, rows: {red: {name: Červená}}}}
    boards: {city: {notes: [...], streets: {pepperoni-parkway: {name: Feferonková třída}}}}
    components: {cars: {name: Rozvozová auta, items: {red-car: {name: Červené auto}}}}
    layouts: {order: {caption: "OBJEDNÁVKA!"}}  # a layout's fixed words, by box (generator.cards.translation)
    tool: {sheets: {fronts: lícové strany}}    # the words pnp prints itself (generator.core.phrases)

What a translation may give is listed by generator.data.translatable; `settings:`, counts, ids and references
are never translated. A key left out or set to `~` is not translated yet: the source text is printed and
validation warns, located at the source text. A key that translates nothing is an error with a did-you-mean.
Addresses follow the board: a card's address is printed from the translated street name in the language's
address form.

`translate(game, language)` gives the game in that language (a new Game; the source game is left as it is).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.phrases import (
    PLURAL_FORMS,
    SOURCE,
    Phrases,
    builtin,
    is_plural,
    known_keys,
    language_name,
    phrases_for,
    placeholders,
)
from generator.core.yamlio import YDict, load_yaml
from generator.data.game import Board, Game
from generator.data.translatable import SECTIONS, Translatable, explain_not_text, translatable

I18N_DIR = "i18n"
CHANGED_MARK = "# CHANGED"


def translation_file(game: Game, language: str) -> Path:
    """cards/<game>/i18n/<language>.yaml."""
    return game.dir / I18N_DIR / f"{language}.yaml"


@dataclass
class Translation:
    """A game's translation file as read: the translated values by path, where each is written, the layouts'
    words (checked by the card layer, which knows the layouts), the tool's words, and the warnings."""

    language: str
    file: str
    exists: bool
    values: dict[tuple, Any] = field(default_factory=dict)
    lines: dict[tuple, int] = field(default_factory=dict)
    layouts: Any = None  # the raw `layouts:` mapping (YDict) or None
    tool: dict[str, Any] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list)
    # keys that translate nothing, values of the wrong kind
    problems: list[Problem] = field(default_factory=list)

    def where(self, path: tuple) -> tuple[str, int]:
        """(file, line) of a translated value."""
        return self.file, self.lines.get(tuple(path), 0)

    @property
    def name(self) -> str:
        """'Czech (cs)'."""
        return language_name(self.language)

    def box_texts(self) -> dict[str, dict[str, tuple[str, str, int]]]:
        """The `layouts:` section as layout -> box -> (text, file, line), for the layout loader (what names no
        layout or box is reported by generator.pipeline.translations, which knows the game's layouts)."""
        out: dict[str, dict[str, tuple[str, str, int]]] = {}
        for layout, boxes in (self.layouts or {}).items():
            if isinstance(boxes, YDict):
                for box, text in boxes.items():
                    if isinstance(text, (str, int, float)) and not isinstance(text, bool):
                        out.setdefault(str(layout), {})[str(box)] = (str(text), self.file, boxes.line_of(box))
        return out


# --- which languages a game has
# --------------------------------------------------------------------------------

def _languages_line(game: Game) -> tuple[str, int]:
    shown = game.show(game.dir / "game.yaml")
    raw = load_yaml(game.dir / "game.yaml", shown)
    return shown, raw.line_of("languages") if isinstance(raw, YDict) and "languages" in raw else raw.line_of(
        "title"
    )


def check_language(game: Game, language: str) -> None:
    """A located InputError unless the game declares `language` in game.yaml `languages`."""
    if language in game.languages:
        return
    shown, line = _languages_line(game)
    declared = game.config.languages
    hint = did_you_mean(language, declared)
    expected = (f"one of {', '.join(declared)} (game.yaml languages)" if declared else
                f"`languages: [{SOURCE}, {language}]` in game.yaml (the source language first)")
    raise InputError(
        Problem(
            shown,
            line,
            f"language '{language}' is not declared for game '{game.id}'{hint}; expected {expected}",
        )
    )


def undeclared_files(game: Game) -> list[Problem]:
    """A located problem for every file in i18n/ that is not the translation of a declared language."""
    folder = game.dir / I18N_DIR
    if not folder.is_dir():
        return []
    problems = []
    declared = game.languages
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        shown = game.show(path)
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            problems.append(
                Problem(
                    shown,
                    0,
                    f"'{path.name}' is not a translation; expected only <language>.yaml "
                    f"files in {game.show(folder)}/",
                )
            )
        elif path.stem not in declared:
            problems.append(
                Problem(
                    shown,
                    0,
                    f"translates {language_name(path.stem)}, which game.yaml does not "
                    f"declare{did_you_mean(path.stem, declared)}; expected `languages: "
                    f"[{', '.join(declared + [path.stem])}]` in game.yaml",
                )
            )
    return problems


# --- reading a translation file
# --------------------------------------------------------------------------------

def _tree(entries: list[Translatable]) -> dict:
    """The paths of a game's texts as nested mappings, each leaf the Translatable."""
    tree: dict = {}
    for entry in entries:
        node = tree
        for part in entry.path[:-1]:
            node = node.setdefault(part, {})
        node[entry.path[-1]] = entry
    return tree


def _unknown(path: tuple, name: str, node: dict, game: Game) -> str:
    """The message for a key that names nothing of the game that can be translated."""
    hint = did_you_mean(name, node)
    where = ".".join(path + (name,))
    if not path:
        decks = known_list(game.decks) or "none"
        return (f"'{name}' translates nothing{hint}; expected a section ({', '.join(SECTIONS)}) or a deck id "
                f"({decks})")
    if len(path) == 1 and path[0] in game.decks:
        return f"{where}: deck '{path[0]}' has no card '{name}'{hint}; known: {known_list(node)}"
    if len(path) == 2 and path[0] in game.decks:
        return f"{where}: card '{path[1]}' has no text '{name}'{hint}; expected one of: {', '.join(node)}"
    if len(path) == 1 and path[0] in ("decks", "tables", "boards", "components"):
        return f"{where}: the game has no {path[0][:-1]} '{name}'{hint}; known: {known_list(node) or 'none'}"
    return f"{where} translates nothing{hint}; expected one of: {known_list(node)}"


def _text_value(value: Any, entry: Translatable) -> tuple[Any, str | None]:
    """The translated value as stored, or a message saying what was expected."""
    if entry.is_list:
        if not isinstance(value, list) or any(isinstance(v, (dict, list)) or v is None for v in value):
            return None, f"expected a list of texts, like the source's {len(entry.source)}"
        return [str(v) for v in value], None
    if isinstance(value, (bool, dict, list)):
        return None, "expected a text (quote it if it looks like something else)"
    return str(value), None


def _walk(
    raw: YDict, node: dict, path: tuple, game: Game, file: str, out: Translation, problems: Problems
) -> None:
    for key, value in raw.items():
        name = str(key)
        line = raw.line_of(key)
        here = path + (name,)
        if not path and name in ("layouts", "tool"):
            continue
        child = node.get(name)
        if child is None:
            why = explain_not_text(game, path, name)
            if why:
                problems.add(file, line, f"{'.'.join(here)}: {why}")
            else:
                problems.add(file, line, _unknown(path, name, node, game))
            continue
        if isinstance(child, Translatable):
            if value is None:
                continue  # `~`: not translated yet
            stored, wrong = _text_value(value, child)
            if wrong:
                problems.add(file, line, f"{'.'.join(here)}: {wrong}")
            else:
                out.values[here] = stored
                out.lines[here] = line
        elif value is None:
            continue
        elif not isinstance(value, YDict):
            problems.add(file, line, f"{'.'.join(here)}: expected a mapping of {known_list(child)}")
        else:
            _walk(value, child, here, game, file, out, problems)


def _tool_entries(raw: Any, prefix: str = "") -> list[tuple[str, Any, int]]:
    """(dotted key, value, line) of a `tool:` section written nested or with dotted keys."""
    out = []
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if (
            isinstance(value, YDict)
            and not is_plural(value)
            and not any(str(k) in PLURAL_FORMS for k in value)
        ):
            out += _tool_entries(value, name + ".")
        else:
            out.append((name, value, raw.line_of(key)))
    return out


def _allowed(names: set[str]) -> set[str]:
    """Placeholders a translation may use: the English ones, and `x` or `x_lower` for one another."""
    return names | {n.removesuffix("_lower") for n in names} | {f"{n}_lower" for n in names}


def _read_tool(raw: Any, file: str, line: int, problems: Problems) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, YDict):
        problems.add(file, line, "tool: expected a mapping of the tool's words (see pnp i18n extract)")
        return {}
    english = builtin(SOURCE)
    words: dict[str, Any] = {}
    for key, value, at in _tool_entries(raw):
        if key not in english:
            problems.add(
                file,
                at,
                f"tool word '{key}' does not exist{did_you_mean(key, known_keys())}; expected a "
                "key of the English catalogue (generator/assets/i18n/en.yaml)",
            )
            continue
        if value is None:
            continue
        source = english[key]
        if isinstance(source, list):
            if not isinstance(value, list):
                problems.add(file, at, f"tool word '{key}': expected a list like the English one")
                continue
        elif isinstance(value, (dict, YDict)):
            if not is_plural(value):
                problems.add(
                    file,
                    at,
                    f"tool word '{key}': expected a text or plural forms ({', '.join(PLURAL_FORMS)})"
                    " with at least `other`",
                )
                continue
        elif isinstance(value, (list, bool)):
            problems.add(file, at, f"tool word '{key}': expected a text")
            continue
        extra = placeholders(value) - _allowed(placeholders(source))
        if extra:
            problems.add(
                file,
                at,
                f"tool word '{key}' uses {', '.join('{' + n + '}' for n in sorted(extra))}, which "
                f"this text does not have; expected only "
                f"{', '.join('{' + n + '}' for n in sorted(placeholders(source))) or 'no placeholders'}",
            )
            continue
        words[key] = value
    return words


def _changed_marks(path: Path, file: str) -> list[Problem]:
    """A warning at every '# CHANGED' line `pnp i18n extract` left: the source text changed after
    translating."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        Problem(
            file,
            number,
            "the source text changed after this was translated (see the comment below); "
            "expected the translation checked and this '# CHANGED' line removed",
        )
        for number, text in enumerate(lines, start=1)
        if text.strip().startswith(CHANGED_MARK)
    ]


def read_translation(game: Game, language: str, entries: list[Translatable] | None = None) -> Translation:
    """Read and check i18n/<language>.yaml against the game's texts. What it gets wrong (a key that translates
    nothing, a count, a value of the wrong kind) are `problems` of the Translation and the rest of it is still
    read, so one check finds everything; texts it does not translate are `warnings` (located at the source
    text). InputError only when the file cannot be read as YAML at all."""
    path = translation_file(game, language)
    shown = game.show(path)
    out = Translation(language, shown, path.is_file())
    entries = translatable(game) if entries is None else entries
    problems = Problems()
    if out.exists:
        # a link out is not read
        game.project.inside(path.name, path.parent, file=shown, what="translation file")
        raw = load_yaml(path, shown)
        if language == game.source_language:
            wrong = [key for key in raw if str(key) != "tool"]
            for key in wrong:
                problems.add(
                    shown,
                    raw.line_of(key),
                    f"'{key}': the {language_name(language)} texts are the game's "
                    "own files; expected only `tool:` (the tool's words) in the "
                    "source language's file",
                )
        else:
            _walk(raw, _tree(entries), (), game, shown, out, problems)
            layouts = raw.get("layouts")
            if layouts is not None and not isinstance(layouts, YDict):
                problems.add(
                    shown, raw.line_of("layouts"), "layouts: expected a mapping of layout name to its boxes"
                )
            out.layouts = layouts if isinstance(layouts, YDict) else None
        out.tool = _read_tool(raw.get("tool"), shown, raw.line_of("tool"), problems)
        out.warnings += _changed_marks(path, shown)
    out.problems = problems.sorted()
    if language != game.source_language:
        out.warnings += missing_texts(game, out, entries)
    return out


def shorten(text: Any, most: int = 40) -> str:
    """A source text for a message: one line, at most `most` characters."""
    text = " / ".join(map(str, text)) if isinstance(text, list) else str(text)
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 3] + "..."


def missing_texts(game: Game, translation: Translation, entries: list[Translatable]) -> list[Problem]:
    """A located warning per source text the translation does not give (one for a translation with no
    file)."""
    name = translation.name
    source = language_name(game.source_language)
    if not translation.exists:
        shown, line = _languages_line(game)
        return [
            Problem(
                shown,
                line,
                f"{name} has no translation file; expected {translation.file} (pnp i18n extract "
                f"{game.id} --lang {translation.language} writes one); the {source} texts are "
                "printed until then",
            )
        ]
    found = []
    for entry in entries:
        if not entry.empty and entry.path not in translation.values:
            short = shorten(entry.source)
            found.append(
                Problem(
                    entry.file,
                    entry.line,
                    f"{entry.key} ('{short}') has no {name} translation; expected "
                    f"it in {translation.file} (the {source} text is printed until then)",
                )
            )
    phrases = Phrases(translation.language, translation.tool)
    left = phrases.missing()
    if left:
        found.append(
            Problem(
                translation.file,
                1,
                f"{len(left)} of the tool's own words (sheet labels, print check, "
                f"booklet cover, ...) have no {name} text, as pnp has no catalogue of "
                f"{name}; expected them under tool: (pnp i18n extract writes them); "
                "they print in English until then",
            )
        )
    return found


# --- the game in another language
# ------------------------------------------------------------------------------

def _pick(values: dict, path: tuple, source: Any) -> Any:
    return values.get(path, source)


def _record(record, prefix: tuple, specs: dict, translation: Translation):
    """A card, row or item with its name and text fields translated (and where each translation is
    written)."""
    values = translation.values
    fields = dict(record.fields)
    sources = {}
    for key in ["name"] + [k for k, spec in specs.items() if spec.translatable]:
        path = prefix + (key,)
        if path in values:
            sources[key] = translation.where(path)
            if key != "name":
                fields[key] = values[path]
    return dataclasses.replace(record, name=_pick(values, prefix + ("name",), record.name), fields=fields,
                               sources=sources)


def _board(board: Board, translation: Translation, address_format: str) -> Board:
    values, base = translation.values, ("boards", board.id)
    model = board.model
    sources: dict[tuple[str, ...], tuple[str, int]] = {}  # (section, item id, key) or (key,) -> (file, line)

    def items(section: str, keys: tuple[str, ...], things: list) -> list:
        out = []
        for thing in things:
            update = {}
            for key in keys:
                path = base + (section, thing.id, key)
                if path in values:
                    update[key] = values[path]
                    sources[(section, thing.id, key)] = translation.where(path)
            out.append(thing.model_copy(update=update))
        return out

    for key in ("name", "title", "notes"):
        if base + (key,) in values:
            sources[(key,)] = translation.where(base + (key,))
    new = model.model_copy(
        update={
            "name": _pick(values, base + ("name",), model.name),
            "title": _pick(values, base + ("title",), model.title),
            "notes": _pick(values, base + ("notes",), model.notes),
            "streets": items("streets", ("name", "color_name"), model.streets),
            "spaces": items("spaces", ("label", "color_name"), model.spaces),
            "zones": items("zones", ("caption", "text"), model.zones),
        }
    )
    return dataclasses.replace(board, model=new, address_format=address_format, sources=sources)


def _component(component, translation: Translation):
    from generator.data.component_models import DieFile, ItemsFile, SheetFile

    values, base = translation.values, ("components", component.id)
    model = component.model
    update = {
        key: values[base + (key,)]
        for key in ("name", "description", "assembly", "label", "title", "total", "notes")
        if base + (key,) in values
    }
    if isinstance(model, SheetFile):
        update["columns"] = [column.model_copy(update={key: values[base + ("columns", str(n), key)]
                                                      for key in ("header", "text")
                                                      if base + ("columns", str(n), key) in values})
                             for n, column in enumerate(model.columns, start=1)]
    if isinstance(model, DieFile):
        update["faces"] = [face.model_copy(update={"text": values[base + ("faces", str(n), "text")]}
                                           if base + ("faces", str(n), "text") in values else {})
                           for n, face in enumerate(model.faces or [], start=1)]
    items = component.items
    if isinstance(model, ItemsFile):
        items = [_record(item, base + ("items", item.id), model.fields, translation) for item in items]
    elif isinstance(model, DieFile):
        faces = update.get("faces", model.faces) or []
        items = [dataclasses.replace(item, fields={**item.fields, "text": face.text})
                 for item, face in zip(items, faces, strict=True)]
    new = model.model_copy(update=update)
    return dataclasses.replace(component, name=new.name, model=new, items=items)


def _addresses(game: Game, boards: dict[str, Board], decks: dict) -> None:
    """Card addresses printed as the translated board prints them ('Feferonková třída 11')."""
    located = game.addresses()
    for deck_id, deck in decks.items():
        keys = [key for key, spec in deck.field_specs.items() if spec.type == "address"]
        if not keys:
            continue
        cards = []
        for card in deck.cards:
            fields = dict(card.fields)
            for key in keys:
                value = fields.get(key)
                if value in located:
                    board_id, space = located[value]
                    board = boards[board_id]
                    for street in board.model.streets:
                        number = next((n for n, s in street.houses.items() if s == space), None)
                        if number is not None:
                            fields[key] = board.address(number, street.name)
                            break
            cards.append(dataclasses.replace(card, fields=fields))
        decks[deck_id] = dataclasses.replace(deck, cards=cards)


def translate(game: Game, language: str) -> Game:
    """The game in `language`: its texts from i18n/<language>.yaml (the source text where it gives none), the
    tool's words of that language. What the file gets wrong is in `game.translation.problems` (the rest is
    applied); InputError when it cannot be read at all or the language is not declared."""
    check_language(game, language)
    if language == game.language:
        return game
    if language == game.source_language:
        raise ValueError("translate() is given the source game, not a translation of it")
    translation = read_translation(game, language)
    values = translation.values
    phrases = Phrases(language, translation.tool)
    config = game.config
    extras = [
        extra.model_copy(
            update={
                "name": _pick(values, ("game", "extras", extra.name, "name"), extra.name),
                "note": _pick(values, ("game", "extras", extra.name, "note"), extra.note),
            }
        )
        for extra in config.extras
    ]
    config = config.model_copy(
        update={
            key: values[("game", key)]
            for key in ("title", "subtitle", "ages", "play_time")
            if ("game", key) in values
        }
        | {"extras": extras}
    )
    decks = {}
    for deck_id, deck in game.decks.items():
        cards = [_record(card, (deck_id, card.id), deck.field_specs, translation) for card in deck.cards]
        decks[deck_id] = dataclasses.replace(deck, name=_pick(values, ("decks", deck_id, "name"), deck.name),
                                             description=_pick(values, ("decks", deck_id, "description"),
                                                               deck.description), cards=cards)
    tables = {}
    for table_id, table in game.tables.items():
        rows = [
            _record(row, ("tables", table_id, "rows", row.id), table.field_specs, translation)
            for row in table.rows
        ]
        tables[table_id] = dataclasses.replace(
            table, name=_pick(values, ("tables", table_id, "name"), table.name), rows=rows
        )
    address_format = phrases.pattern("words.address")
    boards = {board_id: _board(board, translation, address_format) for board_id, board in game.boards.items()}
    _addresses(game, boards, decks)
    components = {cid: _component(component, translation) for cid, component in game.components.items()}
    return dataclasses.replace(
        game,
        config=config,
        decks=decks,
        tables=tables,
        boards=boards,
        components=components,
        language=language,
        phrases=phrases,
        translation=translation,
    )


def source_tool_words_missing(game: Game) -> list[Problem]:
    """A warning when the game's own language is one pnp has no catalogue of and the game does not give the
    tool's words (sheet labels, print check, booklet cover, ...) itself: they print in English."""
    left = game.phrases.missing()
    if not left or builtin(game.source_language):
        return []
    name, path = language_name(game.source_language), translation_file(game, game.source_language)
    where, line = (game.show(path), 1) if path.is_file() else _languages_line(game)
    return [
        Problem(
            where,
            line,
            f"{len(left)} of the tool's own words (sheet labels, print check, booklet cover, ...) "
            f"have no {name} text, as pnp has no catalogue of {name}; expected them under tool: "
            f"in {game.show(path)} (pnp i18n extract {game.id} --lang {game.source_language} "
            "writes them); they print in English until then",
        )
    ]


def source_phrases(game: Game) -> Phrases:
    """The tool's words of the source language, with the `tool:` entries of i18n/<source>.yaml when it
    exists."""
    if not translation_file(game, game.source_language).is_file():
        return phrases_for(game.source_language)
    translation = read_translation(game, game.source_language, [])
    if translation.problems:
        raise InputError(translation.problems)
    return Phrases(game.source_language, translation.tool)
