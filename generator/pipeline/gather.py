"""Gather: load every named game and run every check, data first, before anything is written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.boards.checks import check_board_drawing
from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem, Problems
from generator.data.checks import CheckReport, check_data, report_for
from generator.data.game import Game
from generator.data.game_checks import PassedChecks, run_checks
from generator.data.load import load_game
from generator.data.project import Project
from generator.pipeline import producers


def check_game(game: Game, engines: bool = False) -> CheckReport:
    """Every static check of a loaded game: its data, the board drawing, the `checks:` of game.yaml, then
    (with `engines`, for the commands that play) its engine's composition checks."""
    return check_composition(game, check_references(game), engines)


def check_references(game: Game) -> list[str]:
    """The first half of check_game: the game's data and the board drawing (InputError with their problems).
    What the producers plan and draw from may assume it passed: every reference resolves."""
    problems = Problems()
    names = check_data(game, problems)
    check_board_drawing(game, problems)
    problems.raise_if_any()  # game-specific checks may assume references resolve
    return names


def check_composition(game: Game, names: list[str], engines: bool = False,
                      passed: PassedChecks | None = None) -> CheckReport:
    """The second half of check_game (after check_references passed, whose check names are `names`): the
    `checks:` of game.yaml, then, with `engines`, its engine's composition checks (the engine's code is
    imported only then: building, serving and exporting never run a project's Python). With `passed`, a
    `checks:` entry that passed with the same inputs before is not run again (game_checks.run_checks)."""
    problems = Problems()
    names = names + run_checks(game, problems, passed)  # the composition rules game.yaml declares
    engine = _engine(game) if engines else None
    if engine is not None and engine.static_checks is not None:
        for name, found in engine.static_checks(game):
            names.append(name)
            problems.extend(list(found))
    problems.raise_if_any()
    return report_for(game, names)


@dataclass
class Loaded:
    """The named games loaded, their data and references checked, and their composition checks still to run
    (`finish`). A build plans and starts drawing in between: the composition checks (game.yaml `checks:`, the
    engines' static checks) read the data only and cost as much as planning, so they run while workers
    draw."""

    games: list[Game] = field(default_factory=list)
    engines: bool = False  # the engines' composition checks run too (the commands that play)
    passed: PassedChecks | None = None  # the checks that passed before, by their inputs (a build's cache)
    # per game, in the order asked for: its problems, its report, or (game, check names so far) to finish
    steps: list[list[Problem] | CheckReport | tuple[Game, list[str]]] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """True when a game did not load or its data or references are wrong (`finish` raises)."""
        return any(isinstance(step, list) for step in self.steps)

    @property
    def pending(self) -> bool:
        """True when composition checks are still to run."""
        return any(isinstance(step, tuple) for step in self.steps)

    def finish(self) -> list[CheckReport]:
        """Run the checks still to run; InputError with every problem of every game, in the order gather
        reports them (games in the order asked for), else the reports of the games."""
        problems: list[Problem] = []
        reports: list[CheckReport] = []
        for at, step in enumerate(self.steps):
            if isinstance(step, tuple):
                try:
                    step = self.steps[at] = check_composition(*step, self.engines, self.passed)
                except InputError as exc:
                    step = self.steps[at] = list(exc.problems)
            if isinstance(step, list):
                problems.extend(step)
            else:
                reports.append(step)
        if problems:
            raise InputError(problems)
        return reports


# The engines are imported by the commands that play only (validate, replay, sweep): a build never needs them.
def _engine(game: Game):
    from generator.engines.registry import engine_for

    return engine_for(game)


def _origin(game: Game) -> str | None:
    from generator.engines.registry import engine_origin

    return engine_origin(game)


def _settings_problems(game: Game) -> list[Problem]:
    from generator.engines.options import check_settings

    return check_settings(_engine(game), game)


def load_games(project: Project, names: list[str], overrides: list | tuple = (),
               checked: dict[str, CheckReport] | None = None, engines: bool = False,
               announce: Callable[[str], None] | None = None, passed: PassedChecks | None = None) -> Loaded:
    """Load every named game and check its data and references; the composition checks are left to
    `Loaded.finish` (see gather). With `engines` the games' engines are imported and checked too, and
    `announce(line)` is told first of each engine that is the project's own Python. `passed`: the checks
    that passed before, by their inputs (not run again)."""
    loaded = Loaded(engines=engines, passed=passed)
    for name in names:
        try:
            game = load_game(project, name, overrides)
            where = _origin(game) if engines and announce is not None else None
            if where is not None:
                announce(f"{game.id}: running its rules engine, the project's own Python in {where}")
            wrong = _settings_problems(game) if game.overrides and engines else []
            if wrong:  # a changed setting of the wrong kind would trip the composition checks
                raise InputError(wrong)
            known = (checked or {}).get(name) if not overrides else None
            loaded.steps.append(known if known is not None else (game, check_references(game)))
            loaded.games.append(game)
        except InputError as exc:
            loaded.steps.append(list(exc.problems))
    return loaded


def gather(project: Project, names: list[str], overrides: list | tuple = (),
           checked: dict[str, CheckReport] | None = None,
           engines: bool = False, announce: Callable[[str], None] | None = None,
           ) -> tuple[list[Game], list[CheckReport]]:
    """Load and check every named game, reporting the problems of all of them together.

    `overrides` (`--set PATH=VALUE`, data.overrides) change the YAML as read, before every check. `checked`
    gives the reports of games whose checks read the same inputs as when they last passed (an incremental
    build after a rules template or translation edit): those games are loaded, not checked again. `engines`
    (validate, replay, sweep) imports each game's rules engine and runs its composition checks too; nothing
    else runs project code."""
    loaded = load_games(project, names, overrides, checked, engines, announce)
    reports = loaded.finish()
    return loaded.games, reports


def preflight(games: list[Game]) -> dict[str, list[str]]:
    """What `pnp validate` checks of the printed side without writing anything: every producer's own checks
    (card layouts, board plans, rules templates, component nets) and the card and component sheets drawn once,
    so text that does not fit its box is found too. Raises InputError with every problem; returns the checks
    that ran, per game."""
    import tempfile

    options = BuildOptions(papers=("letter",))
    checks: dict[str, list[str]] = {game.id: [] for game in games}
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory() as folder:
        for producer in producers.PRODUCERS:
            for game in games:
                try:
                    outputs = producer.outputs(game, options)
                except InputError as exc:  # every producer's problems are reported, not only the first one's
                    problems.extend(exc.problems)
                    continue
                if outputs:
                    checks[game.id].append(producer.check)
                for index, output in enumerate(o for o in outputs if o.kind in ("cards", "components")):
                    try:
                        output.render(Path(folder) / f"{game.id}-{index}.pdf")
                    except InputError as exc:
                        problems.extend(exc.problems)
    if problems:
        raise InputError(list(dict.fromkeys(problems)))
    return checks
