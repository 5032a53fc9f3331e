"""The rules engines by name: the bundled games listed explicitly, plus any engine registered at run time.

game.yaml names its engine (`engine: order-up-pizza`); nothing is found by module naming convention.
Built-in engines are imported on first use, so commands that never play a game never load them.
"""

from __future__ import annotations

from collections.abc import Callable

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.engines.base import Engine


def _order_up_pizza() -> Engine:
    from generator.engines.order_up_pizza import ENGINE
    return ENGINE


def _order_up_trading() -> Engine:
    from generator.engines.order_up_trading import ENGINE
    return ENGINE


def _short_order_hero() -> Engine:
    from generator.engines.short_order_hero import ENGINE
    return ENGINE


BUILT_IN: dict[str, Callable[[], Engine]] = {
    "order-up-pizza": _order_up_pizza,
    "order-up-trading": _order_up_trading,
    "short-order-hero": _short_order_hero,
}

_registered: dict[str, Engine] = {}


def _key(name: str) -> str:
    """Engine names compare without case and with '_' and '-' alike (`order_up_pizza` is `order-up-pizza`)."""
    return str(name).strip().lower().replace("_", "-")


def register(engine: Engine) -> Engine:
    """Make `engine` available under `engine.name` (a project's own engine, or a test's toy engine)."""
    _registered[_key(engine.name)] = engine
    return engine


def unregister(name: str) -> None:
    """Forget an engine registered with `register` (built-in engines stay)."""
    _registered.pop(_key(name), None)


def engine_names() -> list[str]:
    """Every engine name that `engine_named` knows, sorted."""
    return sorted(set(BUILT_IN) | set(_registered))


def engine_named(name: str) -> Engine | None:
    """The engine registered under `name`, or None when there is none."""
    key = _key(name)
    if key in _registered:
        return _registered[key]
    loader = BUILT_IN.get(key)
    return loader() if loader is not None else None


def engine_for(game) -> Engine | None:
    """The engine game.yaml names with `engine:`, None when it names none; a located error for an unknown
    name."""
    name = game.config.engine
    if not name:
        return None
    engine = engine_named(name)
    if engine is None:
        known = engine_names()
        raise InputError(
            Problem(
                game.show(game.dir / "game.yaml"),
                game.line_of("engine"),
                f"rules engine '{name}' does not exist"
                f"{did_you_mean(_key(name), known)}; known: {known_list(known)}",
            )
        )
    return engine
