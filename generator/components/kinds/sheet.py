"""kind: sheet: a printed table page, a score pad or a player aid (drawn by components.table_sheet)."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from generator.components.draw import draw_cuts
from generator.components.kinds.base import check_size
from generator.components.nets import rect_path
from generator.components.pages import Piece, Placed
from generator.components.table_sheet import draw_sheet, note_lines, sheet_texts, table_geometry
from generator.core.errors import InputError, Problems
from generator.core.geometry import PAPERS
from generator.core.units import to_pt
from generator.data.component_models import sheet_room
from generator.data.components import Component
from generator.data.game import Game

NAME = "sheet"
PICTURE_PAPER = "letter"   # the rules picture a whole-page sheet as printed on Letter


def sheet_size(component: Component, paper: str) -> tuple[float, float]:
    """A table sheet's size: its pad size, or the whole room of the page."""
    size = component.model.size
    if size == "page":
        return sheet_room(paper)
    return to_pt(size.width), to_pt(size.height)


def pieces(game: Game, component: Component, paper: str) -> list[Piece]:
    """One sheet per copy, never turned (its text reads upright)."""
    w, h = sheet_size(component, paper)
    return [Piece((NAME, component.id, copy), w, h, turnable=False) for copy in range(component.model.copies)]


def check(game: Game, component: Component, problems: Problems) -> None:
    """Its texts must render, a pad must fit a page, and the table must fit the sheet on every paper."""
    try:
        texts = sheet_texts(game, component)
    except InputError as exc:
        problems.extend(exc.problems)
        return
    for paper in PAPERS:
        w, h = sheet_size(component, paper)
        if component.model.size != "page":
            check_size(component, w, h, "size", problems)
        geometry = table_geometry(w, h, texts.widths, len(texts.rows), len(note_lines(texts, w)))
        if isinstance(geometry, str):
            problems.add(component.file, component.line_of("rows"), f"sheet '{component.id}' on "
                         f"{PAPERS[paper].name}: {geometry}")


def _draw_at(canvas: Canvas, game: Game, component: Component, x: float, y: float, w: float,
             h: float) -> None:
    draw_sheet(canvas, component, sheet_texts(game, component), x, y, w, h)
    if component.model.size != "page":
        draw_cuts(canvas, [rect_path(x, y, w, h)])


def draw(canvas: Canvas, game: Game, component: Component, laid: Placed) -> None:
    box = laid.box
    _draw_at(canvas, game, component, box.x, box.y, box.w, box.h)


def picture_flat_size(game: Game, component: Component) -> tuple[float, float]:
    return sheet_size(component, PICTURE_PAPER)


def draw_picture_flat(canvas: Canvas, game: Game, component: Component) -> None:
    _draw_at(canvas, game, component, 0, 0, *sheet_size(component, PICTURE_PAPER))


def picture_made_box(game: Game, component: Component) -> tuple[float, float, float]:
    """A sheet is used as printed."""
    return 0.0, 0.0, 0.0


def draw_picture_made(canvas: Canvas, game: Game, component: Component,
                      box: tuple[float, float, float]) -> None:
    """Nothing: a sheet is not made up."""
