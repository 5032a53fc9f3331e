"""A deck's `cards_from:` spreadsheet turned into card mappings that go through the same models as YAML cards.

Row 1 names the columns: the core keys (id, name, copies, layout, back, icon, image) and the deck's own
fields, in any order. Every later row that is not empty is one card type; its cells are read with the syntax
of generator.data.cells. Each mapping remembers the cell of every key (a line number that names the cell), so
a problem found anywhere later, by the models or by a game's checks, points at the cell.
"""

from __future__ import annotations

from typing import Any

from generator.core.errors import Problems, did_you_mean
from generator.core.yamlio import YDict, YList
from generator.data.cells import CORE_KEYS, CORE_TYPES, CellError, cell_text, is_empty, parse_cell
from generator.data.models import REQUIRED_CARD_KEYS, FieldSpec
from generator.data.spreadsheet import Grid, column_letter


def _show(value: Any, limit: int = 30) -> str:
    try:
        text = cell_text(value).strip()
    except CellError:
        text = str(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _required(specs: dict[str, FieldSpec]) -> list[str]:
    required = [key for key, spec in specs.items() if spec.required and spec.default is None]
    return list(REQUIRED_CARD_KEYS) + required


def _header(grid: Grid, specs: dict[str, FieldSpec], problems: Problems) -> dict[int, str] | None:
    """Column index -> key from row 1, or None (with the problems) when the header is not usable."""
    known = list(CORE_KEYS) + list(specs)
    header = grid.rows[0]
    columns: dict[int, str] = {}
    first_at: dict[str, int] = {}
    ok = True
    names = [_show(cell, 1000) if not is_empty(cell) else "" for cell in header]
    if not any(name in known for name in names):
        found = ", ".join(f"'{_show(name)}'" for name in names if name)
        problems.add(
            grid.shown,
            grid.at(0, 0),
            f"row 1 does not name the columns (it holds {found or 'nothing'}); expected a header row "
            f"naming them, such as: {', '.join(_required(specs))}",
        )
        return None
    for col, name in enumerate(names):
        if not name:
            filled = next((r for r in range(1, len(grid.rows)) if col < len(grid.rows[r])
                           and not is_empty(grid.rows[r][col])), None)
            if filled is not None:
                letter = column_letter(col)
                problems.add(
                    grid.shown,
                    grid.at(filled, col),
                    f"column {letter} has no name in row 1 but holds '{_show(grid.rows[filled][col])}'; "
                    f"expected a column name in {letter}1 (one of: {', '.join(known)})",
                )
                ok = False
            continue
        if name not in known:
            problems.add(
                grid.shown,
                grid.at(0, col),
                f"unknown column '{name}'{did_you_mean(name, known)}; expected one of: {', '.join(known)}",
            )
            ok = False
        elif name in first_at:
            problems.add(
                grid.shown,
                grid.at(0, col),
                f"column '{name}' appears twice ({column_letter(first_at[name])}1 and "
                f"{column_letter(col)}1); "
                "expected each column once",
            )
            ok = False
        else:
            first_at[name] = col
            columns[col] = name
    unknown = [name for name in names if name and name not in known]
    for key in _required(specs):
        if key not in first_at and not any(did_you_mean(name, [key]) for name in unknown):
            problems.add(
                grid.shown,
                grid.at(0, 0),
                f"no column '{key}'; expected a column named '{key}' in row 1 (every card needs it)",
            )
            ok = False
    return columns if ok else None


def card_rows(grid: Grid, specs: dict[str, FieldSpec], problems: Problems) -> YList:
    """The cards of a spreadsheet as YDicts (line = the row, key lines = the cells); problems are added."""
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
        where = f"sheet '{grid.sheet}' is empty" if grid.sheet else "the file is empty"
        problems.add(
            grid.shown,
            grid.at(0, 0),
            f"{where}; expected a header row naming the columns ({', '.join(_required(specs))}, ...) "
            "and one row per card",
        )
        return out
    columns = _header(grid, specs, problems)
    if columns is None:
        return out
    types = CORE_TYPES | {key: spec.type for key, spec in specs.items()}
    required = set(_required(specs))
    for r in range(1, len(grid.rows)):
        row = grid.rows[r]
        if all(is_empty(cell) for cell in row):
            continue
        card = YDict()
        card.line, card.key_lines = grid.at(r, 0), {}
        broken = False
        for col, key in columns.items():
            value = row[col] if col < len(row) else None
            if is_empty(value):
                if key in required:
                    here = "this cell" if grid.sheet else f"column {column_letter(col)} of this row"
                    problems.add(
                        grid.shown,
                        grid.at(r, col),
                        f"no {key} in {here}; expected the card's {key} (every card needs it)",
                    )
                    broken = True
                continue
            try:
                card[key] = parse_cell(value, types[key])
            except CellError as exc:
                problems.add(grid.shown, grid.at(r, col), f"{key}: {exc}")
                broken = True
                continue
            card.key_lines[key] = grid.at(r, col)
        if not broken:
            out.append(card)
            out.item_lines.append(card.line)
    if not out and len(problems) == before:
        problems.add(
            grid.shown,
            grid.at(0, 0),
            "the header row is there but no card follows; expected one row per card below it",
        )
    return out
