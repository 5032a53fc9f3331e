"""Component sheets: every component file of a game on Letter/A4 (the build's component producer).

`components-<paper>.pdf` holds the tokens (packed, backs on the following page mirrored for duplex), standees
with their bases, dice nets, tuck boxes and table sheets, laid out by generator.components.pages.
`tuckboxes-full.pdf` has one page per tuck box at its own size, for a print shop. Everything is checked before
anything is drawn: layouts and texts, decks of tuck boxes, and that every piece fits the paper.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.art import draw_die, draw_standee, draw_tuckbox
from generator.components.die_net import die_net
from generator.components.draw import draw_cuts, draw_net_lines, mirrored_block, shade_glue
from generator.components.faces import check_faces, faces_for
from generator.components.nets import Net, rect_path
from generator.components.pages import PageLayout, Piece, TokenRun, TooLarge, lay_out
from generator.components.standee_net import StandeeSize, standee_net
from generator.components.table_sheet import draw_sheet, note_lines, sheet_texts, table_geometry
from generator.components.tuckbox_net import tuckbox_net
from generator.core.contract import BuildOptions, FunctionProducer, Output, OutputKind
from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.fonts import BODY, BODY_BOLD, draw_string, string_width
from generator.core.geometry import PAPERS
from generator.core.units import INCH, mm, to_pt
from generator.data.components import Component, fits_every_paper, sheet_room, tuckbox_plan
from generator.data.game import Card, Game

LABEL_SIZE = 7.0
LABEL_COLOR = "#333333"
CHECK = {"letter": (INCH, "units.inch"), "a4": (mm(25), "units.mm25")}
FULL_MARGIN = mm(6)
FULL_BLEED = mm(3)  # the panels' art past their cut edges on a print shop's die-cut sheet (print.md: 1/8 in)


# --- what is printed -------------------------------------------------------------------------------------------

def token_copies(component: Component) -> list[Card]:
    """Every printed token of a component: each item repeated `copies` times, in file order."""
    return [item for item in component.items for _ in range(item.copies)]


def token_gap(component: Component) -> float:
    """Room between tokens: none for hexagons and squares (they share cut edges) unless the file sets one."""
    model = component.model
    if model.gap is not None:
        return to_pt(model.gap)
    return 0.0 if model.shape in ("hex", "square") else mm(2)


def standee_size(component: Component) -> StandeeSize:
    model = component.model
    width = to_pt(model.width)
    base = to_pt(model.base) if model.base is not None else max(1.2 * width, mm(30))
    return StandeeSize(width, to_pt(model.height), to_pt(model.foot), base)


def sheet_size(component: Component, paper: str) -> tuple[float, float]:
    """A table sheet's size: its pad size, or the whole room of the page."""
    size = component.model.size
    if size == "page":
        return sheet_room(paper)
    return to_pt(size.width), to_pt(size.height)


def net_of(game: Game, component: Component, number: int = 1) -> Net:
    """The flat net of a die, standee or (box `number` of a) tuck box, lower-left corner at (0, 0)."""
    if component.kind == "die":
        return die_net(to_pt(component.model.size)).net
    if component.kind == "standee":
        return standee_net(standee_size(component))
    plan = tuckbox_plan(component, game.decks)
    return tuckbox_net(plan[number - 1])


def runs(game: Game, paper: str) -> list[Piece | TokenRun]:
    """Every piece of the game's components in print order (component files by kind, then by file)."""
    out: list[Piece | TokenRun] = []
    for component in game.components.values():
        cid = component.id
        if component.kind == "token":
            out.append(TokenRun(cid, component.shape, len(token_copies(component)), token_gap(component),
                                component.two_sided))
        elif component.kind == "die":
            net = net_of(game, component)
            out += [Piece(("die", cid, copy), net.width, net.height) for copy in range(component.copies)]
        elif component.kind == "standee":
            net = net_of(game, component)
            out += [Piece(("standee", cid, item.index, copy), net.width, net.height)
                    for item in component.items for copy in range(item.copies)]
        elif component.kind == "tuckbox":
            for box in tuckbox_plan(component, game.decks) or []:
                net = net_of(game, component, box.number)
                out.append(Piece(("tuckbox", cid, box.number), net.width, net.height))
        else:
            w, h = sheet_size(component, paper)
            out += [Piece(("sheet", cid, copy), w, h, turnable=False)
                    for copy in range(component.model.copies)]
    return out


# --- checks ----------------------------------------------------------------------------------------------------

def _check_tuckbox(game: Game, component: Component, problems: Problems) -> None:
    model = component.model
    unknown = [d for d in model.deck_ids if d not in game.decks]
    for deck_id in unknown:
        key = "deck" if model.deck is not None else "decks"
        problems.add(component.file, component.line_of(key), f"tuck box '{component.id}' is for deck '{deck_id}', "
                     f"which does not exist{did_you_mean(deck_id, game.decks)}; known: {known_list(game.decks)}")
    if unknown:
        return
    if tuckbox_plan(component, game.decks) is None:
        cards = sum(game.decks[d].copies for d in model.deck_ids)
        how = "even with one box per card" if model.boxes == "auto" else f"shared between {model.boxes} boxes"
        problems.add(component.file, component.line_of("boxes" if model.boxes != "auto" else "component"),
                     f"tuck box '{component.id}' for {cards} cards does not fit on Letter and A4 {how}; expected "
                     "`boxes: auto` or more boxes, or a smaller card size")


def _check_size(component: Component, width: float, height: float, key: str, problems: Problems) -> None:
    if not fits_every_paper(width, height):
        room = " and ".join(f"{PAPERS[p].name} {sheet_room(p)[0] / mm(1):.0f} x {sheet_room(p)[1] / mm(1):.0f} mm"
                            for p in PAPERS)
        problems.add(component.file, component.line_of(key), f"{component.kind} '{component.id}' needs "
                     f"{width / mm(1):.0f} x {height / mm(1):.0f} mm, more than a page holds ({room}); "
                     "expected a smaller size")


def check_components(game: Game) -> None:
    """Everything the component sheets need, checked before anything is drawn; InputError with every problem."""
    problems = Problems()
    try:
        check_faces(game)
    except InputError as exc:
        problems.extend(exc.problems)
    for component in game.components.values():
        kind = component.kind
        if kind == "tuckbox":
            _check_tuckbox(game, component, problems)
        elif kind == "token":
            shape = component.shape
            key = "diameter" if component.model.diameter is not None else "across"
            _check_size(component, shape.width, shape.height, key, problems)
        elif kind in ("die", "standee"):
            net = net_of(game, component)
            _check_size(component, net.width, net.height, "size" if kind == "die" else "height", problems)
        elif kind == "sheet":
            try:
                texts = sheet_texts(game, component)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            for paper in PAPERS:
                w, h = sheet_size(component, paper)
                if component.model.size != "page":
                    _check_size(component, w, h, "size", problems)
                geometry = table_geometry(w, h, texts.widths, len(texts.rows), len(note_lines(texts, w)))
                if isinstance(geometry, str):
                    problems.add(component.file, component.line_of("rows"), f"sheet '{component.id}' on "
                                 f"{PAPERS[paper].name}: {geometry}")
    problems.raise_if_any()


# --- drawing ---------------------------------------------------------------------------------------------------

def _labels(canvas: Canvas, game: Game, paper: str, page_w: float, text: str) -> None:
    """The strip at the foot of a page: title, which page, the 100 % note and a check bar."""
    from generator.data.components import SHEET_MARGIN

    say = game.phrases.t
    y = SHEET_MARGIN + 1.5
    x = SHEET_MARGIN
    canvas.setFillColor(HexColor(LABEL_COLOR))
    for words, face in ((say("components.label", title=game.title), BODY_BOLD), (text, BODY),
                        (say("components.print_at_100"), BODY_BOLD)):
        canvas.setFont(face, LABEL_SIZE)
        draw_string(canvas, x, y, words, face, LABEL_SIZE)
        x += string_width(words, face, LABEL_SIZE) + mm(5)
    length, words = CHECK[paper]
    words = say(words)
    right = page_w - SHEET_MARGIN
    canvas.setFont(BODY, LABEL_SIZE)
    tail = string_width(words, BODY, LABEL_SIZE)
    canvas.rect(right - tail - mm(1.5) - length, y - 0.5, length, LABEL_SIZE * 0.6, stroke=0, fill=1)
    draw_string(canvas, right, y, words, BODY, LABEL_SIZE, "right")


def _draw_piece(canvas: Canvas, game: Game, placed) -> None:
    kind, cid = placed.piece.key[0], placed.piece.key[1]
    component = game.components[cid]
    faces = faces_for(game)
    if kind == "sheet":
        box = placed.box
        texts = sheet_texts(game, component)
        draw_sheet(canvas, game, component, texts, box.x, box.y, box.w, box.h)
        if component.model.size != "page":
            draw_cuts(canvas, [rect_path(box.x, box.y, box.w, box.h)])
        return
    number = placed.piece.key[2] if kind == "tuckbox" else 1
    net = net_of(game, component, number).placed(placed.x, placed.y, placed.turned)
    shade_glue(canvas, net)
    if kind == "die":
        draw_die(canvas, faces, component, net)
    elif kind == "standee":
        draw_standee(canvas, faces, component, component.items[placed.piece.key[2] - 1], net)
    else:
        draw_tuckbox(canvas, game, component, tuckbox_plan(component, game.decks)[number - 1], net)
    draw_net_lines(canvas, net)


def _draw_blocks(canvas: Canvas, game: Game, page: PageLayout, side: str, axis: str) -> None:
    faces = faces_for(game)
    bleed = faces.bleed
    for block in page.blocks:
        component = game.components[block.component]
        copies = token_copies(component)
        gap = block.packing.gap
        clip_shape = block.packing.shape.grown(min(gap / 2, bleed)) if gap > 0 else block.packing.shape
        if side == "front":
            spots = [(s.x, s.y, s.angle) for s in block.packing.spots]
        elif block.two_sided:
            spots = mirrored_block(block, page.width, page.height, axis)
        else:
            continue
        for n, (x, y, angle) in enumerate(spots):
            card = copies[block.first + n] if side == "front" else None
            faces.place_clipped(canvas, component, card, x, y, clip_shape.path(x, y), angle)
        if side == "front":
            draw_cuts(canvas, block.packing.cuts())


def write_components(game: Game, paper: str, options: BuildOptions, path: Path) -> dict:
    """Draw every component of the game on `paper` into `path` (checked by `outputs`); facts for the manifest."""
    pages = lay_out(paper, runs(game, paper))
    say = game.phrases.t
    axis = "y" if options.duplex == "short" else "x"
    flip = say(f"components.flip_{options.duplex if options.duplex in ('long', 'short', 'none') else 'long'}")
    canvas = Canvas(str(path), pagesize=PAPERS[paper].size, invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(say("components.title", title=game.title, paper=say(f"paper.{paper}")))
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
            _draw_piece(canvas, game, placed)
        _labels(canvas, game, paper, page.width, say("components.page_of", number=number, pages=len(pages))
                + (say("components.token_backs_next") if page.two_sided else ""))
        canvas.showPage()
        if page.two_sided:
            count += 1
            _draw_blocks(canvas, game, page, "back", axis)
            _labels(canvas, game, paper, page.width, say("components.backs_of_page", number=number, flip=flip))
            canvas.showPage()
    canvas.save()
    facts: dict = {"pages": sides, "components": {}}
    for component in game.components.values():
        facts["components"][component.id] = {"kind": component.kind, "pages": where.get(component.id, [])}
    return facts


def write_tuckboxes_full(game: Game, path: Path) -> dict:
    """One page per tuck box at its own size (net plus a margin), TrimBox on the net, for a print shop."""
    canvas = Canvas(str(path), pagesize=(100, 100), invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(game.phrases.t("components.title_tuckboxes", title=game.title))
    canvas.setCreator("pnp")
    pages = 0
    for component in game.components.values():
        if component.kind != "tuckbox":
            continue
        for box in tuckbox_plan(component, game.decks):
            net = net_of(game, component, box.number)
            w, h = net.width + 2 * FULL_MARGIN, net.height + 2 * FULL_MARGIN
            canvas.setPageSize((w, h))
            canvas.setTrimBox((FULL_MARGIN, FULL_MARGIN, w - FULL_MARGIN, h - FULL_MARGIN))
            edge = FULL_MARGIN - FULL_BLEED
            canvas.setBleedBox((edge, edge, w - edge, h - edge))
            placed = net.placed(FULL_MARGIN, FULL_MARGIN)
            shade_glue(canvas, placed)
            draw_tuckbox(canvas, game, component, box, placed, FULL_BLEED)
            draw_net_lines(canvas, placed, spots=True)
            canvas.showPage()
            pages += 1
    canvas.save()
    return {"pages": pages}


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """components-<paper>.pdf per requested paper (and tuckboxes-full.pdf), everything checked first."""
    if not game.components:
        return []
    check_components(game)
    problems: list[Problem] = []
    for paper in options.papers:
        try:
            lay_out(paper, runs(game, paper))
        except TooLarge as exc:
            problems.append(Problem(game.show(game.dir), 0, f"components on {paper}: {exc}"))
    if problems:
        raise InputError(problems)
    base = Path(game.id)
    result = [Output(game.id, base / f"components-{paper}.pdf", "components",
                     partial(write_components, game, paper, options)) for paper in options.papers]
    if any(c.kind == "tuckbox" for c in game.components.values()):
        result.append(Output(game.id, base / "tuckboxes-full.pdf", "tuckboxes",
                             partial(write_tuckboxes_full, game)))
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
