"""How a margin between printed art and the paper edge is shared between bleed and crop marks (pure geometry,
points).

- Art (cards, boards and their shown bleed) and labels keep `INK` (6 mm) from the paper edge. Marks and cut
lines may
  come to `MARK_INK` (5 mm): laser printers print from about 5 mm and inkjets from 3-5 mm
  (shared/design/print.md section 3), and a thin mark is what a cut needs most.
- The marks get `MARK_PREF` first, then the bleed, then the marks again up to `MARK_MAX`. A margin that
carries labels
  keeps `LABEL_ROOM` for them before any bleed shows. Marks start `MARK_GAP` beyond the shown bleed, or at the
  trim corner when no bleed shows, and never cross art. Tiled boards use this (`margin_use`).
- Card sheets (`bleed_margin`) keep the full bleed on every outer card edge: their grid is chosen so the
  margin holds it (`cards.imposition`), and the marks take what is left beyond it, or go into the bleed as
  short ticks that are cut away with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.geometry import EPS
from generator.core.units import mm

INK = mm(6)           # art, bleed and labels keep this far from the paper edge
MARK_INK = mm(5)      # marks and cut lines may come this close to the paper edge
MARK_GAP = mm(0.5)    # between the shown bleed and a crop mark
MARK_PREF = mm(3)     # crop marks get this much room before any bleed is shown
MARK_MAX = mm(5)
MARK_MIN = mm(1)
LABEL_ROOM = mm(3.2)  # the margins that carry labels keep a 7 pt line of them clear of the shown bleed


@dataclass(frozen=True)
class Margin:
    """How one side of a grid uses its margin: bleed shown beyond the outer cards, and where its crop marks go
    (`start` from the grid edge, `length`; 0 when the side has no marks)."""

    shown: float
    start: float
    length: float
    depth: float  # the margin between the grid edge and the paper edge
    in_bleed: bool = False  # the marks are short ticks over the shown bleed (no room for them beyond it)


def margin_use(depth: float, bleed: float, labels: bool = False) -> Margin:
    """Split a margin of `depth` points (grid edge to paper edge) between shown bleed and crop marks (and room
    for a line of labels beside the marks when the margin carries `labels`)."""
    art_room, mark_room = depth - INK, depth - MARK_INK
    shown = max(0.0, min(bleed, art_room - (LABEL_ROOM + MARK_GAP if labels else 0.0),
                         mark_room - MARK_GAP - MARK_PREF))
    start = shown + MARK_GAP if shown > 0 else 0.0
    length = min(MARK_MAX, mark_room - start)
    if length < MARK_MIN:  # a mark matters more than bleed: show none and let the mark start at the card
        shown, start, length = 0.0, 0.0, min(MARK_MAX, mark_room)
    return Margin(shown, start, max(0.0, length) if length >= MARK_MIN - EPS else 0.0, depth)


def bleed_margin(depth: float, bleed: float) -> Margin:
    """How one side of a card grid uses a margin of `depth` points when its outer cards keep their full
    `bleed` (card sheets, issue 34): the bleed first, as far as `INK` allows; then crop marks beyond it
    when they have room there, else short ticks inside the bleed (cut away with it, `in_bleed`), else, with
    no bleed to hold them, marks from the card corner."""
    shown = max(0.0, min(bleed, depth - INK))
    start = shown + MARK_GAP
    length = min(MARK_MAX, depth - MARK_INK - start)
    if length >= MARK_MIN - EPS:
        return Margin(shown, start, length, depth)
    if shown - MARK_GAP >= MARK_MIN - EPS:  # ticks in the bleed, from just off the card corner outwards
        return Margin(shown, MARK_GAP, shown - MARK_GAP, depth, in_bleed=True)
    return Margin(shown, 0.0, max(0.0, min(MARK_MAX, depth - MARK_INK)), depth, in_bleed=shown > 0)
