"""`pnp validate` as a library function: static checks, the printed side, scripted games, then simulations.

The result says what ran and what failed; the command line only prints it. Balance figures are written to
build/<game>/balance.pdf (and to a JSON report when asked) and never fail the run.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.core.forked import ForkedWorkers
from generator.core.write import atomic_write
from generator.data.checks import CheckReport
from generator.data.game import Game
from generator.data.load import load_game
from generator.data.project import Project
from generator.data.translation import source_tool_words_missing
from generator.engines.base import Engine
from generator.engines.options import describe_data, describe_options
from generator.engines.registry import engine_for, rules_engine
from generator.faces.boxes.image import missing_art
from generator.faces.face import renderer_for
from generator.faces.legibility import check_legibility
from generator.pipeline.changes import Changes, one_game, rule_options, summary
from generator.pipeline.ci_report import problem_data
from generator.pipeline.colour_check import CHECK_NAME as COLOUR_VISION_CHECK
from generator.pipeline.colour_check import colour_vision_problems
from generator.pipeline.gather import gather, preflight
from generator.pipeline.translations import choose_languages, language_problems, named, translate_checked
from generator.pipeline.validation_record import write_failure_record, write_records
from generator.validator.balance_pdf import write_balance_pdf
from generator.validator.executors import Executor, LocalProcesses
from generator.validator.lookahead import missing_methods_line
from generator.validator.odds import game_odds, no_goals_line
from generator.validator.playtests import Playtest, compare, load_playtests
from generator.validator.report import strength_figures, summarize, to_json
from generator.validator.scripts import run_script, script_files
from generator.validator.simulate import (
    AdaptiveSimulation,
    Run,
    SimSettings,
    Simulation,
    composition_problems,
    player_counts,
    simulate,
    start_simulation,
)
from generator.validator.stopping import Stopping, first_batch

LEGIBILITY_CHECK = "card text contrast (WCAG 4.5:1, 3:1 from 14 pt) and size (6 pt)"
RULES_FILE = "rules.yaml"  # what `--engine rules` plays: the game's rules described in the rules language
STRENGTH_GAMES = 20  # --strength: games per player count with the lookahead bot in every seat (seconds each)
ENGINE_SOURCES = ("game", "rules")  # --engine: the engine game.yaml names, or the game folder's rules.yaml


@dataclass
class GameValidation:
    """What validation found for one game."""

    report: CheckReport
    has_engine: bool = False
    engine_counts: tuple[int, ...] = ()  # the player counts the engine plays
    engine_skipped: bool = False  # game.yaml names an engine, not imported (--no-engine)
    scripts: int = 0
    scripts_failing: int = 0
    # asked-for player counts the engine does not play
    unplayed_counts: list[int] = field(default_factory=list)
    figures: dict | None = None  # balance figures of the simulated games
    sim_problems: list[Problem] = field(default_factory=list)
    script_problems: list[Problem] = field(default_factory=list)
    balance_pdf: Path | None = None
    languages: dict[str, str] = field(default_factory=dict)  # translation -> what its checks found
    playtests: list[Playtest] = field(default_factory=list)  # cards/<game>/playtests/*.yaml that check
    odds: dict | None = None  # the exact deck odds of the goals its engine declares (validator.odds)
    no_odds: str = ""  # the line saying what to declare, for an engine that declares no goals and deals
    odds_problems: list[Problem] = field(default_factory=list)  # goals that can never be completed

    @property
    def game(self) -> str:
        return self.report.game


@dataclass
class Validation:
    """The outcome of `validate`: per game, the simulation run, and every problem that fails the run."""

    games: list[GameValidation]
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # legibility of the cards; problems with `strict`
    games_played: int = 0
    workers: int = 0
    where: str = ""  # where the games ran ('2 local processes', 'Dask cluster ...')
    seconds: float = 0.0
    report_path: Path | None = None
    changes: list[str] = field(default_factory=list)  # what --option/--set changed (scripts are skipped then)
    stopping: Stopping | None = None  # the rule the games were played until (None: a fixed number of games)
    strength_games: int = 0  # games played with the stronger bot in every seat (--strength)
    strength_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems


def _run_scripts(game: Game, engine: Engine, entry: GameValidation) -> list[Problem]:
    """Replay every script of the game; the failures as problems."""
    files = script_files(game)
    problems = []
    for path in files:
        messages = run_script(path, game, engine)
        entry.scripts_failing += bool(messages)
        problems += [Problem("", 0, message) for message in messages]
    entry.scripts = len(files)
    return problems


def planned_games(engines: list[Engine], settings: SimSettings) -> int:
    """How many games `validate` will simulate for these engines (for a progress bar; with a stopping rule,
    those of its first round)."""
    if settings.stopping is not None:
        return sum(first_batch(players, settings.stopping) for engine in engines
                   for players in player_counts(engine, settings))
    return sum(len(player_counts(engine, settings)) for engine in engines) * settings.games


def validate(  # noqa: PLR0913 - each of `pnp validate`'s options, as keywords with defaults, like the command
    project: Project,
    names: list[str],
    settings: SimSettings | None = None,
    simulate_games: bool = True,
    report_path: Path | None = None,
    on_start: Callable[[int, int], None] | None = None,
    progress: Callable[[int], None] | None = None,
    strict: bool = False,
    changes: Changes | None = None,
    executor: Executor | None = None,
    languages: tuple[str, ...] = (),
    engines: bool = True,
    announce: Callable[[str], None] | None = None,
    engine_source: str = "game",
    strength: str | None = None,
    strength_games: int = STRENGTH_GAMES,
) -> Validation:
    """Check, replay and simulate the named games. Raises InputError when the data itself does not load or
    check.

    Legibility findings (faint or tiny card text) are warnings, or problems that fail the run with `strict`.
    `changes` (--option/--set, one game only) change the game as loaded; its scripts, which pin the game as
    written, are then skipped. The games run on `executor` (default: local processes, `settings.jobs`).
    `on_start(games, workers)` is called before the simulations start (again with the games planned so far
    when a stopping rule, `settings.stopping`, plans another round) and `progress(n)` as games finish.
    Every declared language of each game (or those of `languages`) is checked like a build of it: its
    translation file, layouts' words, rules template, texts that no longer fit and characters no font draws
    are problems; texts not translated yet are warnings (problems with `strict`). Without `engines`
    (`--no-engine`) no rules engine is imported: the static checks only. `announce(line)` is told, before a
    project's engine code is imported, which file it is (the run's first line says whose Python runs).
    `engine_source` "rules" (`--engine rules`) plays each game from its folder's rules.yaml instead of the
    engine game.yaml names (which is then never imported). `strength` (a bot name such as 'lookahead:16',
    `--strength`) plays `strength_games` more games per player count with that bot in every seat, after the
    others, and reports their seat fairness beside the greedy figures."""
    settings = settings or SimSettings()
    changes = changes or Changes()
    one_game(names, changes, "validate")
    described = engines and engine_source == "rules"
    try:
        loaded, reports = gather(project, names, changes.overrides(), engines=engines and not described,
                                 announce=announce)
    except InputError as exc:  # a failing run still leaves its machine-readable files (for CI)
        _record_load_failure(project, names, exc.problems, report_path)
        raise
    engine_of = _described_engines(loaded, reports) if described else engine_for
    options: dict = {}
    if changes:
        options = rule_options(loaded[0], engine_of(loaded[0]) if engines else None, changes)
    chosen = choose_languages(loaded, languages)
    result = Validation(games=[], changes=summary(loaded[0], options) if changes else [])
    played = {game.id: engine for game in loaded if engines and (engine := engine_of(game)) is not None}
    if strength and simulate_games:
        _check_strength(loaded, played, settings, options)
    # The games need only the loaded data and the engines: they are played while this process checks the rest.
    plan = _start_games(loaded, played, settings, options, executor, on_start, result) \
        if simulate_games and played else None
    pdfs: _BalancePdfs | None = None
    try:
        full_report = _check(loaded, reports, played, chosen, strict, changes, result,
                             lambda: plan.simulation.poll(progress) if plan else None)
        for entry, game in zip(result.games, loaded, strict=True):
            entry.engine_skipped = not engines and game.config.engine is not None
            if game.id in played:
                _deck_odds(game, played[game.id], options, entry, result, full_report)
        if plan is not None:
            pdfs = _BalancePdfs(project, changes)
            # without --strength a game's figures are whole once summarized: its balance.pdf is written by a
            # process of its own while this one sums up the next game (the workers are done by then)
            _finish_games(plan, settings, changes, progress, result, full_report,
                          None if strength else pdfs.start)
            if strength:
                _play_strength(plan, replace(settings, games=strength_games), strength, options, changes,
                               result, full_report)
                for game, _ in plan.playable:
                    pdfs.start(next(entry for entry in result.games if entry.game == game.id))
            pdfs.finish()
    finally:
        if plan is not None:
            plan.close()
        if pdfs is not None:
            pdfs.stop()
    if not changes:  # what `pnp serve` shows is the game as written
        write_records(project.build_dir, result.games, settings, simulate_games)
    if report_path is not None:
        atomic_write(report_path, to_json({"games": full_report, "ok": result.ok,
                                           "problems": [problem_data(p) for p in result.problems]}))
        result.report_path = report_path
    return result


def _deck_odds(game: Game, engine: Engine, options: dict, entry: GameValidation, result: Validation,
               full_report: dict) -> None:
    """The exact odds of the goals the engine declares, into the entry and the report; a goal that can never
    be completed fails the run (located at its card)."""
    try:
        entry.odds, entry.odds_problems = game_odds(game, engine, options)
    except InputError as exc:  # the engine's declaration failed: said, and the run fails
        result.problems += exc.problems
        entry.no_odds = f"{game.id}: deck odds not counted (see the problem below)"
        return
    if entry.odds is None:
        entry.no_odds = no_goals_line(game.id, engine)
        return
    result.problems += entry.odds_problems
    full_report.setdefault(game.id, {})["odds"] = entry.odds


def _record_load_failure(project: Project, names: list[str], problems: list[Problem],
                         report_path: Path | None) -> None:
    """The data did not load: the JSON report and each game's validation.json say so, with the problems."""
    if report_path is not None:
        atomic_write(report_path, to_json({"games": {}, "ok": False, "loaded": False,
                                           "problems": [problem_data(p) for p in problems]}))
    for name in names:
        if (project.cards_dir / name).is_dir():
            write_failure_record(project.build_dir, name, [str(p) for p in problems])


def _described_engines(loaded: list[Game], reports: list) -> Callable[[Game], Engine]:
    """`--engine rules`: each game's engine read from its rules.yaml, whose derived checks join the game's
    report (InputError with their problems)."""
    found: dict[str, Engine] = {}
    problems: list[Problem] = []
    for game, report in zip(loaded, reports, strict=True):
        engine = found[game.id] = rules_engine(game, RULES_FILE, game.show(game.dir / "game.yaml"),
                                               game.line_of("engine"))
        for name, wrong in engine.static_checks(game) if engine.static_checks else ():
            report.checks.append(name)
            problems += list(wrong)
    if problems:
        raise InputError(problems)
    return lambda game: found[game.id]


@dataclass
class _Games:
    """The simulated games under way: on which runner, which games, since when."""

    simulation: Simulation | AdaptiveSimulation
    runner: Executor
    own_runner: bool  # started here, so closed here
    playable: list[tuple[Game, Engine]]
    unplayable: list[Problem]  # asked-for player counts a game is never played with
    started: float

    def close(self) -> None:
        try:
            self.simulation.cancel()
        finally:
            if self.own_runner:
                self.runner.close()


def _start_games(loaded: list[Game], engines: dict[str, Engine], settings: SimSettings, options: dict,
                 executor: Executor | None, on_start, result: Validation) -> _Games:
    """Hand every game to play to the workers (default: local processes, forked now) and return at once."""
    unplayable = []
    for game in loaded:
        engine = engines.get(game.id)
        # asked for counts it is never played with
        if engine is not None and not player_counts(engine, settings):
            counts = ", ".join(map(str, engine.player_counts))
            unplayable.append(
                Problem(
                    game.show(game.dir / "game.yaml"),
                    game.line_of("players"),
                    f"--players {', '.join(map(str, settings.players))}: {game.id} is played by {counts} "
                    "players, "
                    "so no game was simulated; expected --players to name one of those counts",
                )
            )
    playable = [(game, engines[game.id]) for game in loaded
                if game.id in engines and player_counts(engines[game.id], settings)]
    total = planned_games([engine for _, engine in playable], settings)
    result.games_played, result.stopping = total, settings.stopping
    runner = executor or LocalProcesses(settings.jobs)
    try:
        result.workers, result.where = min(runner.workers, total), runner.describe()
        if on_start:
            on_start(total, result.workers)
        started = time.perf_counter()
        runs = [Run(game.id, game, engine, options) for game, engine in playable]

        def more(planned: int) -> None:  # a stopping rule's later rounds: the games planned so far
            result.games_played = planned
            if on_start and planned > total:
                on_start(planned, result.workers)

        simulation = start_simulation(runs, settings, runner, on_plan=more)
    except BaseException:
        if executor is None:
            runner.close()
        raise
    return _Games(simulation, runner, executor is None, playable, unplayable, started)


def _check(loaded: list[Game], reports: list[CheckReport], engines: dict[str, Engine],
           chosen: dict[str, list[str]], strict: bool, changes: Changes, result: Validation,
           between: Callable[[], None]) -> dict:
    """The checks of this process: the printed side, legibility, languages and scripts, into `result`; calls
    `between()` between them (to show the games' progress). Returns the report's script part per game."""
    printed = preflight([game for game in loaded if game.source_language in chosen[game.id]])
    between()
    for game in loaded:
        printed.setdefault(game.id, [])
        if game.source_language not in chosen[game.id]:
            continue
        # slips that load (a colour read as a comment, a bare-number length, an unknown :icon:, a soft
        # picture)
        for warning in renderer_for(game).warnings:  # missing art fails a strict run (issue 33)
            failed = strict and missing_art(warning)
            (result.problems if failed else result.warnings).append(Problem("", 0, warning))
        result.warnings += _rules_fallbacks(game)  # a letter a fallback face draws: a warning, never an error
        found = check_legibility(renderer_for(game))
        printed[game.id].append(LEGIBILITY_CHECK)
        found += colour_vision_problems(game)
        printed[game.id].append(COLOUR_VISION_CHECK)
        if strict:
            result.problems += found
        else:
            result.warnings += found
        between()
    in_languages = {}
    for game in loaded:
        in_languages[game.id] = _check_languages(game, chosen[game.id], strict, result)
        between()
    full_report: dict = {}
    for game, report in zip(loaded, reports, strict=True):
        report.checks += printed[game.id]
        entry = GameValidation(report=report, languages=in_languages[game.id])
        result.games.append(entry)
        entry.playtests, found = load_playtests(game)
        result.problems += found
        engine = engines.get(game.id)
        if engine is None:
            continue
        entry.has_engine = True
        entry.engine_counts = tuple(engine.player_counts)
        found = [] if changes else _run_scripts(game, engine, entry)
        entry.script_problems = found
        result.problems += found
        full_report[game.id] = {"scripts": {"count": entry.scripts, "failures": [p.message for p in found]}}
        if changes:
            full_report[game.id]["changes"] = result.changes
        between()
    for entry in result.games:
        if entry.playtests:  # read and checked; compared with the simulation once it is played
            full_report.setdefault(entry.game, {})["playtests"] = {
                "plays": len(entry.playtests), "files": [p.file for p in entry.playtests]}
    return full_report


def _finish_games(plan: _Games, settings: SimSettings, changes: Changes, progress, result: Validation,  # noqa: PLR0913
                  full_report: dict, on_figures: Callable[[GameValidation], None] | None = None) -> None:
    """Wait for the games, then their figures and composition problems; `on_figures(entry)` as each game's
    figures are in."""
    entries = {entry.game: entry for entry in result.games}
    for entry in result.games:
        if entry.has_engine:
            entry.unplayed_counts = sorted(set(settings.players) - set(entry.engine_counts))
    result.problems += plan.unplayable
    results = plan.simulation.results(progress)
    result.seconds = time.perf_counter() - plan.started
    for game, engine in plan.playable:
        entry = entries[game.id]
        entry.figures = summarize(game, engine, settings, results[game.id])
        if entry.odds is not None:
            entry.figures["odds"] = entry.odds
        if changes:
            entry.figures["settings"]["changes"] = result.changes
        if entry.playtests and not changes:  # people played the game as written
            entry.figures["playtests"] = compare(entry.playtests, entry.figures)
        entry.sim_problems = composition_problems(game, engine, results[game.id], changes.args())
        result.problems += entry.sim_problems
        full_report[game.id].update(entry.figures)
        if on_figures is not None:
            on_figures(entry)


class _BalancePdfs:
    """Each played game's balance.pdf, written by a process forked for it (`start`) while this one goes on;
    `finish` waits for them and sets each entry's path (a writer's exception is raised there, as if written
    here). Written here when forking is not safe (off the main thread, no fork). The same figures give the
    same bytes wherever they are drawn."""

    def __init__(self, project: Project, changes: Changes):
        self.project, self.changes = project, changes
        self.writing: list[tuple[GameValidation, ForkedWorkers | None, Path]] = []

    def _path(self, entry: GameValidation) -> Path:
        # a changed game's figures never replace those of the game as written
        name = "balance-changed.pdf" if self.changes else "balance.pdf"
        return self.project.build_dir / entry.game / name

    def start(self, entry: GameValidation) -> None:
        path = self._path(entry)
        if not hasattr(os, "fork") or threading.current_thread() is not threading.main_thread():
            self.writing.append((entry, None, write_balance_pdf(path, entry.figures)))
            return
        self.writing.append((entry, ForkedWorkers(_write_balance_pdf, [(path, entry.figures)], 1), path))

    def finish(self) -> None:
        for entry, writer, path in self.writing:
            entry.balance_pdf = path if writer is None else next(writer.results())
        self.stop()

    def stop(self) -> None:
        """End the writers still running (a run that failed or was interrupted)."""
        for _, writer, _ in self.writing:
            if writer is not None:
                writer.stop()
        self.writing = []


def _write_balance_pdf(task: tuple[Path, dict]) -> Path:
    return write_balance_pdf(*task)


def _check_strength(loaded: list[Game], engines: dict[str, Engine], settings: SimSettings,
                    options: dict) -> None:
    """`--strength` needs engines whose states copy and re-deal (the lookahead bot's two methods): InputError
    with one located line per game whose engine lacks them."""
    problems = []
    for game in loaded:
        engine = engines.get(game.id)
        counts = player_counts(engine, settings) if engine is not None else []
        if not counts:
            continue
        try:
            state = engine.new_state(game, counts[0], {**engine.options, **options})
        except Exception:  # noqa: BLE001 - a game that cannot set up is reported by its simulation
            continue
        missing = missing_methods_line(engine, state)
        if missing:
            problems.append(Problem(game.show(game.dir / "game.yaml"), game.line_of("engine"),
                                    f"--strength: {missing}"))
    if problems:
        raise InputError(problems)


def _play_strength(plan: _Games, settings: SimSettings, bot: str, options: dict, changes: Changes,
                   result: Validation, full_report: dict) -> None:
    """`--strength`: the games with `bot` in every seat, on the same workers, and their seat fairness beside
    the greedy figures (terminal summary and JSON report); their failures are problems like the others'."""
    entries = {entry.game: entry for entry in result.games}
    runs = [Run(game.id, game, engine, options, bots=(bot,)) for game, engine in plan.playable]
    started = time.perf_counter()
    # one game per task: a game with lookahead in every seat takes seconds, far more than sending it
    results = simulate(runs, settings, plan.runner, size=1)
    result.strength_seconds = time.perf_counter() - started
    for game, engine in plan.playable:
        entry = entries[game.id]
        result.strength_games += sum(len(games) for games in results[game.id].values())
        figures = strength_figures(bot, settings.games, results[game.id], entry.figures)
        entry.figures["strength"] = full_report[game.id]["strength"] = figures
        # only what broke: a few games say nothing about goals never completed
        found = composition_problems(game, replace(engine, goals=None), results[game.id], changes.args())
        entry.sim_problems += found
        result.problems += found


_PLACE = re.compile(r"^([^\s:][^:]*):(\d+): (.*)$", re.S)


def _located(warning: str) -> Problem:
    """A renderer's warning ('file:line: message') as a Problem at its place, so that the language is named
    after the place."""
    found = _PLACE.match(warning)
    return Problem(found.group(1), int(found.group(2)), found.group(3)) if found else Problem("", 0, warning)


def _rules_fallbacks(game: Game) -> list[Problem]:
    """Warnings for the letters of the game's rules that a fallback face draws (none without a rules
    template; a template that does not render is the rules check's problem)."""
    from generator.booklet.characters import rules_fallback_warnings
    from generator.booklet.text import missing_translation, render_rules, template_file

    path = template_file(game)
    if missing_translation(game) is not None or not path.is_file():
        return []
    try:
        markdown = render_rules(game)
    except InputError:
        return []
    return rules_fallback_warnings(game, markdown, game.show(path), path.read_text(encoding="utf-8"))


def _check_languages(game: Game, languages: list[str], strict: bool, result: Validation) -> dict[str, str]:
    """Check the game in each of its other languages as a build would draw it; per language what was found."""
    status: dict[str, str] = {}
    wrong = language_problems(game)
    result.problems += wrong
    for language in languages:
        if language == game.source_language:
            found = source_tool_words_missing(game)
            (result.problems if strict else result.warnings).extend(found)
            continue
        try:
            translated, warnings, errors = translate_checked(game, language)
        except InputError as exc:
            result.problems += exc.problems
            status[language] = f"{len(exc.problems)} problem{'s' if len(exc.problems) != 1 else ''}"
            continue
        try:  # drawn even with errors in the file, so one run finds every text that does not fit too
            preflight([translated])
            found = named(check_legibility(renderer_for(translated)), language)
            # what only the language's words bring (a letter a fallback face draws, an unknown :icon:)
            source_warnings = set(renderer_for(game).warnings)
            own = [_located(warning) for warning in renderer_for(translated).warnings
                   if warning not in source_warnings]
            result.warnings += named(own + _rules_fallbacks(translated), language)
        except InputError as exc:
            errors += named(exc.problems, language)
            found = []
        if strict:
            result.problems += warnings + found
        else:
            result.warnings += warnings + found
        if errors:
            errors = list(dict.fromkeys(errors))
            result.problems += errors
            status[language] = f"{len(errors)} problem{'s' if len(errors) != 1 else ''}"
            continue
        missing = sum(1 for w in warnings if "translation" in w.message)
        status[language] = (f"{missing} text{'s' if missing != 1 else ''} not translated" if missing else
                            "translated, fits and prints")
    return status


def option_lines(project: Project, names: list[str]) -> list[str]:
    """`pnp validate --list-options`: each game's rule options (type, allowed values, default, help) and data
    paths."""
    lines: list[str] = []
    for name in names:
        game = load_game(project, name)
        engine = engine_for(game)
        if lines:
            lines.append("")
        if engine is None:
            lines.append(f"{game.id} has no `engine:`, so no rule options.")
        else:
            lines += describe_options(engine, game)
        lines += describe_data(game)
    return lines
