"""`pnp sweep`: play a game's variants (a grid of changed values) and compare seat balance, length, endings,
goals."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli.common import change_options, cluster_option, project_of, quiet_aware


@click.command("sweep")
@click.argument("game_id", metavar="GAME")
@click.option("--vary", "vary", multiple=True, required=True, metavar="PATH=V1,V2,...|PATH=A..B[:STEP]",
              help="A data path (as for --set) or options.NAME and its values; several --vary make a grid.")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Simulated games per variant and player count.")
@click.option("--players", "players", type=click.IntRange(min=1), multiple=True,
              help="Player count to simulate (repeatable; default: every count the engine supports).")
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Base seed; every variant plays the same seeds."
)
@click.option("--jobs", type=click.IntRange(min=0), default=0, help="Worker processes (default: every core).")
@cluster_option
@change_options
@click.option("--bots", default=None, metavar="NAME[,NAME...]",
              help="Play every game with this bot in every seat (e.g. lookahead:16), or one per seat with "
                   "one --players; default: the validator's greedy/random mix.")
@click.option("--name", default=None, help="Names build/<game>/sweep-<name>.pdf (default: the varied names).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every figure of every variant to this JSON file.")
@click.pass_context
@quiet_aware
def sweep_cmd(
    ctx: click.Context,
    game_id: str,
    vary: tuple[str, ...],
    n_games: int,
    players: tuple[int, ...],
    seed: int,
    jobs: int,
    cluster: str | None,
    options: tuple[str, ...],
    sets: tuple[str, ...],
    name: str | None,
    report_path: Path | None,
    bots: str | None,
) -> None:
    """Play every variant of GAME and compare them; e.g. --vary settings.hand_limit=8,10,12 --vary
    toppings.pepperoni.copies=10..14.

    Each variant is checked like a build first; one that breaks a check is reported and not played. Writes
    build/<game>/sweep-<name>.pdf (a chart per metric with 95% intervals) and, with --report, a JSON file. The
    results depend only on --seed, not on --jobs or --cluster.
    """
    from generator.core.errors import InputError, Problem
    from generator.pipeline.changes import Changes
    from generator.pipeline.sweep import sweep
    from generator.validator.cluster import executor_for
    from generator.validator.simulate import SimSettings
    from generator.validator.sweep_report import table

    project = project_of(ctx)
    (game,) = project.select([game_id])
    settings = SimSettings(games=n_games, seed=seed, players=tuple(players), jobs=jobs)
    bars = []

    def start(total: int, workers: int) -> None:
        if sys.stderr.isatty():
            bars.append(
                click.progressbar(
                    length=total, label=f"Playing {total} games on {workers} workers", file=sys.stderr
                )
            )
            bars[0].__enter__()

    executor = executor_for(jobs, cluster) if cluster else None
    try:
        result = sweep(
            project,
            game,
            list(vary),
            settings,
            Changes(tuple(options), tuple(sets)),
            executor=executor,
            name=name,
            report_path=report_path,
            on_start=start,
            progress=lambda n: bars and bars[0].update(n),
            announce=click.echo,
            bots=tuple(b.strip() for b in (bots or "").split(",") if b.strip()),
        )
    finally:
        if bars:
            bars[0].__exit__(None, None, None)
        if executor is not None:
            executor.close()
    for line in table(result.report):
        click.echo(line)
    if result.games_played:
        click.echo(
            f"Played {result.games_played} games of {result.simulated} "
            f"variant{'s' if result.simulated != 1 else ''} in {result.seconds:.1f} s "
            f"({result.games_played / max(result.seconds, 1e-9):.0f} games/s, {result.where})"
        )
    for variant in result.variants:
        if variant.status != "simulated":
            click.echo(f"--  {variant.label}: {variant.status}, not simulated:")
            for problem in variant.problems:
                click.echo(f"      {problem}")
    for finding in result.findings:
        click.echo(f"BAD {finding}")
    if result.pdf_path is not None:
        click.echo(f"sweep report: {project.show(result.pdf_path)}")
    if result.report_path is not None:
        click.echo(f"figures written to {project.show(result.report_path)}")
    if not result.simulated:
        raise InputError(
            Problem("", 0, "no variant could be simulated: every one breaks a check or cannot set up")
        )
