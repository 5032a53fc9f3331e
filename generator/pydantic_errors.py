"""Turn pydantic validation errors into `file:line: what; expected` problems."""

from __future__ import annotations

from pydantic import BaseModel, ValidationError

from generator.errors import Problems, did_you_mean
from generator.yamlio import YDict, YList


def _locate(raw, loc: tuple) -> tuple[int, object]:
    """Line of the deepest node of `loc` that exists in the raw YAML, and that node's parent."""
    node, line, parent = raw, getattr(raw, "line", 1) or 1, None
    for part in loc:
        if isinstance(node, YDict) and part in node:
            line, parent, node = node.line_of(part), node, node[part]
        elif isinstance(node, YList) and isinstance(part, int) and 0 <= part < len(node):
            line, parent, node = node.line_of(part), node, node[part]
        else:
            parent = node
            break
    return line, parent


def _field_path(loc: tuple) -> str:
    parts = [str(p) for p in loc if not isinstance(p, int)]
    return ".".join(parts) or "value"


def _describe(err: dict, model: type[BaseModel], parent) -> str:
    loc, kind = err["loc"], err["type"]
    key = loc[-1] if loc else ""
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        hint = did_you_mean(str(key), known)
        return f"unknown key '{key}'{hint}; expected one of: {', '.join(known)}"
    if kind == "missing":
        return f"missing key '{key}'; expected '{key}' here ({_field_path(loc)})"
    found = err.get("input")
    shown = repr(found) if not isinstance(found, (dict, list)) else type(found).__name__
    message = err["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, "):]
        return f"'{_field_path(loc)}': {message}"
    if kind == "greater_than_equal" and str(key) == "copies":
        return f"copies must be 1 or more, found {shown}; expected a positive whole number"
    if kind == "string_pattern_mismatch":
        return f"'{_field_path(loc)}' is {shown}; expected {_pattern_hint(err)}"
    return f"'{_field_path(loc)}' is {shown}: {message.lower()}"


def _pattern_hint(err: dict) -> str:
    pattern = (err.get("ctx") or {}).get("pattern", "")
    hints = {
        r"^[a-z0-9][a-z0-9_-]*$": "a lower-case id (letters, digits, '-' and '_')",
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
    return list(current.model_fields)


def _nested_model(annotation):
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _nested_model(arg)
        if found is not None:
            return found
    return None


def validate(model: type[BaseModel], raw, shown: str, problems: Problems, base_loc: tuple = ()):
    """Validate `raw` against `model`; on failure add located problems and return None."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        seen = set()
        errors = exc.errors()
        # A misspelt key shows up twice (unknown 'copiez' and missing 'copies'); report it once.
        misspelt = {(tuple(e["loc"][:-1]), str(e["loc"][-1])) for e in errors if e["type"] == "extra_forbidden"}
        errors = [e for e in errors if not (e["type"] == "missing" and any(
            parent == tuple(e["loc"][:-1]) and did_you_mean(wrong, [str(e["loc"][-1])]) for parent, wrong in misspelt))]
        for err in errors:
            loc = tuple(err["loc"])
            # pydantic reports each member of a union; keep the first message per location.
            trimmed = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p in ("str", "int", "float", "CardSize", "function-after"))))
            if trimmed in seen:
                continue
            seen.add(trimmed)
            err = dict(err, loc=trimmed)
            line, parent = _locate(raw, trimmed)
            problems.add(shown, line, _describe(err, model, parent))
        return None
