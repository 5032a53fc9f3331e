"""Card sheets: every deck of a game imposed on Letter/A4 as print-ready PDFs (the build's card producer).

The first two pages are a print check (`calibration.draw_check`): squares to measure, the duplex instructions
and, on its back, rulers to read how far the printer shifts the back. Each deck then starts on a new sheet and
gets a PDF outline entry. Every card face is drawn once as a Form XObject and placed for each copy, so the cost
grows with the number of different cards, not with copies. Pages are produced one at a time from
`layout.plan_pages`, never collected in a list.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.cards.calibration import draw_check
from generator.cards.face import CardRenderer, renderer_for
from generator.cards.imposition import (
    FLIP,
    LayoutError,
    PagePlan,
    Sheet,
    make_sheet,
    place_labels,
    plan_pages,
)
from generator.cards.shaped import draw_cut_paths, shaped_sheet, slot_placement
from generator.core.contract import BuildOptions, FunctionProducer, Output
from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY, BODY_BOLD
from generator.core.geometry import PAPERS
from generator.core.units import INCH, mm
from generator.data.expand import expand_deck
from generator.data.game import Deck, Game

LABEL_SIZE = 7.0          # pt: the smallest size a print shop calls readable
LABEL_COLOR = "#333333"
NOTE = "Print at 100% (Actual size)"
MARK_WIDTH = 0.4          # pt
MARK_COLOR = "#000000"
CHECK_LENGTH = {"letter": (INCH, "1 in"), "a4": (mm(25), "25 mm")}


def sheet_for(renderer: CardRenderer, deck: Deck, paper: str, options: BuildOptions) -> Sheet:
    """The imposition of a deck on a paper, or an InputError naming the deck's size."""
    w, h = renderer.size(deck)
    try:
        if deck.shape is not None:  # round and hex decks are packed like tokens
            return shaped_sheet(paper, deck.shape, renderer.bleed, options.duplex,
                                (mm(options.back_offset[0]), mm(options.back_offset[1])))
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
    return [Output(game=game.id, path=Path(game.id) / f"cards-{paper}.pdf", kind="cards",
                   render=partial(write_sheets, game, paper, options))
            for paper in options.papers]


CARD_SHEETS = FunctionProducer("card sheets", "card layouts and text fit", outputs)


def write_sheets(game: Game, paper: str, options: BuildOptions, path: Path,
                 progress: Callable[[int], None] | None = None) -> dict:
    """Draw every deck of the game on `paper` into `path`; returns facts for the manifest."""
    renderer = renderer_for(game)
    canvas = Canvas(str(path), pagesize=PAPERS[paper].size, invariant=1, initialFontName=BODY, pageCompression=1)
    canvas.setTitle(f"{game.title}: card sheets ({PAPERS[paper].name})")
    canvas.setAuthor(game.title)
    canvas.setCreator("pnp")
    canvas.bookmarkPage("check")
    canvas.addOutlineEntry("Print check: 100% scale and duplex back offset (pages 1-2)", "check", level=0)
    canvas.addPageLabel(0, prefix="Print check")
    canvas.addPageLabel(1, prefix="Print check back")
    canvas.addPageLabel(2, style="D", start=1)  # the card sheets are numbered from 1 after the check
    draw_check(canvas, game.title, paper, options.layout, options.duplex, options.back_offset)
    pages = 2
    decks: dict[str, dict] = {}
    for number, deck in enumerate(game.decks.values()):
        sheet = sheet_for(renderer, deck, paper, options)
        cards = expand_deck(deck)
        counts = {"fronts": 0, "backs": 0}
        shared = _DeckPages(renderer, game, deck, sheet, paper, len(cards))
        for plan in plan_pages(len(cards), sheet):
            canvas.setPageSize((sheet.page_w, sheet.page_h))
            if plan.sheet == 0 and plan.side in ("front", "fold"):
                key = f"deck{number}"
                canvas.bookmarkPage(key)
                canvas.addOutlineEntry(f"{deck.name} ({deck.copies} cards)", key, level=0)
            shared.draw(canvas, cards, plan)
            canvas.showPage()
            pages += 1
            if plan.side in ("front", "fold"):
                counts["fronts"] += 1
            if plan.side in ("back", "fold"):
                counts["backs"] += 1
            if progress:
                progress(pages)
        decks[deck.id] = counts
    with _plain_streams():
        canvas.save()
    facts = {"pages": pages, "check_pages": 2, "decks": decks}
    if renderer.warnings:  # listed in build/manifest.json and printed by `pnp build`
        facts["warnings"] = list(renderer.warnings)
    return facts


@contextmanager
def _plain_streams():
    """Compressed streams without the ASCII85 layer ReportLab adds by default: a quarter smaller and, in pure
    Python, a large share of the time to save a big sheet file. Page streams are encoded when saved."""
    before = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = before


class _DeckPages:
    """What every page of one deck on one paper shares, worked out once: the placement operators of each slot,
    and the crop marks, fold line and fixed labels of each side as one Form XObject. Per page only the cards
    and the 'sheet n of m' label are written."""

    def __init__(self, renderer: CardRenderer, game: Game, deck: Deck, sheet: Sheet, paper: str, count: int):
        self.renderer, self.game, self.deck, self.sheet, self.paper = renderer, game, deck, sheet, paper
        self.sheets = max(1, math.ceil(count / sheet.per_page))
        b = renderer.bleed
        self.slots = {
            side: [slot_placement(s, sheet.card_w, sheet.card_h, b)
                   or renderer.placement(s.trim.x - b, s.trim.y - b, (s.clip.x, s.clip.y, s.clip.w, s.clip.h))
                   for s in slots]
            for side, slots in (("front", sheet.fronts), ("back", sheet.backs))}
        self.decorations: dict[str, tuple[str, object]] = {}  # side -> (form name, page label placement)

    def draw(self, canvas: Canvas, cards: list, plan: PagePlan) -> None:
        """Draw one page of the deck."""
        renderer, deck = self.renderer, self.deck
        for slot_index, number in plan.cells:
            if plan.side in ("front", "fold"):
                renderer.place_prepared(canvas, deck, cards[number], self.slots["front"][slot_index])
            if plan.side in ("back", "fold"):  # each card's own back (the same form for cards sharing one)
                renderer.place_prepared(canvas, deck, cards[number], self.slots["back"][slot_index], back=True)
        form, placed = self._decoration(canvas, plan.side)
        canvas.doForm(form)
        if placed is not None:
            _draw_label(canvas, placed, _page_label(self.sheet, plan.side, plan.sheet, plan.sheets, self.paper), BODY)

    def _decoration(self, canvas: Canvas, side: str) -> tuple[str, object]:
        if side in self.decorations:
            return self.decorations[side]
        sheet = self.sheet
        title = f"{self.game.title} \u00b7 {self.deck.name}"
        # room for the widest page label of the deck, so every page puts its labels in the same places
        page_width = max(stringWidth(_page_label(sheet, side, n, self.sheets, self.paper), BODY, LABEL_SIZE)
                         for n in range(self.sheets))
        check_len, check_text = CHECK_LENGTH[self.paper]
        depth = LABEL_SIZE * 1.2
        items = [(stringWidth(title, BODY_BOLD, LABEL_SIZE), depth), (page_width, depth),
                 (stringWidth(NOTE, BODY_BOLD, LABEL_SIZE), depth),
                 (check_len + mm(1.5) + stringWidth(check_text, BODY, LABEL_SIZE), depth)]
        title_at, page_at, note_at, check_at = place_labels(sheet.strips, items)
        name = f"sheet_{self.game.config.code}_{self.deck.code}_{side}"
        canvas.beginForm(name, 0, 0, sheet.page_w, sheet.page_h)
        canvas.setStrokeColor(HexColor(MARK_COLOR))
        canvas.setLineWidth(MARK_WIDTH)
        if side in ("front", "fold"):
            for mark in sheet.marks:
                canvas.line(mark.x1, mark.y1, mark.x2, mark.y2)
            draw_cut_paths(canvas, sheet, MARK_COLOR, MARK_WIDTH)
        if sheet.fold is not None:
            canvas.saveState()
            canvas.setDash(4, 3)
            canvas.setStrokeColor(HexColor("#888888"))
            canvas.line(sheet.fold.x1, sheet.fold.y1, sheet.fold.x2, sheet.fold.y2)
            canvas.restoreState()
        _draw_label(canvas, title_at, title, BODY_BOLD)
        _draw_label(canvas, note_at, NOTE, BODY_BOLD)
        if check_at is not None:
            canvas.saveState()
            canvas.translate(*check_at.origin)
            canvas.rotate(check_at.angle)
            canvas.setLineWidth(0.5)
            canvas.setStrokeColor(HexColor(LABEL_COLOR))
            canvas.setFillColor(HexColor(LABEL_COLOR))
            canvas.rect(0, depth * 0.2, check_len, depth * 0.6, stroke=1, fill=1)
            canvas.setFont(BODY, LABEL_SIZE)
            canvas.drawString(check_len + mm(1.5), depth * 0.25, check_text)
            canvas.restoreState()
        canvas.endForm()
        self.decorations[side] = (name, page_at)
        return self.decorations[side]


def _page_label(sheet: Sheet, side: str, number: int, sheets: int, paper: str) -> str:
    """Which page of the deck: short, so it fits between crop marks even on small cards."""
    if side == "fold":
        what = "fold on the dashed line, glue, cut"
    elif side == "front":
        what = "fronts"
    elif sheet.duplex == "none":
        what = "backs"
    else:
        what = f"backs, {FLIP[sheet.duplex]}"
    return f"sheet {number + 1} of {sheets} \u00b7 {what} \u00b7 {PAPERS[paper].name}"


def _draw_label(canvas: Canvas, placed, text: str, face: str) -> None:
    """One label in a margin strip (None: it found no room and is left out)."""
    if placed is None:
        return
    canvas.saveState()
    canvas.translate(*placed.origin)
    canvas.rotate(placed.angle)
    canvas.setFillColor(HexColor(LABEL_COLOR))
    canvas.setFont(face, LABEL_SIZE)
    canvas.drawString(0, LABEL_SIZE * 1.2 * 0.25, text)
    canvas.restoreState()
