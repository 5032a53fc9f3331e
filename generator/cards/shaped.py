"""Round, hexagonal and square decks (`size: {shape: hex, across: 2in}`) on card sheets.

The cards are packed like tokens (generator.core.packing): hexagons in a honeycomb sharing cut edges, circles
in a hex-offset grid; each face is clipped to its outline and the outlines are the cut lines. The sheet is an
ordinary `Sheet` of generator.cards.imposition (so paging, labels and duplex work as for any deck) whose slots
carry their outline and turn; cards/sheets.py asks this module for the sheet, the placement of a slot and the
cut lines. Backs are mirrored about the page as card backs are, their art turned back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.cards.imposition import INK, LayoutError, Line, Sheet, Slot, Strip, _mirror_axis, _oriented
from generator.core.geometry import Rect, paper_of
from generator.core.packing import pack
from generator.core.shapes import Path, Shape, pdf_path_ops
from generator.core.units import mm

LABEL_ROOM = mm(5)   # a strip at the foot of the page for the sheet's labels
# circles and rounded squares stand apart (each shows a little bleed); the others share cuts
GAP_ROUND = mm(2)


@dataclass(frozen=True)
class ShapedSlot(Slot):
    """A card slot of a shaped deck: its centre, the turn of its art and its clip outline (page points)."""

    cx: float = 0.0
    cy: float = 0.0
    angle: int = 0
    outline: Path = ()


@dataclass
class ShapedSheet(Sheet):
    """A sheet of shaped cards: the cut outlines are paths (circles are curves, not crop-mark lines)."""

    cut_paths: list[Path] = field(default_factory=list)


def deck_gap(shape: Shape) -> float:
    return 0.0 if shape.kind in ("hex", "square") else GAP_ROUND


def shaped_sheet(paper: str, shape: Shape, bleed: float, duplex: str = "long",
                 back_offset: tuple[float, float] = (0.0, 0.0)) -> ShapedSheet:
    """Shaped cards packed on a portrait page, with their backs mirrored for `duplex` (long, short or
    none)."""
    if duplex not in ("long", "short", "none"):
        raise LayoutError(f"unknown duplex mode '{duplex}'; expected long, short or none")
    pw, ph = _oriented(paper, False)
    gap = deck_gap(shape)
    room = Rect(INK, INK + LABEL_ROOM, pw - 2 * INK, ph - 2 * INK - LABEL_ROOM)
    packing = pack(shape, room.w, room.h, gap)
    if packing is None:
        raise LayoutError(f"a {shape.describe()} card does not fit on {paper_of(paper).name} paper with "
                          f"{INK / mm(1):.0f} mm clear of every edge")
    # centre the block on the room
    packing = packing.shifted(room.x + (room.w - packing.width) / 2, room.y + (room.h - packing.height) / 2)
    clip_shape = shape.grown(min(gap / 2, bleed)) if gap > 0 else shape
    fronts, backs = [], []
    axis = _mirror_axis("short" if duplex == "short" else "long", False)
    dx, dy = back_offset
    for index, spot in enumerate(packing.spots):
        placed = packing.shape  # the shape as it lies (a turned hexagon lies the other way)
        trim = Rect(spot.x - placed.width / 2, spot.y - placed.height / 2, placed.width, placed.height)
        outline = _turned_outline(clip_shape, spot.x, spot.y, spot.angle)
        fronts.append(ShapedSlot(index, 0, trim, trim, spot.x, spot.y, spot.angle, outline))
        if duplex == "none":
            backs.append(fronts[-1])
            continue
        bx, by = (pw - spot.x, spot.y) if axis == "x" else (spot.x, ph - spot.y)
        bx, by = bx + dx, by + dy
        btrim = Rect(bx - placed.width / 2, by - placed.height / 2, placed.width, placed.height)
        backs.append(
            ShapedSlot(
                index, 0, btrim, btrim, bx, by, -spot.angle, _turned_outline(clip_shape, bx, by, -spot.angle)
            )
        )
    cuts = packing.cuts()
    strips = [Strip("bottom", Rect(INK, INK, pw - 2 * INK, LABEL_ROOM), 0)]
    marks = [Line(*p[0][1:], *p[1][1:]) for p in cuts if len(p) == 2 and p[1][0] == "L"]
    return ShapedSheet(
        paper,
        pw,
        ph,
        shape.width,
        shape.height,
        len(fronts),
        1,
        "duplex",
        duplex,
        fronts,
        backs,
        marks,
        strips,
        cut_paths=[p for p in cuts if not (len(p) == 2 and p[1][0] == "L")],
    )


def _turned_outline(shape: Shape, cx: float, cy: float, angle: int) -> Path:
    """The outline of a card whose art is turned by `angle` (a turned flat hexagon lies pointy)."""
    return (shape.turned() if angle % 180 else shape).path(cx, cy)


def slot_placement(slot: Slot, card_w: float, card_h: float, bleed: float) -> str | None:
    """The PDF operators before a face in a shaped slot (save, clip to the outline, move and turn), else
    None."""
    if not isinstance(slot, ShapedSlot):
        return None
    c, s = math.cos(math.radians(slot.angle)), math.sin(math.radians(slot.angle))
    x, y = -card_w / 2 - bleed, -card_h / 2 - bleed
    # translate to the centre, turn, then move the form's lower-left corner (its bleed box) into place
    tx, ty = slot.cx + c * x - s * y, slot.cy + s * x + c * y
    numbers = " ".join(f"{v:.4f}".rstrip("0").rstrip(".") for v in (c, s, -s, c, tx, ty))
    return f"q\n{pdf_path_ops(slot.outline)}\nW n\n{numbers} cm"


def draw_cut_paths(canvas: Canvas, sheet: Sheet, color: str, width: float) -> None:
    """The curved cut lines of a sheet of round cards (straight ones are its marks); nothing for other
    sheets."""
    paths = getattr(sheet, "cut_paths", [])
    if not paths:
        return
    canvas.saveState()
    canvas.setStrokeColor(HexColor(color))
    canvas.setLineWidth(width)
    for path in paths:
        canvas._code.append(f"{pdf_path_ops(path)}\nS")  # noqa: SLF001 - a bare path, stroked
    canvas.restoreState()


