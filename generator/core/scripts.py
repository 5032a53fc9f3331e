"""Scripts pnp cannot lay out yet: their letters join, change shape with their neighbours, reorder around
vowel signs or run right to left. ReportLab without a shaper prints them as separate letters in the wrong
order, so every text holding one is refused with a located problem naming the script, never printed wrong."""

from __future__ import annotations

_RTL = "written right to left"
_JOINED = "joined and reordered around their vowel signs"
# (first, last code point, script, why it needs shaping)
SHAPED_SCRIPTS = (
    (0x0590, 0x05FF, "Hebrew", _RTL), (0xFB1D, 0xFB4F, "Hebrew", _RTL),
    (0x0600, 0x06FF, "Arabic", _RTL), (0x0750, 0x077F, "Arabic", _RTL), (0x08A0, 0x08FF, "Arabic", _RTL),
    (0xFB50, 0xFDFF, "Arabic", _RTL), (0xFE70, 0xFEFF, "Arabic", _RTL),
    (0x0700, 0x074F, "Syriac", _RTL), (0x0780, 0x07BF, "Thaana", _RTL), (0x07C0, 0x07FF, "N'Ko", _RTL),
    (0x0900, 0x097F, "Devanagari", _JOINED), (0x0980, 0x09FF, "Bengali", _JOINED),
    (0x0A00, 0x0A7F, "Gurmukhi", _JOINED), (0x0A80, 0x0AFF, "Gujarati", _JOINED),
    (0x0B00, 0x0B7F, "Oriya", _JOINED), (0x0B80, 0x0BFF, "Tamil", _JOINED),
    (0x0C00, 0x0C7F, "Telugu", _JOINED),
    (0x0C80, 0x0CFF, "Kannada", _JOINED), (0x0D00, 0x0D7F, "Malayalam", _JOINED),
    (0x0D80, 0x0DFF, "Sinhala", _JOINED), (0x0F00, 0x0FFF, "Tibetan", _JOINED),
    (0x1000, 0x109F, "Myanmar", _JOINED), (0x1780, 0x17FF, "Khmer", _JOINED),
)


def shaped_script(char: str) -> tuple[str, str] | None:
    """(script, why it needs shaping) of a character of a script pnp cannot lay out, else None."""
    code = ord(char)
    if code < 0x0590:
        return None
    for first, last, script, why in SHAPED_SCRIPTS:
        if first <= code <= last:
            return script, why
    return None


def first_shaped(text: str) -> str | None:
    """The first character of `text` in a script that needs shaping, else None."""
    return next((char for char in text if ord(char) >= 0x0590 and shaped_script(char)), None)


def shaping_message(char: str, what: str) -> str:
    """The problem of a text (`what`: "card 'x' name") holding `char` of a script that needs shaping."""
    script, why = shaped_script(char) or ("", "")
    return (f"{what} has {script} ('{char}', U+{ord(char):04X}), a script whose letters are {why}, which pnp "
            "cannot lay out yet (they would print as separate letters in the wrong order); expected the text "
            "in a script without shaping (Latin, Greek, Cyrillic, CJK, ...)")
