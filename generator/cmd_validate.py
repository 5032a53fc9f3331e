"""`pnp validate`: static checks, then every scripted game, then seeded simulations of every game."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from generator.cli import project_of


def _script_problems(game, engine) -> tuple[int, int, list]:
    """Replay every script of the game: (scripts, scripts failing, problems)."""
    from generator.errors import Problem
    from generator.rules.scripts import run_script, script_files

    files = script_files(game)
    problems, failing = [], 0
    for path in files:
        messages = run_script(path, game, engine)
        failing += bool(messages)
        problems += [Problem("", 0, message) for message in messages]
    return len(files), failing, problems


@click.command("validate")
@click.argument("games", nargs=-1)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Simulated games per player count.")
@click.option("--seed", type=int, default=1, show_default=True, help="Base seed; each game's seed derives from it.")
@click.option("--players", "players", type=click.IntRange(min=1), multiple=True,
              help="Player count to simulate (repeatable; default: every count the engine supports).")
@click.option("--jobs", type=click.IntRange(min=0), default=0, help="Worker processes (default: every core).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every balance figure to this JSON file.")
@click.option("--no-sim", is_flag=True, help="Only static checks and scripts; no simulated games.")
@click.pass_context
def validate_cmd(ctx: click.Context, games: tuple[str, ...], n_games: int, seed: int, players: tuple[int, ...],
                 jobs: int, report_path: Path | None, no_sim: bool) -> None:
    """Check every game's data and deck composition, replay its scripts and play it many times (all games by default).

    Problems found by playing (a stalled game, a broken rule, a goal never completed, a player count that cannot set
    up) fail the command; balance figures are reported in build/<game>/balance.pdf and with --report.
    """
    from generator.build import gather, preflight
    from generator.check import engine_module
    from generator.errors import InputError, Problem
    from generator.rules.balance_pdf import write_balance_pdf
    from generator.rules.report import summarize, terminal_summary, to_json
    from generator.rules.simulate import (
        SimSettings,
        available_cores,
        composition_problems,
        player_counts,
        simulate,
    )
    from generator.write import atomic_write

    project = project_of(ctx)
    loaded, reports = gather(project, project.select(games))
    printed_checks = preflight(loaded)
    for report in reports:
        report.checks += printed_checks[report.game]
        click.echo(f"OK  {report.game}: {report.cards} cards in {report.decks} deck{'s' if report.decks != 1 else ''} ({report.card_types} card types); "
                   f"{len(report.checks)} checks passed")
        for name in report.checks:
            click.echo(f"      - {name}")

    problems = []
    playable = []
    full_report: dict = {}
    for game in loaded:
        module = engine_module(game)
        if module is None:
            click.echo(f"--  {game.id}: no `engine:` in game.yaml; scripts and simulation skipped")
            continue
        engine = getattr(module, "ENGINE", None)
        if engine is None:
            problems.append(Problem(game.show(game.dir / "game.yaml"), 0, f"rules module {module.__name__} has no "
                                    f"ENGINE; expected `ENGINE = Engine(...)` (see docs/engine-api.md)"))
            continue
        count, failing, found = _script_problems(game, engine)
        problems += found
        click.echo(f"{'OK ' if not found else 'BAD'} {game.id}: {count - failing} of {count} scripts pass")
        full_report[game.id] = {"scripts": {"count": count, "failures": [p.message for p in found]}}
        playable.append((game, engine))

    if not no_sim and playable:
        settings = SimSettings(games=n_games, seed=seed, players=tuple(players), jobs=jobs)
        for game, engine in playable:
            skipped = sorted(set(players) - set(engine.player_counts))
            if skipped:
                click.echo(f"--  {game.id}: not simulating {', '.join(map(str, skipped))} players; the engine plays "
                           f"{', '.join(map(str, engine.player_counts))}")
        playable = [(game, engine) for game, engine in playable if player_counts(engine, settings)]
        total = sum(len(player_counts(engine, settings)) for _, engine in playable) * n_games
        workers = min(jobs or available_cores(), total)
        started = time.perf_counter()
        if sys.stderr.isatty():
            with click.progressbar(length=total, label=f"Playing {total} games on {workers} cores",
                                   file=sys.stderr) as bar:
                results = simulate(project, playable, settings, progress=bar.update)
        else:
            results = simulate(project, playable, settings)
        elapsed = time.perf_counter() - started
        click.echo(f"Played {total} games in {elapsed:.1f} s ({total / max(elapsed, 1e-9):.0f} games/s, {workers} workers)")
        for game, engine in playable:
            figures = summarize(game, engine, settings, results[game.id])
            found = composition_problems(game, engine, results[game.id])
            problems += found
            failed = sum(f["failed"] for f in figures["by_players"].values())
            click.echo(f"{'OK ' if not found else 'BAD'} {game.id}: {failed} failed games, "
                       f"{len(found)} composition problem{'s' if len(found) != 1 else ''}")
            for line in terminal_summary(figures):
                click.echo(line)
            pdf = write_balance_pdf(project.build_dir / game.id / "balance.pdf", figures)
            click.echo(f"  balance report: {project.show(pdf)}")
            full_report[game.id].update(figures)
    if report_path is not None:
        atomic_write(report_path, to_json({"games": full_report}))
        click.echo(f"figures written to {project.show(report_path)}")
    if problems:
        raise InputError(problems)
