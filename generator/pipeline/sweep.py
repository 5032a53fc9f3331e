"""`pnp sweep` as a library function: play a game's variants (a grid of changed values) and compare them.

Each `--vary PATH=V1,V2,...` (or `PATH=A..B[:STEP]`) is one axis; several make a grid. PATH is a data path as
for `--set` (settings.NAME, DECK.CARD.FIELD, ...) or `options.NAME` for a rule option. Every variant is loaded
and checked like a build: a variant that breaks a check (or cannot set up) is reported as such and not
simulated; a value of the wrong type or a path that does not exist stops the sweep before any game is played.
All variants play the same seeds, so their differences come from the rules; the results depend only on the
seed.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem
from generator.core.write import atomic_write
from generator.data.game import Game
from generator.data.load import load_game
from generator.data.overrides import Override, parse_overrides, read_value, split_assignment
from generator.data.project import Project
from generator.engines.base import Engine
from generator.engines.options import check_option, check_settings, parse_options, setup_failure
from generator.engines.registry import engine_for, engine_origin
from generator.pipeline.changes import Changes
from generator.pipeline.gather import check_game
from generator.validator.executors import Executor, LocalProcesses
from generator.validator.lookahead import bots_problem
from generator.validator.report import to_json
from generator.validator.simulate import (
    BOT_MIX,
    Run,
    SimSettings,
    composition_problems,
    player_counts,
    simulate,
)
from generator.validator.sweep_pdf import write_sweep_pdf
from generator.validator.sweep_report import variant_figures

OPTIONS = "options"
MAX_VARIANTS = 400  # a grid larger than this is almost always a typo in a range (1..1000)
MIN_STEP = 1e-9  # the smallest STEP of a range of decimals (they are rounded to 10 decimals)
SIMULATED, BROKEN, NO_SETUP = "simulated", "breaks checks", "does not set up"


@dataclass(frozen=True)
class Vary:
    """One `--vary`: a path and the values it takes."""

    path: tuple[str, ...]
    values: tuple
    text: str

    @property
    def name(self) -> str:
        """The path as labels show it: without `settings.` or `options.`."""
        return ".".join(self.path[1:] if self.path[0] in ("settings", OPTIONS) else self.path)

    @property
    def is_option(self) -> bool:
        return self.path[0] == OPTIONS


def _number(text: str) -> int | float | None:
    value = read_value(text)
    if isinstance(value, str):  # YAML reads 1e9 as text; a range end means the number
        try:
            return float(value)
        except ValueError:
            return None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def expand_range(text: str, shown: str) -> list | None:
    """`A..B` or `A..B:STEP` as its values (inclusive), None when `text` is not a range."""
    match = re.fullmatch(r"\s*([^.:]+(?:\.\d+)?)\s*\.\.\s*([^:]+?)\s*(?::\s*(.+))?\s*", text)
    if not match:
        return None
    low, high = _number(match.group(1)), _number(match.group(2))
    step = _number(match.group(3)) if match.group(3) is not None else 1
    if low is None or high is None or step is None:
        raise InputError(
            Problem("", 0, f"{shown}: expected a range of numbers A..B or A..B:STEP, e.g. 8..12:2")
        )
    if not all(math.isfinite(v) for v in (low, high, step)):
        raise InputError(Problem("", 0, f"{shown}: expected finite numbers A..B[:STEP], e.g. 8..12:2"))
    if step <= 0 or low > high:
        raise InputError(
            Problem("", 0, f"{shown}: the range has no values; expected A <= B and a STEP above 0")
        )
    whole = all(isinstance(v, int) for v in (low, high, step))
    if not whole and step < MIN_STEP:  # the values are rounded to 10 decimals: a smaller step repeats them
        raise InputError(Problem("", 0, f"{shown}: STEP {step:g} is below {MIN_STEP:g}; expected a larger "
                                        "step"))
    # counted before any value is made: 1..1e9 is this line, not a list of a billion numbers
    span = (high - low) / step
    if not span < MAX_VARIANTS:
        many = f"{span + 1:,.0f}" if math.isfinite(span) else "countless"
        raise InputError(Problem("", 0, f"{shown}: the range makes {many} values; expected at most "
                                        f"{MAX_VARIANTS} variants in all (a larger STEP or a shorter range)"))
    count = int(span + 1e-9) + 1
    return [low + i * step if whole else round(low + i * step, 10) for i in range(count)]


def split_values(text: str) -> list[str]:
    """Comma-separated values; commas inside [..], {..} or quotes belong to the value (`[1, 2],[2, 3]`)."""
    parts, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return parts


def parse_vary(text: str) -> Vary:
    """One `--vary PATH=V1,V2,...` or `--vary PATH=A..B[:STEP]`."""
    shown = f"--vary {text}"
    path, value = split_assignment(text, "--vary")
    parts = tuple(path.split("."))
    if parts[0] == OPTIONS and len(parts) != 2:
        raise InputError(
            Problem("", 0, f"{shown}: expected options.NAME for a rule option, e.g. options.end_mode")
        )
    values = expand_range(value, shown)
    if values is None:
        texts = split_values(value)
        if not value.strip() or any(not t for t in texts):
            raise InputError(
                Problem("", 0, f"{shown}: a value is empty; expected PATH=V1,V2,... or PATH=A..B[:STEP]")
            )
        values = [read_value(t) for t in texts]
    if len(set(map(repr, values))) != len(values):
        raise InputError(Problem("", 0, f"{shown}: a value is listed twice; expected each value once"))
    return Vary(parts, tuple(values), text)


def parse_varies(texts) -> list[Vary]:
    """Every `--vary`, each path once; all mistakes reported together."""
    varies, problems = [], []
    for text in texts:
        try:
            varies.append(parse_vary(text))
        except InputError as exc:
            problems += exc.problems
    seen = set()
    for vary in varies:
        if vary.path in seen:
            problems.append(
                Problem(
                    "",
                    0,
                    f"--vary {vary.text}: {'.'.join(vary.path)} is varied twice; expected "
                    f"one --vary per path with all its values",
                )
            )
        seen.add(vary.path)
    if not texts:
        problems.append(Problem("", 0, "nothing to vary; expected at least one --vary PATH=V1,V2,..."))
    if problems:
        raise InputError(problems)
    size = 1
    for vary in varies:
        size *= len(vary.values)
    if size > MAX_VARIANTS:
        raise InputError(
            Problem(
                "",
                0,
                f"the --vary values make {size} variants; expected at most {MAX_VARIANTS} (check the ranges)",
            )
        )
    return varies


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return str(value)


@dataclass
class Variant:
    """One point of the grid: its values, the game as changed, and what became of it."""

    values: dict[str, Any]  # path -> value
    label: str
    changes: Changes  # the fixed changes plus this variant's values, as --option/--set (for replay commands)
    status: str = SIMULATED
    problems: list[str] = field(default_factory=list)
    game: Game | None = None
    engine: Engine | None = None
    options: dict = field(default_factory=dict)
    figures: dict | None = None


def plan_variants(varies: list[Vary], fixed: Changes) -> list[Variant]:
    """The grid, first --vary outermost."""
    variants = []
    for combo in itertools.product(*(vary.values for vary in varies)):
        values = {".".join(v.path): value for v, value in zip(varies, combo, strict=True)}
        label = ", ".join(f"{v.name}={_text(value)}" for v, value in zip(varies, combo, strict=True))
        options = [
            f"{v.path[1]}={_text(value)}" for v, value in zip(varies, combo, strict=True) if v.is_option
        ]
        sets = [
            f"{'.'.join(v.path)}={_text(value)}"
            for v, value in zip(varies, combo, strict=True)
            if not v.is_option
        ]
        variants.append(
            Variant(values, label, Changes(fixed.options + tuple(options), fixed.sets + tuple(sets)))
        )
    return variants


def load_variant(project: Project, game_id: str, variant: Variant, varies: list[Vary], fixed: Changes,
                 announce: Callable[[str], None] | None = None) -> list[Problem]:
    """Load and check one variant; returns problems of the input (bad paths or values), marks broken variants.
    `announce(line)` is told first when the game's engine is the project's own Python."""
    combo = [(vary, variant.values[".".join(vary.path)]) for vary in varies]
    overrides = fixed.overrides() + [Override(v.path, value, f"{'.'.join(v.path)}={_text(value)}", "--vary")
                                     for v, value in combo if not v.is_option]
    game = load_game(project, game_id, overrides)
    where = engine_origin(game) if announce is not None else None
    if where is not None:
        announce(f"{game.id}: running its rules engine, the project's own Python in {where}")
    engine = engine_for(game)
    if engine is None:
        raise InputError(
            Problem(
                game.show(game.dir / "game.yaml"),
                0,
                f"{game_id} has no `engine:`; expected one to play its variants",
            )
        )
    problems = check_settings(engine, game)
    try:
        options = parse_options(engine, game, list(fixed.options))
    except InputError as exc:
        problems += exc.problems
        options = {}
    for vary, value in combo:
        if vary.is_option:
            try:
                options[vary.path[1]] = check_option(engine, game, vary.path[1], value, f"--vary {vary.text}")
            except InputError as exc:
                problems += exc.problems
    if problems:
        return problems
    variant.game, variant.engine, variant.options = game, engine, options
    try:
        check_game(game, engines=True)
    except InputError as exc:
        variant.status, variant.problems = BROKEN, [str(p) for p in exc.problems]
        return []
    failure = setup_failure(engine, game, options)
    if failure:
        variant.status, variant.problems = NO_SETUP, [failure]
    return []


@dataclass
class Sweep:
    """The outcome of `sweep`: the variants, the report (JSON-ready), where it was written and how it ran."""

    game: str
    name: str
    variants: list[Variant]
    report: dict
    pdf_path: Path | None = None
    report_path: Path | None = None
    games_played: int = 0
    seconds: float = 0.0
    where: str = ""
    # stalls, broken rules, goals never completed, per variant
    findings: list[str] = field(default_factory=list)

    @property
    def simulated(self) -> int:
        return sum(v.status == SIMULATED for v in self.variants)


def sweep_name(varies: list[Vary], name: str | None) -> str:
    """The file name part of build/<game>/sweep-<name>.pdf: --name, else the varied names joined by '-'."""
    if name is not None:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
            raise InputError(
                Problem("", 0, f"--name {name}: expected letters, digits, '-', '_' or '.' (it names a file)")
            )
        return name
    return "-".join(re.sub(r"[^A-Za-z0-9_-]+", "-", v.name).strip("-") for v in varies)


def sweep(  # noqa: PLR0913 - each of `pnp sweep`'s options, as keywords with defaults, like the command
    project: Project,
    game_id: str,
    vary: list[str],
    settings: SimSettings,
    changes: Changes | None = None,
    executor: Executor | None = None,
    name: str | None = None,
    report_path: Path | None = None,
    on_start: Callable[[int, int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    announce: Callable[[str], None] | None = None,
    bots: tuple[str, ...] = (),
) -> Sweep:
    """Check every variant of the grid, play the sound ones and write the JSON report and the sweep PDF;
    `announce(line)` is told before the game's engine is imported when it is the project's own Python.
    `bots` (`--bots`): one bot name for every seat (e.g. 'lookahead:16') or one per seat instead of the
    validator's mix."""
    changes = changes or Changes()
    varies = parse_varies(vary)
    label = sweep_name(varies, name)
    parse_overrides(changes.sets)  # malformed --set first, once
    variants = plan_variants(varies, changes)
    # a wrong path: said once, not per value
    problems = load_variant(project, game_id, variants[0], varies, changes, announce)
    if problems:
        raise InputError(problems)
    engine = variants[0].engine
    unplayed = sorted(set(settings.players) - set(engine.player_counts))
    if unplayed:
        raise InputError(
            Problem(
                "",
                0,
                f"--players {', '.join(map(str, unplayed))}: {game_id} is played by "
                f"{', '.join(map(str, engine.player_counts))} players; expected those",
            )
        )
    if bots:
        _check_bots(engine, variants[0], bots, player_counts(engine, settings))
    for variant in variants[1:]:
        try:
            problems += load_variant(project, game_id, variant, varies, changes)
        except InputError as exc:  # a value of the wrong type: collect every one before stopping
            problems += exc.problems
    if problems:
        raise InputError(sorted(set(problems)))
    playing = [v for v in variants if v.status == SIMULATED]
    result = Sweep(game=game_id, name=label, variants=variants, report={})
    if playing:
        runs = [
            Run(f"variant-{i}", v.game, v.engine, v.options, bots=tuple(bots))
            for i, v in enumerate(variants)
            if v.status == SIMULATED
        ]
        result.games_played = sum(len(player_counts(v.engine, settings)) for v in playing) * settings.games
        runner = executor or LocalProcesses(settings.jobs)
        try:
            result.where = runner.describe()
            if on_start:
                on_start(result.games_played, min(runner.workers, result.games_played))
            started = time.perf_counter()
            results = simulate(runs, settings, runner, progress=progress)
            result.seconds = time.perf_counter() - started
        finally:
            if executor is None:
                runner.close()
        for run, variant in zip(runs, playing, strict=True):
            goals = list(variant.engine.goals(variant.game)) if variant.engine.goals else []
            variant.figures = variant_figures(results[run.key], goals)
            found = composition_problems(
                variant.game, variant.engine, results[run.key], variant.changes.args()
            )
            variant.problems = [str(p) for p in found]
            result.findings += [f"{variant.label}: {p}" for p in variant.problems]
    game = next((v.game for v in variants if v.game is not None), None)
    result.report = build_report(game, varies, variants, settings, changes, label)
    if bots:
        result.report["settings"]["bots"] = bots_described(bots)
    if report_path is not None:
        result.report_path = atomic_write(report_path, to_json(result.report))
    if playing:
        result.pdf_path = write_sweep_pdf(project.build_dir / game_id / f"sweep-{label}.pdf", result.report)
    return result


def bots_described(bots: tuple[str, ...]) -> str:
    """What the report says about `--bots`."""
    return f"every seat: {bots[0]}" if len(bots) == 1 else f"seats in order: {', '.join(bots)}"


def _check_bots(engine: Engine, first: Variant, bots: tuple[str, ...], counts: list[int]) -> None:
    """`--bots`: known names, well-formed lookahead budgets, an engine that can look ahead, one name or one
    per seat at every simulated player count; InputError otherwise."""
    wrong = bots_problem(engine, bots, lambda: engine.new_state(first.game, counts[0],
                                                                {**engine.options, **first.options}))
    if not wrong and len(bots) > 1 and any(count != len(bots) for count in counts):
        wrong = (f"--bots names {len(bots)} bots for {', '.join(map(str, counts))} players; expected one "
                 "name, or one per seat with a single --players")
    if wrong:
        raise InputError(Problem("", 0, wrong))


def build_report(
    game: Game,
    varies: list[Vary],
    variants: list[Variant],
    settings: SimSettings,
    changes: Changes,
    name: str,
) -> dict:
    """Everything the sweep found, JSON-ready and deterministic (no times, no worker counts)."""
    engine = next((v.engine for v in variants if v.engine is not None), None)
    counts = player_counts(engine, settings) if engine is not None else []
    return {
        "game": game.id,
        "title": game.title,
        "name": name,
        "settings": {
            "games_per_count": settings.games,
            "seed": settings.seed,
            "player_counts": counts,
            "bots": BOT_MIX,
            "turn_cap": engine.turn_cap if engine is not None else None,
            "vary": [{"path": ".".join(v.path), "name": v.name, "values": list(v.values)} for v in varies],
            "fixed": {"options": list(changes.options), "sets": list(changes.sets)},
        },
        "variants": [
            {
                "label": v.label,
                "values": v.values,
                "status": v.status,
                "problems": v.problems,
                "replay_args": v.changes.args(),
                "by_players": v.figures or {},
            }
            for v in variants
        ],
    }
