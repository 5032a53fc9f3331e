"""Rules text: render templates/rules/<game>.md.j2 with the game's data into Markdown (sandboxed Jinja)."""

from __future__ import annotations

import functools
import json
import traceback
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SecurityError

from generator.cards.icons import icon_names
from generator.core.errors import InputError, Problem, did_you_mean
from generator.data.game import Game
from generator.data.templating import GameHelpers, environment, game_view

# --- helpers only rules templates have; each returns Markdown the converter understands -------------------

def icon(name: str, size: str = "1.2em") -> str:
    """An inline icon in running text or a table cell."""
    return f"![{name}](icon:{name} \"{size}\")"


def figure(kind: str, caption: str = "", **options: Any) -> str:
    """A block picture drawn by the card, board or component pipeline (kind 'card', 'board' or 'component')."""
    spec = {"kind": kind, "caption": caption, **options}
    return "\n```figure\n" + json.dumps(spec, sort_keys=True) + "\n```\n"


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
        elif kind == "component":
            if options.get("component") not in game.components:
                raise ValueError(f"figure: no component '{options.get('component')}'"
                                 f"{did_you_mean(str(options.get('component')), game.components)}; "
                                 f"known: {', '.join(game.components) or 'none'}")
        else:
            raise ValueError(f"figure kind '{kind}' is unknown; expected card, board or component")
        return figure(kind, caption, **options)

    return checked


@functools.cache
def _environment(templates_dir: str):
    return environment(autoescape=False, loader=FileSystemLoader(templates_dir), keep_trailing_newline=True,
                       helpers={"icon": icon, "figure": figure})


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
        view = game_view(game)
        return template.render(game=view, icon=_checked_icon(game, icons), figure=_checked_figure(game),
                               has_icon=lambda name: name in icons, **GameHelpers(game, view).functions())
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
