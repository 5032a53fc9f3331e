"""Work done once per loaded game: a renderer, the rules Markdown, an engine's view of the data."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def per_game(build: Callable[[Any], T]) -> Callable[[Any], T]:
    """`build(game)` computed once per loaded Game object and forgotten with it (a reloaded game is built
    anew)."""
    cache: dict[int, tuple[weakref.ref, T]] = {}

    def cached(game) -> T:
        hit = cache.get(id(game))
        if hit is not None and hit[0]() is game:  # an id is reused once its game is garbage collected
            return hit[1]
        for key in [k for k, (ref, _) in cache.items() if ref() is None]:
            del cache[key]
        value = build(game)
        cache[id(game)] = (weakref.ref(game), value)
        return value

    cached.__doc__ = build.__doc__
    cached.__wrapped__ = build  # type: ignore[attr-defined]  # functools.wraps does this too, untyped
    return cached
