"""Small helpers for writing counts and lists in English, shared by templates and generated text."""

from __future__ import annotations

from typing import Any


def join_and(items: list[Any], last: str = "and") -> str:
    """'a, b and c'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 file', '2 files', '0 files' (`plural` for nouns that do not take an s)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
