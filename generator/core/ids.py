"""Ids (of games, decks, cards, rows, layouts): what one looks like, and what to say about one that does
not."""

from __future__ import annotations

import re
import unicodedata

SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
RULE = "a lower-case id (a-z without accents, digits, '-' and '_', starting with a letter or digit)"
# Letters that Unicode does not decompose into a plain letter and an accent.
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                        "Æ": "AE", "œ": "oe", "Œ": "OE", "ı": "i"})


def plain_id(text: str) -> str:
    """'Szczęśliwy rzut' -> 'szczesliwy-rzut' (accents dropped, lower case, spaces as '-'); '' when what comes
    out is still no id."""
    text = unicodedata.normalize("NFKD", text.strip().translate(_PLAIN))
    text = re.sub(r"\s+", "-", "".join(char for char in text if not unicodedata.combining(char)).lower())
    return text if SLUG.match(text) else ""


def expected_id(value: str) -> str:
    """What an id that does not match SLUG should be (the 'expected ...' of a message): the rule, what is
    wrong with this one when it is a space around it, and the id it was likely meant to be."""
    stripped = value.strip()
    if stripped != value:
        ends = [
            end for end, spaced in (("start", value[:1].isspace()), ("end", value[-1:].isspace())) if spaced
        ]
        around = f"without the space{'s' if len(ends) > 1 else ''} at its {' and '.join(ends)}"
        if SLUG.match(stripped):
            return f"'{stripped}', {around}"
        return f"{RULE}, {around}" + (f", such as '{plain_id(value)}'" if plain_id(value) else "")
    suggestion = plain_id(value)
    return RULE + (f", such as '{suggestion}'" if suggestion and suggestion != value else "")


def made_id(text: str) -> str:
    """An id made from any text, as a spreadsheet without an id column gets them: 'Kapitán Dvořák' ->
    'kapitan-dvorak', '3/7 Inf.' -> '3-7-inf' (accents dropped, lower case, '-' for every run of anything
    else); '' when nothing of it is a letter or digit."""
    text = unicodedata.normalize("NFKD", text.strip().translate(_PLAIN))
    text = "".join(char for char in text if not unicodedata.combining(char)).lower()
    return re.sub(r"[^a-z0-9_]+", "-", text).strip("-_")
