"""`--option NAME=VALUE` and `--set PATH=VALUE`: the same changes for `pnp validate`, `pnp replay` and `pnp
sweep`.

A changed game is loaded with the overrides written into its YAML as read (the files are never touched), then
its rule options and changed settings are checked against what the engine declares. Every mistake is a
one-line error naming the `--option`/`--set` as typed and what exists.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from generator.core.errors import InputError, Problem
from generator.data.game import Game
from generator.data.overrides import describe, parse_overrides
from generator.engines.base import Engine
from generator.engines.options import check_settings, parse_options


@dataclass(frozen=True)
class Changes:
    """The `--option` and `--set` texts as typed."""

    options: tuple[str, ...] = ()
    sets: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.options or self.sets)

    def overrides(self) -> list:
        """The `--set` texts as data overrides (InputError for a malformed one)."""
        return parse_overrides(self.sets)

    def args(self) -> str:
        """The same changes as command-line arguments, for a `pnp replay` line."""
        return " ".join(
            [f"--option {shlex.quote(t)}" for t in self.options]
            + [f"--set {shlex.quote(t)}" for t in self.sets]
        )


def rule_options(game: Game, engine: Engine | None, changes: Changes) -> dict[str, Any]:
    """The checked `--option` values of a game loaded with `changes.sets`; every problem of both reported
    together."""
    problems: list[Problem] = []
    options: dict[str, Any] = {}
    try:
        options = parse_options(engine, game, list(changes.options))
    except InputError as exc:
        problems += exc.problems
    problems += check_settings(engine, game)
    if problems:
        raise InputError(problems)
    return options


def one_game(names: list[str], changes: Changes, command: str) -> None:
    """`--option`/`--set` change one game: a one-line error when the command names several (or none)."""
    if changes and len(names) != 1:
        raise InputError(
            Problem(
                "",
                0,
                f"--option and --set change one game, but {len(names)} are named "
                f"({', '.join(names) or 'none'}); expected: pnp {command} GAME --set ...",
            )
        )


def summary(game: Game, options: dict[str, Any]) -> list[str]:
    """What differs from the files: 'settings.hand_limit = 8 (was 10)', 'option end_mode = finish_round'."""
    return describe(list(game.overrides)) + [f"option {name} = {value}" for name, value in options.items()]
