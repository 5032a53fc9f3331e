"""Gather: load every named game and run every check, data first, before anything is written."""

from __future__ import annotations

from pathlib import Path

from generator.boards.checks import check_board_drawing
from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem, Problems
from generator.data.checks import CheckReport, check_data, report_for
from generator.data.game import Game
from generator.data.game_checks import run_checks
from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.options import check_settings
from generator.engines.registry import engine_for
from generator.pipeline import producers


def check_game(game: Game) -> CheckReport:
    """Every static check of a loaded game: its data, the board drawing, the `checks:` of game.yaml, then its engine's
    composition checks (what needs simulation or graph search)."""
    problems = Problems()
    names = check_data(game, problems)
    check_board_drawing(game, problems)
    problems.raise_if_any()  # game-specific checks may assume references resolve
    names += run_checks(game, problems)  # the composition rules game.yaml declares
    engine = engine_for(game)
    if engine is not None and engine.static_checks is not None:
        for name, found in engine.static_checks(game):
            names.append(name)
            problems.extend(list(found))
    problems.raise_if_any()
    return report_for(game, names)


def gather(project: Project, names: list[str], overrides: list | tuple = (),
           checked: dict[str, CheckReport] | None = None) -> tuple[list[Game], list[CheckReport]]:
    """Load and check every named game, reporting the problems of all of them together.

    `overrides` (`--set PATH=VALUE`, data.overrides) change the YAML as read, before every check. `checked` gives
    the reports of games whose checks read the same inputs as when they last passed (an incremental build after a
    rules template or translation edit): those games are loaded, not checked again."""
    games, reports, problems = [], [], []
    for name in names:
        try:
            game = load_game(project, name, overrides)
            wrong = check_settings(engine_for(game), game) if game.overrides else []
            if wrong:  # a changed setting of the wrong kind would trip the composition checks
                raise InputError(wrong)
            known = (checked or {}).get(name) if not overrides else None
            reports.append(known if known is not None else check_game(game))
            games.append(game)
        except InputError as exc:
            problems.extend(exc.problems)
    if problems:
        raise InputError(problems)
    return games, reports


def preflight(games: list[Game]) -> dict[str, list[str]]:
    """What `pnp validate` checks of the printed side without writing anything: every producer's own checks
    (card layouts, board plans, rules templates, component nets) and the card and component sheets drawn once,
    so text that does not fit its box is found too. Raises InputError with every problem; returns the checks that ran, per game."""
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
