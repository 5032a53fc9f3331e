"""Component sheets: every component file of a game on Letter/A4 (the build's component producer).

`components-<paper>.pdf` holds the tokens (packed, backs on the following page mirrored for duplex), standees
with their bases, dice nets, tuck boxes and table sheets, laid out by generator.components.pages; each kind's
module (generator.components.kinds) gives its pieces, checks and draws them. `tuckboxes-full.pdf` has one page
per tuck box at its own size, for a print shop. Everything is checked before anything is drawn: layouts and
texts, decks of tuck boxes, and that every piece fits the paper.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.draw import mirrored_block
from generator.components.faces import check_faces, faces_for
from generator.components.kinds import kind_of, tuckbox
from generator.components.pages import PageLayout, Piece, TokenRun, TooLarge, lay_out
from generator.core.contract import BuildOptions, FunctionProducer, Output, OutputKind
from generator.core.errors import InputError, Problem, Problems
from generator.core.fonts import BODY, BODY_BOLD, draw_string, string_width
from generator.core.geometry import check_square, paper_of, paper_words
from generator.core.units import mm
from generator.data.component_models import SHEET_MARGIN
from generator.data.game import Game

LABEL_SIZE = 7.0
LABEL_COLOR = "#333333"


# --- what is printed
# -------------------------------------------------------------------------------------------

def runs(game: Game, paper: str) -> list[Piece | TokenRun]:
    """Every piece of the game's components in print order (component files by kind, then by file)."""
    out: list[Piece | TokenRun] = []
    for component in game.components.values():
        out += kind_of(component).pieces(game, component, paper)
    return out


# --- checks
# ----------------------------------------------------------------------------------------------------

def check_components(game: Game) -> None:
    """Everything the component sheets need, checked before anything is drawn; InputError with every
    problem."""
    problems = Problems()
    try:
        check_faces(game)
    except InputError as exc:
        problems.extend(exc.problems)
    for component in game.components.values():
        kind_of(component).check(game, component, problems)
    problems.raise_if_any()


# --- drawing
# ---------------------------------------------------------------------------------------------------

def _labels(canvas: Canvas, game: Game, paper: str, page_w: float, text: str) -> None:
    """The strip at the foot of a page: title, which page, the 100 % note and a check bar."""
    say = game.phrases.t
    y = SHEET_MARGIN + 1.5
    x = SHEET_MARGIN
    canvas.setFillColor(HexColor(LABEL_COLOR))
    for words, face in ((say("components.label", title=game.title), BODY_BOLD), (text, BODY),
                        (say("components.print_at_100"), BODY_BOLD)):
        canvas.setFont(face, LABEL_SIZE)
        draw_string(canvas, x, y, words, face, LABEL_SIZE)
        x += string_width(words, face, LABEL_SIZE) + mm(5)
    length, words = check_square(paper)
    words = say(words)
    right = page_w - SHEET_MARGIN
    canvas.setFont(BODY, LABEL_SIZE)
    tail = string_width(words, BODY, LABEL_SIZE)
    canvas.rect(right - tail - mm(1.5) - length, y - 0.5, length, LABEL_SIZE * 0.6, stroke=0, fill=1)
    draw_string(canvas, right, y, words, BODY, LABEL_SIZE, "right")


def _draw_blocks(canvas: Canvas, game: Game, page: PageLayout, side: str, axis: str) -> None:
    """The token blocks of a page: their fronts (drawn by the kind), or the backs of the two-sided ones."""
    faces = faces_for(game)
    bleed = faces.bleed
    for block in page.blocks:
        component = game.components[block.component]
        if side == "front":
            kind_of(component).draw(canvas, game, component, block)
            continue
        if not block.two_sided:
            continue
        gap = block.packing.gap
        clip_shape = block.packing.shape.grown(min(gap / 2, bleed)) if gap > 0 else block.packing.shape
        for x, y, angle in mirrored_block(block, page.width, page.height, axis):
            faces.place_clipped(canvas, component, None, x, y, clip_shape.path(x, y), angle)


def write_components(game: Game, paper: str, options: BuildOptions, path: Path) -> dict:
    """Draw every component of the game on `paper` into `path` (checked by `outputs`); facts for the
    manifest."""
    pages = lay_out(paper, runs(game, paper))
    say = game.phrases.t
    axis = "y" if options.duplex == "short" else "x"
    flip = say(f"components.flip_{options.duplex if options.duplex in ('long', 'short', 'none') else 'long'}")
    canvas = Canvas(
        str(path), pagesize=paper_of(paper).size, invariant=1, initialFontName=BODY, pageCompression=1
    )
    canvas.setTitle(say("components.title", title=game.title, paper=paper_words(paper, say)))
    canvas.setAuthor(game.title)
    canvas.setCreator("pnp")
    sides = sum(2 if page.two_sided else 1 for page in pages)
    marked: set[str] = set()
    count = 0
    where: dict[str, list[int]] = {}
    for number, page in enumerate(pages, start=1):
        canvas.setPageSize((page.width, page.height))
        count += 1
        for cid in [b.component for b in page.blocks] + [p.piece.key[1] for p in page.pieces]:
            where.setdefault(cid, [])
            if count not in where[cid]:
                where[cid].append(count)
            if cid not in marked:
                marked.add(cid)
                canvas.bookmarkPage(f"c-{cid}")
                canvas.addOutlineEntry(game.components[cid].name, f"c-{cid}", level=0)
        _draw_blocks(canvas, game, page, "front", axis)
        for placed in page.pieces:
            component = game.components[placed.piece.key[1]]
            kind_of(component).draw(canvas, game, component, placed)
        _labels(canvas, game, paper, page.width, say("components.page_of", number=number, pages=len(pages))
                + (say("components.token_backs_next") if page.two_sided else ""))
        canvas.showPage()
        if page.two_sided:
            count += 1
            _draw_blocks(canvas, game, page, "back", axis)
            _labels(
                canvas, game, paper, page.width, say("components.backs_of_page", number=number, flip=flip)
            )
            canvas.showPage()
    canvas.save()
    facts: dict = {"pages": sides, "components": {}}
    for component in game.components.values():
        facts["components"][component.id] = {"kind": component.kind, "pages": where.get(component.id, [])}
    return facts


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """components-<paper>.pdf per requested paper (and tuckboxes-full.pdf), everything checked first."""
    if not game.components:
        return []
    check_components(game)
    problems: list[Problem] = []
    for paper in game.papers(options):
        try:
            lay_out(paper, runs(game, paper))
        except TooLarge as exc:
            problems.append(Problem(game.show(game.dir), 0, f"components on {paper}: {exc}"))
    if problems:
        raise InputError(problems)
    base = Path(game.id)
    result = [Output(game.id, base / f"components-{paper}.pdf", "components",
                     partial(write_components, game, paper, options)) for paper in game.papers(options)]
    if any(c.model.full_size_pages for c in game.components.values()):
        result.append(Output(game.id, base / "tuckboxes-full.pdf", "tuckboxes",
                             partial(tuckbox.write_full, game)))
    return result


# What the component sheets and tuck boxes are drawn from: the decks' makeup (names, sizes, card ids, copies),
# tables, component files, every component face as rendered with the table sheets' texts, and the backs of the
# decks the tuck boxes print. Two-sided tokens mirror their backs by --duplex; the tuck boxes' pages are
# one-sided.
COMPONENT_PARTS = ("game", "deck_makeup", "table", "component", "pictures", "fonts", "component_faces",
                   "boxed_backs")
COMPONENT_SHEETS = FunctionProducer(
    "component sheets", "component layouts, sizes and nets", outputs,
    plans_from=("game", "game_data", "data_files", "layouts", "pictures", "fonts", "templates"),
    makes=(OutputKind("components", COMPONENT_PARTS, ("duplex",)),
           OutputKind("tuckboxes", COMPONENT_PARTS, ())))
