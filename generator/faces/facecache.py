"""The card sheets' faces kept between builds (build/.cache/faces/): a face whose inputs did not change is not
drawn again.

The list of faces (generator.faces.face.FaceList) draws every face on one canvas, in an order no paper
decides; a face's operators depend on what it is drawn from (its boxes as `check` rendered them, the deck's
size, the files every face may read: layouts, pictures, fonts, templates, game.yaml and the tool, `salt`)
and on the canvas's fonts as the faces before it left them (the names ReportLab gave the fonts and the codes
it gave their characters, in the order they were first used). So each face is kept by a hash of both, the
canvas's fonts told by a running hash of every font named and every character given a code, in order; with
its operators it keeps what it named (fonts, characters), and a face found is not drawn: its names are given
to the canvas as drawing it would have given them (the same codes, checked), so every later face's operators
and the card sheets are the bytes of a build that drew them all. A face that places a picture, or names a
resource only a sheet can name, is always drawn.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics

from generator.core.write import atomic_write

FORMAT = 1  # of the files kept


@dataclass
class _Where:
    """Where faces are kept (None: nowhere), the hash of the files every face of a game may read, and whether
    the kept faces are used (not with --force)."""

    folder: Path | None = None
    salt_of: Callable[[Any], str | None] | None = None
    reuse: bool = True


_where = _Where()


def keep_faces_in(folder: Path | None, salt_of: Callable[[Any], str | None] | None = None,
                  reuse: bool = True) -> None:
    """Keep the card sheets' faces in `folder` by `salt_of(game)` (the hash of what every face of the game in
    its language may read, None: not kept) and draw again only the faces not found there (`reuse`); None:
    draw every face."""
    global _where
    _where = _Where(folder, salt_of if folder is not None else None, reuse)


@dataclass(frozen=True)
class _Mark:
    """How far a canvas's fonts went: the fonts named, and how many characters each TrueType font coded."""

    named: int
    coded: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, document) -> _Mark:
        return cls(len(document.fontMapping),
                   tuple((font.fontName, len(font.state[document].assignments))
                         for font in document.delayedFonts if document in font.state))


def _named_since(document, mark: _Mark) -> dict:
    """What the canvas named after `mark`: the fonts (face, internal name) in order, and per TrueType font the
    characters coded, in order, with their codes."""
    fonts = list(document.fontMapping.items())[mark.named:]
    before = dict(mark.coded)
    chars = []
    for font in document.delayedFonts:
        state = font.state.get(document)
        if state is None:
            continue
        added = list(state.assignments.items())[before.get(font.fontName, 0):]
        if added:
            chars.append([font.fontName, added])
    return {"fonts": [list(pair) for pair in fonts], "chars": chars}


def _name_again(document, named: dict) -> bool:
    """Give the canvas the names a face gave it when it was drawn (`_named_since`): True when every font got
    the same name and every character the same code."""
    for face, name in named["fonts"]:
        font: Any = pdfmetrics.getFont(face)
        if getattr(font, "_dynamicFont", 0):
            coded = next((pairs for f, pairs in named["chars"] if f == face), [])
            font.splitString("".join(chr(code) for code, _ in coded), document)
            given = font.getSubsetInternalName(0, document)
            if document.fontMapping.get(face) != name or not given.startswith(name + "+"):
                return False
        elif document.getInternalFontName(face) != name:
            return False
    for face, coded in named["chars"]:
        font = pdfmetrics.getFont(face)
        font.splitString("".join(chr(code) for code, _ in coded), document)
        assignments = font.state[document].assignments
        if any(assignments.get(code) != n for code, n in coded):
            return False
    return True


@dataclass
class FaceStore:
    """The faces of one game's card sheets in one language and ink as kept, while a list of faces is
    drawn."""

    path: Path
    salt: str
    kept: dict[str, dict] = field(default_factory=dict)
    now: dict[str, dict] = field(default_factory=dict)  # the faces of this build, kept for the next
    running: Any = field(default_factory=hashlib.sha256)  # every name the canvas was given so far

    @classmethod
    def open(cls, game, ink: str) -> FaceStore | None:
        """The store of this game's faces, or None when the build keeps none."""
        if _where.folder is None or _where.salt_of is None:
            return None
        salt = _where.salt_of(game)
        if salt is None:
            return None
        path = _where.folder / f"{game.id}.{game.language}.{ink}.json"
        store = cls(path, salt)
        if _where.reuse:
            try:
                found = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(found, dict) and found.get("format") == FORMAT and found.get("salt") == salt \
                        and isinstance(found.get("faces"), dict):
                    store.kept = found["faces"]
            except (OSError, ValueError):  # none kept, or not one a build wrote: every face is drawn
                pass
        return store

    def key(self, canvas, drawn_from: str) -> str:
        """The hash a face is kept by: what it is drawn from, the fonts the faces before it named, and the
        resources by name the canvas holds (colours, gradients, graphics states)."""
        others = (list(canvas._colorsUsed), list(canvas._shadingUsed),  # noqa: SLF001
                  list(canvas._extgstate._c))  # noqa: SLF001
        text = "\n".join([self.salt, drawn_from, self.running.hexdigest(), repr(others)])
        return hashlib.sha256(text.encode()).hexdigest()

    def found(self, key: str, canvas) -> dict | None:
        """The face kept by `key`, its names given to the canvas (None: not kept; it is drawn)."""
        entry = self.kept.get(key)
        if entry is None:
            return None
        if not _name_again(canvas._doc, entry["named"]):  # noqa: SLF001
            raise RuntimeError(f"the kept face {key} named the fonts otherwise than as kept ({self.path})")
        self._advance(entry["named"])
        self.now[key] = entry
        return entry

    def mark(self, canvas) -> _Mark:
        return _Mark.of(canvas._doc)  # noqa: SLF001

    def drawn(self, key: str, canvas, mark: _Mark, operators: str | None, icons: list) -> None:
        """A face drawn since `mark`: kept with its operators (None: drawn again every build)."""
        named = _named_since(canvas._doc, mark)  # noqa: SLF001
        self._advance(named)
        if operators is not None:
            self.now[key] = {"operators": operators, "icons": icons, "named": named}

    def _advance(self, named: dict) -> None:
        self.running.update(json.dumps(named, separators=(",", ":")).encode())

    def save(self) -> None:
        """Keep this build's faces for the next (the others are let go)."""
        if self.now.keys() == self.kept.keys():
            return
        text = json.dumps({"format": FORMAT, "salt": self.salt, "faces": self.now}, separators=(",", ":"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, text)
        except OSError:  # a convenience: the next build draws them again
            pass
