"""The project's two embedded TrueType faces: Fredoka One for titles, Lato for body text."""

from __future__ import annotations

import functools
from pathlib import Path

import font_fredoka_one
import font_lato
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

TITLE = "Title"  # Fredoka One
BODY = "Body"  # Lato Regular
BODY_BOLD = "Body-Bold"
BODY_ITALIC = "Body-Italic"
BODY_BOLD_ITALIC = "Body-BoldItalic"

_LATO = Path(font_lato.font_directory)
_FILES = {
    TITLE: Path(font_fredoka_one.font_directory) / "FredokaOne-Regular.ttf",
    BODY: _LATO / "Lato-Regular.ttf",
    BODY_BOLD: _LATO / "Lato-Bold.ttf",
    BODY_ITALIC: _LATO / "Lato-Italic.ttf",
    BODY_BOLD_ITALIC: _LATO / "Lato-BoldItalic.ttf",
}


@functools.cache
def register_fonts() -> tuple[str, ...]:
    """Register the faces with ReportLab once (subset-embedded on use); returns their names."""
    for name, path in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    # <b>/<i> in Paragraph markup pick the matching Lato file.
    addMapping(BODY, 0, 0, BODY)
    addMapping(BODY, 1, 0, BODY_BOLD)
    addMapping(BODY, 0, 1, BODY_ITALIC)
    addMapping(BODY, 1, 1, BODY_BOLD_ITALIC)
    addMapping(TITLE, 0, 0, TITLE)
    addMapping(TITLE, 1, 0, TITLE)
    addMapping(TITLE, 0, 1, TITLE)
    addMapping(TITLE, 1, 1, TITLE)
    return tuple(_FILES)


def font_files() -> dict[str, Path]:
    """Font name -> TTF path (for input hashing of incremental builds)."""
    return dict(_FILES)
