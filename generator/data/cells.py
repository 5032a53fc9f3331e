"""The cell syntax of spreadsheet card sources: one card per row, one key per column, typed by the deck's
fields.

    text, choice, ref, address, icon, color   the cell as it is ("Grandma Rosa", "#e07b1f")
    int, number                               a number cell or its text ("3", "2.5")
    bool                                      true/false, yes/no, 1/0 (or a spreadsheet TRUE/FALSE)
    list, refs                                items separated by ';':           a; b; c
    counts                                    'id: count' pairs separated by ';': mushrooms: 2; onions: 1

An empty cell means "not given" (the field's default applies). A ';' or '\\' inside a list item is written
'\\;' or '\\\\'. `format_cell` writes a value back in this syntax, so a YAML deck survives the trip to a
spreadsheet and back unchanged (`pnp export csv`). A leading apostrophe is the spreadsheets' "this is text"
mark: one before a text that begins with = + - @ tab or CR (generator.core.csvsafe), or before a text of only
spaces or nothing (a given blank, not an empty cell), is dropped when read.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from generator.core.csvsafe import QUOTE, restored
from generator.data.models import CARD_KEYS

CORE_TYPES = {key: "int" if key == "copies" else "text" for key in CARD_KEYS}  # a card's own keys, as cells
CORE_KEYS = CARD_KEYS
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")
_STRIPPED = ("choice", "ref", "address", "icon", "color")  # names: surrounding spaces are never meant
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_DATES = (dt.date, dt.datetime, dt.time, dt.timedelta)
# What a column of each field type needs (any other type: text), for a cell that holds something else.
_NEEDS = {"int": "a whole number", "number": "a number such as 2.5", "bool": "true/false, yes/no or 1/0",
          "list": "items separated by ';'", "refs": "ids separated by ';'",
          "counts": "'id: count' pairs such as 'mushrooms: 2; onions: 1'"}


class CellError(ValueError):
    """A cell whose content does not fit its column's type; the message says what was expected."""


def is_empty(value: Any) -> bool:
    """True for a cell that gives nothing (None, '' or only spaces)."""
    return value is None or (isinstance(value, str) and not value.strip())


def _blank_text(text: str) -> bool:
    """Whether `text`, after any leading apostrophes, is only spaces or nothing (a given blank text)."""
    return not text.lstrip(QUOTE).strip()


def cell_text(value: Any) -> str:
    """A cell as text: numbers without a needless '.0' (a number typed into a text column), a text marked
    with a leading apostrophe without it."""
    if isinstance(value, str):
        return value[1:] if value.startswith(QUOTE) and _blank_text(value) else restored(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, _DATES):
        raise _date_error(value, "text")
    return str(value)


def _date_error(value: Any, kind: str) -> CellError:
    """A date or time in a column of field type `kind`: what the column needs instead."""
    number = kind in ("int", "number")
    return CellError(
        f"the cell holds a date or time ({value}); expected {_NEEDS.get(kind, 'text')} (format the cell "
        f"as {'a number' if number else 'text'})"
    )


def split_items(text: str) -> list[str]:
    """'a; b\\; c; d' -> ['a', 'b; c', 'd'] (items stripped, empty ones dropped)."""
    items, current, escaped = [], [], False
    for char in text:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == ";":
            items.append("".join(current))
            current = []
        else:
            current.append(char)
    if escaped:
        current.append("\\")
    items.append("".join(current))
    return [item.strip() for item in items if item.strip()]


def _escape(item: str) -> str:
    return str(item).replace("\\", "\\\\").replace(";", "\\;")


def _int(value: Any, what: str = _NEEDS["int"]) -> int:
    if isinstance(value, bool):
        raise CellError(f"'{cell_text(value)}' is not a number; expected {what}")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
            raise CellError(f"'{value:g}' is not a whole number; expected {what}")
        return int(value)
    text = cell_text(value).strip()
    if _WHOLE.fullmatch(text):
        return int(text)
    if not _DECIMAL.fullmatch(text):  # Python's int() and float() read '1_0' as 10 and '١' as 1: never meant
        raise CellError(f"'{text}' is not a number; expected {what}")
    number = float(text)
    if number.is_integer():
        return int(number)
    raise CellError(f"'{text}' is not a whole number; expected {what}")


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise CellError(f"'{cell_text(value)}' is not a number; expected {_NEEDS['number']}")
    if isinstance(value, (int, float)):
        return float(value)
    text = cell_text(value).strip()
    if not _DECIMAL.fullmatch(text):
        raise CellError(f"'{text}' is not a number; expected {_NEEDS['number']}")
    return float(text)


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    text = cell_text(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise CellError(f"'{cell_text(value)}' is not true or false; expected {_NEEDS['bool']}")


def _counts(value: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in split_items(cell_text(value)):
        key, sep, count = item.rpartition(":")
        if not sep or not key.strip():
            raise CellError(f"'{item}' has no count; expected {_NEEDS['counts']}")
        key = key.strip()
        if key in out:
            raise CellError(f"'{key}' is listed twice; expected each id once (add the counts up)")
        out[key] = _int(count, f"a count after '{key}:' (a whole number)")
    return out


def parse_cell(value: Any, kind: str) -> Any:
    """The value of one non-empty cell for a column of field type `kind`; CellError when it does not fit."""
    if isinstance(value, _DATES):
        raise _date_error(value, kind)
    if kind == "int":
        return _int(value)
    if kind == "number":
        return _number(value)
    if kind == "bool":
        return _bool(value)
    if kind in ("list", "refs"):
        return split_items(cell_text(value))
    if kind == "counts":
        return _counts(value)
    text = cell_text(value)
    return text.strip() if kind in _STRIPPED else text


def format_cell(value: Any, kind: str) -> str:
    """A loaded value written back in the cell syntax ('' for a value that is not given)."""
    if value is None:
        return ""
    if kind in ("list", "refs"):
        return "; ".join(_escape(item) for item in value)
    if kind == "counts":
        return "; ".join(f"{_escape(key)}: {count}" for key, count in value.items())
    if kind == "bool":
        return "true" if value else "false"
    if kind == "number":
        return repr(float(value))
    if isinstance(value, str) and _blank_text(value):  # a given blank text, not an empty cell
        return QUOTE + value
    return str(value)
