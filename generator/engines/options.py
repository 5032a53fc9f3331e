"""Rule options from the command line: `--option NAME=VALUE` checked against what the engine declares.

Also the engine's view of `--set settings.NAME=VALUE`: a setting that is also a declared rule option must be a
value that option accepts; any other setting keeps the kind of value game.yaml gives it (a number stays a
number).
"""

from __future__ import annotations

import textwrap
from typing import Any

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.data.overrides import MISSING, SETTINGS, read_value, split_assignment
from generator.engines.base import Engine, Option


def expected(option: Option, game) -> str:
    """What the option accepts, in words: 'a whole number 1..4', 'one of: end, clamp', 'true or false'."""
    words = option.words(game)
    if option.kind == "any":
        return "any value (the engine checks it)"
    if option.kind == "bool":
        return "true or false"
    if option.kind == "text":
        return f"one of: {', '.join(words)}" if words else "text"
    noun = "a whole number" if option.kind == "int" else "a number"
    low, high = option.minimum, option.highest(game)
    if low is not None and high is not None:
        noun += f" {low:g}..{high:g}"
    elif low is not None:
        noun += f" >= {low:g}"
    elif high is not None:
        noun += f" <= {high:g}"
    return noun + (f" or one of: {', '.join(words)}" if words else "")


def coerce(option: Option, value: Any, game) -> Any:
    """The value as the engine takes it (a number, a flag, a word); ValueError saying what is expected."""
    if option.kind == "any":
        return value
    words = option.words(game)
    if option.kind == "text":
        text = str(value)
        if words and text not in words:
            raise ValueError(
                f"'{text}' is not allowed{did_you_mean(text, words)}; expected {expected(option, game)}"
            )
        return text
    if option.kind == "bool":
        if isinstance(value, bool):
            return value
        raise ValueError(f"{_show(value)} is not a flag; expected {expected(option, game)}")
    if isinstance(value, str) and value in words:
        return value
    whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (option.kind == "int" and not whole):
        hint = did_you_mean(str(value), words) if isinstance(value, str) else ""
        raise ValueError(f"{_show(value)} is not allowed{hint}; expected {expected(option, game)}")
    number = int(value) if option.kind == "int" else value
    low, high = option.minimum, option.highest(game)
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{number} is out of range; expected {expected(option, game)}")
    return number


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else repr(value)


def check_option(engine: Engine, game, name: str, value: Any, shown: str) -> Any:
    """One option value, coerced; InputError naming `shown` (the `--option` as typed) and what exists."""
    declared = engine.declared_options()
    option = declared.get(name)
    if option is None:
        known = list(declared)
        raise InputError(
            Problem(
                "",
                0,
                f"{shown}: {engine.name} has no rule option '{name}'{did_you_mean(name, known)}; "
                f"known: {known_list(known) or '(none)'}; see pnp validate --list-options {game.id}",
            )
        )
    try:
        return coerce(option, value, game)
    except ValueError as exc:
        raise InputError(Problem("", 0, f"{shown}: {exc}")) from None


def parse_options(engine: Engine | None, game, texts) -> dict[str, Any]:
    """`--option NAME=VALUE` texts as the options dict new_state takes; every bad one reported together."""
    if texts and engine is None:
        raise InputError(
            Problem(
                game.show(game.dir / "game.yaml"),
                0,
                f"--option {texts[0]}: {game.id} has no "
                f"`engine:`, so it has no rule options; expected --set for data changes",
            )
        )
    if engine is None:
        return {}
    options, problems = {}, []
    for text in texts:
        try:
            name, value = split_assignment(text, "--option")
            options[name] = check_option(engine, game, name, read_value(value), f"--option {text}")
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return options


def _category(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "text"


def check_settings(engine: Engine | None, game) -> list[Problem]:
    """Problems with the `--set settings.NAME` values of a loaded game (see the module docstring)."""
    declared = engine.declared_options() if engine is not None else {}
    problems = []
    for applied in game.overrides:
        path, new = applied.override.path, applied.override.value
        if path[0] != SETTINGS:
            continue
        option = declared.get(path[1]) if len(path) == 2 else None
        if option is not None and option.setting and option.kind != "any":
            try:
                coerce(option, new, game)
            except ValueError as exc:
                problems.append(Problem(applied.file, applied.line, f"{applied.override.shown}: {exc}"))
            continue
        old = applied.old
        if (
            old is MISSING
            or _category(old) == _category(new)
            or (isinstance(old, float) and _category(new) == "a whole number")
        ):
            continue
        problems.append(
            Problem(
                applied.file,
                applied.line,
                f"{applied.override.shown}: {_show(new)} is "
                f"{_category(new)}; expected {_category(old)}, like the value in game.yaml ({old!r})",
            )
        )
    return problems


def setup_failure(engine: Engine, game, options: dict[str, Any]) -> str | None:
    """Why the game cannot set up with these options at some player count ('3 players: ...'), or None."""
    for players in engine.player_counts:
        try:
            engine.new_state(game.for_players(players), players, {**engine.options, **options})
        except Exception as exc:  # noqa: BLE001 - the engine's own words say what is wrong with the values
            return f"{players} players: {exc}"
    return None


def describe_options(engine: Engine, game) -> list[str]:
    """`pnp validate --list-options GAME`: every rule option with what it accepts, its default and its
    help."""
    declared = engine.declared_options()
    lines = [f"Rule options of {game.id} (engine {engine.name}); change them with --option NAME=VALUE:"]
    if not declared:
        lines.append("  (none)")
    width = max((len(n) for n in declared), default=0)
    for name, option in declared.items():
        default = option.default_for(game)
        source = f" (game.yaml settings.{name})" if option.setting and name in game.config.settings else ""
        lines.append(f"  {name:<{width}}  {expected(option, game)}; default {_plain(default)}{source}")
        lines += textwrap.wrap(
            option.help, 110, initial_indent=" " * (width + 4), subsequent_indent=" " * (width + 4)
        )
    return lines


def describe_data(game) -> list[str]:
    """What `--set PATH=VALUE` can change in this game: its settings and its decks' and tables' fields."""
    lines = ["Data you can change with --set PATH=VALUE (the files are never touched):"]
    settings = game.config.settings
    if settings:
        lines.append("  settings.NAME: " + ", ".join(f"{k}={_plain(v)}" for k, v in settings.items()))
    for deck in game.decks.values():
        fields = ["copies", "name", *deck.field_specs]
        lines.append(f"  {deck.id}.CARD.FIELD: cards {known_list([c.id for c in deck.cards], limit=6)}; "
                     f"fields {', '.join(fields)}; also {deck.id}.total")
    for table in game.tables.values():
        lines.append(f"  {table.id}.ROW.FIELD: rows {known_list([r.id for r in table.rows], limit=6)}; "
                     f"fields {', '.join(['name', *table.field_specs])}")
    return lines


def _plain(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_plain(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_plain(v) for v in value) + "]"
    return str(value)
