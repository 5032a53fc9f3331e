"""The rules engines and the doors they come in by, in this order (as pytest, MkDocs and Sphinx find
plug-ins):

1. the engines built into pnp (`BUILT_IN`, by name: none is a particular game's);
2. an installed package's entry point in the group `pnp.engines` (`engine: crazy-eights` in game.yaml, the
   package's `[project.entry-points."pnp.engines"] crazy-eights = "crazy_eights:ENGINE"`);
3. a module inside the project that game.yaml names: `engine: {module: engine.py}` (a file) or
   `engine: {module: engine}` (a package folder), relative to the game folder
   (generator.engines.project_code);
4. a rules file of the rules language that game.yaml names: `engine: {rules: rules.yaml}`, played by
   generator.rules. That interpreter is built on the engine API here (it is the layer above), so this module
   never imports it: it is reached as a plug-in by name (`RULES_INTERPRETER`, an entry point loaded like an
   installed package's), which keeps the layers looking down.

Only the commands that play a game (validate, replay, sweep) ask for an engine; building, serving and
exporting a game never import its rules, so a broken engine cannot stop its cards from printing. `register`
lets Python that is already running (a test's toy engine) add one by name.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.engines import project_code
from generator.engines.base import Engine

ENTRY_POINTS = "pnp.engines"  # the entry point group an installed package lists its engines in
# engine_for_rules(game, written, file, line) -> Engine: the interpreter of `engine: {rules: ...}` (see above)
RULES_INTERPRETER = metadata.EntryPoint(
    name="rules", value="generator.rules:engine_for_rules", group=ENTRY_POINTS
)

BUILT_IN: dict[str, Callable[[], Engine]] = {}  # name -> loader, imported on first use

_registered: dict[str, Engine] = {}


def _key(name: str) -> str:
    """Engine names compare without case and with '_' and '-' alike (`crazy_eights` is `crazy-eights`)."""
    return str(name).strip().lower().replace("_", "-")


def register(engine: Engine) -> Engine:
    """Make `engine` available under `engine.name` (a test's toy engine, or Python that embeds pnp)."""
    _registered[_key(engine.name)] = engine
    return engine


def unregister(name: str) -> None:
    """Forget an engine registered with `register` (built-in engines stay)."""
    _registered.pop(_key(name), None)


def _entry_points() -> dict[str, list[metadata.EntryPoint]]:
    """The installed packages' engines by name; a name two packages give is kept with both, to be reported."""
    found: dict[str, list[metadata.EntryPoint]] = {}
    for point in metadata.entry_points(group=ENTRY_POINTS):
        found.setdefault(_key(point.name), []).append(point)
    return found


def engine_names() -> list[str]:
    """Every engine name that `engine_named` knows, sorted."""
    return sorted(set(BUILT_IN) | set(_registered) | set(_entry_points()))


def _provider(point: metadata.EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else point.value


def _from_entry_point(name: str, points: list[metadata.EntryPoint], file: str, line: int) -> Engine:
    """The engine an installed package's entry point names; a located line when it cannot be had."""
    if len(points) > 1:
        raise InputError(
            Problem(
                file,
                line,
                f"rules engine '{name}' is offered by two installed packages ("
                f"{', '.join(_provider(p) for p in points)}); expected one (uninstall "
                "one of them)",
            )
        )
    point = points[0]
    try:
        loaded = point.load()
    except Exception as exc:  # noqa: BLE001 - whatever the package raises while importing: one line
        raise InputError(Problem(file, line, f"rules engine '{name}' (entry point {point.value} of "
                                             f"{_provider(point)}) fails to load: {type(exc).__name__}: "
                                             f"{project_code.first_line(exc)}")) from None
    engine = getattr(loaded, "ENGINE", loaded)  # the entry point may name the module or its ENGINE
    if not isinstance(engine, Engine):
        raise InputError(Problem(file, line, f"rules engine '{name}' (entry point {point.value} of "
                                             f"{_provider(point)}) is a {type(engine).__name__}; expected a "
                                             "generator.engines.base.Engine"))
    return engine


def engine_named(name: str, file: str = "", line: int = 0) -> Engine | None:
    """The engine known by `name` (registered, built in, or an installed package's), or None when there is
    none."""
    key = _key(name)
    if key in _registered:
        return _registered[key]
    loader = BUILT_IN.get(key)
    if loader is not None:
        return loader()
    points = _entry_points().get(key)
    return _from_entry_point(name, points, file, line) if points else None


def engine_origin(game) -> str | None:
    """The project file that holds the game's engine code (shown as error messages show paths), or None when
    the game names no engine module: said before that code is imported, so a run says whose Python it runs."""
    spec = game.config.engine
    if spec is None or isinstance(spec, str) or spec.rules is not None:  # a rules file runs no project Python
        return None
    return project_code.origin(game)


def rules_engine(game, written: str, file: str = "", line: int = 0) -> Engine:
    """The engine of the rules file `written` (relative to the game folder), played by the rules
    interpreter."""
    return RULES_INTERPRETER.load()(game, written, file, line)


def engine_for(game) -> Engine | None:
    """The engine game.yaml names with `engine:`, None when it names none; a located error for an unknown name
    or a module that cannot be imported."""
    spec = game.config.engine
    if spec is None:
        return None
    file, line = game.show(game.dir / "game.yaml"), game.line_of("engine")
    if not isinstance(spec, str):
        if spec.rules is not None:
            return rules_engine(game, spec.rules, file, line)
        return project_code.load_engine(game, file, line)
    engine = engine_named(spec, file, line)
    if engine is None:
        known = engine_names()
        raise InputError(
            Problem(
                file,
                line,
                f"rules engine '{spec}' does not exist{did_you_mean(_key(spec), known)}; "
                f"known: {known_list(known) if known else 'none installed'}; a module "
                "of the project is named with `engine: {module: engine.py}`",
            )
        )
    return engine
