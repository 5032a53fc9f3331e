"""Table sheets (score pads, player aids): the table's geometry (pure) and its drawing.

A sheet is a title, a table (a header row, body rows and an optional totals row) and notes underneath. Body
rows are blank (a score pad: `rows: 12`) or one per row of a table or card type of a deck (`rows: {from:
id}`). Cell, header, title and note texts are templates of the game's one template language.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import InputError, Problem, Problems
from generator.core.fonts import BODY, BODY_BOLD, TITLE, draw_string, string_width
from generator.core.units import mm, to_pt
from generator.data.components import Component
from generator.data.game import Game
from generator.data.templating import GameHelpers, environment, game_view

PADDING = mm(4)
TITLE_H = mm(10)
HEADER_H = mm(8)
NOTE_H = mm(4.5)
ROW_MIN, ROW_MAX = mm(6), mm(10)
TEXT_SIZE, TEXT_MIN = 9.0, 6.5
NOTE_SIZE = 8.0
GRID = "#888888"


@dataclass(frozen=True)
class TableGeometry:
    """Column edges (x, left to right) and row edges (y, top to bottom) of the table, in the sheet's
    points."""

    xs: list[float]
    ys: list[float]
    title_y: float
    notes_y: list[float]


def column_widths(widths: list[float | None], total: float) -> list[float] | None:
    """Given widths kept, the rest shared by the columns without one; None when the given ones are too
    wide."""
    fixed = sum(w for w in widths if w is not None)
    free = [w for w in widths if w is None]
    if fixed > total + 1e-6 or (free and fixed >= total):
        return None
    share = (total - fixed) / len(free) if free else 0.0
    return [w if w is not None else share for w in widths]


def table_geometry(width: float, height: float, widths: list[float | None], body_rows: int,
                   notes: int) -> TableGeometry | str:
    """Where the title, table and notes go on a sheet of width x height; a message when they do not fit."""
    columns = column_widths(widths, width - 2 * PADDING)
    if columns is None:
        return f"the column widths add up to more than the {(width - 2 * PADDING) / mm(1):.0f} mm a row has"
    room = height - 2 * PADDING - TITLE_H - HEADER_H - notes * NOTE_H
    row = min(ROW_MAX, room / body_rows) if body_rows else ROW_MAX
    if row < ROW_MIN - 1e-6:
        return (f"{body_rows} rows need {body_rows * ROW_MIN / mm(1):.0f} mm but the sheet leaves "
                f"{max(room, 0) / mm(1):.0f} mm; expected fewer rows or a larger size")
    xs = [PADDING]
    for w in columns:
        xs.append(xs[-1] + w)
    top = height - PADDING - TITLE_H
    ys = [top, top - HEADER_H] + [top - HEADER_H - (i + 1) * row for i in range(body_rows)]
    notes_y = [ys[-1] - (i + 1) * NOTE_H for i in range(notes)]
    return TableGeometry(xs, ys, height - PADDING - TITLE_H / 2, notes_y)


@dataclass
class SheetTexts:
    """Every text of a sheet rendered: title, header cells, body cells (row by row), notes."""

    title: str
    headers: list[str]
    aligns: list[str]
    widths: list[float | None]
    rows: list[list[str]]
    notes: list[str]


def sheet_texts(game: Game, component: Component) -> SheetTexts:
    """Render the sheet's templates with the game's data; InputError naming the file and line of a bad one."""
    model = component.model
    view = game_view(game)
    env = environment(autoescape=False, helpers=GameHelpers(game, view).functions())
    problems = Problems()

    def render(source: str, key: str, **context) -> str:
        try:
            return env.from_string(source).render(game=view, **context).strip()
        except Exception as exc:  # a template mistake: named with the component's line, never a traceback
            problems.add(component.file, component.line_of(key), f"sheet '{component.id}' {key}: {exc}")
            return ""

    if isinstance(model.rows, int):
        sources = [{"number": i + 1} for i in range(model.rows)]
    else:
        name = model.rows.source
        if name in view["tables"]:
            records = view["tables"][name]["rows"]
        elif name in view["decks"]:
            records = view["decks"][name]["cards"]
        else:
            known = sorted(list(view["tables"]) + list(view["decks"]))
            raise InputError(
                Problem(
                    component.file,
                    component.line_of("rows"),
                    f"sheet '{component.id}': rows "
                    f"from '{name}', which is no table or deck; known: {', '.join(known)}",
                )
            )
        sources = [{"number": i + 1, "row": r} for i, r in enumerate(records)]
    headers, aligns, widths, cells = [], [], [], []
    for column in model.columns:
        for n in range(1, column.repeat + 1):
            headers.append(render(column.header, "columns", n=n))
            aligns.append(column.align)
            widths.append(to_pt(column.width) if column.width is not None else None)
            cells.append((column.text, n))
    rows = [[render(text, "columns", n=n, **src) if text else "" for text, n in cells] for src in sources]
    if model.total:
        rows.append([model.total] + [""] * (len(cells) - 1))
    title = render(model.title or model.name, "title")
    notes = [render(note, "notes") for note in model.notes]
    problems.raise_if_any()
    return SheetTexts(title, headers, aligns, widths, rows, notes)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Words of `text` broken into lines no wider than `width` (a single over-long word keeps its own
    line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and string_width(f"{lines[-1]} {word}", font, size) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def note_lines(texts: SheetTexts, width: float) -> list[str]:
    """The notes wrapped to the table's width."""
    return [line for note in texts.notes for line in wrap(note, BODY, NOTE_SIZE, width - 2 * PADDING)]


def _cell(canvas: Canvas, text: str, font: str, across: tuple[float, float], up: tuple[float, float],
          align: str, component: Component) -> None:
    """One cell's text between the column lines `across` (x0, x1) and the row lines `up` (y0, y1)."""
    if not text:
        return
    (x0, x1), (y0, y1) = across, up
    width = x1 - x0 - mm(2)
    size = TEXT_SIZE
    while string_width(text, font, size) > width and size > TEXT_MIN:
        size -= 0.25
    if string_width(text, font, size) > width:
        raise InputError(
            Problem(
                component.file,
                component.line_of("columns"),
                f"sheet '{component.id}': '{text}' does not fit its {(x1 - x0) / mm(1):.0f} mm "
                f"column even at {TEXT_MIN:g} pt; expected a wider column or a shorter text",
            )
        )
    canvas.setFont(font, size)
    y = (y0 + y1) / 2 - size * 0.35
    if align == "left":
        draw_string(canvas, x0 + mm(1), y, text, font, size)
    elif align == "right":
        draw_string(canvas, x1 - mm(1), y, text, font, size, "right")
    else:
        draw_string(canvas, (x0 + x1) / 2, y, text, font, size, "center")


def draw_sheet(canvas: Canvas, component: Component, texts: SheetTexts, x: float, y: float,
               width: float, height: float) -> None:
    """The sheet with its lower-left corner at (x, y)."""
    notes = note_lines(texts, width)
    geometry = table_geometry(width, height, texts.widths, len(texts.rows), len(notes))
    if isinstance(geometry, str):
        raise InputError(
            Problem(component.file, component.line_of("rows"), f"sheet '{component.id}': {geometry}")
        )
    canvas.saveState()
    canvas.translate(x, y)
    xs, ys = geometry.xs, geometry.ys
    canvas.setFillColor(HexColor("#222222"))
    canvas.setFont(TITLE, 14)
    draw_string(canvas, width / 2, geometry.title_y - 5, texts.title, TITLE, 14, "center")
    canvas.setFillColor(HexColor("#eeeeee"))
    canvas.rect(xs[0], ys[1], xs[-1] - xs[0], ys[0] - ys[1], stroke=0, fill=1)
    for i in range(len(texts.rows)):
        if i % 2 == 1:
            canvas.setFillColor(HexColor("#f6f6f6"))
            canvas.rect(xs[0], ys[i + 2], xs[-1] - xs[0], ys[i + 1] - ys[i + 2], stroke=0, fill=1)
    canvas.setStrokeColor(HexColor(GRID))
    canvas.setLineWidth(0.5)
    for gx in xs:
        canvas.line(gx, ys[0], gx, ys[-1])
    for gy in ys:
        canvas.line(xs[0], gy, xs[-1], gy)
    canvas.setFillColor(HexColor("#222222"))
    for c, header in enumerate(texts.headers):
        _cell(canvas, header, BODY_BOLD, (xs[c], xs[c + 1]), (ys[1], ys[0]), "center", component)
    for r, row in enumerate(texts.rows):
        font = BODY_BOLD if component.model.total and r == len(texts.rows) - 1 else BODY
        for c, text in enumerate(row):
            _cell(canvas, text, font, (xs[c], xs[c + 1]), (ys[r + 2], ys[r + 1]), texts.aligns[c], component)
    canvas.setFont(BODY, NOTE_SIZE)
    for note, ny in zip(notes, geometry.notes_y, strict=True):
        draw_string(canvas, xs[0], ny + 3, note, BODY, NOTE_SIZE)
    canvas.restoreState()
