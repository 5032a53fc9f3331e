"""The net of a tuck box: one sheet folded into a box for a deck. Pure geometry in points, y up.

From left to right: glue flap, front, side, back, side. The lid hangs from the top of the back with its tuck
flap; the bottom hangs from the front with its own tuck flap; the sides carry dust flaps above and below.
The front has a round thumb notch at its top edge to pull the cards out. Inside sizes are the distances
between fold lines: front width (card width + clearance), panel height (card height + clearance) and side
width (the deck's depth), as set out in generator.data.component_models.TuckboxSize.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.nets import Net, Part, Region
from generator.core.shapes import arc_ops
from generator.core.units import mm
from generator.data.component_models import TuckboxSize

FLAP_INSET = mm(1)     # tuck flaps are this much narrower on each side, so they slide in
NOTCH_MAX = mm(9)      # thumb notch radius (at most a quarter of the front's width)
FOLD_CLEARANCE = mm(3)  # text keeps this far from every fold: a fold a little off never creases a letter
BANNER_EDGE = mm(4)     # the name banner's distance from the panel's outer edge
ART_GAP = mm(1.5)       # between the deck's back art and the banner or the panel's edges


@dataclass(frozen=True)
class PanelLayout:
    """Where a front or back panel's banner and the deck's back art go, in the panel's coordinates (origin at
    its centre, y up): the banner's centre and height, and the box (x0, y0, x1, y1) the art fits in, clear of
    the banner, so the banner covers none of it."""

    band_y: float
    band_h: float
    art: tuple[float, float, float, float]


def panel_layout(width: float, height: float, banner_at_foot: bool) -> PanelLayout:
    """The front (banner at its foot: the deck's name) or the back (at its head: the card count)."""
    band = min(mm(11), height * 0.14)
    x0, x1 = -width / 2 + ART_GAP, width / 2 - ART_GAP
    if banner_at_foot:
        y = -height / 2 + BANNER_EDGE + band / 2
        return PanelLayout(y, band, (x0, y + band / 2 + ART_GAP, x1, height / 2 - ART_GAP))
    y = height / 2 - BANNER_EDGE - band / 2
    return PanelLayout(y, band, (x0, -height / 2 + ART_GAP, x1, y - band / 2 - ART_GAP))


def side_text_room(depth: float) -> float:
    """How high the text along a side panel (`depth` wide, between two folds) may be: FOLD_CLEARANCE from
    each fold (0: the side is too narrow for text)."""
    return max(0.0, depth - 2 * FOLD_CLEARANCE)


def _poly(name: str, role: str, points) -> Part:
    return Part(name, role, tuple([("M", *points[0])] + [("L", *p) for p in points[1:]] + [("Z",)]))


def _tuck_flap(name: str, x0: float, x1: float, y: float, length: float, down: bool) -> Part:
    """A tuck flap on the fold at height y, from x0 to x1 (inset), its free corners rounded."""
    a, b = x0 + FLAP_INSET, x1 - FLAP_INSET
    r = min(length * 0.6, (b - a) / 4, mm(8))
    s = -1 if down else 1
    end = y + s * length
    ops: list = [("M", a, y), ("L", b, y), ("L", b, end - s * r)]
    if down:
        ops += arc_ops(b - r, end + r, r, 0, -90)
        ops.append(("L", a + r, end))
        ops += arc_ops(a + r, end + r, r, -90, -90)
    else:
        ops += arc_ops(b - r, end - r, r, 0, 90)
        ops.append(("L", a + r, end))
        ops += arc_ops(a + r, end - r, r, 90, 90)
    ops += [("L", a, y), ("Z",)]
    return Part(name, "flap", tuple(ops))


def tuckbox_net(box: TuckboxSize) -> Net:
    """The flat net of one box, lower-left corner at (0, 0)."""
    g, w, h, d, t = box.glue, box.width, box.height, box.depth, box.tuck
    x0, x1, x2, x3, x4, x5 = 0.0, g, g + w, g + w + d, g + 2 * w + d, g + 2 * w + 2 * d
    y0, y1 = d + t, d + t + h          # the panels' bottom and top edges
    dust = min(0.8 * d, w / 2)          # dust flap height (stays within the lid's and the bottom's height)
    taper = min(dust * 0.5, d * 0.35)
    notch = min(NOTCH_MAX, w / 4)
    cx = (x1 + x2) / 2
    # the front: its top edge dips into the round thumb notch
    front_ops: list = [("M", x1, y0), ("L", x2, y0), ("L", x2, y1), ("L", cx + notch, y1)]
    front_ops += arc_ops(cx, y1, notch, 0, -180)
    front_ops += [("L", x1, y1), ("Z",)]
    parts = [
        _poly("glue", "glue", [(x0, y0 + g), (x1, y0), (x1, y1), (x0, y1 - g)]),
        Part("front", "panel", tuple(front_ops)),
        _poly("side-left", "panel", [(x2, y0), (x3, y0), (x3, y1), (x2, y1)]),
        _poly("back", "panel", [(x3, y0), (x4, y0), (x4, y1), (x3, y1)]),
        _poly("side-right", "panel", [(x4, y0), (x5, y0), (x5, y1), (x4, y1)]),
        _poly("lid", "flap", [(x3, y1), (x4, y1), (x4, y1 + d), (x3, y1 + d)]),
        _tuck_flap("lid-flap", x3, x4, y1 + d, t, down=False),
        _poly("bottom", "flap", [(x1, y0), (x2, y0), (x2, y0 - d), (x1, y0 - d)]),
        _tuck_flap("bottom-flap", x1, x2, y0 - d, t, down=True),
        # dust flaps: straight where they meet the lid or the bottom (one cut frees both), tapered elsewhere
        _poly("dust-left-top", "flap", [(x2, y1), (x3, y1), (x3, y1 + dust), (x2 + taper, y1 + dust)]),
        _poly("dust-right-top", "flap", [(x4, y1), (x5, y1), (x5 - taper, y1 + dust), (x4, y1 + dust)]),
        _poly("dust-left-bottom", "flap", [(x2, y0), (x2, y0 - dust), (x3 - taper, y0 - dust), (x3, y0)]),
        _poly(
            "dust-right-bottom",
            "flap",
            [(x4, y0), (x4 + taper, y0 - dust), (x5 - taper, y0 - dust), (x5, y0)],
        ),
    ]
    folds = [
        ((x1, y0), (x1, y1)), ((x2, y0), (x2, y1)), ((x3, y0), (x3, y1)), ((x4, y0), (x4, y1)),
        ((x3, y1), (x4, y1)), ((x3 + FLAP_INSET, y1 + d), (x4 - FLAP_INSET, y1 + d)),
        ((x1, y0), (x2, y0)), ((x1 + FLAP_INSET, y0 - d), (x2 - FLAP_INSET, y0 - d)),
        ((x2, y1), (x3, y1)), ((x4, y1), (x5, y1)), ((x2, y0), (x3, y0)), ((x4, y0), (x5, y0)),
    ]
    mid = (y0 + y1) / 2
    regions = [
        Region("front", cx, mid, w, h),
        Region("back", (x3 + x4) / 2, mid, w, h),
        Region("side-left", (x2 + x3) / 2, mid, h, d, angle=90),
        Region("side-right", (x4 + x5) / 2, mid, h, d, angle=90),
        Region("lid", (x3 + x4) / 2, y1 + d / 2, w, d, angle=180),  # read from the front once closed
        Region("glue", (x0 + x1) / 2, mid, h - 2 * g, g, angle=90),
    ]
    return Net(parts, folds, regions=regions)
