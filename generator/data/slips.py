"""Common slips in a game's YAML that load without an error but are almost never meant, reported as located
warnings: a colour written without quotes (YAML reads `fill: #e07b1f` as a comment, so the key is empty) and a
length written as a bare number (read as points: `cell: 18` is 6.4 mm, not 18 mm), and an invisible character
in a text (a zero-width space, a direction mark: it takes room or moves text and shows nothing, so a centred
title sits off-centre for no visible reason).

An impossible player range (`players: {min: 5, max: 4}`) is an error of the game.yaml model, and an unknown
inline icon (`:rokcet:`, printed as it is) is a warning of the card renderer, which knows the icons.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from generator.core.errors import Problem
from generator.core.limits import MAX_SHEET_ROWS
from generator.core.units import unitless_message
from generator.core.yamlio import YDict, colours_read_as_comments, comment_colour_message


def comment_colours(path: Path, shown: str) -> list[Problem]:
    """Every `key: #rrggbb` of a file that YAML read as a comment."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []  # the loader reports an unreadable file
    return [
        Problem(shown, line, comment_colour_message(key, colour))
        for line, key, colour in colours_read_as_comments(text)
    ]


# Characters that show nothing yet change what is drawn. The zero-width joiner and non-joiner are left out:
# they shape emoji and the letters of several scripts (Persian, the Indic scripts) on purpose.
INVISIBLE = {
    0x00AD: "soft hyphen", 0x180E: "Mongolian vowel separator", 0x200B: "zero-width space",
    0x200E: "left-to-right mark", 0x200F: "right-to-left mark", 0x2060: "word joiner",
    0x2061: "invisible function application", 0x2062: "invisible times", 0x2063: "invisible separator",
    0x2064: "invisible plus", 0xFEFF: "zero-width no-break space (byte-order mark)",
    **{code: "direction control" for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
}


def invisible_name(char: str) -> str | None:
    """What an invisible character is called ('zero-width space'), or None for a character that shows."""
    code = ord(char)
    if code in INVISIBLE:
        return INVISIBLE[code]
    if 0xE0000 <= code <= 0xE007F:
        return "tag character"
    return None


def invisible_characters(path: Path, shown: str) -> list[Problem]:
    """A warning per line of a text file that holds an invisible character (a byte-order mark that starts
    the file excepted), naming each and its column."""
    found = []
    try:
        # line by line, as far as any reader reads (a CSV past its row limit is refused by its reader)
        with Path(path).open(encoding="utf-8") as stream:
            lines = [line.rstrip("\r\n") for line in islice(stream, MAX_SHEET_ROWS + 1)]
    except (OSError, UnicodeDecodeError):
        return []  # the loader reports an unreadable file
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    for number, line in enumerate(lines, start=1):
        named = [(column, invisible_name(char), char) for column, char in enumerate(line, start=1)
                 if char > "\x7f" and invisible_name(char)]
        if named:
            listed = ", ".join(f"a {name} (U+{ord(char):04X}, column {column})"
                               for column, name, char in named)
            found.append(Problem(shown, number, f"{listed}: shows nothing but takes room or moves the text "
                                                "(a centred title sits off-centre); expected it deleted, or "
                                                "written as a visible character"))
    return found


def _bare(raw, key: str) -> bool:
    value = raw.get(key) if isinstance(raw, dict) else None
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value != 0


def unitless_lengths(shown: str, raw: YDict, keys: tuple[str, ...], where: str = "") -> list[Problem]:
    """A warning per length among `keys` of a mapping that is a bare number."""
    return [
        Problem(shown, raw.line_of(key), (f"{where}: " if where else "") + unitless_message(key, raw[key]))
        for key in keys
        if _bare(raw, key)
    ]


def game_slips(shown: str, raw_game: YDict | None, boards: dict[str, YDict]) -> list[Problem]:
    """Bare-number lengths of game.yaml (bleed, safe, a custom card size) and of board grids."""
    found: list[Problem] = []
    if isinstance(raw_game, YDict):
        found += unitless_lengths(shown, raw_game, ("bleed", "safe"))
        size = raw_game.get("card_size")
        if isinstance(size, YDict):
            found += unitless_lengths(shown, size, ("width", "height", "diameter", "across"), "card_size")
    for board_shown, raw in boards.items():
        grid = raw.get("grid")
        if isinstance(grid, YDict):
            found += unitless_lengths(board_shown, grid, ("cell", "margin"), "grid")
    return found
