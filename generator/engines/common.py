"""Helpers the three rules engines share: rule options, chance checks, check lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.core.errors import InputError, Problem
from generator.core.yamlio import load_yaml
from generator.engines.base import ChanceOutcome, ChanceRequest, IllegalAction


def check_known_options(options: Mapping[str, Any], known: Mapping[str, Any]) -> None:
    """ValueError naming any rule option the engine does not have."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(known)}")


def option_or_setting(
    options: Mapping[str, Any], settings: Mapping[str, Any], name: str, default: Any
) -> Any:
    """A rule option's value; None (every engine's option default) means the game.yaml setting, else
    `default`."""
    value = options.get(name)
    return settings.get(name, default) if value is None else value


# a shuffle request's items -> their texts sorted, and the items sorted as they are (None when they do not
# compare):
# the same few decks are shuffled in every game (bounded, since a reshuffle of a discard pile may have items
# of its own)
_SORTED_ITEMS: dict[tuple, tuple[list[str], list | None]] = {}
SORTED_ITEMS_KEPT = 256


def _same_cards(values: tuple, items: tuple) -> bool:
    """Whether `values` is a permutation of `items` (compared as text, as scripts write them)."""
    if len(values) != len(items):
        return False
    if type(items) is not tuple:  # an engine's list of items: not a key
        return sorted(map(str, values)) == sorted(map(str, items))
    wanted = _SORTED_ITEMS.get(items)
    if wanted is None:
        wanted = (sorted(map(str, items)), _sorted_or_none(items))
        if len(_SORTED_ITEMS) < SORTED_ITEMS_KEPT:
            _SORTED_ITEMS[items] = wanted
    texts, same_kind = wanted
    # the values the simulator drew are the items themselves: sorted as they are, they match without making
    # texts
    if same_kind is not None and _sorted_or_none(values) == same_kind:
        return True
    return sorted(map(str, values)) == texts


def _sorted_or_none(values) -> list | None:
    try:
        return sorted(values)
    except TypeError:  # values of kinds that do not compare (a script's text beside an engine's number)
        return None


def check_outcome(request: ChanceRequest, outcome: ChanceOutcome) -> tuple:
    """The outcome's values once they fit the request (label, permutation, dice range, distinct picks)."""
    label = request.label
    if outcome.label != label:
        raise IllegalAction(f"'{label}' is next, not '{outcome.label}'; expected chance '{label}'")
    values = tuple(outcome.values)
    if request.kind == "shuffle" and not _same_cards(values, request.items):
        raise IllegalAction(
            f"'{label}' must be a permutation of its {len(request.items)} items; got {list(values)}"
        )
    if request.kind == "dice" and (
        len(values) != request.count
        or not all(isinstance(v, int) and 1 <= v <= request.sides for v in values)
    ):
        raise IllegalAction(
            f"'{label}' needs {request.count} values in 1..{request.sides}, got {list(values)}"
        )
    if request.kind == "pick" and (len(values) != request.count or len(set(values)) != len(values)
                                   or not all(isinstance(v, int) and 0 <= v < request.n for v in values)):
        raise IllegalAction(
            f"'{label}' must be {request.count} distinct indices in 0..{request.n - 1}; got {list(values)}"
        )
    return values


def at(record, key: str, message: str) -> Problem:
    """A problem at the line of `key` in a card or table row."""
    return Problem(record.file, record.line_of(key), message)


class GameYaml:
    """game.yaml as static checks cite it: its shown file name and the lines of its keys and settings."""

    def __init__(self, game):
        self.file = game.show(game.dir / "game.yaml")
        try:
            self.raw = load_yaml(game.dir / "game.yaml", self.file)
        except InputError:  # the loader has reported it already; checks then point at line 0
            self.raw = None
        settings = self.raw.get("settings") if self.raw is not None else None
        self._setting_lines = dict(getattr(settings, "key_lines", {}))

    def line_of(self, key: str) -> int:
        """Line of a top-level key (0 when game.yaml could not be read)."""
        return self.raw.line_of(key) if self.raw is not None else 0

    def setting_line(self, name: str) -> int:
        """Line of setting `name`, else of `settings:` itself."""
        return self._setting_lines.get(name) or self.line_of("settings")
