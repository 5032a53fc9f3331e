"""The ink saver: a face drawn with its large fills as light tints (outlined where they do not run off the
card), and every text whose backdrop got lighter given a colour that reads on the tint.

`adapt` works on the (box, data) pairs the card renderer resolves (data: the box kinds' typed values,
generator.faces.boxes) and returns changed copies; pictures (icons and images) are kept as they are, so the
card stays recognisable. A caller asks for it with `ink="saver"` on any drawing function of
`generator.faces.face` (the card sheets' `--ink saver`, a preview, a studio toggle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from generator.core.colours import contrast_ratio, lightest, luminance, mix, readable, tint
from generator.core.geometry import Rect
from generator.core.units import to_pt
from generator.faces.paint import PAPER, backdrop, face_paints

LARGE = 0.06        # a fill covering this share of the card or more is large
TINT = 0.88         # how far a large fill moves towards white
OUTLINE = 0.75      # pt, the outline that keeps a tinted panel's shape
BACK_FADE = 0.85    # how far the pictures on a back move towards white
BACK_STROKE = 0.6   # how far the outlines on a back move towards white
TITLE_OUTLINE = 0.6 # pt, the outline of a large title on a back (its letters are not filled)
BACK_TEXT = 1.2     # texts on a back keep 1.2 times the contrast a text needs, and get no darker than that
BIG_TEXT = 14.0     # pt: from this size a 3:1 contrast reads (below it 4.5:1)


def _ratio(size: float) -> float:
    return 3.0 if size >= BIG_TEXT else 4.5


def adapt(resolved: list, placed_rect: Callable, trim: Rect, back: bool = False) -> list:
    """The face's (box, data) pairs for the ink saver: large fills tinted, text colours that no longer read
    changed.

    `placed_rect(box)` gives a box's (x, y, w, h) on the face form; `trim` is the trim box there (a fill that
    runs off the card gets no outline: it would be cut away). A `back` carries no information a player reads,
    so every fill on it is tinted and its pictures are faded too (all without transparency)."""
    paints = face_paints(resolved, placed_rect)
    tinted: dict[int, str] = {}
    out = list(resolved)
    for paint in paints:
        box, data = resolved[paint.index]
        if paint.color is None:  # a picture
            if back:
                out[paint.index] = (box, replace(data, fade=BACK_FADE))
            continue
        if paint.area < LARGE * trim.w * trim.h and not back:
            continue
        fill = tint(paint.color, TINT)
        if trim.contains(paint.rect, tol=-0.5) and not data.stroke:
            changed = replace(data, fill=fill, stroke=paint.color, stroke_width=OUTLINE)
        else:
            changed = replace(data, fill=fill)
        tinted[paint.index] = fill
        out[paint.index] = (box, changed)
    if not tinted:
        return out
    light = [replace(p, color=tinted.get(p.index, p.color)) for p in paints]
    for index, (box, data) in enumerate(out):
        if not data:
            continue
        if back and data.stroke:  # frames on a back are decoration: lighter and thinner too
            width = data.stroke_width or to_pt(box.get("stroke_width", "0.75pt"))
            data = replace(
                data, stroke=mix(data.stroke, "#ffffff", BACK_STROKE), stroke_width=max(0.5, width / 2)
            )
            out[index] = (box, data)
        if not data.lettered:
            continue
        area = Rect(*placed_rect(box))
        under = backdrop(light, area, index)
        if not any(p is not None and p.index in tinted for p in under):
            continue  # nothing under this text changed
        colours = [p.color if p is not None else PAPER for p in under if p is None or p.color is not None]
        ratio = _ratio(to_pt(box.get("size", "9pt")))
        color = data.color
        if not all(contrast_ratio(color, c) >= ratio for c in colours):
            before = [p.color for p in backdrop(paints, area, index) if p is not None and p.color is not None]
            # white text on a dark panel becomes the panel's colour, darkened until it reads on the tint
            start = before[0] if before and luminance(color) > luminance(colours[0]) else color
            color = readable(start, colours, ratio)
        if back and to_pt(box.get("size", "9pt")) >= BIG_TEXT:  # nobody reads a back closely: large titles
            changed = replace(data, color=color, outline=TITLE_OUTLINE)  # as outlines,
        elif back:
            # the rest as light as reads
            changed = replace(data, color=lightest(color, colours, ratio * BACK_TEXT))
        else:
            changed = replace(data, color=color)
        out[index] = (box, changed)
    return out
