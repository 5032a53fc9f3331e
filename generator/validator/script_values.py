"""How a script's YAML values meet the game: printing and comparing snapshot values, dotted paths, chance
outcomes."""

from __future__ import annotations

from typing import Any

from generator.core.errors import known_list
from generator.engines.base import ChanceOutcome, ChanceRequest


class StepFailed(Exception):
    """A step failed; `stop` when the game can no longer follow the script."""

    def __init__(self, message: str, stop: bool = True, line: int | None = None):
        super().__init__(message)
        self.stop = stop
        self.line = line


def show_value(value: Any) -> str:
    """A value as the script would write it: r0c3, true, [4, 0], {a: 1}."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        return show_value(sorted(value, key=str))
    return str(value)


def plain(value: Any) -> Any:
    """Tuples/sets/YAML containers turned into plain lists and dicts, for comparison."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=str)
    return value


def same(expected: Any, actual: Any) -> bool:
    """Equal, with true/false never standing in for 1/0."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same(e, a) for e, a in zip(expected, actual, strict=True))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same(v, actual[k]) for k, v in expected.items())
    return expected == actual


def lookup(snapshot: dict, path: str) -> Any:
    """The value at a dotted path (`players.0.position`); StepFailed naming what exists when absent."""
    current: Any = snapshot
    done: list[str] = []
    for part in path.split("."):
        where = ".".join(done) or "the snapshot"
        if isinstance(current, dict):
            key = (
                part
                if part in current
                else int(part)
                if part.lstrip("-").isdigit() and int(part) in current
                else None
            )
            if key is None:
                raise StepFailed(
                    f"{where} has no '{part}'; known: {known_list(str(k) for k in current)}", stop=False
                )
            current = current[key]
        elif isinstance(current, (list, tuple)):
            if not part.lstrip("-").isdigit():
                raise StepFailed(f"{where} is a list; expected a number instead of '{part}'", stop=False)
            if not 0 <= int(part) < len(current):
                raise StepFailed(
                    f"{where} has {len(current)} items; index {part} is out of range", stop=False
                )
            current = current[int(part)]
        else:
            raise StepFailed(f"{where} is {show_value(current)}, which has no '{part}'", stop=False)
        done.append(part)
    return current


def build_outcome(request: ChanceRequest, given: dict) -> ChanceOutcome:
    """The ChanceOutcome a script entry ({top: [...]} or {values: [...]}) describes for `request`."""
    label = request.label
    if "top" in given:
        if request.kind != "shuffle":
            raise StepFailed(
                f"'top' fixes the first cards of a shuffle, but '{label}' is a {request.kind} event; "
                "expected 'values'"
            )
        rest = list(request.items)
        first = []
        for card in given["top"] or []:
            match = next((i for i, item in enumerate(rest) if str(item) == str(card)), None)
            if match is None:
                raise StepFailed(
                    f"'{card}' is not (or not that often) among the cards of the '{label}' shuffle; "
                    f"known: {known_list({str(i) for i in request.items})}"
                )
            first.append(rest.pop(match))
        return ChanceOutcome(label, tuple(first + rest))
    values = list(given.get("values") or [])
    if request.kind == "shuffle":
        rest = list(request.items)
        chosen = []
        for card in values:
            match = next((i for i, item in enumerate(rest) if str(item) == str(card)), None)
            if match is None:
                raise StepFailed(
                    f"'{card}' is not (or not that often) among the cards of the '{label}' shuffle"
                )
            chosen.append(rest.pop(match))
        if rest:
            raise StepFailed(
                f"the '{label}' shuffle needs all {len(request.items)} cards; missing: {show_value(rest)}"
            )
        return ChanceOutcome(label, tuple(chosen))
    if request.kind == "dice":
        if len(values) != request.count or not all(
            isinstance(v, int) and 1 <= v <= request.sides for v in values
        ):
            raise StepFailed(
                f"'{label}' rolls {request.count} dice; expected {request.count} values in "
                f"1..{request.sides}, "
                f"got {show_value(values)}"
            )
        return ChanceOutcome(label, tuple(values))
    if request.kind == "pick":
        if (len(values) != request.count or len(set(values)) != len(values)
                or not all(isinstance(v, int) and 0 <= v < request.n for v in values)):
            raise StepFailed(
                f"'{label}' picks {request.count} distinct numbers in 0..{request.n - 1}; got "
                f"{show_value(values)}"
            )
        return ChanceOutcome(label, tuple(values))
    raise StepFailed(f"unknown chance kind '{request.kind}' for '{label}'")
