"""Board outputs: the board at true size with bleed, and tiled over Letter/A4 pages with an assembly sheet."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.boards.draw import FRAME, INK, board_plan, draw_board, measure
from generator.boards.plan import BODY_FONT, BOLD_FONT, TITLE_FONT, BoardPlan, wrap
from generator.boards.tiling import Tile, Tiling, plan_tiling
from generator.core.contract import BuildOptions, FunctionProducer, Output, OutputKind
from generator.core.fonts import draw_string, register_fonts
from generator.core.geometry import Rect, check_square, paper_of, paper_words
from generator.core.margins import Margin, margin_use
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import INCH, MM, to_pt
from generator.data.game import Board, Game

BLEED = 3 * MM
PRINTER_MARGIN = 6 * MM
DEFAULT_OVERLAP = "12mm"
FORM = "board"


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """board-full.pdf plus one tiled PDF per paper, for every board of the game."""
    boards = [game.boards[key] for key in sorted(game.boards)]
    overlap = to_pt(DEFAULT_OVERLAP)
    result = []
    for board in boards:
        stem = "board" if len(boards) == 1 else f"board-{board.id}"
        result.append(Output(game.id, Path(game.id) / f"{stem}-full.pdf", "board-full",
                             partial(render_full, game, board)))
        for paper in game.papers(options):
            result.append(Output(game.id, Path(game.id) / f"{stem}-{paper}.pdf", "board-tiled",
                                 partial(render_tiled, game, board, paper, overlap)))
    return result


# A board is drawn from its file alone (with the pictures and fonts it shows), and no option changes it.
BOARD_PARTS = ("game", "board", "pictures", "fonts")
BOARDS = FunctionProducer(
    "boards", "board laid out from its data", outputs, plans_from=BOARD_PARTS,
    makes=(OutputKind("board-full", BOARD_PARTS, ()), OutputKind("board-tiled", BOARD_PARTS, ())))


def _canvas(path: Path, size: tuple[float, float], title: str) -> Canvas:
    register_fonts()
    canvas = Canvas(str(path), pagesize=size, invariant=1, initialFontName=BODY_FONT, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("pnp generator")
    return canvas


def _define_form(canvas: Canvas, game: Game, board: Board, plan: BoardPlan, bleed: float) -> None:
    """Draw the board once as a Form XObject (origin = trim lower-left)."""
    canvas.beginForm(FORM, -bleed, -bleed, plan.width + bleed, plan.height + bleed)
    draw_board(canvas, game, board, 0, 0, bleed=bleed, plan=plan)
    canvas.endForm()


def render_full(game: Game, board: Board, path: Path) -> dict:
    """One page at the board's true size plus bleed, with TrimBox and BleedBox."""
    plan = board_plan(game, board)
    w, h = plan.width, plan.height
    page = (w + 2 * BLEED, h + 2 * BLEED)
    canvas = _canvas(path, page, game.phrases.t("board.title_full", title=game.title, board=board.model.name))
    canvas.setTrimBox((BLEED, BLEED, BLEED + w, BLEED + h))
    canvas.setBleedBox((0, 0, page[0], page[1]))
    _define_form(canvas, game, board, plan, BLEED)
    canvas.saveState()
    canvas.translate(BLEED, BLEED)
    canvas.doForm(FORM)
    canvas.restoreState()
    canvas.showPage()
    canvas.save()
    facts = {"pages": 1, "tiles": [1, 1], "size_mm": [round(w / MM, 2), round(h / MM, 2)]}
    if plan.warnings or plan.dropped:  # visible in build/manifest.json for the designer
        facts["warnings"] = plan.warnings + [f"no room for the {what}" for what in plan.dropped]
    return facts


def render_tiled(game: Game, board: Board, paper: str, overlap: float, path: Path) -> dict:
    """An assembly page, then one page per tile, each showing its part of the board at 100 %. A board that
    fits one sheet is that one page: nothing to assemble, so no assembly page about overlaps."""
    plan = board_plan(game, board)
    tiling = plan_tiling((plan.width, plan.height), paper_of(paper).size, PRINTER_MARGIN, overlap)
    canvas = _canvas(
        path,
        tiling.page,
        game.phrases.t("board.title_tiled", title=game.title, board=board.model.name, paper=paper),
    )
    _define_form(canvas, game, board, plan, BLEED)
    single = tiling.pages == 1
    if not single:
        _assembly_page(canvas, game, board, tiling, paper, (plan.width, plan.height))
        canvas.showPage()
    for tile in tiling.tiles:
        _tile_page(
            canvas,
            tiling,
            tile,
            (plan.width, plan.height),
            board.model.name,
            paper if single else None,
            game.phrases,
        )
        canvas.showPage()
    canvas.save()
    return {"pages": tiling.pages + (0 if single else 1), "tiles": [tiling.rows, tiling.cols],
            "orientation": tiling.orientation}


def _tile_page(canvas: Canvas, tiling: Tiling, tile: Tile, board_size: tuple[float, float], name: str,
               single_paper: str | None = None, phrases: Phrases = ENGLISH) -> None:
    """One tile; `single_paper` when the board fits one sheet (its label then says how to print and cut
    it)."""
    m = tiling.margin
    aw, ah = tiling.area
    dx, dy = tiling.offset(tile)
    margins = _outer_margins(tiling, tile, board_size)
    # the board's bleed shows only as far as its corner marks leave room for, and never beyond the printable
    # area
    x0 = max(m, dx - margins["left"].shown) if margins["left"] else m
    y0 = max(m, dy - margins["bottom"].shown) if margins["bottom"] else m
    x1 = min(m + aw, dx + board_size[0] + margins["right"].shown) if margins["right"] else m + aw
    y1 = min(m + ah, dy + board_size[1] + margins["top"].shown) if margins["top"] else m + ah
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(dx, dy)
    canvas.doForm(FORM)
    canvas.restoreState()
    canvas.setStrokeColor(HexColor("#333333"))
    # Cut edges: a tile is cut on its left/top edge and laid over its left/upper neighbour.
    canvas.setLineWidth(0.6)
    if tile.col > 0:
        canvas.line(m, m, m, m + ah)
    if tile.row > 0:
        canvas.line(m, m + ah, m + aw, m + ah)
    # Glue strips: the dashed line shows where the next tile's cut edge goes; it lies just inside the strip
    # so the next tile covers it completely.
    step_w, step_h = aw - tiling.overlap, ah - tiling.overlap
    canvas.setDash(4, 3)
    canvas.setLineWidth(0.8)
    if tile.col < tiling.cols - 1:
        canvas.line(m + step_w + 0.5, m, m + step_w + 0.5, m + ah)
    if tile.row < tiling.rows - 1:
        canvas.line(m, m + ah - step_h - 0.5, m + aw, m + ah - step_h - 0.5)
    canvas.setDash()
    _trim_marks(canvas, tiling, tile, board_size, margins)
    if single_paper is not None:
        _single_label(canvas, tiling, name, single_paper, phrases, margins["bottom"])
    else:
        _tile_label(canvas, tiling, tile, board_size, name, phrases)




def _single_label(canvas: Canvas, tiling: Tiling, name: str, paper: str, phrases: Phrases,
                  bottom: Margin) -> None:
    """Under (or beside) a one-sheet board: its name, print at 100 %, cut at the corner marks, and a check
    bar."""
    m, aw = tiling.margin, tiling.area[0]
    dx, dy = tiling.offset(tiling.tiles[0])
    size = 8.0
    text = phrases.t("board.single_label", board=name)
    length, label = check_square(paper)
    label = phrases.t(label)
    canvas.setFillColor(HexColor(INK))
    canvas.setStrokeColor(HexColor(INK))
    # paper under the board and its corner marks
    below = dy - max(bottom.shown, bottom.start + bottom.length) - m
    canvas.saveState()
    if below >= size + 4:
        canvas.translate(m + 4, m + (below - size) / 2)
    else:  # beside the board, reading upwards
        canvas.translate(m + aw - 2, m + 4)
        canvas.rotate(90)
    canvas.setFont(BOLD_FONT, size)
    draw_string(canvas, 0, 0, text, BOLD_FONT, size)
    x = measure(text, BOLD_FONT, size) + 12
    canvas.rect(x, 0.5, length, size - 2, stroke=0, fill=1)
    canvas.setFont(BODY_FONT, size)
    draw_string(canvas, x + length + 4, 0, label, BODY_FONT, size)
    canvas.restoreState()


def _outer_margins(tiling: Tiling, tile: Tile, board_size: tuple[float, float]) -> dict[str, Margin | None]:
    """For each side of the board's trim on this tile, how the paper beyond it is shared between the bleed
    shown and the corner marks (as on card sheets); None for a side where the board goes on onto the next
    tile."""
    pw, ph = tiling.page
    dx, dy = tiling.offset(tile)
    return {"left": margin_use(dx, BLEED) if tile.col == 0 else None,
            "right": margin_use(pw - board_size[0] - dx, BLEED) if tile.col == tiling.cols - 1 else None,
            "bottom": margin_use(dy, BLEED) if tile.row == tiling.rows - 1 else None,
            "top": margin_use(ph - board_size[1] - dy, BLEED) if tile.row == 0 else None}


def _trim_marks(canvas: Canvas, tiling: Tiling, tile: Tile, board_size: tuple[float, float],
                margins: dict[str, Margin | None]) -> None:
    """At each of the board's trim corners on this tile, a tick on each trim line through it: the horizontal
    line's in the margin beside the board, the vertical line's in the margin above or below it."""
    dx, dy = tiling.offset(tile)
    canvas.setLineWidth(0.5)
    for across, bx, sx in (("left", 0.0, -1), ("right", board_size[0], 1)):
        for along, by, sy in (("bottom", 0.0, -1), ("top", board_size[1], 1)):
            side, end = margins[across], margins[along]
            if side is None or end is None:  # this corner is on another tile
                continue
            x, y = bx + dx, by + dy
            if side.length:
                canvas.line(x + sx * side.start, y, x + sx * (side.start + side.length), y)
            if end.length:
                canvas.line(x, y + sy * end.start, x, y + sy * (end.start + end.length))


def tile_name(tile: Tile, phrases: Phrases = ENGLISH) -> str:
    """'row 1 col 2' in the build's language."""
    return phrases.t("board.tile_name", row=tile.row + 1, col=tile.col + 1)


def _tile_label(canvas: Canvas, tiling: Tiling, tile: Tile, board_size: tuple[float, float], name: str,
                phrases: Phrases = ENGLISH) -> None:
    """'row r col c' where it is covered after assembly: a glue strip, else the paper beyond the board."""
    m, aw, ov = tiling.margin, tiling.area[0], tiling.overlap
    text = phrases.t("board.tile_label", tile=tile_name(tile, phrases), board=name,
                     number=tile.row * tiling.cols + tile.col + 1, tiles=tiling.pages)
    size = 8.0
    dx, dy = tiling.offset(tile)
    below_board = dy - m  # height of blank paper under the board on this tile
    right_of_board = m + aw - (board_size[0] + dx)
    canvas.setFont(BOLD_FONT, size)
    canvas.setFillColor(HexColor(INK))
    if tile.row < tiling.rows - 1:
        spot, angle = (m + 4, m + (ov - size) / 2 + 1), 0
    elif below_board >= size + 6:
        spot, angle = (m + 4, m + (below_board - size) / 2 + 1), 0
    elif tile.col < tiling.cols - 1:
        spot, angle = (m + aw - (ov - size) / 2 - 1, m + 4), 90
    elif right_of_board >= size + 6:
        spot, angle = (m + aw - (right_of_board - size) / 2 - 1, m + 4), 90
    else:  # no hidden room at all: a small tag in the corner
        width = measure(text, BOLD_FONT, size) + 6
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.rect(m, m, width, size + 5, stroke=0, fill=1)
        canvas.setFillColor(HexColor(INK))
        spot, angle = (m + 3, m + 3), 0
    canvas.saveState()
    canvas.translate(*spot)
    canvas.rotate(angle)
    draw_string(canvas, 0, 0, text, BOLD_FONT, size)
    canvas.restoreState()


def _assembly_page(canvas: Canvas, game: Game, board: Board, tiling: Tiling, paper: str,
                   board_size: tuple[float, float]) -> None:
    """Which tile goes where, the print-at-100 % warning, a check square and the assembly steps."""
    say = game.phrases.t
    pw, ph = tiling.page
    m = 15 * MM
    y = ph - m - 20
    canvas.setFillColor(HexColor(FRAME))
    canvas.setFont(TITLE_FONT, 20)
    draw_string(canvas, m, y, say("board.heading", title=game.title, board=board.model.name), TITLE_FONT, 20)
    y -= 18
    canvas.setFont(BODY_FONT, 10)
    canvas.setFillColor(HexColor(INK))
    size_mm = f"{board_size[0] / MM:.0f} \u00d7 {board_size[1] / MM:.0f} mm"
    facts = say("board.facts", size=size_mm, pages=say("board.pages", count=tiling.pages),
                paper=paper_words(paper, say), orientation=say(f"board.{tiling.orientation}"),
                rows=tiling.rows, cols=tiling.cols, overlap=f"{tiling.overlap / MM:.0f}")
    draw_string(canvas, m, y, facts, BODY_FONT, 10)
    y -= 22
    canvas.setFont(BOLD_FONT, 13)
    canvas.setFillColor(HexColor("#b00020"))
    draw_string(canvas, m, y, say("board.print_at_100"), BOLD_FONT, 13)
    # Check squares: 1 in and 25 mm, both labelled.
    y -= 12
    canvas.setFillColor(HexColor(INK))
    canvas.setStrokeColor(HexColor(INK))
    canvas.setLineWidth(0.8)
    x = m
    for side, text in ((25 * MM, say("units.mm25")), (INCH, say("units.inch"))):
        canvas.rect(x, y - side, side, side, stroke=1, fill=0)
        canvas.setFont(BOLD_FONT, 8)
        draw_string(canvas, x + side / 2, y - side / 2 - 3, text, BOLD_FONT, 8, "center")
        x += side + 8
    canvas.setFont(BODY_FONT, 9)
    steps = [say("board.check"), say("board.step_cut"), say("board.step_lay"), say("board.step_tape")]
    ty = y - 4
    for step in steps:
        for line in wrap(step, pw - x - m, BODY_FONT, 9, measure):
            draw_string(canvas, x + 4, ty - 8, line, BODY_FONT, 9)
            ty -= 11.5
    y = min(y - INCH, ty) - 16
    # Diagram: the whole board scaled down, with every tile's part of it outlined and named.
    box = Rect(m, m, pw - 2 * m, y - m)
    tiles = [t.region for t in tiling.tiles]
    left = min(r.x for r in tiles)
    bottom = min(r.y for r in tiles)
    span_w = max(r.x2 for r in tiles) - left
    span_h = max(r.y2 for r in tiles) - bottom
    scale = min(box.w / span_w, box.h / span_h)
    ox = box.x + (box.w - span_w * scale) / 2 - left * scale
    oy = box.y2 - span_h * scale - bottom * scale
    canvas.saveState()
    canvas.translate(ox, oy)
    canvas.scale(scale, scale)
    canvas.doForm(FORM)
    canvas.restoreState()
    canvas.setLineWidth(1.2)
    canvas.setStrokeColor(HexColor("#b00020"))
    for tile in tiling.tiles:
        r = tile.region
        canvas.setDash(5, 3)
        canvas.rect(ox + r.x * scale, oy + r.y * scale, r.w * scale, r.h * scale, stroke=1, fill=0)
        canvas.setDash()
        label = say(
            "board.tile_page", tile=tile_name(tile, game.phrases), page=tile.row * tiling.cols + tile.col + 2
        )
        cx, cy = ox + r.cx * scale, oy + r.cy * scale
        width = measure(label, BOLD_FONT, 10) + 10
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.roundRect(cx - width / 2, cy - 8, width, 18, 4, stroke=1, fill=1)
        canvas.setFillColor(HexColor("#b00020"))
        canvas.setFont(BOLD_FONT, 10)
        draw_string(canvas, cx, cy - 2.5, label, BOLD_FONT, 10, "center")
