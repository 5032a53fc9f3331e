"""A `cards_from:` spreadsheet turned into card mappings (or table rows) that go through the same models as
YAML cards.

The header row (row 1, or `header_row:`) names the columns: the core keys (id, name, copies, layout, back,
icon, image) and the deck's own fields, in any order. A header matches a key without regard to case,
surrounding blanks, accents or blanks inside (`Card Name` gives `card_name`); `columns:` maps any other
header (`{Qty: copies, Notes: null}`: null leaves the column out). Without an id column, ids are made from the
names (or from an `id:` template over the row); without a copies column, each card is printed once. `where:`
(an expression of the sandboxed template language of `checks:`) keeps only the rows where it is true. Every
later row that is not blank is one card type; its cells, stripped of surrounding blanks, are read with the
syntax of generator.data.cells. Each mapping remembers the cell of every key (a line number that names the
cell), so a problem found anywhere later, by the models or by a game's checks, points at the cell.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError

from generator.core.csvsafe import QUOTE
from generator.core.errors import Problems, did_you_mean, known_list, where
from generator.core.ids import made_id
from generator.core.yamlio import YDict, YList
from generator.data.cells import CORE_KEYS, CORE_TYPES, CellError, cell_text, is_empty, parse_cell
from generator.data.models import CardSource, FieldSpec
from generator.data.sandbox import Budget
from generator.data.spreadsheet import Grid, column_letter
from generator.data.templating import View, environment

UNKNOWN_SHOWN = 5  # unknown columns named one per line; the rest are counted in one line (a 200-column sheet)
ROW_KEYS = ("id", "name")  # the core keys of a table row
# headers that often mean a key, for the hint of an unknown column (never matched without `columns:`)
_SYNONYMS = {"qty": "copies", "quantity": "copies", "count": "copies", "number": "copies", "amount": "copies",
             "anzahl": "copies", "menge": "copies", "quantidade": "copies", "cantidad": "copies",
             "title": "name", "card": "name", "card_name": "name", "titel": "name", "nome": "name",
             "nombre": "name", "picture": "image", "art": "image"}
_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
# what evaluating a row's template or filter may raise for a mistake in it or in the row
_EVALUATION_ERRORS = (TemplateError, TypeError, KeyError, ValueError, AttributeError, IndexError,
                      ZeroDivisionError)


def header_key(text: str) -> str:
    """How a header compares with a key: 'Übersetzung ' -> 'ubersetzung', 'Card Name' -> 'card_name'."""
    text = unicodedata.normalize("NFKD", str(text).strip())
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    return re.sub(r"\s+", "_", text)


@dataclass
class SheetSettings:
    """How a sheet reads (the `cards_from:` mapping) and where each setting is written, for problems about
    the settings themselves (a column map naming no column, a filter that does not parse)."""

    source: CardSource
    file: str = ""                      # the deck (table, component) file that has the settings
    line: int = 0                       # the line of `cards_from:`
    lines: dict[str, int] = field(default_factory=dict)  # setting -> line; 'columns.<header>' for each entry

    @classmethod
    def of(cls, source: CardSource, raw: Any, file: str, line: int) -> SheetSettings:
        """The settings of `source`, with the lines of the mapping `raw` (the YAML of `cards_from:`)."""
        lines: dict[str, int] = {}
        if isinstance(raw, YDict):
            lines = dict(raw.key_lines)
            columns = raw.get("columns")
            if isinstance(columns, YDict):
                lines |= {f"columns.{key}": at for key, at in columns.key_lines.items()}
        return cls(source, file, line, lines)

    def at(self, key: str) -> int:
        """The line of a setting (of `cards_from:` when it is not written)."""
        return self.lines.get(key, self.lines.get(key.split(".")[0], self.line))


def _show(value: Any, limit: int = 30) -> str:
    try:
        text = cell_text(value).strip()
    except CellError:
        text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _scope_value(value: Any) -> Any:
    """A cell as a row's templates and filter see it: blank as '', numbers as numbers (a CSV's '3' too),
    text stripped."""
    if is_empty(value):
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, (dt.date, dt.datetime, dt.time, dt.timedelta)):
        return str(value)
    text = str(value).strip()
    if _NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    return text


class _Expressions:
    """The row filter and the id and name templates of a sheet, compiled once; a mistake in one is a
    problem at its line in the deck file."""

    def __init__(self, settings: SheetSettings, problems: Problems):
        self.settings = settings
        self.env = environment(autoescape=False)
        self.compiled: dict[str, Any] = {}
        for key in ("where", "id", "name"):
            source = getattr(settings.source, key)
            if source is None:
                continue
            try:
                self.compiled[key] = (self.env.compile_expression(source, undefined_to_none=False)
                                      if key == "where" else self.env.from_string(source))
            except TemplateSyntaxError as exc:
                problems.add(settings.file, settings.at(key), f"{key}: syntax error: {exc.message}; expected "
                                                              f"{self._expected(key)}")

    @staticmethod
    def _expected(key: str) -> str:
        if key == "where":
            return "an expression over the row's columns, such as Type != 'back'"
        return "a template over the row's columns, such as \"{{ Unit }}\" or \"s{{ row }}\""

    def evaluate(self, key: str, scope: dict) -> Any:
        """The filter's truth or a template's text for one row; CellError (its message) when it fails."""
        self.env.budget = Budget()
        try:
            if key == "where":
                return bool(self.compiled[key](**scope))
            return self.env.render_bounded(self.compiled[key], scope).strip()
        except _EVALUATION_ERRORS as exc:
            names = [name for name in scope if name.isidentifier()]
            raise CellError(f"{key}: {exc}; expected {self._expected(key)} (this row has: "
                            f"{known_list(names, 20)})") from None


@dataclass
class _Header:
    """What the header row gives: column index -> key, and the header as written of each column."""

    columns: dict[int, str]
    names: list[Any]                    # _MADE for a column an id or name template makes


def _header_hint(grid: Grid, settings: SheetSettings, known: list[str]) -> str:
    """' (row 3 names them: `header_row: 3`)' when a row just below the one read would name the columns."""
    wanted = {header_key(key) for key in known} | {header_key(h) for h in settings.source.columns}
    for r in range(len(grid.rows[:12])):
        names = {header_key(_show(cell, 1000)) for cell in grid.rows[r] if not is_empty(cell)}
        if r != settings.source.header_row - 1 and len(names & wanted) >= 2:
            return f" (row {r + 1} does: write `header_row: {r + 1}` under `cards_from:`)"
    return ""


def _column_map(grid: Grid, h: int, names: list[str], known: list[str], settings: SheetSettings,
                problems: Problems) -> tuple[dict[int, str], set[int]] | None:
    """The columns `columns:` maps (index -> key) and those it leaves out (null), or None (with the
    problems) when an entry names no column or no key."""
    normal = [header_key(name) for name in names]
    explicit: dict[int, str] = {}
    ignored: set[int] = set()
    mapped_by: dict[str, str] = {}
    ok = True
    for written, key in settings.source.columns.items():
        found = [col for col, name in enumerate(normal) if name and name == header_key(written)]
        line = settings.at(f"columns.{written}")
        present = [name for name in names if name]
        if not found:
            why = (f"`columns:` names '{written}', which is no column of {grid.shown}"
                   f"{did_you_mean(written, present)}; expected one of the headers in row {h + 1}: "
                   f"{known_list(present, 20)}{_header_hint(grid, settings, known)}")
        elif key is None:
            ignored.update(found)
            continue
        elif key not in known:
            why = (f"`columns:` maps '{written}' to '{key}', which is no key of this deck"
                   f"{did_you_mean(key, known)}; expected one of: {', '.join(known)} (or null to leave the "
                   "column out)")
        elif key in mapped_by:
            why = (f"`columns:` maps both '{mapped_by[key]}' and '{written}' to '{key}'; expected one column "
                   "per key")
        else:
            mapped_by[key] = written
            explicit.update({col: key for col in found})
            continue
        problems.add(settings.file, line, why)
        ok = False
    return (explicit, ignored) if ok else None


def _unnamed_columns(grid: Grid, h: int, names: list[str], known: list[str], problems: Problems) -> bool:
    """Problems for columns without a header that hold something; whether there was none."""
    ok = True
    for col, name in enumerate(names):
        if name:
            continue
        filled = next((r for r in range(h + 1, len(grid.rows)) if col < len(grid.rows[r])
                       and not is_empty(grid.rows[r][col])), None)
        if filled is not None:
            letter, held = column_letter(col), _show(grid.rows[filled][col])
            problems.add(grid.shown, grid.at(filled, col),
                         f"column {letter} has no name in row {h + 1} but holds '{held}'; expected a column "
                         f"name in {letter}{h + 1} (one of: {', '.join(known)})")
            ok = False
    return ok


def _unknown_columns(grid: Grid, h: int, names: list[str], unknown: list[int], known: list[str],
                     problems: Problems) -> None:
    """One problem per unknown column (did-you-mean), the columns past UNKNOWN_SHOWN counted in one."""
    for col in unknown[:UNKNOWN_SHOWN]:
        name = names[col]
        hint = did_you_mean(name, known)
        if not hint and header_key(name) in _SYNONYMS:
            hint = f" (did you mean '{_SYNONYMS[header_key(name)]}'?)"
        mapping = "" if hint else (f"; or map it under `cards_from:` with `columns: {{{name}: <key>}}` "
                                   f"(null to leave it out)")
        problems.add(grid.shown, grid.at(h, col),
                     f"unknown column '{name}'{hint}; expected one of: {', '.join(known)}{mapping}")
    if len(unknown) > UNKNOWN_SHOWN:
        rest = unknown[UNKNOWN_SHOWN:]
        problems.add(grid.shown, grid.at(h, rest[0]),
                     f"{len(rest)} more unknown columns ({column_letter(rest[0])} to "
                     f"{column_letter(rest[-1])}); expected one of: {', '.join(known)}")


def _twice(names: list[str], first: int, col: int, key: str, h: int) -> str:
    """What is wrong with two columns that give the same key."""
    if names[first] == names[col]:
        return (f"column '{names[col]}' appears twice ({column_letter(first)}{h + 1} and "
                f"{column_letter(col)}{h + 1}); expected each column once")
    return (f"columns '{names[first]}' ({column_letter(first)}{h + 1}) and '{names[col]}' "
            f"({column_letter(col)}{h + 1}) both give '{key}'; expected one column per key (map one of them "
            "to null under `columns:` to leave it out)")


def _header(grid: Grid, h: int, specs: dict[str, FieldSpec], settings: SheetSettings, problems: Problems,
            core: tuple[str, ...]) -> _Header | None:
    """Column index -> key from the header row `h` (0-based), or None (with the problems) when it is not
    usable."""
    known = list(core) + list(specs)
    by_key = {header_key(key): key for key in known}
    names = [_show(cell, 1000) if not is_empty(cell) else "" for cell in grid.rows[h]]
    mapped = _column_map(grid, h, names, known, settings, problems)
    if mapped is None:
        return None
    explicit, ignored = mapped
    given = {col: explicit.get(col, by_key.get(header_key(name))) for col, name in enumerate(names)
             if name and col not in ignored}
    if not any(given.values()):
        found = ", ".join(f"'{_show(name)}'" for name in names if name)
        problems.add(
            grid.shown,
            grid.at(h, 0),
            f"row {h + 1} does not name the columns (it holds {found or 'nothing'}); expected a header row "
            f"naming them, such as: {', '.join(_required(specs, core))}{_header_hint(grid, settings, known)}",
        )
        return None
    ok = _unnamed_columns(grid, h, names, known, problems)
    columns: dict[int, str] = {}
    first_at: dict[str, int] = {}
    unknown = [col for col, key in given.items() if key is None]
    for col, key in given.items():
        if key is not None and key in first_at:
            problems.add(grid.shown, grid.at(h, col), _twice(names, first_at[key], col, key, h))
            ok = False
        elif key is not None:
            first_at[key] = col
            columns[col] = key
    _unknown_columns(grid, h, names, unknown, known, problems)
    unknown_names = [names[col] for col in unknown]
    made = {key for key in ("id", "name") if getattr(settings.source, key) is not None}
    for key in _required(specs, core):
        if key in first_at or key in made or key in ("id", "copies"):
            continue
        if not any(did_you_mean(name, [key]) for name in unknown_names):
            also = (f", or a column mapped to it (`columns: {{<header>: {key}}}`) or a `{key}:` template"
                    if key == "name" else "")
            problems.add(grid.shown, grid.at(h, 0), f"no column '{key}'; expected a column named '{key}' in "
                                                    f"row {h + 1} (every card needs it){also}")
            ok = False
    return _Header(columns, names) if ok and not unknown else None


def _required(specs: dict[str, FieldSpec], core: tuple[str, ...]) -> list[str]:
    required = [key for key, spec in specs.items() if spec.required and spec.default is None]
    return [key for key in ("id", "name", "copies") if key in core] + required


def card_rows(grid: Grid, specs: dict[str, FieldSpec], problems: Problems,
              settings: SheetSettings | None = None, *, card: bool = True,
              core: tuple[str, ...] | None = None) -> YList:
    """The cards (`card`: else a table's rows) of a spreadsheet as YDicts (line = the row, key lines = the
    cells); problems are added. `core`: the keys every row has besides `specs` (default: a card's or a
    table row's; none for a die's faces, which have no ids)."""
    settings = settings or SheetSettings(CardSource(file=grid.shown))
    core = core if core is not None else tuple(CORE_KEYS) if card else ROW_KEYS
    before = len(problems)
    out = YList()
    out.line, out.item_lines = 1, []
    if grid.problems:  # merged cells, formulas without a result: the values cannot be trusted, so stop here
        problems.extend(list(grid.problems))
        return out
    while grid.rows and all(is_empty(cell) for cell in grid.rows[-1]):
        grid.rows.pop()
        grid.lines.pop()
    if not grid.rows:
        said = f"sheet '{grid.sheet}' is empty" if grid.sheet else "the file is empty"
        problems.add(
            grid.shown,
            grid.at(0, 0),
            f"{said}; expected a header row naming the columns ({', '.join(_required(specs, core))}, ...) "
            "and one row per card",
        )
        return out
    h = settings.source.header_row - 1
    if h >= len(grid.rows):
        problems.add(settings.file, settings.at("header_row"),
                     f"header_row: {h + 1}, but {grid.shown} has {len(grid.rows)} rows"
                     f"{f' in sheet {grid.sheet!r}' if grid.sheet else ''}; expected the row that names the "
                     "columns")
        return out
    header = _header(grid, h, specs, settings, problems, core)
    expressions = _Expressions(settings, problems)
    if header is None or len(problems) > before:
        return out
    types = CORE_TYPES | {key: spec.type for key, spec in specs.items()}
    required = set(_required(specs, core)) - {"id", "copies"}
    made_ids: dict[str, tuple[int, str]] = {}
    for r in range(h + 1, len(grid.rows)):
        if all(is_empty(cell) for cell in grid.rows[r]):
            continue
        try:
            row = _expressed(expressions, header, grid.rows[r], int(grid.at(r, 0)))
        except CellError as exc:
            problems.add(grid.shown, grid.at(r, 0), f"{exc}")
            return out  # the same mistake would repeat on every row
        if row is None:
            continue
        item, broken = _read_row(grid, r, row, header, types, required, problems)
        if broken or ("id" in core and "id" not in item and not _make_id(grid, item, made_ids, problems)):
            continue
        if card and "copies" not in item:
            item["copies"] = 1
            item.key_lines["copies"] = item.line
        out.append(item)
        out.item_lines.append(item.line)
    if not out and len(problems) == before:
        problems.add(
            grid.shown,
            grid.at(h, 0),
            "the header row is there but no card follows; expected one row per card below it"
            + (" (or `where:` keeps none)" if settings.source.where else ""),
        )
    return out


def _expressed(expressions: _Expressions, header: _Header, row: list, line: int) -> list | None:
    """The row with the ids and names its templates make, or None when the filter leaves it out."""
    if not expressions.compiled:
        return row
    scope = _row_scope(header, row, line)
    if "where" in expressions.compiled and not expressions.evaluate("where", scope):
        return None
    for key in ("id", "name"):
        if key in expressions.compiled:
            value = expressions.evaluate(key, scope)
            if key == "id":  # 'Tempestade-2' gives the id 'tempestade-2', as a name does
                made = made_id(value)
                if not made:
                    raise CellError(f"id: the template gives '{value[:30]}', which has no letter or digit to "
                                    "make an id of; expected a template such as \"{{ name }}-{{ row }}\"")
                value = made
            row = list(row) + [None] * (len(header.names) - len(row))
            row = _with_made(row, header, key, value)
    return row


def _make_id(grid: Grid, item: YDict, made_ids: dict[str, tuple[int, str]], problems: Problems) -> bool:
    """Give `item` the id made from its name; False (with the problem) when none can be made or another
    row's name made it already."""
    made = made_id(str(item.get("name", "")))
    shown_name = _show(item.get("name", ""))
    at = item.key_lines.get("name", item.line)
    if not made:
        problems.add(grid.shown, at, f"no id can be made from the name '{shown_name}'; expected a name with "
                                     "letters or digits, an id column or an `id:` template")
        return False
    if made in made_ids:
        first, first_name = made_ids[made]
        problems.add(grid.shown, at, f"the id '{made}' made from the name '{shown_name}' is also made from "
                                     f"'{first_name}' ({where(first)}); expected unique ids (add an id "
                                     "column, or an `id:` template under `cards_from:` such as "
                                     "\"{{ name }}-{{ row }}\")")
        return False
    made_ids[made] = (at, shown_name)
    item["id"] = made
    item.key_lines["id"] = at
    return True


_MADE = object()  # a cell made by an id or name template (the row names no cell for it)


def _with_made(row: list, header: _Header, key: str, value: str) -> list:
    """`row` with the made `value` of `key` in its column (a column of its own past the others when the
    sheet has none)."""
    for col, given in header.columns.items():
        if given == key:
            row[col] = value
            return row
    header.columns[len(header.names)] = key
    header.names.append(_MADE)
    return row + [value]


def _row_scope(header: _Header, row: list, line: int) -> dict:
    """What a row's filter and templates see: each column by its header (`Unit`, and `cells['Card Name']`
    for any header), each key the sheet gives (`name`, `copies`), and the row's number (`row`)."""
    cells = {name: _scope_value(row[col] if col < len(row) else None)
             for col, name in enumerate(header.names) if isinstance(name, str) and name}
    keys = {key: cells[header.names[col]] for col, key in header.columns.items()
            if isinstance(header.names[col], str)}
    return {**cells, **keys, "row": line, "cells": View(cells)}


def _read_row(grid: Grid, r: int, row: list, header: _Header, types: dict[str, str], required: set[str],
              problems: Problems) -> tuple[YDict, bool]:
    """One row's cells as a card mapping, typed by its columns; (mapping, whether a cell was wrong)."""
    item = YDict()
    item.line, item.key_lines = grid.at(r, 0), {}
    broken = False
    for col, key in header.columns.items():
        value = row[col] if col < len(row) else None
        made = header.names[col] is _MADE
        at = grid.at(r, 0) if made else grid.at(r, col)
        if is_empty(value):
            if key in required:
                here = "this cell" if grid.sheet else f"column {column_letter(col)} of this row"
                problems.add(grid.shown, at, f"no {key} in {here}; expected the card's {key} (every card "
                                             "needs it)")
                broken = True
            continue
        try:
            # surrounding blanks are stripped, but not from a text marked as written (a leading apostrophe:
            # a blank text, or one a CSV export guarded): the round trip through `pnp export csv` is exact
            kept = value if not isinstance(value, str) or value.startswith(QUOTE) else value.strip()
            item[key] = parse_cell(kept, types[key])
        except CellError as exc:
            problems.add(grid.shown, at, f"{key}: {exc}")
            broken = True
            continue
        item.key_lines[key] = at
    return item, broken

