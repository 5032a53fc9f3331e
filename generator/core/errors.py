"""Problems found in a designer's input, reported as `file:line: what; expected`."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class Cell(int):
    """A spreadsheet row number that also names its cell ('Orders!C14').

    Used wherever a YAML line number goes (`card.line_of(key)`), so every check that locates a problem at a
    line locates it at the cell when the card came from a workbook: the problem then prints as
    `file:Orders!C14`."""

    cell: str

    def __new__(cls, row: int, cell: str) -> Cell:
        obj = super().__new__(cls, row)
        obj.cell = cell
        return obj

    def __repr__(self) -> str:
        return self.cell


def where(line: int) -> str:
    """How a message refers to another place in the same file: 'line 14', or 'Orders!A14' for a cell."""
    return line.cell if isinstance(line, Cell) else f"line {line}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located by file and line (or a workbook's sheet and cell)."""

    file: str
    line: int
    message: str
    cell: str = ""  # 'Orders!C14' for a problem in a workbook (taken from a Cell line when not given)

    def __post_init__(self) -> None:
        if isinstance(self.line, Cell):
            if not self.cell:
                object.__setattr__(self, "cell", self.line.cell)
            object.__setattr__(self, "line", int(self.line))

    def __str__(self) -> str:
        if not self.file:
            return self.message
        if self.cell:
            where = f"{self.file}:{self.cell}"
        else:
            where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"


@dataclass
class Problems:
    """Collects every problem of a run so they can be reported together."""

    items: list[Problem] = field(default_factory=list)

    def add(self, file: str | Path, line: int | None, message: str) -> None:
        """Record a problem at `file:line`."""
        self.items.append(Problem(str(file), line if isinstance(line, Cell) else int(line or 0), message))

    def extend(self, other: Problems | list[Problem]) -> None:
        """Take over the problems of another collection."""
        self.items.extend(other.items if isinstance(other, Problems) else other)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.sorted())

    def sorted(self) -> list[Problem]:
        """Problems in file, line order, without exact duplicates."""
        return sorted(set(self.items))

    def raise_if_any(self) -> None:
        """Stop the run with every collected problem."""
        if self.items:
            raise InputError(self.sorted())


class InputError(Exception):
    """Raised with every problem of the input; the CLI prints them and exits 1, no traceback."""

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem("", 0, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """A ' did you mean ...?' hint for a misspelt name, or ''."""
    close = difflib.get_close_matches(str(word), sorted(known), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def known_list(known, limit: int = 12) -> str:
    """A short, sorted, comma-separated list of valid names for an error message."""
    names = sorted(str(k) for k in known)
    text = ", ".join(names[:limit])
    return text + (", ..." if len(names) > limit else "")


DEBUG_HINT = "run with --debug for the traceback"


def internal_error_line(exc: BaseException) -> str:
    """One line for an error of pnp itself (not of the project): what broke and where, with the --debug
    hint."""
    notes = "; ".join(getattr(exc, "__notes__", []) or [])
    where = f" {notes}" if notes else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    return (f"pnp: internal error{where}: {type(exc).__name__}{': ' + text if text else ''} "
            f"(a bug in pnp, not in your files; {DEBUG_HINT})")
