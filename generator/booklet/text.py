"""Rules text: render templates/rules/<game>.md.j2 with the game's data into Markdown (bounded sandbox).

The template and everything it includes are read through `Project.inside` (links resolved, nothing outside the
project); each render has the budget of generator.data.sandbox; printed values have their `|` escaped so data
never splits a Markdown table cell; and the figures, pictures and icons of the result are checked
(generator.booklet.references) before `pnp build` draws anything, the same for `pnp validate`.
"""

from __future__ import annotations

import functools
import json
import re
import traceback
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.sandbox import SecurityError

from generator.booklet.references import check_figure, figure_fit_problem, markdown_problems, rules_icons
from generator.core.caching import per_game
from generator.core.errors import InputError, Problem
from generator.core.limits import MAX_TEXT_BYTES, LimitExceeded
from generator.core.phrases import language_name
from generator.core.yamlio import load_yaml, read_text
from generator.data.compiled import SandboxedCache, private_cache
from generator.data.game import Game
from generator.data.project import Project
from generator.data.templating import GameHelpers, environment, game_view
from generator.faces.icons import IconSource

_PIPE = re.compile(r"(?<!\\)\|")


class MarkdownText(str):
    """Markdown made by the template itself or by a helper (not data): printed as it is."""


def markdown_value(value: Any) -> str:
    """A printed value: data gets its `|` escaped (a card named 'A | B' stays in its table cell); template
    output and helper results are already Markdown."""
    if isinstance(value, MarkdownText):
        return value
    return _PIPE.sub(r"\\|", str(value))


# --- helpers only rules templates have; each returns Markdown the converter understands -------------------

def icon(name: str, size: str = "1.2em") -> MarkdownText:
    """An inline icon in running text or a table cell."""
    return MarkdownText(f"![{name}](icon:{name} \"{size}\")")


def figure(kind: str, caption: str = "", **options: Any) -> MarkdownText:
    """A block picture drawn by the card, board or component pipeline (kind 'card', 'board' or
    'component')."""
    spec = {"kind": kind, "caption": caption, **options}
    return MarkdownText("\n```figure\n" + json.dumps(spec, sort_keys=True) + "\n```\n")


def _checked_icon(source: IconSource):
    """icon() that fails (at the template line) when the game cannot draw an icon of that name."""

    def checked(name: str, size: str = "1.2em") -> MarkdownText:
        problem = source.problem(str(name))
        if problem is not None:
            raise ValueError(problem)
        return icon(name, size)

    return checked


def _checked_figure(game: Game):
    """figure() that fails (at the template line) for a deck, card, board or component that does not exist, or
    a bad width."""

    def checked(kind: str, caption: str = "", **options: Any) -> MarkdownText:
        problem = figure_fit_problem(game, check_figure(game, {"kind": kind, "caption": caption, **options}))
        if problem is not None:
            raise ValueError(problem)
        return figure(kind, caption, **options)

    return checked


class RulesLoader(BaseLoader):
    """The rules templates and what they include or import, read from templates/rules/ through
    Project.inside."""

    def __init__(self, project: Project, folder: Path):
        self.project, self.folder = project, folder

    def get_source(self, environment, template: str):  # noqa: ARG002 - Jinja BaseLoader.get_source hook
        try:
            path = self.project.inside(template, self.folder, what="template")
        except InputError as exc:
            raise TemplateNotFound(template, exc.problems[0].message) from None
        if not path.is_file():
            raise TemplateNotFound(template, f"template '{template}' not found; expected a file in "
                                             f"{self.project.show(self.folder)}/")
        text = read_text(path, self.project.show(path), MAX_TEXT_BYTES)
        mtime = path.stat().st_mtime_ns
        return text, str(path), lambda: path.is_file() and path.stat().st_mtime_ns == mtime


class CompiledTemplates(SandboxedCache):
    """Rules templates as Jinja compiled them, kept between runs, so a rebuild compiles only the templates
    that changed (Jinja checks each one against its source)."""

    kind = "rules"
    module = __file__


def compiled_templates() -> CompiledTemplates | None:
    """The cache of compiled templates; None where the user has no private cache folder (then each run
    compiles)."""
    return private_cache(CompiledTemplates)


@functools.cache
def _environment(project: Project, templates_dir: str):
    env = environment(
        autoescape=False,
        loader=RulesLoader(project, Path(templates_dir)),
        keep_trailing_newline=True,
        helpers={"icon": icon, "figure": figure},
        finalize=markdown_value,
    )
    env.text_type = MarkdownText
    env.bytecode_cache = compiled_templates()
    return env


_FIGURE_BLOCK = re.compile(r"```figure\n(.*?)\n```", re.S)
_CARD_PICTURE = re.compile(r"\]\(card:([^\s)]+)")


def pictured_cards(markdown: str) -> list[tuple[str, str]]:
    """(deck id, card id) of every card the rules picture (```figure blocks and ![...](card:deck/id)
    pictures), in order: what the booklets draw of the card faces."""
    found: list[tuple[str, str]] = []
    for block in _FIGURE_BLOCK.findall(markdown):
        try:
            spec = json.loads(block)
        except ValueError:
            continue
        if isinstance(spec, dict) and spec.get("kind") == "card":
            for ref in spec.get("cards") or [spec.get("card")]:
                other, _, card_id = str(ref).rpartition("/")
                found.append((other or str(spec.get("deck")), card_id))
    for ref in _CARD_PICTURE.findall(markdown):
        deck_id, _, card_id = ref.partition("/")
        found.append((deck_id, card_id))
    return found


COVER_DECKS = 2  # the cover shows the first card of the first decks, this many at most


def cover_cards(game: Game) -> list[tuple[str, str]]:
    """(deck id, card id) of the cards the cover may show: the first card of each of the first COVER_DECKS
    decks (fewer are shown when they do not fit side by side, see booklet.pdf)."""
    return [(deck.id, deck.cards[0].id) for deck in game.decks.values() if deck.cards][:COVER_DECKS]


def template_file(game: Game) -> Path:
    """templates/rules/<game id>.md.j2; for a translated game templates/rules/<game id>.<language>.md.j2."""
    return game.project.rules_template(game.id, game.language if game.translated else None)


def missing_translation(game: Game) -> Problem | None:
    """A located problem when the game has rules but no rules template in the language it is translated
    into."""
    if (
        not game.translated
        or template_file(game).is_file()
        or not game.project.rules_template(game.id).is_file()
    ):
        return None
    source = game.project.show(game.project.rules_template(game.id))
    shown = game.show(game.dir / "game.yaml")
    file, line = shown, 0
    try:
        raw = load_yaml(game.dir / "game.yaml", shown)
        line = raw.line_of("languages")
    except InputError:
        pass
    return Problem(file, line, f"the rules have no {language_name(game.language)} template; expected "
                               f"{game.project.show(template_file(game))} (the rules of {source} written in "
                               f"{language_name(game.language).split(' (')[0]})")


def _error_line(exc: BaseException, filename: str) -> int:
    """The template line of a render-time error, from the frames Jinja maps back to the template."""
    line = 0
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename and Path(frame.filename).name == Path(filename).name and frame.lineno:
            line = frame.lineno
    return line


@per_game
def render_rules(game: Game) -> str:
    """The game's rules as Markdown; template mistakes, and figures or pictures that cannot be drawn, become
    InputError naming the template file and line. Rendered once per loaded game (the producer and the build's
    fingerprints both ask)."""
    return _render_rules(game)


def _render_rules(game: Game) -> str:
    path = template_file(game)
    shown = game.project.show(path)
    if not path.is_file():
        raise InputError(Problem(shown, 0, f"no rules template for game '{game.id}'; expected {shown}"))
    source = read_text(path, shown, MAX_TEXT_BYTES)
    env = _environment(game.project, str(path.parent))
    icons = rules_icons(game)
    try:
        template = env.get_template(path.name)
        view = game_view(game)
        markdown = env.render_bounded(template, dict(
            game=view, icon=_checked_icon(icons), figure=_checked_figure(game),
            has_icon=lambda name: icons.problem(str(name)) is None, **GameHelpers(game, view).functions()))
    except TemplateSyntaxError as exc:
        raise InputError(Problem(shown, exc.lineno or 0, f"template syntax error: {exc.message}")) from None
    except TemplateNotFound as exc:
        raise InputError(
            Problem(shown, _error_line(exc, path.name), exc.message or f"template '{exc.name}' not found")
        ) from None
    except SecurityError as exc:
        raise InputError(
            Problem(
                shown,
                _error_line(exc, path.name),
                f"not allowed in a rules template: {exc}; expected plain data access",
            )
        ) from None
    except TemplateError as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name), f"template error: {exc}")) from None
    except RecursionError as exc:
        raise InputError(
            Problem(
                shown,
                _error_line(exc, path.name),
                "the template includes or calls itself too deeply; expected includes and macros that end",
            )
        ) from None
    except (LimitExceeded, ValueError) as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name), str(exc))) from None
    except (TypeError, KeyError, IndexError, ZeroDivisionError, AttributeError, OverflowError) as exc:
        raise InputError(Problem(shown, _error_line(exc, path.name),
                                 f"template error: {type(exc).__name__}: {exc}")) from None
    problems = markdown_problems(game, markdown, source, shown)
    if problems:
        raise InputError(problems)
    return markdown
