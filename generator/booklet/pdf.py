"""Rule booklets: build/<game>/rules.pdf (reading order, half-letter) and saddle-stitch booklets per paper
size."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import CondPageBreak, Flowable, NextPageTemplate, PageBreak, Spacer

from generator.booklet.balance import FIRST_LAYOUT, Balance, Layout, next_layouts
from generator.booklet.characters import rules_character_problems
from generator.booklet.document import (
    ACCENT,
    PAGE_SIZE,
    BackCover,
    Heading,
    LaidOut,
    contents,
    hidden_heading,
    lay_out_document,
    make_styles,
    para,
    text_frame,
)
from generator.booklet.figure_layout import CARD_GAP
from generator.booklet.figures import CardFigure, figure_factory, icon_markup, picture_files
from generator.booklet.imposed import ReadingPages, impose
from generator.booklet.markdown import Converter
from generator.booklet.text import cover_cards, missing_translation, render_rules, template_file
from generator.core.contract import BuildOptions, FunctionProducer, Output, OutputKind
from generator.core.errors import InputError
from generator.core.geometry import paper_of
from generator.core.write import atomic_write
from generator.data.game import Game
from generator.faces.icons import enable_inline_icons

# --- the reading PDF
# -------------------------------------------------------------------------------------------

def _cover(game: Game, styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    config = game.config
    say = game.phrases.t
    title_face = styles["h1"].fontName  # the game's title font
    title = ParagraphStyle("cover-title", parent=styles["h1"], fontName=title_face, fontSize=34, leading=38,
                           alignment=1, spaceBefore=0, spaceAfter=4)
    sub = ParagraphStyle(
        "cover-sub",
        parent=styles["body"],
        fontName=title_face,
        fontSize=13,
        leading=16,
        alignment=1,
        textColor=ACCENT,
    )
    info = ParagraphStyle("cover-info", parent=styles["body"], fontSize=10, leading=13, alignment=1)
    low, high = config.players.min, config.players.max
    # a solo game (or one for exactly N) says "1 player", never "1–1 players"
    players = say("rules.players", min=low, max=high, count=high) if low != high else \
        say("rules.players_exactly", count=low)
    facts = [players] + ([say("rules.ages", ages=config.ages)] if config.ages else []) + (
        [config.play_time.replace("-", "\u2013")] if config.play_time else [])
    story: list[Flowable] = [Spacer(1, 30), para(config.title, title)]
    if config.subtitle:
        story.append(para(config.subtitle, sub))
    story += [Spacer(1, 6), para(" \u00b7 ".join(facts), info), Spacer(1, 22)]
    rules = para(say("rules.cover"), ParagraphStyle("cover-rules", parent=sub, fontSize=18, leading=22))
    below = [Spacer(1, 18), rules]
    figure = _cover_cards(game, styles, width, reserve=18 + rules.wrap(width, PAGE_SIZE[1])[1])
    return story + ([figure] if figure else []) + below


def _cover_cards(
    game: Game, styles: dict[str, ParagraphStyle], width: float, reserve: float
) -> CardFigure | None:
    """Real cards on the cover: the first card type of the first two decks side by side, as many as fit one
    row with their text legible (MIN_TEXT), as large as the room the cover page leaves above `reserve`
    allows."""
    cards = [game.decks[deck_id].card(card_id) for deck_id, card_id in cover_cards(game)]
    while cards:
        figure = CardFigure(
            game,
            cards,
            (width - CARD_GAP * (len(cards) - 1)) / len(cards),
            [],
            styles["caption"],
            reserve=reserve,
        )
        if len(cards) == 1 or len(cards) * figure.legible + (len(cards) - 1) * CARD_GAP <= width:
            return figure
        cards = cards[:-1]
    return None


def reading_story(game: Game, markdown: str, width: float, layout: Layout = FIRST_LAYOUT) -> list[Flowable]:
    """Cover, contents and the rules text as flowables, in the layout's body size and with a new page before
    each heading the layout breaks at."""
    styles = make_styles(layout.body_size, fonts=game.fonts)
    converter = Converter(
        width=width,
        styles=styles,
        figures=figure_factory(game, styles, layout.figure_scale),
        icons=icon_markup(game),
        pictures=picture_files(game),
    )
    body = converter.convert(markdown)
    if layout.breaks:
        body = _breaks_before(body, layout.breaks)
    story = _cover(game, styles, width)
    story += [
        NextPageTemplate("body"),
        PageBreak(),
        hidden_heading(game.phrases.t("rules.contents"), styles["h1"], "contents"),
        contents(styles),
        PageBreak(),
    ]
    return story + body


def _breaks_before(body: list[Flowable], keys: frozenset[str]) -> list[Flowable]:
    """The body with a page break before each heading of `keys`: the "room for what follows" each heading
    asks (a CondPageBreak before it) becomes a PageBreak."""
    out = list(body)
    for index, flow in enumerate(body[1:], start=1):
        if isinstance(flow, Heading) and flow.key in keys and isinstance(body[index - 1], CondPageBreak):
            out[index - 1] = PageBreak()
    return out


@dataclass
class Reading:
    """The reading-order rules PDF as laid out once for the rules and every booklet."""

    pdf: bytes
    back_pages: int  # pages of back matter (`<!-- backcover -->`; 0 if none), kept last in the booklets
    contents: list[bytes | None]  # each page's content stream, uncompressed (None: read it from the PDF)

    @property
    def pages(self) -> int:
        return len(self.contents)


# At most this many layouts per rules PDF (each laid out without drawing it, the best then drawn): the first,
# and the balancing's tries; fewer once no page is short, when only the booklet's blank pages are left to
# save.
MAX_LAYOUTS = 10
MAX_BLANK_LAYOUTS = 4


def render_reading(game: Game, markdown: str) -> Reading:
    """The reading-order rules PDF, its pages' content streams and the number of pages of back matter, in the
    best of a few layouts (booklet.balance): no page less than half full unless a chapter starts on it, and
    no blank page in the booklets, where the rules allow it. Each layout is measured by laying it out without
    drawing it (its pages' geometry is that of the drawn PDF), and only the best is drawn. The layout chosen
    for the same inputs of the pages' geometry by an earlier build (keep_layouts_in) is drawn alone, with the
    contents' entries it settled on."""
    key = _layouts.key_of(game) if _layouts.key_of is not None else None
    remembered = _layouts.recall(game, key) if key is not None and _layouts.reuse else None
    if remembered is not None:
        layout, kept = remembered
        _, _, reading, contents = _laid_out(game, markdown, layout, kept)
        if contents != kept:  # they did not settle where kept: the entries they settled on kept instead
            _layouts.remember(game, key, layout, contents)
        return reading
    best = _measured(game, markdown, FIRST_LAYOUT)
    tried = {best.layout}
    queue = next_layouts(best.layout, best.balance)
    while queue and len(tried) < (MAX_LAYOUTS if best.balance.short_pages() else MAX_BLANK_LAYOUTS):
        layout = queue.pop(0)
        if layout in tried:
            continue
        tried.add(layout)
        found = _measured(game, markdown, layout)
        if found.balance.score() < best.balance.score():
            best = found
        queue += next_layouts(found.layout, found.balance)
    _, _, reading, contents = _laid_out(game, markdown, best.layout, best.contents, best.story)
    if key is not None:
        _layouts.remember(game, key, best.layout, contents)
    return reading


# of the files kept (2: with the contents' entries): a new format (or a new Layout field) is never read as
# the old
LAYOUT_FORMAT = 2


@dataclass
class _KeptLayouts:
    """Where the chosen layouts are kept between builds (build/.cache/rules-layouts/, one file per game and
    language), and the hash of what a game's pages' geometry is made from (LAYOUT_PARTS), given by the
    build; `reuse` False (--force): chosen again, and kept."""

    folder: Path | None = None
    key_of: Callable[[Game], str | None] | None = None
    reuse: bool = True

    def _file(self, game: Game) -> Path | None:
        return None if self.folder is None else self.folder / f"{game.id}.{game.language}.json"

    def recall(self, game: Game, key: str) -> tuple[Layout, list] | None:
        path = self._file(game)
        try:
            kept = json.loads(path.read_text(encoding="utf-8")) if path is not None else None
            if not isinstance(kept, dict) or kept.get("format") != LAYOUT_FORMAT or kept.get("key") != key:
                return None
            contents = kept["contents"]
            if not isinstance(contents, list) or not all(isinstance(entry, list) for entry in contents):
                return None
            return Layout(float(kept["body_size"]), float(kept["figure_scale"]),
                          frozenset(str(b) for b in kept["breaks"])), contents
        except (OSError, ValueError, KeyError, TypeError):  # none kept, or not one this build wrote
            return None

    def remember(self, game: Game, key: str, layout: Layout, contents: list) -> None:
        path = self._file(game)
        if path is None:
            return
        text = json.dumps({"format": LAYOUT_FORMAT, "key": key, "body_size": layout.body_size,
                           "figure_scale": layout.figure_scale, "breaks": sorted(layout.breaks),
                           "contents": contents})
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, text)
        except OSError:  # a convenience: the next build chooses again
            pass


_layouts = _KeptLayouts()


def keep_layouts_in(folder: Path | None, key_of: Callable[[Game], str | None] | None = None,
                    reuse: bool = True) -> None:
    """Keep the layout the balancing chooses in `folder`, by `key_of(game)` (the hash of LAYOUT_PARTS of the
    game in its language, None: not kept), and lay out only that one while the hash is the same (`reuse`);
    None: choose every time."""
    global _layouts
    _layouts = _KeptLayouts(folder, key_of if folder is not None else None, reuse)


@dataclass
class _Measured:
    """A layout laid out without drawing it: how full its pages are, its story and its contents' entries."""

    layout: Layout
    balance: Balance
    story: list[Flowable]
    contents: list


def _document(game: Game, path: Path, story: list[Flowable], contents: list | None, draw: bool) -> LaidOut:
    say = game.phrases.t
    return lay_out_document(str(path), story, contents=contents, draw=draw,
                            title=say("rules.title", title=game.title),
                            header=say("rules.header", title=game.title), page_size=PAGE_SIZE,
                            subject=game.config.subtitle or say("rules.subject"),
                            canvas_hooks=[enable_inline_icons], fonts=game.fonts)


def _measured(game: Game, markdown: str, layout: Layout) -> _Measured:
    """The rules laid out in one layout without drawing them, and how full its pages are (those of the PDF
    `_laid_out` draws of it)."""
    story = reading_story(game, markdown, text_frame()[0], layout)
    with tempfile.TemporaryDirectory() as folder:
        laid = _document(game, Path(folder) / "rules.pdf", story, None, draw=False)
    balance = replace(laid.balance, body_size=layout.body_size, figure_scale=layout.figure_scale)
    return _Measured(layout, balance, story, laid.contents)


def _laid_out(game: Game, markdown: str, layout: Layout, contents: list | None = None,
              story: list[Flowable] | None = None) -> tuple[Layout, Balance, Reading, list]:
    """The rules laid out and drawn in one layout (`contents`: the entries the contents settled on when this
    layout was laid out before, `story`: its story as laid out then), how full its pages are, and the entries
    the contents settled on."""
    if story is None:
        story = reading_story(game, markdown, text_frame()[0], layout)
    marks = [f for f in story if isinstance(f, BackCover)]
    # A real file, not a buffer: multiBuild saves every pass, and a buffer would collect them all.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rules.pdf"
        laid = _document(game, path, story, contents, draw=True)
        data = path.read_bytes()
    pages = len(laid.streams)
    start = marks[-1].page if marks and marks[-1].page else pages + 1  # the page where the back matter starts
    measured = replace(laid.balance, body_size=layout.body_size, figure_scale=layout.figure_scale)
    return layout, measured, Reading(data, pages - start + 1, laid.streams), laid.contents


# --- outputs
# ---------------------------------------------------------------------------------------------------

def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """rules.pdf plus rules-booklet-<paper>.pdf per paper; the template is rendered now, so errors stop the
    build early."""
    if missing_translation(game) is not None:  # a translation warns of it; the booklet waits for the file
        return []
    path = template_file(game)
    if not path.is_file():
        return []
    markdown = render_rules(game)
    missing = rules_character_problems(game, markdown, game.show(path), path.read_text(encoding="utf-8"))
    if missing:
        raise InputError(missing)
    base = Path(game.id)
    laid_out: list[Reading] = []  # the reading PDF is laid out once and reused by the booklets
    readers: list[ReadingPages] = []  # and read (each page's content compressed) once for all of them

    def reading_pdf() -> Reading:
        if not laid_out:
            laid_out.append(render_reading(game, markdown))
        return laid_out[0]

    def reading(tmp: Path) -> dict:
        tmp.write_bytes(reading_pdf().pdf)
        return {"pages": reading_pdf().pages, "page_size": "5.5x8.5in"}

    def booklet(paper: str):
        def render(tmp: Path) -> dict:
            laid = reading_pdf()
            if not readers:
                readers.append(ReadingPages.of(laid.pdf, laid.contents))
            sides = impose(readers[0], paper, tmp, back=laid.back_pages, phrases=game.phrases)
            return {
                "pages": sides,
                "reading_pages": laid.pages,
                "back_cover_pages": laid.back_pages,
                "paper": paper,
            }
        return render

    result = [Output(game.id, base / "rules.pdf", "rules", reading)]
    for paper in game.papers(options):
        if paper_of(paper):  # every paper a build is given has been checked by now
            result.append(
                Output(game.id, base / f"rules-booklet-{paper}.pdf", "rules-booklet", booklet(paper))
            )
    return result


# What the rules are drawn from: their Markdown as rendered (every word they print), the faces of the cards
# they picture (the cover's too) and the pieces they picture: the decks' makeup, boards, components, component
# faces and the tuck boxes' deck backs, with the other files of templates/. They are planned from the game as
# loaded, its own rules template and the shared partials.
RULES_PARTS = ("game", "deck_makeup", "board", "component", "pictures", "fonts", "templates",
               "component_faces", "boxed_backs", "rules_text", "pictured_cards")
RULE_BOOKLETS = FunctionProducer(
    "rule booklets", "rules template renders", outputs,
    plans_from=("game", "game_data", "data_files", "layouts", "pictures", "fonts", "templates", "own_rules"),
    makes=(OutputKind("rules", RULES_PARTS, ()), OutputKind("rules-booklet", RULES_PARTS, ())))

# What decides the balancing's choice is every page's geometry: it reads what the rules are drawn from but the
# faces of the cards they picture, of which only the deck's size and how small the texts are (the figures'
# legible size): `pictured_geometry` (generator.pipeline.fingerprints).
LAYOUT_PARTS = tuple(part for part in RULES_PARTS if part != "pictured_cards") + ("pictured_geometry",)
