"""Rules text: render templates/rules/<game>.md.j2 with the game's data into Markdown (sandboxed Jinja)."""

from __future__ import annotations

import functools
import json
import re
import traceback
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment, SecurityError

from generator.components import component_list
from generator.errors import InputError, Problem, did_you_mean, known_list
from generator.icons import icon_names
from generator.load import Game

_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


class View(dict):
    """Plain data handed to a template: keys read as attributes (`deck.cards`) before dict methods."""


class RulesUndefined(StrictUndefined):
    """A missing key names what is there instead of Jinja's "'generator.rules_text.View object' has no attribute"."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        if isinstance(obj, dict) and isinstance(name, str) and not self._undefined_hint:
            keys = [str(k) for k in obj]
            return f"no field '{name}' here{did_you_mean(name, keys)}; known: {known_list(keys)}"
        return super()._undefined_message


class RulesEnvironment(SandboxedEnvironment):
    """A sandbox where data keys win over dict methods, so a field named `items` or `values` still reads."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, View) and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def _plain(value: Any) -> Any:
    """Data only: dicts, lists and scalars (no objects with methods that reach files or Python internals)."""
    if isinstance(value, dict):
        return View({str(k) if not isinstance(k, int) else k: _plain(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "model_dump"):
        return _plain(value.model_dump())
    return str(value)


def game_view(game: Game) -> View:
    """Everything a rules template may read about a game, as plain data with counts computed from the YAML."""
    config = game.config
    decks = View()
    for deck in game.decks.values():
        cards = [_plain(card.as_dict()) | {"index": card.index} for card in deck.cards]
        decks[deck.id] = View(
            id=deck.id, name=deck.name, code=deck.code, copies=deck.copies, card_types=len(deck.cards),
            description=deck.description, cards=cards, by_id=View({c["id"]: c for c in cards}),
            size_mm=list(deck.size_mm),
        )
    tables = View()
    for table in game.tables.values():
        rows = [_plain(row.as_dict()) for row in table.rows]
        tables[table.id] = View(id=table.id, name=table.name, rows=rows, by_id=View({r["id"]: r for r in rows}))
    boards = View()
    for board in game.boards.values():
        model = _plain(board.model.model_dump())
        model["id"] = board.id
        model["spaces_by_id"] = View({s["id"]: s for s in model["spaces"]})
        model["streets_by_id"] = View({s["id"]: s for s in model["streets"]})
        model["starts"] = _track_starts(board)
        boards[board.id] = model
    components = [View(name=c.name, count=c.count, detail=c.detail) for c in component_list(game)]
    return View(
        id=game.id, title=config.title, subtitle=config.subtitle, code=config.code,
        players=View(min=config.players.min, max=config.players.max), ages=config.ages, play_time=config.play_time,
        settings=_plain(config.settings), extras=_plain([c.model_dump() for c in config.components]),
        decks=decks, tables=tables, boards=boards, components=components,
    )


def _track_starts(board) -> list[View]:
    """For a track: per player count, its start space and the moves from there to the end space (= rounds)."""
    ends = [s.id for s in board.model.spaces if s.kind == "end"]
    if not ends:
        return []
    graph = board.neighbours()
    distance = {ends[0]: 0}
    frontier = [ends[0]]
    while frontier:
        nxt = []
        for sid in frontier:
            for other in graph[sid]:
                if other not in distance:
                    distance[other] = distance[sid] + 1
                    nxt.append(other)
        frontier = nxt
    starts = []
    for space in board.model.spaces:
        for players in space.start_for:
            starts.append(View(players=players, space=space.id, label=space.label, rounds=distance.get(space.id, 0)))
    return sorted(starts, key=lambda s: s["players"])


# --- helpers the templates call; each returns Markdown the converter understands ---------------------------

def icon(name: str, size: str = "1.2em") -> str:
    """An inline icon in running text or a table cell."""
    return f"![{name}](icon:{name} \"{size}\")"


def figure(kind: str, caption: str = "", **options: Any) -> str:
    """A block picture drawn by the card or board pipeline (kind 'card' or 'board'), with a caption."""
    spec = {"kind": kind, "caption": caption, **options}
    return "\n```figure\n" + json.dumps(spec, sort_keys=True) + "\n```\n"


def words(number: int) -> str:
    """'six' for 6 (numbers above twelve stay digits)."""
    return _WORDS[number] if isinstance(number, int) and 0 <= number < len(_WORDS) else str(number)


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 card', '3 cards' (or the given plural form)."""
    return f"{count} {singular if count == 1 else (plural_form or singular + 's')}"


def join_and(items: list[Any], last: str = "and") -> str:
    """'a, b and c'."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def signed(number: int | float) -> str:
    """'+2' or '−4' (a real minus sign)."""
    return f"+{number}" if number >= 0 else f"\u2212{abs(number)}"


def _checked_icon(game: Game, known: list[str]):
    """icon() that fails (at the template line) when no SVG of that name (in `known`) exists for the game."""

    def checked(name: str, size: str = "1.2em") -> str:
        if name not in known:
            raise ValueError(f"icon '{name}' not found{did_you_mean(name, known)}; expected an SVG in "
                             f"cards/{game.id}/icons/, templates/icons/ or the built-in library")
        return icon(name, size)

    return checked


def _checked_figure(game: Game):
    """figure() that fails (at the template line) for a deck, card or board that does not exist."""

    def checked(kind: str, caption: str = "", **options: Any) -> str:
        if kind == "card":
            deck = game.decks.get(options.get("deck", ""))
            if deck is None:
                raise ValueError(f"figure: no deck '{options.get('deck')}'{did_you_mean(str(options.get('deck')), game.decks)}")
            for ref in options.get("cards") or [options.get("card")]:
                other, _, card_id = str(ref).rpartition("/")
                deck = game.decks.get(other) if other else deck
                if deck is None:
                    raise ValueError(f"figure: no deck '{other}'{did_you_mean(other, game.decks)}")
                if card_id not in deck.by_id():
                    raise ValueError(f"figure: no card '{card_id}' in deck '{deck.id}'{did_you_mean(str(card_id), deck.by_id())}")
        elif kind == "board":
            if options.get("board") not in game.boards:
                raise ValueError(f"figure: no board '{options.get('board')}'; known: {', '.join(game.boards)}")
        else:
            raise ValueError(f"figure kind '{kind}' is unknown; expected card or board")
        return figure(kind, caption, **options)

    return checked


def last_number(text: str) -> int:
    """The number at the end of a text such as 'egg +1' (1)."""
    match = re.search(r"([+-]?\d+)\s*$", str(text))
    if not match:
        raise ValueError(f"'{text}' does not end with a number")
    return int(match.group(1))


@functools.cache
def _environment(templates_dir: str) -> RulesEnvironment:
    env = RulesEnvironment(loader=FileSystemLoader(templates_dir), undefined=RulesUndefined,
                           trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    env.globals.update(icon=icon, figure=figure, words=words, plural=plural, join_and=join_and, signed=signed)
    env.filters.update(words=words, join_and=join_and, signed=signed, dictsum=lambda d: sum(d.values()),
                       lookup=lambda ids, table: [table[i] for i in ids], last_number=last_number)
    return env


def template_file(game: Game) -> Path:
    """templates/rules/<game id>.md.j2."""
    return game.project.rules_template(game.id)


def _error_line(exc: BaseException, filename: str) -> int:
    """The template line of a render-time error, from the frames Jinja maps back to the template."""
    line = 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename and Path(frame.filename).name == Path(filename).name and frame.lineno:
            line = frame.lineno
    return line


def render_rules(game: Game) -> str:
    """The game's rules as Markdown; template mistakes become InputError naming the template file and line."""
    path = template_file(game)
    shown = game.project.show(path)
    if not path.is_file():
        raise InputError(Problem(shown, 0, f"no rules template for game '{game.id}'; expected {shown}"))
    env = _environment(str(path.parent))
    icons = icon_names(game.project.icon_dirs(game.id))  # listed once per render, not on every has_icon() call
    try:
        template = env.get_template(path.name)
        return template.render(game=game_view(game), icon=_checked_icon(game, icons), figure=_checked_figure(game),
                               has_icon=lambda name: name in icons)
    except TemplateSyntaxError as exc:
        raise InputError(Problem(shown, exc.lineno or 0, f"template syntax error: {exc.message}")) from None
    except SecurityError as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name),
                                 f"not allowed in a rules template: {exc}; expected plain data access")) from None
    except TemplateError as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name), f"template error: {exc}")) from None
    except ValueError as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name), str(exc))) from None
    except (TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError) as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name),
                                 f"template error: {type(exc).__name__}: {exc}")) from None
