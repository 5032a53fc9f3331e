"""Data overrides: `--set PATH=VALUE` changes a loaded game's YAML in memory (never the files) before any
check.

A path names one value of the game folder:

    settings.NAME[.KEY ...]          a rule parameter in game.yaml `settings` (it must be there already)
    DECK.KEY                         a deck's own value, e.g. `toppings.total`
    DECK.CARD.FIELD[.KEY ...]        a card's field, e.g. `toppings.pepperoni.copies`
    TABLE.ROW.FIELD[.KEY ...]        a table row's field

The value is read as YAML (`14` is a number, `true` a flag, `[1, 2]` a list, anything else text). Overrides
are applied to the raw YAML, so the loader's type checks, the reference checks and the composition checks all
see the changed game, and a problem they find at a changed value names the `--set` that made it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.yamlio import YDict, YList
from generator.data.models import CARD_KEYS

SETTINGS = "settings"
SETTABLE_CARD_KEYS = tuple(key for key in CARD_KEYS if key != "id")  # ids cannot change: data refers to them
ROW_KEYS = ("name",)
DECK_KEYS = ("name", "code", "size", "layout", "back", "total", "description")
TABLE_KEYS = ("name",)
LIST_LIMIT = 40  # names listed in an error: a designer looking for a card id wants to see them all


@dataclass(frozen=True)
class Override:
    """One `--set PATH=VALUE`: the dotted path, the value read as YAML, and the text as typed."""

    path: tuple[str, ...]
    value: Any
    text: str
    flag: str = "--set"

    @property
    def shown(self) -> str:
        return f"{self.flag} {self.text}"


@dataclass(frozen=True)
class Applied:
    """An override once applied: where the value was written (file:line) and the value it replaced."""

    override: Override
    file: str
    line: int
    old: Any  # MISSING when the key was not written in the file

    @property
    def path(self) -> str:
        return ".".join(self.override.path)


MISSING = "(not set)"


def read_value(text: str) -> Any:
    """A command-line value read as YAML (`14` -> 14, `true` -> True, `a,b` -> 'a,b'); text when it is not
    YAML."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    return text if value is None and text.strip() not in ("null", "~") else value


SHAPES = {
    "--set": "PATH=VALUE, e.g. toppings.pepperoni.copies=14",
    "--option": "NAME=VALUE, e.g. end_mode=finish_round",
    "--vary": "PATH=V1,V2,... or PATH=A..B[:STEP], e.g. settings.hand_limit=8,10,12",
}


def split_assignment(text: str, flag: str) -> tuple[str, str]:
    """`KEY=VALUE` -> (KEY, VALUE); a located error for text without `=` or with an empty key."""
    key, sep, value = text.partition("=")
    key = key.strip()
    if not sep or not key or any(not part for part in key.split(".")):
        raise InputError(Problem("", 0, f"{flag} {text}: expected {SHAPES.get(flag, 'KEY=VALUE')}"))
    return key, value.strip()


def parse_overrides(texts, flag: str = "--set") -> list[Override]:
    """Every `PATH=VALUE` as an Override; all malformed ones reported together."""
    found, problems = [], []
    for text in texts:
        try:
            path, value = split_assignment(text, flag)
        except InputError as exc:
            problems += exc.problems
            continue
        found.append(Override(tuple(path.split(".")), read_value(value), text, flag))
    if problems:
        raise InputError(problems)
    return found


def _fail(override: Override, file: str, line: int, message: str) -> Problem:
    return Problem(file, line, f"{override.shown}: {message}")


def key_written(node: dict, key: str) -> Any:
    """The key of `node` that a path's `key` names: the text itself, else a key YAML read as a number or a
    flag that is written so (`rounds_by_players: {2: 18}` is reached by `settings.rounds_by_players.2`)."""
    if key in node:
        return key
    return next((k for k in node if not isinstance(k, str) and _plain_key(k) == key), key)


def _plain_key(key: Any) -> str:
    return str(key).lower() if isinstance(key, bool) else str(key)


def _descend(override: Override, node: Any, keys: tuple[str, ...], file: str, line: int, what: str,
             allow_new_last: bool) -> tuple[Any, Any, int] | Problem:
    """The mapping holding the last key of `keys` below `node`; a problem naming what exists where a key is
    missing."""
    for depth, key in enumerate(keys[:-1]):
        if not isinstance(node, dict) or (key := key_written(node, key)) not in node:
            return _unknown_key(
                override, node, str(key), file, line, f"{what}.{'.'.join(keys[:depth])}".rstrip(".")
            )
        line = node.line_of(key) if isinstance(node, YDict) else line
        node = node[key]
    if not isinstance(node, dict):
        return _fail(override, file, line, f"{what}.{'.'.join(keys[:-1])} is {_kind(node)}, not a mapping; "
                                           f"expected a path that ends at a value")
    last = key_written(node, keys[-1])
    if last not in node and not allow_new_last:
        return _unknown_key(
            override, node, str(last), file, line, f"{what}.{'.'.join(keys[:-1])}".rstrip(".")
        )
    return node, last, line


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"the value {value!r}"


def _unknown_key(override: Override, node: Any, key: str, file: str, line: int, where: str) -> Problem:
    if not isinstance(node, dict):
        return _fail(override, file, line, f"{where} is {_kind(node)}; it has no key '{key}'")
    known = [_plain_key(k) for k in node]
    return _fail(
        override, file, line, f"{where} has no '{key}'{did_you_mean(key, known)}; known: {known_list(known)}"
    )


def _set(node: dict, key: Any, value: Any, override: Override, file: str, line: int) -> Applied:
    old = node.get(key, MISSING)
    if isinstance(node, YDict):
        line = node.line_of(key, line)
    node[key] = value
    return Applied(override, file, line, old)


def _apply_settings(override: Override, raw_game: YDict, game_file: str) -> Applied | Problem:
    keys = override.path[1:]
    if not keys:
        return _fail(
            override,
            game_file,
            raw_game.line_of(SETTINGS),
            "expected settings.NAME, e.g. settings.hand_limit",
        )
    settings = raw_game.get(SETTINGS)
    if not isinstance(settings, dict) or not settings:
        return _fail(
            override,
            game_file,
            0,
            "game.yaml has no `settings:`; expected the setting to be written there first",
        )
    found = _descend(
        override, settings, keys, game_file, raw_game.line_of(SETTINGS), SETTINGS, allow_new_last=False
    )
    if isinstance(found, Problem):
        return found
    node, last, line = found
    return _set(node, last, override.value, override, game_file, line)


def _declared(raw: YDict) -> list[str]:
    fields = raw.get("fields")
    return [str(k) for k in fields] if isinstance(fields, dict) else []


def _apply_record(override: Override, raw: YDict, shown: str, kind: str) -> Applied | Problem:
    """A deck's or table's own key, or a field of one of its cards or rows."""
    collection, rows_key, own_keys, record_keys = (
        ("deck", "cards", DECK_KEYS, SETTABLE_CARD_KEYS) if kind == "deck"
        else ("table", "rows", TABLE_KEYS, ROW_KEYS))
    name = override.path[0]
    record_word = "card" if kind == "deck" else "row"
    rows = raw.get(rows_key)
    records = {str(r.get("id")): r for r in rows if isinstance(r, YDict)} if isinstance(rows, list) else {}
    example = f"{name}.{next(iter(records), record_word)}.{record_keys[-1] if kind == 'table' else 'copies'}"
    if len(override.path) == 2:
        key = override.path[1]
        if key in own_keys:
            return _set(raw, key, override.value, override, shown, raw.line)
        if key in records:
            return _fail(override, shown, records[key].line, f"'{key}' is a {record_word}; expected "
                         f"{name}.{key}.FIELD (fields: {known_list(list(record_keys) + _declared(raw))})")
        return _fail(
            override,
            shown,
            raw.line,
            f"{collection} {name} has no key or {record_word} '{key}'"
            f"{did_you_mean(key, list(own_keys) + list(records))}; known keys: {', '.join(own_keys)}; "
            f"{record_word}s: {known_list(records, limit=LIST_LIMIT)}",
        )
    record_id, field, rest = override.path[1], override.path[2], override.path[3:]
    record = records.get(record_id)
    if record is None:
        return _fail(
            override,
            shown,
            raw.line_of(rows_key),
            f"{collection} {name} has no {record_word} '{record_id}'"
            f"{did_you_mean(record_id, list(records))}; known: {known_list(records, limit=LIST_LIMIT)}; e.g. "
            f"{example}",
        )
    fields = list(record_keys) + _declared(raw)
    if field not in fields:
        why = ("ids cannot be changed (other data refers to them)" if field == "id"
               else f"no field '{field}'{did_you_mean(field, fields)}")
        return _fail(
            override,
            shown,
            record.line,
            f"{record_word} {record_id} of {collection} {name}: {why}; "
            f"known: {known_list(fields, limit=LIST_LIMIT)}",
        )
    if not rest:
        return _set(record, field, override.value, override, shown, record.line)
    found = _descend(
        override, record, (field, *rest), shown, record.line, f"{name}.{record_id}", allow_new_last=True
    )
    if isinstance(found, Problem):
        return found
    node, last, line = found
    return _set(node, last, override.value, override, shown, line)


def from_spreadsheet(raw: YDict) -> bool:
    """True for a deck whose cards are read from a `cards_from:` spreadsheet (changed once its rows are
    read)."""
    return isinstance(raw, dict) and "deck" in raw and "cards_from" in raw and "cards" not in raw


def card_override(override: Override) -> bool:
    """True when the override names a card's field (DECK.CARD.FIELD), not a key of the deck itself."""
    return len(override.path) >= 3


def apply_to_sheet_cards(overrides: Sequence[Override], raw: YDict, cards,
                         shown: str) -> tuple[list[Applied], list[Problem]]:
    """Card overrides of a `cards_from:` deck, written into the rows read from its spreadsheet (`shown`)."""
    view = YDict(raw)
    view.line, view.key_lines = raw.line, dict(raw.key_lines)
    view["cards"] = cards
    applied: list[Applied] = []
    problems: list[Problem] = []
    for override in overrides:
        result = _apply_record(override, view, shown, "deck")
        if isinstance(result, Problem):
            problems.append(result)
        else:
            applied.append(result)
    return applied, problems


def apply_overrides(overrides: list[Override], raw_game: YDict, game_file: str,
                    files: list[tuple[str, YDict]]) -> tuple[list[Applied], list[Problem]]:
    """Write every override into the raw YAML of game.yaml and of the deck and table files (shown name, raw).

    Card overrides of a deck read from a spreadsheet are left for `apply_to_sheet_cards` (see
    `from_spreadsheet`)."""
    targets: dict[str, tuple[str, str, YDict]] = {}  # deck or table id -> (kind, shown file, raw)
    for shown, raw in files:
        # a component (a tuck box) may name a deck: not a target
        if not isinstance(raw, dict) or "component" in raw:
            continue
        for kind in ("deck", "table"):
            if kind in raw and isinstance(raw.get(kind), str):
                targets.setdefault(raw[kind], (kind, shown, raw))
    applied: list[Applied] = []
    problems: list[Problem] = []
    for override in overrides:
        head = override.path[0]
        if head == SETTINGS:
            result = _apply_settings(override, raw_game, game_file)
        elif head in targets:
            kind, shown, raw = targets[head]
            if from_spreadsheet(raw) and card_override(override):
                continue
            result = _apply_record(override, raw, shown, kind)
        else:
            decks = sorted(k for k, v in targets.items() if v[0] == "deck")
            tables = sorted(k for k, v in targets.items() if v[0] == "table")
            known = [SETTINGS, *decks, *tables]
            result = Problem(
                "",
                0,
                f"{override.shown}: '{head}' is not `settings`, a deck or a table of this game"
                f"{did_you_mean(head, known)}; known: settings; decks: {known_list(decks)}"
                f"{'; tables: ' + known_list(tables) if tables else ''}",
            )
        if isinstance(result, Problem):
            problems.append(result)
        else:
            applied.append(result)
    return applied, problems


def credit(problems: list[Problem], applied: list[Applied]) -> list[Problem]:
    """Problems found at a changed value say which `--set` wrote it (the file itself holds the old value)."""
    lines = {(a.file, a.line): a.override.shown for a in applied}
    return [Problem(p.file, p.line, f"{p.message} (the value comes from {lines[(p.file, p.line)]})")
            if (p.file, p.line) in lines else p for p in problems]


def describe(applied: list[Applied]) -> list[str]:
    """'toppings.pepperoni.copies = 14 (was 12)' for every applied override, for reports."""
    return [f"{a.path} = {_show(a.override.value)} (was {_show(a.old)})" for a in applied]


def _show(value: Any) -> str:
    if value is MISSING:
        return MISSING
    return (
        yaml.safe_dump(_plain(value), default_flow_style=True, width=1000).strip().removesuffix("...").strip()
    )


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, YList)):
        return [_plain(v) for v in value]
    return value
