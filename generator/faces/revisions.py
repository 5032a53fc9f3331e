"""`{{ card.revision }}`: a short hash of a card's printed faces, the same on every machine.

A card's revision covers its front and the back it shows, box by box: each box's name, kind, place, size and
style (the layout after `extends`) and what it shows as rendered (texts, colours, icons, pictures). Files are
hashed by content, never by where they lie, and a font by its name: two clones of a project give every card
the same revision, an edit of a card's text or picture changes that card's only. The version stamp itself
(the `stamp` box) is left out, and every version value (`card.revision`, `build.revision`, `build.date`) is
read as a placeholder while the faces are hashed: a face that prints its own revision would otherwise change
it by printing it (generator.faces.face works out the faces with placeholders first).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path

from generator.core.fonts import Family
from generator.faces.boxes.base import Box

STAMP_BOX = "stamp"  # the box of game.yaml `stamp:` (a layout may not give its own)
REVISION_DIGITS = 6
PLACEHOLDER = "\u2039revision\u203a"  # what the version values read as while the faces are hashed
# a box whose keys mention these is rendered again, with the real values, once the revisions are known
_MENTIONS = re.compile(r"\b(?:revision|build)\b")
_INLINE_FILE = re.compile(r'label="([^"|]*\|[^"|]*\|[^"|]*)\|([^"]*)"')


def mentions_version(box: Box) -> bool:
    """True when a key of the box may read a version value (card.revision, build.revision, build.date)."""
    return any(isinstance(value, str) and _MENTIONS.search(value) for value in box.spec.values())


class FileDigests:
    """Files by content (a picture or icon read once per build however many cards show it)."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}

    def of(self, path: Path | str) -> str:
        """The SHA-256 of a file's bytes (or 'missing')."""
        key = str(path)
        if key not in self._known:
            try:
                self._known[key] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self._known[key] = "missing"
        return self._known[key]


def printed_form(value: object, files: FileDigests) -> object:
    """`value` as plain data that is the same on every machine: files by their content, fonts by their
    faces' names, inline icons in a text by their content."""
    if isinstance(value, Family):
        return ("font", value.key, tuple(sorted((s, f.name) for s, f in value.faces.items())),
                tuple(f.key for f in value.fallbacks))
    if isinstance(value, Path):
        return ("file", files.of(value))
    if isinstance(value, str):
        if "label=" in value:  # inline icons name their files in the markup
            return _INLINE_FILE.sub(lambda m: f'label="{m.group(1)}|{files.of(m.group(2))}"', value)
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, printed_form(getattr(value, f.name), files))
                                            for f in dataclasses.fields(value) if f.repr))
    if isinstance(value, dict):
        return tuple(sorted((str(k), printed_form(v, files)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(printed_form(v, files) for v in value)
    return value


def face_part(resolved: list, files: FileDigests) -> str:
    """One face (its boxes as rendered with placeholders) as text to hash, without the stamp."""
    return repr([(box.name, box.kind, round(box.x, 3), round(box.y, 3), round(box.w, 3), round(box.h, 3),
                  printed_form(box.spec, files), printed_form(data, files))
                 for box, data in resolved if box.name != STAMP_BOX])


def card_revision(size_mm: object, shape: object, front: str, back: str) -> str:
    """The revision of a card from its size, outline and its two faces' parts (face_part)."""
    text = "\n".join([repr(size_mm), repr(shape), front, back])
    return hashlib.sha256(text.encode()).hexdigest()[:REVISION_DIGITS]
