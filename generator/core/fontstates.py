"""The fonts of one saved PDF carried into the next, so the operators drawn for the first mean the same in the
second.

ReportLab names a document's fonts in the order they are first used (`/F1`, `/F2`) and gives each character of
a TrueType font its code in a subset in the order it first appears, document by document: the same text drawn
in two documents can be written with different bytes. `font_states(canvas)` takes a finished canvas's names
and codes; `carry_fonts(states, canvas)` gives them to a new canvas before anything is drawn on it. Every
operator of the first document then means the same in the second (characters the second adds get codes after
them), so the card sheets of the second paper place the faces drawn for the first without drawing them again
(generator.faces.face)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from reportlab.pdfbase import pdfmetrics


@dataclass(frozen=True)
class FontStates:
    """A document's font names in order, each with its TrueType subset state (None for a built-in font)."""

    fonts: tuple[tuple[str, str, object | None], ...]


def font_states(canvas) -> FontStates:
    """The font names and character codes of a canvas, once everything is drawn on it and before it is saved
    (saving embeds the fonts, and ReportLab forgets their codes)."""
    document = canvas._doc  # noqa: SLF001 - the document whose fonts are read
    found = []
    for face, name in document.fontMapping.items():
        font: Any = pdfmetrics.getFont(face)  # a TrueType font has its states by document
        state = font.state.get(document) if getattr(font, "_dynamicFont", 0) else None
        found.append((face, name, _copied(state, font) if state is not None else None))
    return FontStates(tuple(found))


def _copied(state, font):
    """A subset state of its own: the codes given so far, open for more (a save closes it)."""
    made = copy.copy(state)
    made.assignments = dict(state.assignments)
    made.subsets = [list(subset) for subset in state.subsets]
    if not getattr(getattr(font, "face", None), "_full_font", None):
        made.frozen = 0
    return made


def carry_fonts(states: FontStates, canvas) -> bool:
    """Give a canvas nothing has been drawn on the fonts of `states`: the same names, the same codes. True
    when it has them all (False: the canvas already named a font, and operators of the first document must
    not be placed in it)."""
    document = canvas._doc  # noqa: SLF001 - the document given the fonts
    if document.fontMapping:
        return False
    for face, name, state in states.fonts:
        font: Any = pdfmetrics.getFont(face)  # a TrueType font has its states by document
        if state is None:
            if document.getInternalFontName(face) != name:
                return False
            continue
        font.state[document] = _copied(state, font)
        document.fontMapping[face] = name
        document.delayedFonts.append(font)
    return True
