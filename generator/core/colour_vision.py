"""Colour vision deficiencies, simulated: what a player with protanopia, deuteranopia or tritanopia sees of an
sRGB colour, and how far apart two pictures look to them.

The simulation is the published one of Machado, Oliveira and Fernandes (2009), severity 1.0: a 3x3 matrix on
linear RGB. Distances are CIEDE2000 in CIELAB (D65): about 2.3 is the least difference one notices side by
side, 10 and more is plain at a glance. Pure arithmetic on tuples: no imaging library, so it is tested alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[int, int, int]

# Machado et al. (2009), Table 1 at severity 1.0 (linear RGB)
DEFICIENCIES: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
NOTICED = 2.3       # CIEDE2000: the least difference seen side by side (a "just noticeable difference")
TOLD_APART = 10.0    # CIEDE2000: a difference a player sees at a glance, across the table
DISTINCT_MM2 = 2.0   # printed area still differing clearly enough to tell two pieces apart (a letter)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(value: float) -> int:
    v = min(1.0, max(0.0, value))
    c = 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(c * 255)


@lru_cache(maxsize=65536)
def simulate(rgb: RGB, deficiency: str) -> RGB:
    """The sRGB colour a player with the deficiency sees for `rgb`."""
    matrix = DEFICIENCIES[deficiency]
    linear = [_linear(c) for c in rgb]
    return tuple(_encoded(sum(m * c for m, c in zip(row, linear, strict=True))) for row in matrix)  # type: ignore[return-value]


def svg_matrix(deficiency: str) -> str:
    """The simulation as the `values` of an SVG feColorMatrix (4 x 5, row by row): the same matrix, applied by
    a browser to linear RGB with color-interpolation-filters="linearRGB" (the studio's colour-vision view)."""
    rows = [[*row, 0.0, 0.0] for row in DEFICIENCIES[deficiency]] + [[0.0, 0.0, 0.0, 1.0, 0.0]]
    return " ".join(repr(value) for row in rows for value in row)  # every digit, as published


@lru_cache(maxsize=65536)
def lab(rgb: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(one: RGB, other: RGB, deficiency: str | None = None) -> float:
    """CIEDE2000 between two sRGB colours, as seen with `deficiency` (None: typical colour vision)."""
    return ciede2000(_seen_lab(one, deficiency), _seen_lab(other, deficiency))


def _seen_lab(colour: RGB, deficiency: str | None) -> tuple[float, float, float]:
    return lab(colour if deficiency is None else simulate(colour, deficiency))


def collapses(one: Sequence[RGB], other: Sequence[RGB], pixel_mm2: float) -> list[tuple[str, float, float]]:
    """The deficiencies under which two pictures of one size (pixels row by row, each `pixel_mm2` of the
    printed piece) that differ to typical vision look alike: (deficiency, CIEDE2000 where they differ as seen
    with it, the same with typical vision).

    The pictures count as told apart when what still differs clearly (ΔE00 >= TOLD_APART) covers at least
    DISTINCT_MM2 of the printed piece or a quarter of where they differ: a letter, a symbol, a pattern or a
    lightness difference is enough; colour alone that collapses is not."""
    if len(one) != len(other) or not one:
        raise ValueError("expected two pictures of the same, non-zero size")
    pairs = Counter(zip(one, other, strict=True))  # flat art: few distinct pairs, each measured once
    differing = {pair: n for pair, n in pairs.items()
                 if ciede2000(_seen_lab(pair[0], None), _seen_lab(pair[1], None)) >= NOTICED}
    region = sum(differing.values())
    if not region:
        return []  # alike to everyone: not a colour-vision matter
    typical = sum(n * ciede2000(_seen_lab(a, None), _seen_lab(b, None)) for (a, b), n in differing.items())
    found = []
    for deficiency in DEFICIENCIES:
        seen = {pair: ciede2000(_seen_lab(pair[0], deficiency), _seen_lab(pair[1], deficiency))
                for pair in differing}
        distinct = sum(n for pair, n in differing.items() if seen[pair] >= TOLD_APART)
        if distinct * pixel_mm2 < DISTINCT_MM2 and distinct < region / 4:
            mean = sum(n * seen[pair] for pair, n in differing.items()) / region
            found.append((deficiency, mean, typical / region))
    return found


def ciede2000(one: tuple[float, float, float], other: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = one
    l2, a2, b2 = other
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (-2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))
