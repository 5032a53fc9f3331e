"""What the rules text may point at, checked before anything is drawn: figures of cards, boards and
components, pictures and icons.

`pnp validate` and `pnp build` both run these checks (from `render_rules`), so a figure naming a deck that
does not exist, a width of 'banana' or a picture outside the project is one located problem in either command,
never a crash while the PDF is drawn.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from PIL import Image, UnidentifiedImageError

from generator.booklet.document import make_styles, para, text_frame
from generator.booklet.figure_layout import MIN_TEXT, FigureTooLarge, card_grid, legible_width
from generator.booklet.markdown import parse_markdown
from generator.core.caching import per_game
from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.limits import MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, LimitExceeded, check_file_size
from generator.core.units import UnitError, to_pt
from generator.data.game import Deck, Game
from generator.faces.face import renderer_for
from generator.faces.icons import IconSource
from generator.faces.legibility import text_areas

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg")
MAX_FIGURE_WIDTH_PT = 10 * 72.0  # wider than any page: the figure is scaled to the text width anyway


def from_reference(game: Game, kind: str, ref: str) -> dict:
    """The figure spec of a picture reference `card:deck/card-id` or `board:board-id`; ValueError if
    unknown."""
    if kind == "card":
        deck_id, _, card_id = ref.partition("/")
        deck = game.decks.get(deck_id)
        if deck is None or card_id not in deck.by_id():
            raise ValueError(
                f"picture 'card:{ref}' names no card; expected card:<deck>/<card id> with a deck of "
                f"{', '.join(game.decks)}"
            )
        return {"kind": "card", "deck": deck_id, "card": card_id}
    if kind == "component":
        if ref not in game.components:
            raise ValueError(f"picture 'component:{ref}' names no component; expected one of: "
                             f"{', '.join(game.components) or 'none (the game has no component files)'}")
        return {"kind": "component", "component": ref}
    if kind == "board":
        if ref not in game.boards:
            raise ValueError(f"picture 'board:{ref}' names no board; expected one of: "
                             f"{', '.join(game.boards) or 'none (the game has no board)'}")
        return {"kind": "board", "board": ref}
    raise ValueError(
        f"picture '{kind}:{ref}' has an unknown kind; expected card:<deck>/<card id>, board:<board id> "
        "or component:<component id>"
    )


def _fraction(value: Any, what: str, low_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"{what} is {value!r}; expected a number from 0 to 1")
    if value > 1 or value < 0 or (low_open and value == 0):
        raise ValueError(f"{what} is {value!r}; expected a number from 0 to 1")
    return float(value)


def check_figure(game: Game, spec: Any) -> dict:
    """The figure spec with every name and number checked (card picture references resolved); ValueError if
    not."""
    if not isinstance(spec, dict):
        raise ValueError(f"a figure is {type(spec).__name__}; expected a mapping such as "
                         '{"kind": "card", "deck": "orders", "card": "grandma-rosa"}')
    if "ref" in spec:
        spec = from_reference(game, str(spec.get("kind")), str(spec["ref"])) | {
            "caption": spec.get("caption", "")
        }
    kind = spec.get("kind")
    if kind == "card":
        _check_card_figure(game, spec)
    elif kind == "board":
        if spec.get("board") not in game.boards:
            raise ValueError(
                f"figure: no board '{spec.get('board')}'; known: {', '.join(game.boards) or 'none'}"
            )
        _fraction(spec.get("fraction", 1.0), "the figure's fraction of the text width", low_open=True)
    elif kind == "component":
        if spec.get("component") not in game.components:
            raise ValueError(f"figure: no component '{spec.get('component')}'"
                             f"{did_you_mean(str(spec.get('component')), game.components)}; "
                             f"known: {', '.join(game.components) or 'none'}")
        _fraction(spec.get("fraction", 1.0), "the figure's fraction of the text width", low_open=True)
    else:
        raise ValueError(f"figure kind '{kind}' is unknown; expected card, board or component")
    return spec


def _check_card_figure(game: Game, spec: dict) -> None:
    """A card figure's deck, cards, width and callouts."""
    deck = game.decks.get(str(spec.get("deck", "")))
    if deck is None:
        raise ValueError(
            f"figure: no deck '{spec.get('deck')}'{did_you_mean(str(spec.get('deck')), game.decks)}; "
            f"known: {known_list(game.decks)}"
        )
    refs = spec.get("cards") if spec.get("cards") is not None else [spec.get("card")]
    if not isinstance(refs, list) or not refs:
        raise ValueError(
            "figure: `cards` is not a list of card ids; expected e.g. [\"grandma-rosa\", "
            "\"coach-carter\"]"
        )
    _check_card_refs(game, deck, refs)
    try:
        width = to_pt(spec.get("width", "1.6in"))
    except UnitError as exc:
        raise ValueError(f"figure width: {exc}") from None
    if not 0 < width <= MAX_FIGURE_WIDTH_PT:
        raise ValueError(
            f"figure width {spec.get('width')!r}; expected a length above 0 and at most 10in"
        )
    callouts = spec.get("callouts", [])
    if not isinstance(callouts, list):
        raise ValueError(
            "figure callouts are not a list; expected [[label, x, y], ...] with x, y from 0 to 1"
        )
    _check_callouts(callouts)


def _check_card_refs(game: Game, deck: Deck, refs: list) -> None:
    """Each card id names a card of the figure's deck (or of `other-deck/card-id`'s)."""
    for ref in refs:
        other, _, card_id = str(ref).rpartition("/")
        in_deck = game.decks.get(other) if other else deck
        if in_deck is None:
            raise ValueError(f"figure: no deck '{other}'{did_you_mean(other, game.decks)}")
        if card_id not in in_deck.by_id():
            raise ValueError(f"figure: no card '{card_id}' in deck '{in_deck.id}'"
                             f"{did_you_mean(card_id, in_deck.by_id())}")


def _check_callouts(callouts: list) -> None:
    """Each callout is [label, x, y] with x and y from 0 to 1."""
    for callout in callouts:
        if not (isinstance(callout, list) and len(callout) == 3 and isinstance(callout[0], str)):
            raise ValueError(f"figure callout {callout!r}; expected [label, x, y] with x, y from 0 to 1")
        _fraction(callout[1], "a callout's x")
        _fraction(callout[2], "a callout's y")


@per_game
def rules_icons(game: Game) -> IconSource:
    """The icons the game's rules may use, looked up once for the template, its checks and the drawing."""
    return IconSource(game.project.icon_dirs(game.id), game.project)


@per_game
def _laid_out(game: Game) -> dict[tuple[str, str], list]:  # noqa: ARG001 - per_game keeps one per game
    """(deck id, card id) -> the card's text areas: a card pictured by the rules is laid out once, for the
    template's figure() check, the checks of the rendered rules and the figure drawn."""
    return {}


def card_text_areas(game: Game, cards: list) -> list[list]:
    """Per card, its texts as drawn (trim coordinates) with their smallest sizes; none for a card that cannot
    be drawn (its missing layout is reported by the card sheets)."""
    renderer = renderer_for(game)
    laid_out = _laid_out(game)
    result = []
    for card in cards:
        key = (card.deck, card.id)
        areas = laid_out.get(key)
        if areas is None:
            try:
                areas = text_areas(renderer, game.decks[card.deck], card)
            except InputError:
                areas = []
            laid_out[key] = areas
        result.append(list(areas))
    return result


@per_game
def _fit_problems(game: Game) -> dict[str, str | None]:  # noqa: ARG001 - per_game keeps one per game
    """A checked figure spec (as JSON) -> figure_fit_problem's answer: the template's figure() call and the
    check of the rendered rules ask about the same figures."""
    return {}


@per_game
def _caption_style(game: Game):
    return make_styles(fonts=game.fonts)["caption"]


def figure_fit_problem(game: Game, spec: dict) -> str | None:
    """Why a checked card figure cannot be laid out on the rules' pages (one card at its legibility floor
    taller than a page), or None. The booklet lays it out the same way (generator.booklet.figure_layout)."""
    if spec.get("kind") != "card":
        return None
    try:
        key = json.dumps(spec, sort_keys=True)
    except (TypeError, ValueError):  # a value JSON cannot hold: asked once, not remembered
        return _fit_problem(game, spec)
    found = _fit_problems(game)
    if key not in found:
        found[key] = _fit_problem(game, spec)
    return found[key]


def _fit_problem(game: Game, spec: dict) -> str | None:
    deck = game.decks[spec["deck"]]
    cards = []
    for ref in spec.get("cards") or [spec["card"]]:
        other, _, card_id = str(ref).rpartition("/")
        cards.append(game.decks[other or deck.id].card(card_id))
    areas = card_text_areas(game, cards)
    smallest = min((size for card_areas in areas for _, size in card_areas), default=None)
    native = game.decks[cards[0].deck].size_pt
    legible = legible_width(native[0], smallest)
    frame_w, frame_h = text_frame()
    caption = str(spec.get("caption") or "")
    caption_h = para(caption, _caption_style(game)).wrap(frame_w, frame_h)[1] + 4 if caption else 0
    try:
        card_grid(
            native,
            max(to_pt(spec.get("width", "1.6in")), legible),
            legible,
            len(cards),
            frame_w,
            frame_h,
            caption_h,
            bool(spec.get("callouts")),
        )
    except FigureTooLarge as exc:
        needed = math.ceil((smallest or MIN_TEXT) * exc.excess * 10) / 10
        return (
            f"figure of {', '.join(repr(c.id) for c in cards)} does not fit a page of the rules: {exc}; "
            f"expected the card's smallest text at {needed:g} pt or more (the figure is drawn as large as "
            "its "
            f"smallest text needs to print at {MIN_TEXT:g} pt)"
            + (", or a shorter caption" if caption else "")
        )
    return None


def picture_path(game: Game, src: str, *, file: str = "", line: int = 0) -> Path:
    """The picture a Markdown image names (relative to templates/rules/), inside the project, readable and
    within the picture limits; a located InputError otherwise."""
    folder = game.project.rules_template(game.id).parent
    path = game.project.inside(src, folder, file=file, line=line, what="picture")
    if not path.is_file():
        raise InputError(
            Problem(
                file,
                line,
                f"picture '{src}' not found; expected a PNG or JPG file relative to "
                f"{game.project.show(folder)}/",
            )
        )
    if path.suffix.lower() not in PICTURE_SUFFIXES:
        raise InputError(Problem(file, line, f"picture '{src}' is not a PNG or JPG file; expected one of "
                                             f"{', '.join(PICTURE_SUFFIXES)}"))
    try:
        check_file_size(path, MAX_IMAGE_BYTES, file, f"picture '{src}'")
        with Image.open(path) as image:
            width, height = image.size
            if width * height > MAX_IMAGE_PIXELS:
                raise LimitExceeded(f"picture '{src}' is {width} x {height} pixels; expected at most "
                                    f"{MAX_IMAGE_PIXELS:,} pixels (pnp's limit)")
            image.load()  # a truncated or corrupt file fails here, located, not while the PDF is drawn
    except InputError as exc:
        raise InputError([Problem(file, line, p.message) for p in exc.problems]) from None
    except LimitExceeded as exc:
        raise InputError(Problem(file, line, str(exc))) from None
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError, SyntaxError) as exc:
        raise InputError(Problem(file, line, f"picture '{src}' cannot be read ({exc}); expected a PNG or JPG "
                                             "file")) from None
    return path


def _source_line(source_lines: list[str], needle: str) -> int:
    """The line of the rules template that holds `needle` (1-based), 0 when it was made by template code."""
    needle = needle.strip()
    if not needle:
        return 0
    for number, text in enumerate(source_lines, start=1):
        if needle in text:
            return number
    return 0


def markdown_problems(game: Game, markdown: str, source: str, shown: str) -> list[Problem]:
    """Every figure, picture reference, picture file and inline icon of the rendered rules that cannot be
    drawn."""
    lines = source.splitlines()
    problems: list[Problem] = []
    icons = rules_icons(game)
    for token in parse_markdown(markdown):
        if token.type == "fence" and token.info.strip().split()[:1] == ["figure"]:
            first = next((text for text in token.content.splitlines() if text.strip()), "")
            line = _source_line(lines, first)
            try:
                problem = figure_fit_problem(game, check_figure(game, json.loads(token.content)))
                if problem is not None:
                    raise ValueError(problem)
            except json.JSONDecodeError as exc:
                problems.append(
                    Problem(
                        shown,
                        line,
                        f"a figure block is not valid JSON ({exc.msg}); expected "
                        '{"kind": "card", "deck": ..., "card": ...} or use figure(...)',
                    )
                )
            except ValueError as exc:
                problems.append(Problem(shown, line, str(exc)))
        for child in token.children or []:
            if child.type != "image":
                continue
            src = str(child.attrGet("src") or "")
            line = _source_line(lines, f"]({src}")
            scheme, _, rest = src.partition(":")
            try:
                if scheme == "icon":
                    problem = icons.problem(rest)
                    if problem is not None:
                        raise ValueError(problem)
                elif scheme in ("card", "board", "component"):
                    problem = figure_fit_problem(game, check_figure(game, {"kind": scheme, "ref": rest,
                                                                           "caption": child.content}))
                    if problem is not None:
                        raise ValueError(problem)
                else:
                    picture_path(game, src, file=shown, line=line)
            except ValueError as exc:
                problems.append(Problem(shown, line, str(exc)))
            except InputError as exc:
                problems.extend(exc.problems)
    return problems
