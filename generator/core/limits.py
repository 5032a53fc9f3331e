"""Every bound pnp puts on what it reads, in one place.

A hostile or careless input (a YAML alias bomb, `copies: 1000000000`, a template looping 10^10 times, a
30000 x 30000 PNG, a board of 100000 x 100000 cells) must fail within seconds with a located problem, never
hang or run out of memory. Each limit below is far above what a real game needs and low enough that reaching
it costs a few seconds and well under 1 GB. The code that reads a file, expands a deck, renders a template,
plans a board or opens a picture checks the limit of that thing here and raises `LimitExceeded` (a ValueError,
so the model validators report it with the file and line) or a located `InputError`.

The same table is in docs/data-format.md ("Limits"); `limits_table()` prints it for the docs test.
"""

from __future__ import annotations

import math
from pathlib import Path

from generator.core.errors import InputError, Problem

# --- files
# ------------------------------------------------------------------------------------------------------
# one YAML file (libyaml with line marks: about 0.5 s per MB; a 10,000-card deck is 1.5 MB)
MAX_YAML_BYTES = 10_000_000
MAX_TEXT_BYTES = 1_000_000          # one template or Markdown file
MAX_SVG_BYTES = 5_000_000           # one SVG icon or picture
MAX_IMAGE_BYTES = 50_000_000        # one PNG or JPG picture
# width x height of one raster picture, e.g. 8000 x 8000 (a 60 cm board at 300 dpi)
MAX_IMAGE_PIXELS = 64_000_000
# game.yaml `max_image_dpi`: finer pictures are downsampled to it as printed (generator.faces.embedding)
DEFAULT_IMAGE_DPI, LEAST_IMAGE_DPI, MOST_IMAGE_DPI = 600, 300, 2400

# --- YAML
# -------------------------------------------------------------------------------------------------------
MAX_YAML_DEPTH = 64                 # nesting of mappings and lists in one file
# values of a file with aliases, an alias (*name) counting as a copy of what it names
MAX_YAML_ITEMS = 100_000

# --- cards and boards
# -------------------------------------------------------------------------------------------
MAX_COPIES = 1_000                  # copies of one card type
MAX_CARDS = 10_000                  # physical cards in one game (about 1100 sheets of 9)
MAX_GRID_CELLS = 4_096              # columns x rows of one board grid, e.g. 64 x 64
MAX_PAD_ROWS = 1_000                # blank rows of a score pad (`kind: sheet`; 1,000 rows is some 25 pages)
MAX_PAD_COLUMNS = 100               # columns of a score pad, each repeat counted
MAX_LENGTH_PT = 14_400.0            # any length: 200 in (5.08 m), the largest page a PDF reader opens
MAX_BLEED_PT = 36.0                 # bleed around a card: 0.5 in (print shops ask for 1/8 in)
MAX_FONT_PT = 500.0                 # a font size
MAX_EXPORT_PIXELS = 64_000_000      # width x height of one exported image

# --- spreadsheets (cards_from:)
# ---------------------------------------------------------------------------------
MAX_SHEET_BYTES = 50_000_000        # one .csv/.xlsx/.ods/.xls file, and any one part of a workbook unpacked
MAX_SHEET_ROWS = 2 * MAX_CARDS      # rows of one sheet, the header, blank and filtered rows included
MAX_SHEET_COLUMNS = 200             # columns of one sheet (A to GR)
MAX_PULL_SECONDS = 30.0             # `pnp pull` of one live sheet (its bytes: MAX_SHEET_BYTES)

# --- templates (card text and rules)
# ------------------------------------------------------------------------------
# characters: the output of one template, and any one string or list it builds
MAX_TEMPLATE_TEXT = 1_000_000
MAX_TEMPLATE_WORK = 20_000_000      # characters of strings and lists one render builds in all
MAX_TEMPLATE_STEPS = 200_000        # loop iterations of one render
MAX_TEMPLATE_INT_BITS = 4_096       # an integer a template computes (10**1000 is fine, 10**(10**10) is not)
MAX_TEMPLATE_RANGE = 100_000        # numbers in one range() (Jinja's own sandbox bound, kept)
MAX_TEMPLATE_CALL_DEPTH = 100       # macros calling macros (a macro calling itself stops here)
# templates included or imported by one render (one including itself stops here)
MAX_TEMPLATE_INCLUDES = 64
MAX_CARD_TEXT_STEPS = 10 * MAX_TEMPLATE_STEPS   # loop steps of all the card texts of one game together
MAX_CARD_TEXT_WORK = 10 * MAX_TEMPLATE_WORK     # characters built by all the card texts of one game together


class LimitExceeded(ValueError):
    """An input beyond one of the limits above; the message names the limit and what to do instead."""


LIMITS: tuple[tuple[str, str], ...] = (
    (
        "YAML file",
        f"{MAX_YAML_BYTES:,} bytes, nested at most {MAX_YAML_DEPTH} levels, at most "
        f"{MAX_YAML_ITEMS:,} values once its aliases are copied (an alias counts as a copy of what it names)",
    ),
    ("template or Markdown file", f"{MAX_TEXT_BYTES:,} bytes"),
    ("SVG file", f"{MAX_SVG_BYTES:,} bytes"),
    ("PNG or JPG picture", f"{MAX_IMAGE_BYTES:,} bytes and {MAX_IMAGE_PIXELS:,} pixels"),
    ("copies of one card", f"{MAX_COPIES:,}"),
    ("cards in one game", f"{MAX_CARDS:,}"),
    ("board grid", f"{MAX_GRID_CELLS:,} cells (columns x rows)"),
    ("sheet (score pad)", f"{MAX_PAD_ROWS:,} blank rows, {MAX_PAD_COLUMNS} columns (repeats counted); "
                          f"copies of a die, a sheet or tuck boxes: {MAX_COPIES:,}"),
    ("any length", f"finite, at most {MAX_LENGTH_PT / 72:g} in"),
    ("bleed", f"0 to {MAX_BLEED_PT / 72:g} in"),
    ("font size", f"above 0, at most {MAX_FONT_PT:g} pt"),
    ("exported image", f"{MAX_EXPORT_PIXELS:,} pixels"),
    (
        "spreadsheet",
        f"{MAX_SHEET_BYTES:,} bytes (a workbook's parts too, unpacked), {MAX_SHEET_ROWS:,} rows and "
        f"{MAX_SHEET_COLUMNS} columns per sheet, counted as read (a declared sheet size is not trusted)",
    ),
    ("live sheet (`pnp pull`)", f"{MAX_SHEET_BYTES:,} bytes within {MAX_PULL_SECONDS:g} s"),
    ("template output", f"{MAX_TEMPLATE_TEXT:,} characters; the same for any one string or list it builds"),
    (
        "template work",
        f"{MAX_TEMPLATE_WORK:,} characters built and {MAX_TEMPLATE_STEPS:,} loop steps per render; "
        f"{MAX_CARD_TEXT_WORK:,} and {MAX_CARD_TEXT_STEPS:,} for all the card texts of a game",
    ),
    (
        "template calls",
        f"range() of {MAX_TEMPLATE_RANGE:,} numbers, macros nested {MAX_TEMPLATE_CALL_DEPTH} deep, "
        f"{MAX_TEMPLATE_INCLUDES} includes or imports per render, integers of {MAX_TEMPLATE_INT_BITS:,} bits",
    ),
)


def limits_table() -> str:
    """The limits as a Markdown table (docs/data-format.md shows the same)."""
    rows = ["| what | limit |", "| --- | --- |"] + [f"| {what} | {limit} |" for what, limit in LIMITS]
    return "\n".join(rows)


def check_file_size(path: Path, limit: int, shown: str, what: str = "file") -> int:
    """The size of `path` in bytes, or a located InputError when it is larger than `limit`."""
    size = Path(path).stat().st_size
    if size > limit:
        raise InputError(Problem(shown, 0, f"{what} is {size:,} bytes; expected at most {limit:,} bytes "
                                           "(pnp's limit for this kind of file)"))
    return size


def finite(value: float, what: str) -> float:
    """`value` when it is a finite number; LimitExceeded for nan and infinity."""
    if not math.isfinite(value):
        raise LimitExceeded(f"{what} is {value}; expected a finite number")
    return value


def in_range(value: float, low: float | None, high: float | None, what: str, unit: str = "") -> float:
    """`value` when it is finite and within [low, high] (None: unbounded); LimitExceeded otherwise."""
    finite(value, what)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"from {low:g}{unit} to {high:g}{unit}" if low is not None and high is not None
                  else f"at least {low:g}{unit}" if low is not None else f"at most {high:g}{unit}")
        raise LimitExceeded(f"{what} is {value:g}{unit}; expected {bounds}")
    return value
