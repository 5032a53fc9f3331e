"""The pictures on folded pieces: die faces, standee figures and tuck box panels, drawn into a net's regions.

Regions come from the nets (generator.components.nets.Region): a rectangle centred on a point, turned and
perhaps mirrored; everything here is drawn in the region's own coordinates, centred on (0, 0).
"""

from __future__ import annotations

from contextlib import contextmanager

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.faces import ComponentFaces, draw_plain_face
from generator.components.nets import Net, Region, rect_path
from generator.components.tuckbox_net import panel_layout, side_text_room
from generator.core.colours import contrast, tint
from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY_BOLD, TITLE, draw_string, string_width
from generator.core.shapes import pdf_path_ops, transform_path
from generator.core.units import mm
from generator.data.component_models import TuckboxSize
from generator.data.components import Component
from generator.data.game import Card, Game
from generator.faces.face import renderer_for

MIN_LABEL = 5.0  # pt: the smallest label printed on a box panel


@contextmanager
def region_space(canvas: Canvas, region: Region):
    """Draw in the region's coordinates: origin at its centre, turned and mirrored as the region says."""
    canvas.saveState()
    canvas.translate(region.cx, region.cy)
    canvas.rotate(region.angle)
    if region.mirror:
        canvas.scale(-1, 1)
    try:
        yield
    finally:
        canvas.restoreState()


def region_clip(region: Region):
    """The region's rectangle in page coordinates (a path)."""
    local = rect_path(-region.width / 2, -region.height / 2, region.width, region.height)
    return transform_path(local, region.angle, region.cx, region.cy)


def fitted_size(text: str, font: str, largest: float, width: float, height: float) -> float | None:
    """The largest font size up to `largest` at which one line of text fits width x height (None: not even 5
    pt)."""
    size = min(largest, height * 0.8)
    while size >= MIN_LABEL:
        if string_width(text, font, size) <= width:
            return size
        size -= 0.25
    return None


def centred_line(canvas: Canvas, text: str, font: str, size: float, color: str, y: float = 0.0) -> None:
    """One line of text centred on (0, y) of the current coordinates."""
    canvas.setFillColor(HexColor(color))
    canvas.setFont(font, size)
    draw_string(canvas, 0, y - size * 0.35, text, font, size, "center")


# --- dice
# ------------------------------------------------------------------------------------------------------

def draw_die_face(
    canvas: Canvas, faces: ComponentFaces, component: Component, number: int, region: Region
) -> None:
    """One face of a die (its layout, or pips, text or an icon) filling the region."""
    card = component.items[number - 1]
    if faces.has_layout(component, card):
        faces.place_clipped(canvas, component, card, region.cx, region.cy, region_clip(region), region.angle)
    else:
        size = region.width
        with region_space(canvas, region):
            draw_plain_face(canvas, faces.icons, card, -size / 2, -size / 2, size, component.model.fill,
                            component.model.color)


def draw_die(canvas: Canvas, faces: ComponentFaces, component: Component, net: Net) -> None:
    """Each face of the die in its square of the cross."""
    for region in net.regions:
        draw_die_face(canvas, faces, component, int(region.name.split("-")[1]), region)


# --- standees
# --------------------------------------------------------------------------------------------------

def draw_standee(canvas: Canvas, faces: ComponentFaces, component: Component, item: Card, net: Net) -> None:
    """The figure on the front, its back (the front mirrored, or the back layout) and its name on the base."""
    back_layout = component.model.back is not None
    for region in net.regions:
        if region.name == "front":
            faces.place_clipped(
                canvas, component, item, region.cx, region.cy, region_clip(region), region.angle
            )
        elif region.name == "back":
            card = None if back_layout else item
            faces.place_clipped(
                canvas,
                component,
                card,
                region.cx,
                region.cy,
                region_clip(region),
                region.angle,
                mirror=not back_layout,
            )
        elif region.name == "base":
            with region_space(canvas, region):
                size = fitted_size(item.name, BODY_BOLD, 8, region.width - mm(4), region.height / 2)
                if size:
                    centred_line(canvas, item.name, BODY_BOLD, size, "#666666", -region.height / 4)


# --- tuck boxes
# ------------------------------------------------------------------------------------------------

def _label(component: Component, region: Region, text: str, font: str, largest: float, width: float,
           height: float) -> float:
    size = fitted_size(text, font, largest, width, height)
    if size is None:
        raise InputError(Problem(component.file, component.line_of("component"),
                                 f"tuck box '{component.id}': '{text}' does not fit on its {region.name} "
                                 f"({width / mm(1):.0f} x {height / mm(1):.0f} mm) even at {MIN_LABEL:g} pt; "
                                 "expected a shorter deck name or a thicker box"))
    return size


def _deck_back(canvas: Canvas, game: Game, deck_id: str, art: tuple[float, float, float, float]) -> None:
    """The deck's back, whole, as large as fits the box `art` (x0, y0, x1, y1) and centred in it."""
    renderer = renderer_for(game)
    deck = game.decks[deck_id]
    cw, ch = deck.size_pt
    x0, y0, x1, y1 = art
    scale = min((x1 - x0) / cw, (y1 - y0) / ch)
    canvas.translate((x0 + x1) / 2, (y0 + y1) / 2)
    canvas.scale(scale, scale)
    renderer.place(canvas, deck, None, (-cw / 2, -ch / 2), bleed=False)


BLEEDING = ("front", "back", "side-left", "side-right", "lid")  # panels with art up to a cut edge


def draw_tuckbox(canvas: Canvas, game: Game, component: Component, box: TuckboxSize, net: Net,
                 bleed: float = 0.0) -> None:
    """The deck's back art on the front and back, its name on the sides, the game on the lid, 'glue' on the
    flap.

    With `bleed` (a print shop's die-cut sheet), each coloured panel's art runs that far past its cut edges
    (the thumb notch, the outer side's edge), never onto another part of the net: a die a little off shows no
    white."""
    parts = {part.name: part for part in net.parts}
    for region in net.regions:
        if not bleed or region.name not in BLEEDING or region.name not in parts:
            draw_tuckbox_panel(canvas, game, component, box, region)
            continue
        canvas.saveState()
        # clip: the panel grown by the bleed, less every other part (even-odd: each part is one more hole)
        grown = transform_path(rect_path(-region.width / 2 - bleed, -region.height / 2 - bleed,
                                         region.width + 2 * bleed, region.height + 2 * bleed),
                               region.angle, region.cx, region.cy)
        others = [pdf_path_ops(part.path) for name, part in parts.items() if name != region.name]
        canvas._code.append("\n".join([pdf_path_ops(grown), *others, "W* n"]))  # noqa: SLF001 - a bare clip
        draw_tuckbox_panel(canvas, game, component, box, region, bleed)
        canvas.restoreState()


def draw_tuckbox_panel(canvas: Canvas, game: Game, component: Component, box: TuckboxSize, region: Region,
                       bleed: float = 0.0) -> None:
    """The art of one panel of a tuck box (front, back, side-left, side-right, lid or glue), its background
    `bleed` larger on every side (the caller clips it)."""
    say = game.phrases.t
    model = component.model
    decks = [game.decks[d] for d in model.deck_ids]
    name = say("components.deck_join").join(d.name for d in decks)
    color, ink = model.color, contrast(model.color)
    part = say("components.box_part", number=box.number, boxes=box.boxes) if box.boxes > 1 else ""
    with region_space(canvas, region):
        w, h = region.width, region.height
        b = bleed
        if region.name in ("front", "back"):
            # the name band at the foot of the front, the count at the head of the back, the deck's back art
            # whole beside it (the band covers none of it), on the box's colour
            layout = panel_layout(w, h, banner_at_foot=region.name == "front")
            band, y = layout.band_h, layout.band_y
            canvas.setFillColor(HexColor(color))
            canvas.rect(-w / 2 - b, -h / 2 - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
            canvas.saveState()
            _deck_back(canvas, game, decks[0].id, layout.art)
            canvas.restoreState()
            canvas.setFillColor(HexColor(color))
            canvas.rect(-w / 2, y - band / 2, w, band, stroke=0, fill=1)
            text = (
                (model.label or name)
                if region.name == "front"
                else say("components.box_cards", count=box.cards) + part
            )
            font = TITLE if region.name == "front" else BODY_BOLD
            size = _label(component, region, text, font, 16, w - mm(6), band)
            centred_line(canvas, text, font, size, ink, y)
        elif region.name.startswith("side"):
            canvas.setFillColor(HexColor(color))
            canvas.rect(-w / 2 - b, -h / 2 - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
            text = f"{game.title} \u00b7 {name}{part}"
            # FOLD_CLEARANCE from both folds; a side too narrow for that carries no text
            size = fitted_size(text, TITLE, 14, w - mm(10), side_text_room(h))
            if size:
                centred_line(canvas, text, TITLE, size, ink)
        elif region.name == "lid":
            canvas.setFillColor(HexColor(tint(color, 0.85)))
            canvas.rect(-w / 2 - b, -h / 2 - b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
            # between two folds too (the back's and the tuck flap's): FOLD_CLEARANCE from each
            size = fitted_size(game.title, TITLE, 16, w - mm(6), side_text_room(h))
            if size:
                centred_line(canvas, game.title, TITLE, size, color)
        elif region.name == "glue":
            glue = say("components.glue")
            size = fitted_size(glue, BODY_BOLD, 7, w, h)
            if size:
                centred_line(canvas, glue, BODY_BOLD, size, "#777777")
