"""CSV cells that a spreadsheet shows as text, never runs: the guard of every CSV pnp writes.

A spreadsheet opening a CSV evaluates a cell that begins with '=', '+', '-' or '@' (and, in some, a tab or a
carriage return) as a formula: a card named '=2+5' would show 7, and '=HYPERLINK(...)' or a DDE formula
would run (CSV injection). As OWASP advises, such a cell is written after an apostrophe ("'=2+5"), which
spreadsheets take as "this is text" and do not show. A plain number ('-3', '+2.5') is left alone: evaluating
it gives itself.

Reading back (`restored`) drops that one apostrophe again, so a round trip is exact: the rule looks only at
the text after any leading apostrophes, so a text that itself begins with an apostrophe before '=' is written
with one more and read back as it was.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from pathlib import Path

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def runs_as_formula(text: str) -> bool:
    """Whether a spreadsheet would evaluate `text` (after any leading apostrophes) as a formula."""
    rest = text.lstrip(QUOTE)
    return rest[:1] in FORMULA_STARTS and rest[:1] != "" and _PLAIN_NUMBER.fullmatch(rest) is None


def guarded(text: str) -> str:
    """`text` as a CSV cell: after an apostrophe when a spreadsheet would run it."""
    return QUOTE + text if runs_as_formula(text) else text


def restored(text: str) -> str:
    """A cell of a CSV pnp wrote, as it was before `guarded`."""
    return text[1:] if text.startswith(QUOTE) and runs_as_formula(text) else text


def csv_text(rows: Iterable[Iterable[str]]) -> str:
    """Rows as CSV text, every cell guarded."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([guarded(str(cell)) for cell in row] for row in rows)
    return text.getvalue()


def guarded_cells(paths: Iterable[Path]) -> int:
    """How many cells of these CSV files (written by pnp) were guarded: the count an export's summary
    gives."""
    count = 0
    for path in paths:
        if path.suffix.lower() != ".csv":
            continue
        with path.open(encoding="utf-8-sig", newline="") as stream:
            count += sum(cell.startswith(QUOTE) and runs_as_formula(cell) for row in csv.reader(stream)
                         for cell in row)
    return count
