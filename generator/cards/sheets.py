"""Card sheets: every deck of a game imposed on Letter/A4 as print-ready PDFs (the build's card producer).

The first two pages are a print check (`calibration.draw_check`): squares to measure, the sheet options, the
duplex instructions and, on its back, rulers to read how far the printer shifts the back. Each deck then
starts on a new sheet (with `--pack`, decks of one card size continue on the same sheet) and gets a PDF
outline entry. Every card face is drawn once per build into a list of faces (`faces.face.FaceList`: its
operators) that every paper places: a face placed several times becomes one Form XObject placed for each copy,
a face placed once is written straight into its page. The cost grows with the number of different cards, not
with copies or papers; with `--jobs 2` a helper process checks and draws half of a long list while the sheets
are planned (`_check_faces`). Pages are produced one at a
time from `imposition.plan_pages`, never collected in a list. With `--cut-file svg` each page of fronts also
gets a cut file (`cutfile.cut_svg`) beside the PDF. With `--cut-machine` the sheets are laid out for that
print-and-cut machine (`cut_machines`: its cut area, its registration marks on each page of fronts and in the
cut files). With `--colour cmyk` the finished sheets pass the colour stage (`colour.in_press_cmyk`) into
PDF/X.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.cards.calibration import draw_check
from generator.cards.cut_machines import registration_marks
from generator.cards.cutfile import card_path, cut_svg, outline_path
from generator.cards.imposition import LayoutError, PagePlan, Sheet, make_sheet, plan_pages
from generator.cards.labels import place_labels
from generator.cards.marks import CUT_LINE_WIDTH, MARK_WIDTH
from generator.cards.print_options import DeckGroup, SheetOptions, deck_groups, sheet_options, with_changes
from generator.cards.reprint import reprint_of, swap_lines
from generator.cards.shaped import draw_cut_paths, shaped_sheet, slot_placement
from generator.core.contract import BuildOptions, FunctionProducer, Output, OutputKind
from generator.core.errors import InputError, Problem, Problems
from generator.core.fonts import BODY, BODY_BOLD, BODY_FAMILY, TITLE, TITLE_FAMILY, draw_string, string_width
from generator.core.forked import ForkedWorkers
from generator.core.geometry import check_square, paper_of, paper_words
from generator.core.pdfstream import deflate_forms, plain_streams, save_streamed
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import mm
from generator.core.write import WRITTEN, atomic_write, open_to_write, written_record
from generator.core.yamlio import load_yaml
from generator.data.fonts import text_problems
from generator.data.game import Card, Deck, Game
from generator.faces.face import CardRenderer, Face, FaceList, renderer_for

LABEL_SIZE = 7.0          # pt: the smallest size a print shop calls readable
LABEL_COLOR = "#333333"
MARK_COLOR = "#000000"
CUT_LINE_COLOR = "#7f7f7f"
CHECK_PAGES = 2
SWAP_SIZE = 10.0  # pt: the swap list of a --changed reprint
SWAP_LEADING = 1.45
LABEL_GROUPINGS = (((0, 1, 2, 3),), ((0, 2, 3), (1,)), ((0,), (1,), (2,), (3,)))  # parts of the page label


def _join(parts: list[str], group: tuple[int, ...]) -> str:
    return " \u00b7 ".join(parts[i] for i in group if parts[i])


def sheet_for(renderer: CardRenderer, group: DeckGroup, paper: str, options: SheetOptions) -> Sheet:
    """The imposition of a deck (or packed decks) on a paper, or an InputError naming the deck's size."""
    w, h = renderer.size(group.first)
    if group.first.shape is not None and options.machine is not None:
        deck = group.first
        raise InputError(Problem(deck.file, deck.line, f"deck '{deck.id}': a round or hexagonal deck is not "
                                 f"laid out for {options.machine.label}; expected --cut-machine none (and "
                                 "--cut-file svg to cut it from the plain sheets)"))
    try:
        if group.first.shape is not None:  # round and hex decks are packed like tokens
            return shaped_sheet(paper, group.first.shape, renderer.bleed, options.duplex,
                                (mm(options.back_offset[0]), mm(options.back_offset[1])))
        return make_sheet(
            paper,
            (w, h),
            renderer.bleed,
            options.layout,
            options.duplex,
            (mm(options.back_offset[0]), mm(options.back_offset[1])),
            options.gap,
            options.marks,
            options.machine,
        )
    except LayoutError as exc:
        deck = group.first
        line = deck.key_lines.get("size", deck.line)
        raise InputError(Problem(deck.file, line, f"deck '{deck.id}': {exc}; expected a smaller card size"
                                 + (" or a smaller gap" if options.gap else ""))) from None


@dataclass(frozen=True)
class PageOfCards:
    """One page of the card sheets: its number in the PDF (0-based), the decks' sheet and what goes where."""

    index: int
    group: DeckGroup
    sheet: Sheet
    plan: PagePlan


def lead_pages(game: Game, paper: str, options: SheetOptions) -> int:
    """The pages before the cards: the print check, or in a --changed reprint the swap list instead (an even
    number of pages, so the fronts stay on odd pages; its printer was checked with the full sheets)."""
    if not options.changed:
        return CHECK_PAGES
    swap = len(_swap_page_lines(game, paper))
    return swap + swap % 2


def pages(game: Game, paper: str, options: SheetOptions) -> Iterator[PageOfCards]:
    """Every page after the print check, in print order (pure geometry; nothing is drawn)."""
    renderer = renderer_for(game)
    index = lead_pages(game, paper, options)
    for group in deck_groups(game, options):
        sheet = sheet_for(renderer, group, paper, options)
        for plan in plan_pages(len(group.cards), sheet):
            yield PageOfCards(index, group, sheet, plan)
            index += 1


def bleed_notes(game: Game, paper: str, options: SheetOptions) -> list[str]:
    """What the print check says of the bleed: one line for the decks that hold it in one other way (fewer
    cards a sheet, crop marks as ticks in the bleed, less than full bleed), else that every outer edge keeps
    it in full."""
    say, renderer = game.phrases.t, renderer_for(game)
    found: dict[tuple, list[str]] = {}  # (phrase, its numbers) -> the decks it is said of
    bleed = f"{renderer.bleed / mm(1):g}"
    for group in deck_groups(game, options):
        fit = sheet_for(renderer, group, paper, options).fit
        if fit is None:  # round and hexagonal cards are packed like tokens
            continue
        names = [d.name for d in group.decks]
        if not fit.full:
            found.setdefault(("check.bleed_short", ("shown", f"{fit.shown / mm(1):.1f}")), []).extend(names)
        elif fit.fewer:
            found.setdefault(("check.bleed_fewer", ("cards", fit.per_page), ("without", fit.without)),
                             []).extend(names)
        if fit.ticks:
            found.setdefault(("check.bleed_ticks",), []).extend(names)
    return [say(key, deck=", ".join(dict.fromkeys(names)), bleed=bleed, **dict(values))
            for (key, *values), names in found.items()] or [say("check.bleed_full", bleed=bleed)]


def output_name(paper: str, options: SheetOptions) -> str:
    """cards-<paper>[-inksaver][-only-...] (no extension)."""
    return f"cards-{paper}{options.suffix}"


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """cards-<paper>.pdf per requested paper (and cut files); layouts, templates and geometry are checked
    first."""
    renderer = renderer_for(game)
    problems = _label_problems(game)
    try:
        _check_faces(game, renderer, options)
    except InputError as exc:
        problems += exc.problems
    chosen = chosen_options(game, options)
    swaps = [Output(game=game.id, path=Path(game.id) / "cards-changed.txt", kind="cards-swaps",
                    render=partial(write_swap_list, game))] if chosen.changed else []
    if not deck_groups(game, chosen):  # --only names decks of another game; --changed: nothing to print
        return swaps
    cut_pages: dict[str, list[int]] = {}
    for paper in game.papers(options):
        try:
            cut_pages[paper] = [
                p.index for p in pages(game, paper, chosen) if p.plan.side in ("front", "fold")
            ]
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    result = []
    for paper in game.papers(options):
        name = output_name(paper, chosen)
        # after it, no card sheet of this build needs the faces' data again
        last = paper == game.papers(options)[-1]
        render = partial(write_sheets, game, paper, chosen, last=last, jobs=options.jobs)
        if chosen.colour == "cmyk":  # the colour stage: the sheets as drawn, then into press CMYK
            from generator.cards.colour import in_press_cmyk  # PDFium and PDF/X: for CMYK builds only

            render = partial(in_press_cmyk, render)
        result.append(Output(game=game.id, path=Path(game.id) / f"{name}.pdf", kind="cards", render=render))
        if chosen.cut_files:
            # numbered as the PDF's pages are (what a printer dialog shows): cut-03.svg cuts page 3
            result += [Output(game=game.id, path=Path(game.id) / f"{name}-cut-{index + 1:02d}.svg",
                              kind="cards-cut", render=partial(write_cut_file, game, paper, chosen, index))
                       for index in cut_pages[paper]]
    return result + swaps


def _check_faces(game: Game, renderer: CardRenderer, options: BuildOptions) -> None:
    """Check every face (`CardRenderer.check`). With more than one core and many different faces, the faces
    are drawn for the card sheets too, while they are checked: after the first ones (which name the fonts), a
    helper process checks and draws the last fronts (`check_apart`, `draw_apart`) while this process checks
    the others, takes what the helper found in their place, then draws its own; so both cores share the
    checks and the drawing, and the problems, warnings, digest and files are the same with or without it."""
    forking = hasattr(os, "fork") and threading.active_count() == 1
    chosen = None
    if forking and _cores(options.jobs) > 1 and not options.changed:
        try:
            chosen = chosen_options(game, options)
        except InputError:  # said where the sheets are planned
            chosen = None
    faces = renderer.face_list(chosen.ink) if chosen is not None else None
    order = face_order(game, chosen) if chosen is not None and not renderer.checked else []
    if faces is None or faces.drawn or len(order) < APART_FACES:
        renderer.check()
        return
    first, rest = order[:APART_AFTER], order[APART_AFTER:]
    try:
        faces.take(first, set(), dict)
    except InputError:  # the checks say it, in their place
        renderer.forget_face_lists()
        renderer.check()
        return
    faces.drawn = False
    drawn_first = {renderer.form_name(deck, card, back) for _, deck, card, back in first}
    checks = renderer.faces(Problems())
    apart = []  # the last fronts in the order of the checks, none of those drawn first
    for side, deck, card in reversed(checks[len(checks) - int(len(checks) * CHECK_SHARE):]):
        if side != "front" or renderer.form_name(deck, card) in drawn_first:
            break
        apart.append((side, deck, card))
    apart.reverse()
    if not apart or _with_pictures(renderer, apart):
        renderer.forget_face_lists()
        renderer.check()
        return
    names = {renderer.form_name(deck, card) for _, deck, card in apart}
    drawn_apart = [face for face in rest if not face[3] and renderer.form_name(face[1], face[2]) in names]
    _APART[id(faces)] = (renderer, apart, faces, drawn_apart)
    frozen = gc.get_freeze_count()
    gc.freeze()  # the loaded game stays out of the helper's collections (fewer pages copied)
    try:
        # promptly: the checks' results reach this process before the helper's drawing ends, so that both
        # draw at once
        helper = ForkedWorkers(_check_apart, [(id(faces), 0), (id(faces), 1)], 1, promptly=True)
    finally:
        if not frozen:
            gc.unfreeze()
        _APART.pop(id(faces), None)
    try:
        results = helper.results()
        renderer.check(apart=(names, lambda: next(results)))
        renderer.keep_digest()  # before the faces drawn let go of what they were drawn from
        faces.take(rest, {name for name, *_ in drawn_apart}, lambda: next(results))
    except BaseException:
        renderer.forget_face_lists()  # half drawn: the sheets, if any, draw them again
        raise
    finally:
        helper.stop()


def _with_pictures(renderer: CardRenderer, faces: list[tuple[str, Deck, Card]]) -> bool:
    """Whether some of these fronts may show a picture (or their layout is wrong: the checks say so): a
    picture is named where the face is placed, so a helper would check such a face only to have it drawn
    here again."""
    seen: set[int] = set()
    for _, _deck, card in faces:
        try:
            layout = renderer.front_layout(card)
        except InputError:
            return True
        if id(layout) not in seen:
            seen.add(id(layout))
            if any(box.kind == "image" for box in layout.boxes):
                return True
    return False


def _check_apart(task: tuple[int, int]) -> dict:
    """In the helper process of `_check_faces`: its faces checked (task 0), then drawn (task 1), but those the
    checks take again (`CheckedApart.digest`)."""
    key, step = task
    renderer, apart, faces, drawn_apart = _APART[key]
    if step == 0:
        found = renderer.check_apart(apart)
        _CHECKED_AGAIN.update(name for name, checked in found.items() if checked.digest is None)
        return found
    return faces.draw_apart([face for face in drawn_apart
                             if renderer.form_name(face[1], face[2]) not in _CHECKED_AGAIN])


_CHECKED_AGAIN: set[str] = set()  # in the helper: the faces the other process checks again


def chosen_options(game: Game, options: BuildOptions) -> SheetOptions:
    """The sheet options of the game's card sheets; with `--changed`, the reprint of what changed since the
    cards were marked printed (InputError at the printed record when it cannot be read)."""
    chosen = sheet_options(game, options)
    if options.changed:
        chosen = with_changes(chosen, reprint_of(game).selection())
    return chosen


def _label_problems(game: Game) -> list:
    """The game title (print check, sheet labels) and deck names (sheet labels) in the faces that print
    them."""
    shown = game.show(game.dir / "game.yaml")
    shown, title_line = game.text_where(
        ("game", "title"), shown, load_yaml(game.dir / "game.yaml", shown).line_of("title")
    )
    problems = text_problems(
        game.title, TITLE_FAMILY, shown, title_line, "game.yaml title (on the print check)"
    )
    problems += text_problems(
        game.title,
        BODY_FAMILY,
        shown,
        title_line,
        "game.yaml title (on the card sheets)",
        ("regular", "bold"),
    )
    for deck in game.decks.values():
        file, line = game.text_where(
            ("decks", deck.id, "name"), deck.file, deck.key_lines.get("name", deck.line)
        )
        problems += text_problems(
            deck.name,
            BODY_FAMILY,
            file,
            line,
            f"deck '{deck.id}' name (on the card sheets)",
            ("regular", "bold"),
        )
    return problems


# What a sheet and its cut files are drawn from: the decks' makeup, each card's own layout and back, and every
# face as rendered in the sheet's language (a card text reaches the sheets only through its face); and the
# options that change how they look: the sheet arrangement and the sheet options (those not given: game.yaml's
# `print:`).
SHEET_PARTS = ("game", "card_makeup", "pictures", "fonts", "card_faces")
# A --changed reprint and its swap list are drawn from the printed record too.
SHEET_LOOKS = ("duplex", "layout", "back_offset", "gap", "marks", "pack", "ink", "cut_file", "only",
               "cut_machine", "colour", "changed")
CARD_SHEETS = FunctionProducer(
    "card sheets", "card layouts and text fit", outputs,
    plans_from=("game", "game_data", "data_files", "layouts", "pictures", "fonts", "templates"),
    makes=(OutputKind("cards", SHEET_PARTS + ("printed",), SHEET_LOOKS),
           OutputKind("cards-cut", SHEET_PARTS + ("printed",), SHEET_LOOKS),
           OutputKind("cards-swaps", SHEET_PARTS + ("printed",), SHEET_LOOKS)))


def _swap_title(game: Game) -> str:
    return game.phrases.t("sheets.swap_title", title=game.title)


def write_swap_list(game: Game, path: Path) -> dict:
    """cards-changed.txt: the swap list of a --changed reprint, as the first page of its PDF says it."""
    lines = swap_lines(reprint_of(game), game.phrases.t)
    atomic_write(path, "\n".join([_swap_title(game), "", *lines]) + "\n")
    return {"swaps": lines}


def _swap_page_lines(game: Game, paper: str) -> list[list[str]]:
    """The swap list's lines, page by page on this paper (a long list goes on over pages)."""
    lines = swap_lines(reprint_of(game), game.phrases.t)
    _, height = paper_of(paper).size
    per_page = max(1, int((height - 2 * SWAP_MARGIN - 3 * SWAP_SIZE * 2) // (SWAP_SIZE * SWAP_LEADING)))
    return [lines[at:at + per_page] for at in range(0, len(lines), per_page)] or [[]]


SWAP_MARGIN = mm(20)


def _draw_swap_pages(canvas: Canvas, game: Game, paper: str) -> int:
    """The swap list of a --changed reprint, then a blank back when it ends on a front; the pages drawn."""
    width, height = paper_of(paper).size
    say = game.phrases.t
    pages_of_lines = _swap_page_lines(game, paper)
    room = width - 2 * SWAP_MARGIN
    for lines in pages_of_lines:
        canvas.setPageSize((width, height))
        y = height - SWAP_MARGIN - SWAP_SIZE * 1.8
        canvas.setFillColor(HexColor(LABEL_COLOR))
        title, size = _fitted(_swap_title(game), TITLE, SWAP_SIZE * 1.8, room)
        canvas.setFont(TITLE, size)
        draw_string(canvas, SWAP_MARGIN, y, title, TITLE, size)
        y -= SWAP_SIZE * 2.4
        intro = say("sheets.swap_intro", revision=reprint_of(game).record.revision or "?")
        text, size = _fitted(intro, BODY, SWAP_SIZE, room)
        canvas.setFont(BODY, size)
        draw_string(canvas, SWAP_MARGIN, y, text, BODY, size)
        y -= SWAP_SIZE * SWAP_LEADING * 1.5
        for line in lines:
            text, size = _fitted(line, BODY, SWAP_SIZE, room)
            canvas.setFont(BODY, size)
            draw_string(canvas, SWAP_MARGIN + mm(4), y, "\u2022 " + text, BODY, size)
            y -= SWAP_SIZE * SWAP_LEADING
        canvas.showPage()
    if len(pages_of_lines) % 2:
        canvas.setPageSize((width, height))
        canvas.showPage()
    return len(pages_of_lines) + len(pages_of_lines) % 2


def _fitted(text: str, face: str, size: float, room: float) -> tuple[str, float]:
    """The text at `size`, smaller down to 6 pt where it is too wide, cut with an ellipsis below that."""
    while size > 6 and string_width(text, face, size) > room:
        size -= 0.5
    while len(text) > 1 and string_width(text, face, size) > room:
        text = text[:-2] + "\u2026"
    return text, size


def write_cut_file(game: Game, paper: str, options: SheetOptions, index: int, path: Path) -> dict:
    """The cut file of the page of fronts at `index` (0-based page of the PDF)."""
    page = next(p for p in pages(game, paper, options) if p.index == index)
    shape, ph = page.group.first.shape, page.sheet.page_h
    pieces = []
    for slot_index, _ in page.plan.cells:
        slot = page.sheet.fronts[slot_index]
        if shape is not None:  # a round or hexagonal card: its own outline, turned as it lies
            pieces.append(
                outline_path((shape.turned() if slot.angle % 180 else shape).path(slot.cx, slot.cy), ph)
            )
        else:
            pieces.append(card_path(slot.trim, ph, game.corner_radius_pt))
    title = game.phrases.t("sheets.cut_file_title", title=game.title, page=index + 1,
                           file=f"{output_name(paper, options)}.pdf")
    machine = page.sheet.machine
    marks = tuple(registration_marks(machine, page.sheet.page_w, ph)) if machine is not None else ()
    atomic_write(path, cut_svg(page.sheet.page_w, ph, pieces, title, marks))
    return {"page": index + 1, "cards": len(pieces)}


def write_sheets(game: Game, paper: str, options: SheetOptions | BuildOptions, path: Path,
                 progress: Callable[[int], None] | None = None, last: bool = False, jobs: int = 1) -> dict:
    """Draw every deck of the game on `paper` into `path`; returns facts for the manifest. `last`: no card
    sheet drawn after this one needs the faces' rendered data (it is let go face by face, to keep memory
    small). `jobs` (0: every core): with more than one, a deck of many different faces has some of them
    drawn by a helper process (the same bytes)."""
    if isinstance(options, BuildOptions):
        options = chosen_options(game, options)
    renderer = renderer_for(game)
    with open_to_write(path) as sink:  # each PDF object is written as it is formatted (core.pdfstream)
        canvas = Canvas(
            sink, pagesize=paper_of(paper).size, invariant=1, initialFontName=BODY, pageCompression=1
        )
        # saved with plain compressed streams (below): each face is compressed when drawn
        deflate_forms(canvas)
        if last:
            renderer.last_use(canvas)
        faces = renderer.face_list(options.ink)
        if not faces.drawn:  # the first paper of the build: every face drawn once, for every paper
            _draw_face_list(faces, face_order(game, options), jobs)
        faces.give(canvas)
        count, decks = _draw_sheets(canvas, renderer, game, paper, options, progress)
        plain_streams(canvas)  # a quarter smaller without the ASCII85 layer (pages compressed when saved)
        digest = save_streamed(canvas, sink)
    if last:
        renderer.forget_face_lists()
    facts = {"pages": count, "check_pages": CHECK_PAGES, "decks": decks}
    if digest is not None:  # hashed as it was written: the build need not read 150 MB of pictures back
        facts[WRITTEN] = written_record(path, digest)
    if options.changed:  # the swap list instead of the print check
        facts.update(check_pages=0, swap_pages=lead_pages(game, paper, options),
                     swaps=swap_lines(reprint_of(game), game.phrases.t))
    if renderer.warnings:  # listed in build/manifest.json and printed by `pnp build`
        facts["warnings"] = list(renderer.warnings)
    return facts


def _draw_sheets(canvas: Canvas, renderer: CardRenderer, game: Game, paper: str, options: SheetOptions,
                 progress: Callable[[int], None] | None) -> tuple[int, dict[str, dict]]:
    """The print check and every page of cards; returns the number of pages and the fronts and backs per
    deck."""
    say = game.phrases.t
    what = (
        "sheets.title"
        + ("_changed" if options.changed else "_reprint" if options.only else "")
        + ("_inksaver" if options.ink == "saver" else "")
    )
    canvas.setTitle(say(what, title=game.title, paper=paper_name(game, paper)))
    canvas.setAuthor(game.title)
    canvas.setCreator("pnp")
    if options.changed:  # the swap list first: what to take out of the printed copy and put in
        canvas.bookmarkPage("swaps")
        canvas.addOutlineEntry(say("sheets.outline_swaps"), "swaps", level=0)
        canvas.addPageLabel(0, prefix=say("sheets.page_swaps"))
        count = _draw_swap_pages(canvas, game, paper)
    else:
        canvas.bookmarkPage("check")
        canvas.addOutlineEntry(say("sheets.outline_check"), "check", level=0)
        canvas.addPageLabel(0, prefix=say("sheets.page_check"))
        canvas.addPageLabel(1, prefix=say("sheets.page_check_back"))
        draw_check(canvas, game.title, paper, options, game.phrases, bleed_notes(game, paper, options))
        count = CHECK_PAGES
    canvas.addPageLabel(count, style="D", start=1)  # the card sheets are numbered from 1 after them
    decks: dict[str, dict] = {}
    drawers: dict[str, _GroupPages] = {}
    once = placed_once(renderer, pages(game, paper, options), options.ink)
    for page in pages(game, paper, options):
        drawer = drawers.get(page.group.first.id)
        if drawer is None:
            drawer = drawers[page.group.first.id] = _GroupPages(renderer, game, page.group, page.sheet,
                                                                paper, options, once)
        _draw_page(canvas, page, drawer, decks, say)
        count += 1
        if progress:
            progress(count)
    return count, decks


def _draw_registration(canvas: Canvas, sheet: Sheet) -> None:
    """The print-and-cut machine's registration marks on a page of fronts, solid black."""
    if sheet.machine is None:
        return
    canvas.setFillColor(HexColor(MARK_COLOR))
    for mark in registration_marks(sheet.machine, sheet.page_w, sheet.page_h):
        canvas.rect(mark.x, mark.y, mark.w, mark.h, stroke=0, fill=1)


def _draw_page(canvas: Canvas, page: PageOfCards, drawer: _GroupPages, decks: dict[str, dict],
               say: Callable[..., str]) -> None:
    """One page of cards, its bookmarks and outline entries (`decks`: the fronts and backs per deck so
    far)."""
    group, plan = page.group, page.plan
    canvas.setPageSize((page.sheet.page_w, page.sheet.page_h))
    for deck in drawer.decks_on(plan):
        key = f"deck_{deck.id}"
        if deck.id not in decks:
            canvas.bookmarkPage(key)
            copies = sum(1 for d, _ in group.cards if d is deck)
            canvas.addOutlineEntry(say("sheets.outline_deck", deck=deck.name, count=copies), key, level=0)
        counts = decks.setdefault(deck.id, {"fronts": 0, "backs": 0})
        counts["fronts"] += plan.side in ("front", "fold")
        counts["backs"] += plan.side in ("back", "fold")
    drawer.draw(canvas, plan)
    if page.sheet.machine is not None and plan.side in ("front", "fold"):
        _draw_registration(canvas, page.sheet)
    canvas.showPage()


def placed_once(renderer: CardRenderer, sheet_pages: Iterator[PageOfCards], ink: str) -> set[str]:
    """The faces (form names) placed exactly once on these pages: drawn straight into their page, since a
    form object of their own would only add its dictionary and a second stream (unique cards)."""
    counts: dict[str, int] = {}
    for page in sheet_pages:
        side, cards = page.plan.side, page.group.cards
        for _slot, number in page.plan.cells:
            deck, card = cards[number]
            for back in (False, True) if side == "fold" else (side == "back",):
                name = renderer.form_name(deck, card, back, ink)
                counts[name] = counts.get(name, 0) + 1
    return {name for name, placed in counts.items() if placed == 1}


def face_order(game: Game, options: SheetOptions) -> list[Face]:
    """Every face the card sheets place, in an order no paper decides: deck group by group, the fronts in
    print order, then the backs."""
    renderer, ink = renderer_for(game), options.ink
    found: dict[str, Face] = {}
    for group in deck_groups(game, options):
        for back in (False, True):
            for deck, card in group.cards:
                name = renderer.form_name(deck, card, back, ink)
                if name not in found:
                    found[name] = (name, deck, card, back)
    return list(found.values())


APART_FACES = 300  # fewer different faces are drawn faster than a helper process starts and sends them back
APART_SHARE = 0.5  # of the faces, the helper draws the last half
APART_AFTER = 20  # faces drawn first in this process: they name the fonts the helper's faces use
# of the faces checked and drawn while the sheets are planned, the helper takes the last fronts, this process
# the rest (it also loads the game and plans, before and after)
CHECK_SHARE = 0.52


def _cores(jobs: int) -> int:
    """The processes `jobs` allows (0: every core this process may run on)."""
    if jobs:
        return jobs
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _draw_face_list(faces: FaceList, order: list[Face], jobs: int) -> None:
    """Draw the faces of the card sheets once (`FaceList.draw`). With more than one core and many different
    faces, a helper process forked after the first faces draws the last half on a canvas given the list's
    fonts and codes and sends back each face's operators; a face it cannot name as the list does (a picture,
    a character not seen yet) comes back empty and is drawn here, so the files are the same byte for byte
    with or without it."""
    # forked only from a process of one thread (a fork copies one thread, and a lock another holds would stay
    # locked): a build's worker, or `pnp build --jobs 2` of one output
    forking = hasattr(os, "fork") and threading.active_count() == 1
    if len(order) < APART_FACES:  # the faces the last build kept are not drawn again (faces.facecache)
        faces.draw(order)
        return
    # a deck of more different faces keeps none: what is kept would depend on the helper (--jobs)
    if _cores(jobs) < 2 or not forking:
        faces.draw(order, keep=False)
        return
    workers: list[ForkedWorkers] = []

    def apart(rest: list[Face]) -> Callable[[], dict]:
        _APART[id(faces)] = (faces, rest)
        frozen = gc.get_freeze_count()
        gc.freeze()  # the loaded game stays out of the helper's collections (fewer pages copied)
        try:
            workers.append(ForkedWorkers(_draw_apart, [id(faces)], 1))
        finally:
            if not frozen:
                gc.unfreeze()
        results = workers[0].results()
        return lambda: next(results)

    try:
        faces.draw(order, apart, split=int(len(order) * (1 - APART_SHARE)), prefix=APART_AFTER, keep=False)
    finally:
        _APART.pop(id(faces), None)
        for helper in workers:
            helper.stop()


# what a helper checks or draws, found by the forked process
_APART: dict[int, tuple] = {}


def _draw_apart(key: int) -> dict:
    faces, rest = _APART[key]
    return faces.draw_apart(rest)


class _GroupPages:
    """What every page of one deck (or packed decks) on one paper shares, worked out once: the placement
    operators of each slot, the page labels, and the marks, cut lines, fold line and fixed labels of each side
    as one Form XObject. Per page only the cards and the page label are written."""

    def __init__(self, renderer: CardRenderer, game: Game, group: DeckGroup, sheet: Sheet, paper: str,
                 options: SheetOptions, once: set[str] | frozenset[str] = frozenset()):
        self.renderer, self.game, self.group, self.sheet, self.paper = renderer, game, group, sheet, paper
        self.ink, self.once = options.ink, once
        self.slots = {side: self._placements(slots) for side, slots in (("front", sheet.fronts),
                                                                        ("back", sheet.backs))}
        self.decorations: dict[str, tuple[str, list]] = {}  # side -> (form name, page label placements)
        self.plans = {(p.side, p.sheet): p for p in plan_pages(len(group.cards), sheet)}

    def _placements(self, slots: list) -> list:
        b, sheet = self.renderer.bleed, self.sheet
        place = self.renderer.placement
        return [slot_placement(s, sheet.card_w, sheet.card_h, b)
                or place(s.trim.x - b, s.trim.y - b, (s.clip.x, s.clip.y, s.clip.w, s.clip.h)) for s in slots]

    def page_placements(self, plan: PagePlan) -> dict[str, list]:
        """The placement of every slot of this page: a page with empty slots opens the bleed of the cards
        beside them (`Sheet.page_slots`)."""
        if len(plan.cells) == self.sheet.per_page:
            return self.slots
        filled = {slot for slot, _ in plan.cells}
        return {side: self._placements(self.sheet.page_slots(side, filled)) for side in ("front", "back")}

    def decks_on(self, plan: PagePlan) -> list:
        """The decks with a card on this page, in print order."""
        seen: dict[str, object] = {}
        for _slot, number in plan.cells:
            deck = self.group.cards[number][0]
            seen.setdefault(deck.id, deck)
        return list(seen.values())

    def label_parts(self, plan: PagePlan) -> list[str]:
        """The page label in parts: which sheet, which decks (when packed), which side, which paper."""
        names = ", ".join(d.name for d in self.decks_on(plan)) if len(self.group.decks) > 1 else ""
        return _page_label_parts(self.sheet, plan.side, plan.sheet, plan.sheets, self.paper, names,
                                 self.game.phrases)

    def draw(self, canvas: Canvas, plan: PagePlan) -> None:
        """Draw one page of the group."""
        renderer, ink, once = self.renderer, self.ink, self.once
        slots = self.page_placements(plan)
        for slot_index, number in plan.cells:
            deck, card = self.group.cards[number]
            if plan.side in ("front", "fold"):
                inline = renderer.form_name(deck, card, False, ink) in once
                renderer.place_prepared(canvas, deck, card, slots["front"][slot_index], ink=ink,
                                        inline=inline)
            if plan.side in ("back", "fold"):  # each card's own back (the same form for cards sharing one)
                inline = renderer.form_name(deck, card, True, ink) in once
                renderer.place_prepared(canvas, deck, card, slots["back"][slot_index], back=True, ink=ink,
                                        inline=inline)
        form, placed = self._decoration(canvas, plan.side)
        canvas.doForm(form)
        parts = self.label_parts(plan)
        for where, group in placed:
            text = _join(parts, group)
            if text:
                _draw_label(canvas, where, text, BODY)

    def _decoration(self, canvas: Canvas, side: str) -> tuple[str, list]:
        if side in self.decorations:
            return self.decorations[side]
        sheet = self.sheet
        decks = self.group.decks
        title = self.game.title if len(decks) > 1 else f"{self.game.title} \u00b7 {decks[0].name}"
        # room for the widest page label of the group, so every page puts its labels in the same places
        labels = [self.label_parts(p) for (s, _), p in self.plans.items() if s == side]
        check_len, check_key = check_square(self.paper)
        check_text, note = self.game.phrases.t(check_key), self.game.phrases.t("sheets.print_at_100")
        depth = LABEL_SIZE * 1.2
        title_item = (string_width(title, BODY_BOLD, LABEL_SIZE), depth)
        rest = [(string_width(note, BODY_BOLD, LABEL_SIZE), depth),
                (check_len + mm(1.5) + string_width(check_text, BODY, LABEL_SIZE), depth)]
        # the page label whole if a strip is long enough, else the deck names apart, else every part apart
        for grouping in LABEL_GROUPINGS:
            widths = [
                max(string_width(_join(parts, group), BODY, LABEL_SIZE) for parts in labels)
                for group in grouping
            ]
            found = place_labels(sheet.strips, [title_item] + [(w, depth) for w in widths] + rest)
            title_at, placed, (note_at, check_at) = found[0], found[1:-2], found[-2:]
            if all(p is not None for p in placed):
                break
        placed = list(zip(placed, grouping, strict=True))
        name = f"sheet_{self.game.config.code}_{decks[0].code}_{side}"
        canvas.beginForm(name, 0, 0, sheet.page_w, sheet.page_h)
        if side in ("front", "fold"):  # cuts are made from the printed fronts
            _draw_lines(canvas, sheet.lines, CUT_LINE_COLOR, CUT_LINE_WIDTH)
            _draw_lines(canvas, sheet.marks, MARK_COLOR, MARK_WIDTH)
            draw_cut_paths(canvas, sheet, MARK_COLOR, MARK_WIDTH)  # the curved outlines of round cards
        if sheet.fold is not None:
            canvas.saveState()
            canvas.setDash(4, 3)
            canvas.setStrokeColor(HexColor("#888888"))
            canvas.line(sheet.fold.x1, sheet.fold.y1, sheet.fold.x2, sheet.fold.y2)
            canvas.restoreState()
        _draw_label(canvas, title_at, title, BODY_BOLD)
        _draw_label(canvas, note_at, note, BODY_BOLD)
        if check_at is not None:
            canvas.saveState()
            canvas.translate(*check_at.origin)
            canvas.rotate(check_at.angle)
            canvas.setLineWidth(0.5)
            canvas.setStrokeColor(HexColor(LABEL_COLOR))
            canvas.setFillColor(HexColor(LABEL_COLOR))
            canvas.rect(0, depth * 0.2, check_len, depth * 0.6, stroke=1, fill=1)
            canvas.setFont(BODY, LABEL_SIZE)
            draw_string(canvas, check_len + mm(1.5), depth * 0.25, check_text, BODY, LABEL_SIZE)
            canvas.restoreState()
        canvas.endForm()
        self.decorations[side] = (name, placed)
        return self.decorations[side]


def _draw_lines(canvas: Canvas, lines: list, color: str, width: float) -> None:
    if not lines:
        return
    canvas.saveState()
    canvas.setStrokeColor(HexColor(color))
    canvas.setLineWidth(width)
    for line in lines:
        canvas.line(line.x1, line.y1, line.x2, line.y2)
    canvas.restoreState()


def _page_label_parts(sheet: Sheet, side: str, number: int, sheets: int, paper: str, decks: str = "",
                      phrases: Phrases = ENGLISH) -> list[str]:
    """Which page of the deck, which decks are on it (packed sheets), which side and paper: short parts, so
    the label fits between crop marks even on small cards (or each part on its own when it does not)."""
    say = phrases.t
    if side == "fold":
        what = say("sheets.fold")
    elif side == "front":
        what = say("sheets.fronts")
    elif sheet.duplex == "none":
        what = say("sheets.backs")
    else:
        what = say("sheets.backs_flip", flip=say(f"sheets.flip_{sheet.duplex}"))
    return [say("sheets.sheet_of", number=number + 1, sheets=sheets), decks, what, paper_words(paper, say)]


def paper_name(game: Game, paper: str) -> str:
    """'Letter' or 'A4' as the game's language writes it."""
    return paper_words(paper, game.phrases.t)


def _draw_label(canvas: Canvas, placed, text: str, face: str) -> None:
    """One label in a margin strip (None: it found no room and is left out)."""
    if placed is None:
        return
    canvas.saveState()
    canvas.translate(*placed.origin)
    canvas.rotate(placed.angle)
    canvas.setFillColor(HexColor(LABEL_COLOR))
    canvas.setFont(face, LABEL_SIZE)
    draw_string(canvas, 0, LABEL_SIZE * 1.2 * 0.25, text, face, LABEL_SIZE)
    canvas.restoreState()
