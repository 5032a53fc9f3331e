"""The one unit parser: "63mm", "2.5in", "9pt", "1.2cm" or a bare number (points) to points."""

from __future__ import annotations

import math
import re

from generator.core.limits import MAX_LENGTH_PT

PT_PER_UNIT = {"pt": 1.0, "in": 72.0, "mm": 72.0 / 25.4, "cm": 72.0 / 2.54}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(pt|in|mm|cm)?\s*$")

MM = PT_PER_UNIT["mm"]
INCH = PT_PER_UNIT["in"]


class UnitError(ValueError):
    """A length that is not a number with a known unit."""


def to_pt(value: str | int | float, default_unit: str = "pt") -> float:
    """Convert a length such as '63.5mm' or 9 into points; finite and at most MAX_LENGTH_PT either way."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise UnitError(f"expected a length such as '63mm', '2.5in' or '9pt', found {value!r}")
    if isinstance(value, (int, float)):
        points = float(value) * PT_PER_UNIT[default_unit] if abs(value) < 1e300 else math.inf
    else:
        match = _LENGTH.match(str(value))
        if not match:
            raise UnitError(
                f"'{value}' is not a length; expected a number with mm, cm, in or pt, e.g. '63mm'"
            )
        number, unit = match.groups()
        points = float(number) * PT_PER_UNIT[unit or default_unit]
    if not math.isfinite(points) or abs(points) > MAX_LENGTH_PT:
        shown = repr(value) if len(repr(value)) <= 24 else repr(value)[:20] + "..."
        raise UnitError(f"length {shown} is not a finite length of at most {MAX_LENGTH_PT / 72:g} in; "
                        "expected something like '63mm'")
    return points


def flag_length(value: str, flag: str) -> float:
    """A length given with a command-line flag (`--gap 3mm`, `--bleed 0.125in`) in points. A number needs its
    unit (only 0 may go without): '3' could mean millimetres or points. UnitError naming the flag
    otherwise."""
    text = str(value).strip()
    try:
        points = to_pt(text)
    except UnitError as exc:
        raise UnitError(f"{flag}: {exc}") from None
    if points and _BARE_NUMBER.fullmatch(text):
        raise UnitError(f"{flag} {text}: expected a length with its unit, e.g. '{text}mm'")
    return points


_BARE_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


# Card size presets (width, height) in mm; see shared/design/print.md section 1.
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "poker-mtg": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (44.5, 63.5),
    "mini-41": (41.0, 63.0),
    "mini-euro": (44.0, 68.0),
    "euro": (59.0, 92.0),
    "square": (70.0, 70.0),
    "square-big": (89.0, 89.0),
}


def unitless_message(key: str, value: float) -> str:
    """The warning for a length written as a bare number, which is read as points."""
    return (
        f"`{key}: {value:g}` has no unit, so it is {value:g} pt ({float(value) / MM:.1f} mm); expected a "
        "unit, "
        f"e.g. {value:g}mm (write {value:g}pt to mean points)"
    )
