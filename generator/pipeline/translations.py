"""A game in each of its languages, checked: the translation file against the game's texts and layouts, the
rules template of that language, the tool's words against the fonts.

`languages_of(game, asked)` says which languages a build or validation covers (`--lang de`, `--lang all`, or
the default: every declared language). `translate_checked(game, language)` gives the translated game and the
warnings of its translation (texts not translated yet, source texts changed since), or raises InputError with
every problem, each naming the language. Layout words live here because only the renderers know which layouts
a game draws: every box of those layouts whose text has words is listed by `layout_texts`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from generator.booklet.text import missing_translation
from generator.components.faces import faces_for
from generator.core.contract import Output
from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.fonts import BODY_FAMILY, TITLE_FAMILY, uncovered
from generator.core.phrases import CODE, language_name
from generator.data.fonts import text_problems
from generator.data.game import Game
from generator.data.project import Project
from generator.data.translatable import Translatable
from generator.data.translation import check_language, shorten, translate, undeclared_files
from generator.faces.boxes import kind_of
from generator.faces.face import renderer_for
from generator.pipeline.gather import gather

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_MARKUP = re.compile(r"<[^>]*>|:[a-z0-9][a-z0-9_-]*:|&#?\w+;")
_LITERAL = re.compile(r"'([^'\n]*)'|\"([^\"\n]*)\"")
_LETTER = re.compile(r"[^\W\d_]")
_WORD = re.compile(r"[^\W\d_]{2,}")


def has_words(template: str) -> bool:
    """True when a box's text template prints words of its own: letters outside the template tags, or a quoted
    phrase inside them ('SPICE · YOUR RECIPE'), not a lower-case key or a colour ('spice', '#2e8b57')."""
    if _LETTER.search(_MARKUP.sub("", _JINJA.sub("", template))):
        return True
    for tag in _JINJA.findall(template):
        for single, double in _LITERAL.findall(tag):
            text = single or double
            if _WORD.search(text) and not re.fullmatch(r"[a-z0-9_.\-]*|#[0-9a-fA-F]{3,8}", text):
                return True
    return False


def layout_texts(game: Game) -> dict[str, dict[str, Translatable]]:
    """Every text box of the layouts the game draws (cards, backs, component items), by the layout whose file
    writes the box's text: layout -> box -> its source text and place."""
    found: dict[str, dict[str, Translatable]] = {}
    for renderer in (renderer_for(game), faces_for(game)):
        problems = Problems()
        for side, deck, card in renderer.faces(problems):
            try:
                layout = renderer.back_layout(deck, card) if side == "back" else renderer.front_layout(card)
            except InputError:
                continue  # a broken layout is reported by the build's own checks
            for box in layout.boxes:
                if kind_of(box).worded and box.text_from is not None:
                    name, file, line = box.text_from
                    text = renderer.loader.chain(name, Problem(file, line, ""))[-1][1].boxes[box.name].text
                    found.setdefault(name, {})[box.name] = Translatable(
                        ("layouts", name, box.name), text, file, line
                    )
    return {name: dict(sorted(boxes.items())) for name, boxes in sorted(found.items())}


def _layout_problems(source: Game, game: Game) -> tuple[list[Problem], list[Problem]]:
    """Errors for layout words that name no layout or box of the game; warnings for boxes with words the
    translation does not give."""
    translation = game.translation
    texts = layout_texts(source)
    errors: list[Problem] = []
    given = translation.layouts or {}
    for layout, boxes in given.items():
        name, line = str(layout), given.line_of(layout)
        if name not in texts:
            errors.append(
                Problem(
                    translation.file,
                    line,
                    f"layouts: '{name}' is no layout game '{game.id}' draws"
                    f"{did_you_mean(name, texts)}; known: {known_list(texts)}",
                )
            )
            continue
        if not hasattr(boxes, "items"):
            errors.append(
                Problem(translation.file, line, f"layouts.{name}: expected a mapping of box name to its text")
            )
            continue
        for box, text in boxes.items():
            at = boxes.line_of(box)
            if str(box) not in texts[name]:
                owner = next((other for other, known in texts.items() if str(box) in known), None)
                hint = (
                    f"; its text is written in layout '{owner}', so expected it under layouts: {owner}:"
                    if owner
                    else f"{did_you_mean(str(box), texts[name])}; known: {known_list(texts[name])}"
                )
                errors.append(
                    Problem(
                        translation.file, at, f"layouts.{name}: box '{box}' has no text of its own here{hint}"
                    )
                )
            elif text is not None and (isinstance(text, (bool, list, dict))):
                errors.append(
                    Problem(
                        translation.file,
                        at,
                        f"layouts.{name}.{box}: expected the box's text (a template like the source's)",
                    )
                )
    warnings = []
    for name, boxes in texts.items():
        for box, entry in boxes.items():
            written = given.get(name) if hasattr(given, "get") else None
            if has_words(entry.source) and not (hasattr(written, "get") and written.get(box) is not None):
                warnings.append(
                    Problem(
                        entry.file,
                        entry.line,
                        f"{entry.key} ('{shorten(entry.source)}') has no "
                        f"{translation.name} translation; expected it in "
                        f"{translation.file} (the source words are printed "
                        "until then)",
                    )
                )
    return errors, warnings


def _tool_word_problems(game: Game) -> list[Problem]:
    """The tool's words of the language, checked against the faces that print them (labels: body, bold;
    titles: the title font)."""
    problems = []
    translation = game.translation
    for key, value in sorted(game.phrases.own.items()):
        texts = (
            list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else [value]
        )
        for family in (BODY_FAMILY, TITLE_FAMILY):
            for text in texts:
                if any(uncovered(str(text), family, style) for style in ("regular", "bold")):
                    place = (translation.file, 0) if key in translation.tool else ("generator/assets/i18n", 0)
                    problems += text_problems(
                        str(text), family, *place, f"tool word '{key}'", ("regular", "bold")
                    )
    return list(dict.fromkeys(problems))


def named(problems: list[Problem], language: str) -> list[Problem]:
    """Every problem of a translated game names its language ('Czech (cs): ...') unless it already does."""
    name = language_name(language)
    return [p if name in p.message else replace(p, message=f"{name}: {p.message}") for p in problems]


def translate_checked(game: Game, language: str) -> tuple[Game, list[Problem], list[Problem]]:
    """The game in `language`, checked: (game, warnings, problems), each naming the language. The problems are
    those of its translation file, its layouts' words and the tool's words; the game is still the best the
    file allows, so a validation can go on to find texts that do not fit. InputError when the file cannot be
    read."""
    translated = translated_game(game, language)
    warnings, errors = drawn_word_problems(game, translated)
    return (translated, named(translated.translation.warnings + warnings, language),
            named(translated.translation.problems + errors, language))


def translated_game(game: Game, language: str) -> Game:
    """The game in `language` as its translation file gives it (what the file gets wrong is in
    `translation.problems`); InputError naming the language when the file cannot be read."""
    try:
        translated = translate(game, language)
    except InputError as exc:
        raise InputError(named(exc.problems, language)) from None
    # no rules template in this language yet: its cards and pieces are built, its booklet left out (a
    # warning, as a text not translated yet is)
    missing = missing_translation(translated)
    if missing is not None:
        translated.translation.warnings.append(replace(
            missing, message=f"{missing.message}; its booklet is left out until that file exists"))
    return translated


def drawn_word_problems(source: Game, translated: Game) -> tuple[list[Problem], list[Problem]]:
    """(warnings, errors) of the words a translation draws besides its texts: the layouts' words, which must
    name a box of the game, and the tool's words, which its fonts must draw (not named by language yet)."""
    errors, warnings = _layout_problems(source, translated)
    return warnings, errors + _tool_word_problems(translated)


def languages_of(game: Game, asked: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The languages of a game a command covers: those asked for that it declares (`all` or none asked: every
    declared language)."""
    if not asked or "all" in asked:
        return game.languages
    return [language for language in game.languages if language in asked]


def choose_languages(games: list[Game], asked: tuple[str, ...] | list[str] = ()) -> dict[str, list[str]]:
    """Per game, the languages a command covers; a located InputError for an asked language no game declares
    (a game that does not declare it is left out of it)."""
    problems = []
    for language in [code for code in asked if code != "all"]:
        if not CODE.match(language):
            problems.append(
                Problem(
                    "",
                    0,
                    f"--lang {language}: not a language code; expected one like de, cs or pt-BR, or all",
                )
            )
        elif games and not any(language in game.languages for game in games):
            if len(games) == 1:
                try:
                    check_language(games[0], language)
                except InputError as exc:
                    problems += exc.problems
            else:
                declared = sorted({code for game in games for code in game.languages})
                problems.append(
                    Problem(
                        "",
                        0,
                        f"--lang {language}: no game here declares {language_name(language)}"
                        f"{did_you_mean(language, declared)}; expected one of "
                        f"{', '.join(declared)} (game.yaml languages)",
                    )
                )
    if problems:
        raise InputError(problems)
    return {game.id: languages_of(game, asked) for game in games}


def in_language(game: Game, outputs: list[Output]) -> list[Output]:
    """A translated game's outputs moved into build/<game>/<language>/ (the source language's stay where they
    are)."""
    if not game.translated:
        return outputs
    base = game.build_path
    return [
        replace(output, path=base / output.path.relative_to(game.id), language=game.language)
        for output in outputs
    ]


def language_problems(game: Game) -> list[Problem]:
    """Translation files in i18n/ for languages the game does not declare."""
    return undeclared_files(game)


def translated_games(
    project: Project, names: list[str], languages: tuple[str, ...] = ()
) -> tuple[list[Game], list[Problem]]:
    """The named games, loaded and checked, in the languages asked for (default: their source language), and
    the warnings of their translations. InputError with every problem."""
    games, _ = gather(project, names)
    if not languages:
        return games, []
    chosen = choose_languages(games, languages)
    out, warnings, problems = [], [], []
    for game in games:
        for language in chosen[game.id]:
            if language == game.source_language:
                out.append(game)
                continue
            try:
                translated, found, wrong = translate_checked(game, language)
            except InputError as exc:
                problems += exc.problems
                continue
            problems += wrong
            out.append(translated)
            warnings += found
    if problems:
        raise InputError(problems)
    return out, warnings
