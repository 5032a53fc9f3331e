"""Colour arithmetic on '#rrggbb' strings: brightness, mixing, tints, WCAG luminance and contrast, readable
text."""

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
    return "#" + "".join(
        f"{round(x + (y - x) * float(share)):02x}" for x, y in zip(rgb(color), rgb(other), strict=True)
    )


def tint(color: str, amount: float = 0.8) -> str:
    """`color` mixed with white (amount 0 = unchanged, 1 = white), for pale backgrounds."""
    return mix(color, "#ffffff", amount)


def contrast(color: str) -> str:
    """Dark or white text, whichever has the higher WCAG contrast ratio on `color`."""
    return "#222222" if contrast_ratio("#222222", color) >= contrast_ratio("#ffffff", color) else "#ffffff"


def _linear(channel: int) -> float:
    """An sRGB channel (0-255) to linear light, as WCAG 2.x defines it."""
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(color: str) -> float:
    """WCAG relative luminance 0 (black) .. 1 (white) of '#rrggbb'."""
    r, g, b = (_linear(c) for c in rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(color: str, other: str) -> float:
    """WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05) of two colours: 1 (same) .. 21 (black on white)."""
    a, b = luminance(color), luminance(other)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def readable(color: str, backdrops: list[str], ratio: float) -> str:
    """`color`, darkened step by step (or lightened, on dark backdrops) until it has `ratio` against every
    backdrop.

    Keeps the hue a designer chose where it can; falls back to near-black or white."""
    if not backdrops:
        return color
    dark = sum(luminance(b) for b in backdrops) / len(backdrops) < 0.18
    target = "#ffffff" if dark else "#000000"
    for step in range(11):
        candidate = mix(color, target, step / 10)
        if all(contrast_ratio(candidate, b) >= ratio for b in backdrops):
            return candidate
    return target


def lightest(color: str, backdrops: list[str], ratio: float) -> str:
    """`color` moved towards white as far as it can go (in tenths) while keeping `ratio` against every
    backdrop."""
    best = color
    for step in range(1, 10):
        candidate = mix(color, "#ffffff", step / 10)
        if not all(contrast_ratio(candidate, b) >= ratio for b in backdrops):
            break
        best = candidate
    return best
