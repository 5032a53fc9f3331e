"""Turn pydantic validation errors into `file:line: what; expected` problems."""

from __future__ import annotations

import re

from pydantic import BaseModel, ValidationError

from generator.core.errors import Problems, did_you_mean
from generator.core.ids import SLUG, expected_id
from generator.core.limits import MAX_COPIES
from generator.core.yamlio import YDict, YList


def _locate(raw, loc: tuple) -> int:
    """Line of the deepest node of `loc` that exists in the raw YAML."""
    node, line = raw, getattr(raw, "line", 1) or 1
    for part in loc:
        if ((isinstance(node, YDict) and part in node)
                or (isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node))):
            line, node = node.line_of(part), node[part]
        else:
            break
    return line


def _field_path(loc: tuple) -> str:
    parts = [str(p) for p in loc if not isinstance(p, int)]
    return ".".join(parts) or "value"


# What a designer should have written, by pydantic error type (instead of "input should be a valid ...").
_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "finite_number": "a finite number (not .nan or .inf)",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a mapping of keys and values",
    "model_type": "a mapping of keys and values",
    "model_attributes_type": "a mapping of keys and values",
}


def _found(value) -> str:
    """The offending value as a designer reads it: the value itself, or 'a mapping' / 'a list'."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"  # as YAML writes it
    return repr(value)


def _describe(err: dict, model: type[BaseModel]) -> str:
    loc, kind = err["loc"], err["type"]
    key = loc[-1] if loc else ""
    path = _field_path(loc)
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        hint = did_you_mean(str(key), known)
        return f"unknown key '{key}'{hint}; expected one of: {', '.join(known)}"
    if kind == "missing":
        return f"missing key '{key}'; expected '{key}' here ({path})"
    shown = _found(err.get("input"))
    message = err["msg"]
    if message.startswith("Value error, "):
        return f"'{path}': {message[len('Value error, '):]}"
    if kind in ("greater_than_equal", "less_than_equal") and str(key) == "copies":
        return f"copies is {shown}; expected a whole number from 1 to {MAX_COPIES:,}"
    if kind == "string_pattern_mismatch":
        if (err.get("ctx") or {}).get("pattern") == SLUG.pattern:
            return f"'{path}' is {shown}; expected {expected_id(str(err.get('input')))}"
        return f"'{path}' is {shown}; expected {_pattern_hint(err)}"
    if kind == "too_few_values":
        count = len(err["input"])
        return f"'{path}' has {count} value{'s' if count != 1 else ''}; expected {err['needed']} values"
    if kind in ("too_short", "too_long"):
        ctx = err.get("ctx") or {}
        bound = (
            f"at least {ctx.get('min_length')}" if kind == "too_short" else f"at most {ctx.get('max_length')}"
        )
        return f"'{path}' has {ctx.get('actual_length')} items; expected {bound}"
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", (err.get("ctx") or {}).get("expected", ""))
        return (f"'{path}' is {shown}{did_you_mean(str(err.get('input')), allowed)}; expected one of: "
                f"{', '.join(allowed)}")
    if kind in _EXPECTED:
        return f"'{path}' is {shown}; expected {_EXPECTED[kind]}"
    return f"'{path}' is {shown}: {message.lower()}"


def _pattern_hint(err: dict) -> str:
    pattern = (err.get("ctx") or {}).get("pattern", "")
    hints = {
        r"^#[0-9a-fA-F]{6}$": "a colour written as #rrggbb",
        r"^[A-Z0-9]{2,6}$": "a short upper-case code such as 'TOP'",
    }
    return hints.get(pattern, f"text matching {pattern}")


def _known_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """Keys allowed at `loc` inside `model` (walks nested models; falls back to the top level)."""
    current: type[BaseModel] = model
    for part in loc:
        if isinstance(part, int):
            continue
        info = current.model_fields.get(str(part))
        nested = _nested_model(info.annotation) if info else None
        if nested is None:
            break
        current = nested
    return [info.alias or name for name, info in current.model_fields.items()]


def _nested_model(annotation):
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _nested_model(arg)
        if found is not None:
            return found
    return None


def validate(model: type[BaseModel], raw, shown: str, problems: Problems):
    """Validate `raw` against `model`; on failure add located problems and return None."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        seen = set()
        errors = exc.errors()
        # A misspelt key shows up twice (unknown 'copiez' and missing 'copies'); report it once.
        misspelt = {
            (tuple(e["loc"][:-1]), str(e["loc"][-1])) for e in errors if e["type"] == "extra_forbidden"
        }
        errors = [
            e
            for e in errors
            if not (
                e["type"] == "missing"
                and any(
                    parent == tuple(e["loc"][:-1]) and did_you_mean(wrong, [str(e["loc"][-1])])
                    for parent, wrong in misspelt
                )
            )
        ]
        # A pair written with one value ([1] for [col, row]) is 'missing' item 1: report the pair once.
        needed: dict[tuple, int] = {}
        for err in errors:
            if err["type"] == "missing" and err["loc"] and isinstance(err["loc"][-1], int):
                parent = tuple(err["loc"][:-1])
                needed[parent] = max(needed.get(parent, 0), err["loc"][-1] + 1)
        for error in errors:
            details: dict[str, object] = dict(error)
            loc = tuple(error["loc"])
            if error["type"] == "missing" and loc and isinstance(loc[-1], int) and loc[:-1] in needed:
                loc = loc[:-1]
                details = dict(details, type="too_few_values", needed=needed[loc])
            # pydantic reports each member of a union; keep the first message per location.
            trimmed = tuple(
                p
                for p in loc
                if not (
                    isinstance(p, str)
                    and ("[" in p or p in ("str", "int", "float", "CardSize", "ShapedSize", "function-after"))
                )
            )
            if trimmed in seen:
                continue
            seen.add(trimmed)
            problems.add(shown, _locate(raw, trimmed), _describe(dict(details, loc=trimmed), model))
        return None
