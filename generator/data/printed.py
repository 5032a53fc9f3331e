"""The printed record, cards/<game>/printed.yaml: the cards as they were last printed.

`pnp mark-printed` writes it, `pnp build --changed` reads it to reprint only what changed since. It is meant
for version control: one line per card, in deck and card order, so a diff shows which cards were printed
again. Per language, per deck, per card id: its code, name, copies and revision (`{{ card.revision }}`, a hash
of its faces as printed). A checksum of the cards closes the file: a record edited by hand or damaged (a merge
that kept both sides) is refused with the line to look at, never read as a wrong print.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.core.write import atomic_write
from generator.core.yamlio import YDict, load_yaml
from generator.data.revision import PRINTED_RECORD

REVISION = re.compile(r"^[0-9a-f]{6}$")
_PLAIN = re.compile(r"^[A-Za-z](?:[A-Za-z0-9 _.'-]*[A-Za-z0-9])?$")  # read back as the same text unquoted
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


def _scalar(text: str) -> str:
    """A text as the record writes it: plain where YAML reads it back as that text, else double-quoted."""
    if _PLAIN.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text, ensure_ascii=False)


@dataclass(frozen=True)
class PrintedCard:
    """One card type as it was printed."""

    code: str
    name: str
    copies: int
    revision: str


# language -> deck id -> card id -> the card as printed (decks and cards in print order)
Printed = dict[str, dict[str, dict[str, PrintedCard]]]


def record_path(game_dir: Path) -> Path:
    """cards/<game>/printed.yaml."""
    return Path(game_dir) / PRINTED_RECORD


def checksum(printed: Printed) -> str:
    """The record's checksum: a hash of its cards as data (how the file is spaced does not matter)."""
    data = {lang: {deck: {cid: [c.code, c.name, c.copies, c.revision] for cid, c in cards.items()}
                   for deck, cards in decks.items()} for lang, decks in printed.items()}
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def record_text(game_id: str, printed: Printed, revision: str) -> str:
    """The record as pnp writes it: comments saying what it is, then one line per card."""
    lines = [
        f"# The cards of {game_id} as last printed, written by `pnp mark-printed`: `pnp build --changed`",
        "# reprints the cards whose faces changed since. Keep it in version control; do not edit it by hand",
        "# (the checksum refuses an edited record): run `pnp mark-printed` again after printing.",
        f"game: {_scalar(game_id)}",
        f"revision: {_scalar(revision)}  # build.revision when the cards were marked printed",
        f"checksum: {checksum(printed)}",
        "languages:",
    ]
    for language, decks in printed.items():
        lines.append(f"  {_scalar(language)}:")
        for deck, cards in decks.items():
            lines.append(f"    {_scalar(deck)}:")
            lines += [f"      {_scalar(cid)}: {{code: {_scalar(c.code)}, name: {_scalar(c.name)}, "
                      f"copies: {c.copies}, revision: {_scalar(c.revision)}}}" for cid, c in cards.items()]
    return "\n".join(lines) + "\n"


def write_record(game_dir: Path, game_id: str, printed: Printed, revision: str) -> Path:
    """Write cards/<game>/printed.yaml (atomically: a killed run leaves the last record whole)."""
    return atomic_write(record_path(game_dir), record_text(game_id, printed, revision))


@dataclass(frozen=True)
class Record:
    """A printed record as read: the cards per language, where it lies (as shown) and its marked revision."""

    printed: Printed
    shown: str
    revision: str


def read_record(game_dir: Path, shown: str, game_id: str) -> Record:
    """The record of a game; InputError at the line that is wrong, or saying there is none."""
    path = record_path(game_dir)
    if not path.is_file():
        raise InputError(Problem(shown, 0, f"no printed record of {game_id} yet; expected one written by "
                                           f"`pnp mark-printed {game_id}` after printing its cards, then "
                                           "`pnp build --changed` reprints what changed since"))
    try:
        raw = load_yaml(path, shown)
    except InputError as exc:
        raise InputError([_damaged(p) for p in exc.problems]) from None
    if not isinstance(raw, YDict):
        raise InputError(_wrong(shown, 1, "it is not a mapping"))
    printed: Printed = {}
    languages = raw.get("languages")
    if not isinstance(languages, YDict):
        raise InputError(_wrong(shown, raw.line_of("languages") if "languages" in raw else 1,
                                "'languages' is missing or not a mapping"))
    for language, decks in languages.items():
        if not isinstance(decks, YDict):
            raise InputError(_wrong(shown, languages.line_of(language),
                                    f"language {language!r} holds no decks"))
        printed[str(language)] = {}
        for deck, cards in decks.items():
            if not isinstance(cards, YDict):
                raise InputError(_wrong(shown, decks.line_of(deck), f"deck {deck!r} holds no cards"))
            printed[str(language)][str(deck)] = {
                str(cid): _card(shown, cards.line_of(cid), cid, entry) for cid, entry in cards.items()
            }
    found = str(raw.get("checksum", ""))
    if found != checksum(printed):
        line = raw.line_of("checksum") if "checksum" in raw else 1
        raise InputError(_wrong(shown, line, "its checksum does not match its cards: it was edited by hand "
                                             "or damaged"))
    return Record(printed, shown, str(raw.get("revision", "")))


def _card(shown: str, line: int, card_id: object, entry: object) -> PrintedCard:
    if not isinstance(entry, dict) or set(entry) != {"code", "name", "copies", "revision"}:
        raise InputError(_wrong(shown, line, f"card {card_id!r} is not {{code, name, copies, revision}}"))
    copies, revision = entry["copies"], entry["revision"]
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1 \
            or not isinstance(revision, str) or not REVISION.match(revision):
        raise InputError(_wrong(shown, line, f"card {card_id!r} has copies {copies!r} and revision "
                                             f"{revision!r}; expected a count and 6 hex digits"))
    return PrintedCard(str(entry["code"]), str(entry["name"]), copies, revision)


def _wrong(shown: str, line: int, what: str) -> Problem:
    return Problem(shown, line, f"the printed record is not as `pnp mark-printed` wrote it ({what}); "
                                "expected the file from version control (git checkout -- it), or run `pnp "
                                "mark-printed` again once what is printed is the current build")


def _damaged(problem: Problem) -> Problem:
    """A record that is not YAML any more (a merge's conflict markers, a cut-off file)."""
    return Problem(problem.file, problem.line, f"the printed record is damaged ({problem.message}); expected "
                                               "the file from version control (git checkout -- it), or run "
                                               "`pnp mark-printed` again")
