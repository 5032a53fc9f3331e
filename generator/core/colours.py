"""Colour arithmetic on '#rrggbb' strings: brightness, mixing, tints and a readable text colour."""

from __future__ import annotations


def rgb(color: str) -> tuple[int, int, int]:
    """The 0-255 red, green and blue of '#rrggbb'."""
    color = color.lstrip("#")
    return int(color[0:2], 16), int(color[2:4], 16), int(color[4:6], 16)


def brightness(color: str) -> float:
    """Brightness 0..1 of '#rrggbb' (Rec. 601 weights, roughly what a greyscale printer does)."""
    r, g, b = (c / 255 for c in rgb(color))
    return 0.299 * r + 0.587 * g + 0.114 * b


def mix(color: str, other: str, share: float) -> str:
    """`color` moved `share` of the way towards `other` (0 = unchanged, 1 = other)."""
    return "#" + "".join(f"{round(x + (y - x) * float(share)):02x}" for x, y in zip(rgb(color), rgb(other), strict=True))


def tint(color: str, amount: float = 0.8) -> str:
    """`color` mixed with white (amount 0 = unchanged, 1 = white), for pale backgrounds."""
    return mix(color, "#ffffff", amount)


def contrast(color: str) -> str:
    """Dark or white text, whichever reads better on `color`."""
    r, g, b = rgb(color)
    return "#222222" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"
