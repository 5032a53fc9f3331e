"""The net of a standee: a fold-over figure on feet, and the base its feet slot into. Pure geometry, y up.

The figure piece is a strip: front foot, front picture, fold line (the top of the figure), the back picture
(the front mirrored about the fold, so the two line up when folded) and the back foot. Folded and glued, the
two feet make one double foot with a slot cut up from its bottom edge, half the foot high. The base is a strip
folded double along its top edge, with a slot straddling that fold, also half the foot high: pushed into each
other crosswise, the slots interlock and both pieces stand flush on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.components.nets import Net, Part, Region, rect_path
from generator.core.units import mm

SLOT_WIDTH = mm(1.2)   # room for two layers of card stock (0.3-0.35 mm each) with play
PIECE_GAP = mm(4)      # between the figure and its base on the sheet


@dataclass(frozen=True)
class StandeeSize:
    """A standee's figure (width x height), foot height and base length, in points."""

    width: float
    height: float
    foot: float
    base: float


def standee_net(size: StandeeSize) -> Net:
    """The figure strip (left) and its base (right), lower-left corner at (0, 0)."""
    w, h, f = size.width, size.height, size.foot
    fold_y = f + h
    top = 2 * f + 2 * h
    half = SLOT_WIDTH / 2
    parts = [
        Part("foot-front", "foot", rect_path(0, 0, w, f)),
        Part("figure-front", "figure", rect_path(0, f, w, h)),
        Part("figure-back", "figure", rect_path(0, fold_y, w, h)),
        Part("foot-back", "foot", rect_path(0, fold_y + h, w, f)),
    ]
    slots = [
        rect_path(w / 2 - half, 0, SLOT_WIDTH, f / 2),
        rect_path(w / 2 - half, top - f / 2, SLOT_WIDTH, f / 2),
    ]
    folds = [((0, fold_y), (w, fold_y))]
    # the base: two layers of length `base`, folded along the line between them
    bx = w + PIECE_GAP
    length = size.base
    parts += [Part("base-front", "base", rect_path(bx, 0, length, f)),
              Part("base-back", "base", rect_path(bx, f, length, f))]
    folds.append(((bx, f), (bx + length, f)))
    slots.append(rect_path(bx + length / 2 - half, f / 2, SLOT_WIDTH, f))
    regions = [Region("front", w / 2, f + h / 2, w, h),
               Region("back", w / 2, fold_y + h / 2, w, h, angle=180, mirror=True),
               Region("base", bx + length / 2, f / 2, length, f)]
    return Net(parts, folds, slots=slots, regions=regions)
