"""kind: tuckbox: a box folded from one sheet for a deck (or decks of one card size).

Besides its nets on the component sheets, every box is printed once more at its own size in
`tuckboxes-full.pdf` (`write_full`), one page each with its TrimBox on the net, for a print shop.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.components.art import draw_tuckbox, draw_tuckbox_panel
from generator.components.draw import draw_net_lines, shade_glue
from generator.components.kinds.base import draw_box_faces
from generator.components.nets import Net, Region
from generator.components.pages import Piece, Placed
from generator.components.tuckbox_net import tuckbox_net
from generator.core.errors import Problems, did_you_mean, known_list
from generator.core.fonts import BODY
from generator.core.units import mm
from generator.data.components import Component, tuckbox_plan
from generator.data.game import Game

NAME = "tuckbox"
FULL_MARGIN = mm(6)
FULL_BLEED = mm(3)  # the panels' art past their cut edges on a print shop's die-cut sheet (print.md: 1/8 in)


def net(game: Game, component: Component, number: int = 1) -> Net:
    """The flat net of box `number`, lower-left corner at (0, 0)."""
    return tuckbox_net(tuckbox_plan(component, game.decks)[number - 1])


def pieces(game: Game, component: Component, paper: str) -> list[Piece]:
    """One net per box the decks are shared between (the key names the box's number)."""
    out = []
    for box in tuckbox_plan(component, game.decks) or []:
        flat = net(game, component, box.number)
        out.append(Piece((NAME, component.id, box.number), flat.width, flat.height))
    return out


def check(game: Game, component: Component, problems: Problems) -> None:
    """Its decks must exist and their cards fit on Letter and A4 in the boxes asked for."""
    model = component.model
    unknown = [d for d in model.deck_ids if d not in game.decks]
    for deck_id in unknown:
        key = "deck" if model.deck is not None else "decks"
        problems.add(component.file, component.line_of(key), f"tuck box '{component.id}' is for deck "
                     f"'{deck_id}', which does not exist{did_you_mean(deck_id, game.decks)}; known: "
                     f"{known_list(game.decks)}")
    if unknown:
        return
    if tuckbox_plan(component, game.decks) is None:
        cards = sum(game.decks[d].copies for d in model.deck_ids)
        how = "even with one box per card" if model.boxes == "auto" else f"shared between {model.boxes} boxes"
        problems.add(component.file, component.line_of("boxes" if model.boxes != "auto" else "component"),
                     f"tuck box '{component.id}' for {cards} cards does not fit on Letter and A4 {how}; "
                     "expected `boxes: auto` or more boxes, or a smaller card size")


def draw(canvas: Canvas, game: Game, component: Component, laid: Placed) -> None:
    number = laid.piece.key[2]
    placed = net(game, component, number).placed(laid.x, laid.y, laid.turned)
    shade_glue(canvas, placed)
    draw_tuckbox(canvas, game, component, tuckbox_plan(component, game.decks)[number - 1], placed)
    draw_net_lines(canvas, placed)


def write_full(game: Game, path: Path) -> dict:
    """One page per tuck box at its own size (net plus a margin), TrimBox on the net, for a print shop."""
    canvas = Canvas(str(path), pagesize=(100, 100), invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(game.phrases.t("components.title_tuckboxes", title=game.title))
    canvas.setCreator("pnp")
    pages = 0
    for component in game.components.values():
        if not component.model.full_size_pages:
            continue
        for box in tuckbox_plan(component, game.decks):
            flat = net(game, component, box.number)
            w, h = flat.width + 2 * FULL_MARGIN, flat.height + 2 * FULL_MARGIN
            canvas.setPageSize((w, h))
            canvas.setTrimBox((FULL_MARGIN, FULL_MARGIN, w - FULL_MARGIN, h - FULL_MARGIN))
            edge = FULL_MARGIN - FULL_BLEED
            canvas.setBleedBox((edge, edge, w - edge, h - edge))
            placed = flat.placed(FULL_MARGIN, FULL_MARGIN)
            shade_glue(canvas, placed)
            draw_tuckbox(canvas, game, component, box, placed, FULL_BLEED)
            draw_net_lines(canvas, placed, spots=True)
            canvas.showPage()
            pages += 1
    canvas.save()
    return {"pages": pages}


def picture_flat_size(game: Game, component: Component) -> tuple[float, float]:
    flat = net(game, component)
    return flat.width, flat.height


def draw_picture_flat(canvas: Canvas, game: Game, component: Component) -> None:
    """The first box's net."""
    flat = net(game, component)
    shade_glue(canvas, flat)
    draw_tuckbox(canvas, game, component, tuckbox_plan(component, game.decks)[0], flat)
    draw_net_lines(canvas, flat)


def picture_made_box(game: Game, component: Component) -> tuple[float, float, float]:
    """The inside of the first box."""
    box = tuckbox_plan(component, game.decks)[0]
    return box.width, box.height, box.depth


def draw_picture_made(canvas: Canvas, game: Game, component: Component,
                      box: tuple[float, float, float]) -> None:
    """The front panel, the lid on top and the left side panel on the right."""
    first = tuckbox_plan(component, game.decks)[0]

    def panel(name: str, angle: float = 0.0):
        def draw_panel(region: Region) -> None:
            across = angle % 180 == 90
            turned = Region(name, region.cx, region.cy, region.height if across else region.width,
                            region.width if across else region.height, angle=angle)
            draw_tuckbox_panel(canvas, game, component, first, turned)
        return draw_panel
    draw_box_faces(canvas, *box, panel("front"), panel("lid", 180), panel("side-left", 90))
