"""Card sheets: every deck of a game imposed on Letter/A4 as print-ready PDFs (the build's card producer).

Each deck starts on a new sheet and gets a PDF outline entry. Every card face is drawn once as a Form XObject
and placed for each copy, so the cost grows with the number of different cards, not with copies. Pages are
produced one at a time from `layout.plan_pages`, never collected in a list.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.build import BuildOptions, Output
from generator.cardface import CardRenderer, renderer_for
from generator.errors import InputError, Problem
from generator.expand import expand_deck
from generator.fonts import BODY, BODY_BOLD, font_files
from generator.layout import (
    PAPER_NAMES,
    PAPERS,
    LayoutError,
    PagePlan,
    Sheet,
    make_sheet,
    place_labels,
    plan_pages,
)
from generator.load import Deck, Game
from generator.units import INCH, mm

LABEL_SIZE = 7.0          # pt: the smallest size a print shop calls readable
MARK_WIDTH = 0.4          # pt
MARK_COLOR = "#000000"
CHECK_LENGTH = {"letter": (INCH, "1 in"), "a4": (mm(25), "25 mm")}
FLIP = {"long": "flip on the long edge", "short": "flip on the short edge"}


def sheet_for(renderer: CardRenderer, deck: Deck, paper: str, options: BuildOptions) -> Sheet:
    """The imposition of a deck on a paper, or an InputError naming the deck's size."""
    w, h = renderer.size(deck)
    try:
        return make_sheet(paper, w, h, renderer.bleed, options.layout, options.duplex,
                          (mm(options.back_offset[0]), mm(options.back_offset[1])))
    except LayoutError as exc:
        line = deck.key_lines.get("size", deck.line)
        raise InputError(Problem(deck.file, line, f"deck '{deck.id}': {exc}; expected a smaller card size")) from None


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """cards-<paper>.pdf per requested paper; layouts, templates and geometry are all checked first."""
    renderer = renderer_for(game)
    renderer.check()
    problems = []
    for paper in options.papers:
        for deck in game.decks.values():
            try:
                sheet_for(renderer, deck, paper, options)
            except InputError as exc:
                problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    root = game.project.root
    inputs = sorted({root / shown for shown in game.files} | set(renderer.layout_files()) | set(font_files().values()))
    return [Output(game=game.id, path=Path(game.id) / f"cards-{paper}.pdf", kind="cards",
                   render=partial(write_sheets, game, paper, options), inputs=list(inputs))
            for paper in options.papers]


def write_sheets(game: Game, paper: str, options: BuildOptions, path: Path,
                 progress: Callable[[int], None] | None = None) -> dict:
    """Draw every deck of the game on `paper` into `path`; returns facts for the manifest."""
    renderer = renderer_for(game)
    canvas = Canvas(str(path), pagesize=PAPERS[paper], invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(f"{game.title}: card sheets ({PAPER_NAMES[paper]})")
    canvas.setAuthor(game.title)
    canvas.setCreator("pnp")
    pages = 0
    decks: dict[str, dict] = {}
    for number, deck in enumerate(game.decks.values()):
        sheet = sheet_for(renderer, deck, paper, options)
        cards = expand_deck(deck)
        counts = {"fronts": 0, "backs": 0}
        for plan in plan_pages(len(cards), sheet):
            canvas.setPageSize((sheet.page_w, sheet.page_h))
            if plan.sheet == 0 and plan.side in ("front", "fold"):
                key = f"deck{number}"
                canvas.bookmarkPage(key)
                canvas.addOutlineEntry(f"{deck.name} ({deck.copies} cards)", key, level=0)
            _draw_page(canvas, renderer, game, deck, cards, sheet, plan, paper)
            canvas.showPage()
            pages += 1
            if plan.side in ("front", "fold"):
                counts["fronts"] += 1
            if plan.side in ("back", "fold"):
                counts["backs"] += 1
            if progress:
                progress(pages)
        decks[deck.id] = counts
    canvas.save()
    return {"pages": pages, "decks": decks}


def _draw_page(canvas: Canvas, renderer: CardRenderer, game: Game, deck: Deck, cards: list, sheet: Sheet,
               plan: PagePlan, paper: str) -> None:
    b = renderer.bleed
    for slot_index, number in plan.cells:
        if plan.side in ("front", "fold"):
            slot = sheet.fronts[slot_index]
            clip = slot.clip
            renderer.place(canvas, deck, cards[number], slot.trim.x - b, slot.trim.y - b,
                           clip=(clip.x, clip.y, clip.w, clip.h))
        if plan.side in ("back", "fold"):
            slot = sheet.backs[slot_index]
            clip = slot.clip
            renderer.place(canvas, deck, None, slot.trim.x - b, slot.trim.y - b, clip=(clip.x, clip.y, clip.w, clip.h))
    canvas.saveState()
    canvas.setStrokeColor(HexColor(MARK_COLOR))
    canvas.setLineWidth(MARK_WIDTH)
    if plan.side in ("front", "fold"):
        for mark in sheet.marks:
            canvas.line(mark.x1, mark.y1, mark.x2, mark.y2)
    if sheet.fold is not None:
        canvas.setDash(4, 3)
        canvas.setStrokeColor(HexColor("#888888"))
        fold = sheet.fold
        canvas.line(fold.x1, fold.y1, fold.x2, fold.y2)
    canvas.restoreState()
    _draw_labels(canvas, game, deck, sheet, plan, paper)


def _label_texts(game: Game, deck: Deck, sheet: Sheet, plan: PagePlan, paper: str) -> tuple[str, str]:
    """(which deck, which page): two short labels, so they fit between crop marks even on small cards."""
    if plan.side == "fold":
        side = "fold on the dashed line, glue, cut"
    elif plan.side == "front":
        side = "fronts"
    elif sheet.duplex == "none":
        side = "backs"
    else:
        side = f"backs, {FLIP[sheet.duplex]}"
    return (f"{game.title} \u00b7 {deck.name}",
            f"sheet {plan.sheet + 1} of {plan.sheets} \u00b7 {side} \u00b7 {PAPER_NAMES[paper]}")


def _draw_labels(canvas: Canvas, game: Game, deck: Deck, sheet: Sheet, plan: PagePlan, paper: str) -> None:
    """Page labels, the 'print at 100%' note and the size-check bar, in margin strips clear of marks and cards."""
    title, page = _label_texts(game, deck, sheet, plan, paper)
    note = "Print at 100% (Actual size)"
    check_len, check_text = CHECK_LENGTH[paper]
    depth = LABEL_SIZE * 1.2
    texts = [(title, BODY_BOLD), (page, BODY), (note, BODY_BOLD)]
    items = [(stringWidth(text, face, LABEL_SIZE), depth) for text, face in texts]
    items.append((check_len + mm(1.5) + stringWidth(check_text, BODY, LABEL_SIZE), depth))
    placements = place_labels(sheet.strips, items)
    canvas.saveState()
    canvas.setFillColor(HexColor("#333333"))
    for index, placed in enumerate(placements):
        if placed is None:
            continue
        canvas.saveState()
        canvas.translate(*placed.origin)
        canvas.rotate(placed.angle)
        baseline = depth * 0.25
        if index == 3:
            canvas.setLineWidth(0.5)
            canvas.setStrokeColor(HexColor("#333333"))
            canvas.rect(0, depth * 0.2, check_len, depth * 0.6, stroke=1, fill=1)
            canvas.setFont(BODY, LABEL_SIZE)
            canvas.drawString(check_len + mm(1.5), baseline, check_text)
        else:
            text, face = texts[index]
            canvas.setFont(face, LABEL_SIZE)
            canvas.drawString(0, baseline, text)
        canvas.restoreState()
    canvas.restoreState()
