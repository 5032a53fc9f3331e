"""`pnp validate`: static checks, then every scripted game, then seeded simulations of every game."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import click

from generator.cli.common import change_options, cluster_option, project_of, say, verbosity
from generator.core.words import counted
from generator.pipeline.ci_report import FORMATS


@click.command("validate")
@click.argument("games", nargs=-1)
@click.option("--games", "n_games", type=click.IntRange(min=1), default=None,
              help="Simulated games per player count (default: play until every win rate by turn position is "
              "known to ±3 percentage points at 95 %, at most 2000 games per player count).")
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Base seed; each game's seed derives from it."
)
@click.option("--players", "players", type=click.IntRange(min=1), multiple=True,
              help="Player count to simulate (repeatable; default: every count the engine supports).")
@click.option("--jobs", type=click.IntRange(min=0), default=0, help="Worker processes (default: every core).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every balance figure to this JSON file.")
@click.option("--no-sim", is_flag=True, help="Only static checks and scripts; no simulated games.")
@click.option(
    "--no-engine",
    is_flag=True,
    help="Static checks only: import no rules engine (a game's engine is its project's own Python).",
)
@click.option(
    "--engine",
    "engine_source",
    type=click.Choice(["game", "rules"]),
    default="game",
    show_default=True,
    help="rules: play each game from its folder's rules.yaml (the rules language) instead of the engine "
    "game.yaml names.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Warnings (faint or tiny card text, texts not translated) fail the run too.",
)
@click.option(
    "--lang",
    "languages",
    multiple=True,
    metavar="LANGUAGE|all",
    help="Check the games in this language (repeatable; default all: every language game.yaml declares).",
)
@change_options
@cluster_option
@click.option(
    "--format",
    "output_format",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="For CI: github prints ::error annotations at file:line beside the summary; junit, sarif and json "
    "write a test report, a code-scanning log or JSON (to --output, else to stdout instead of the summary).",
)
@click.option("--output", "output_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the --format document to this file (also when validation fails).")
@click.option("--quiet", "-q", is_flag=True, help="Print only problems, warnings and one last line.")
@click.option(
    "--list-options",
    is_flag=True,
    help="Print the rule options of each named game and what --set can change.",
)
@click.option("--strength", is_flag=True,
              help="Also play seat fairness with the lookahead bot (docs/engine-api.md) in every seat, "
                   "beside the greedy figures.")
@click.option("--strength-games", type=click.IntRange(min=1), default=None,
              help="--strength: games per player count (default 20: a game takes seconds).")
@click.option("--lookahead-budget", default=None, metavar="N",
              help="--strength: futures the lookahead bot imagines per decision (default 16).")
@click.pass_context
def validate_cmd(
    ctx: click.Context,
    games: tuple[str, ...],
    n_games: int | None,
    seed: int,
    players: tuple[int, ...],
    jobs: int,
    report_path: Path | None,
    no_sim: bool,
    no_engine: bool,
    strict: bool,
    options: tuple[str, ...],
    sets: tuple[str, ...],
    cluster: str | None,
    list_options: bool,
    languages: tuple[str, ...],
    engine_source: str,
    output_format: str,
    output_path: Path | None,
    quiet: bool,
    strength: bool,
    strength_games: int | None,
    lookahead_budget: str | None,
) -> None:
    """Check every game's data and deck composition, replay its scripts and play it many times (all games by
    default).

    Problems found by playing (a stalled game, a broken rule, a goal never completed, a player count that
    cannot set up) fail the command; balance figures are reported in build/<game>/balance.pdf and with
    --report. With --option/--set (one game) the changed game is checked and played instead; its scripts are
    skipped. --no-engine imports no rules engine (a game's engine is its project's own Python): static checks
    only. In CI, --format github|junit|sarif|json reports every problem where it is (written when
    validation fails too). Example: pnp validate short-order-hero --players 3 --games 500
    """
    from generator.core.errors import InputError
    from generator.pipeline.changes import Changes
    from generator.pipeline.ci_report import Findings, findings_of
    from generator.pipeline.validate import option_lines, validate
    from generator.validator.cluster import executor_for
    from generator.validator.simulate import SimSettings
    from generator.validator.stopping import Stopping

    strength_bot = _strength_bot(strength, strength_games, lookahead_budget)
    project = project_of(ctx)
    if list_options:
        for line in option_lines(project, project.select(games)):
            click.echo(line)
        return
    # without --games: batches until the seat figures are sure enough (validator.stopping)
    settings = SimSettings(games=n_games or SimSettings.games, seed=seed, players=tuple(players), jobs=jobs,
                           stopping=None if n_games else Stopping())
    changes = Changes(options=tuple(options), sets=tuple(sets))
    bars = []

    def start(total: int, workers: int) -> None:
        if bars:  # a stopping rule planned another round
            bars[0].length = total
            return
        if sys.stderr.isatty():
            bars.append(
                click.progressbar(
                    length=total, label=f"Playing {total} games on {workers} workers", file=sys.stderr
                )
            )
            bars[0].__enter__()

    quiet = quiet or verbosity(ctx) < 0  # `pnp --quiet validate` as `pnp validate --quiet`
    # a document on stdout takes the summary's place; --quiet keeps problems and warnings (stderr) only
    hushed = quiet or (output_format not in ("text", "github") and output_path is None)
    summary = (lambda: contextlib.redirect_stdout(io.StringIO())) if hushed else contextlib.nullcontext
    executor = executor_for(jobs, cluster) if cluster and not no_sim and not no_engine else None
    try:
        with summary():
            result = validate(
                project,
                project.select(games),
                settings,
                simulate_games=not no_sim,
                report_path=report_path,
                on_start=start,
                progress=lambda n: bars and bars[0].update(n),
                strict=strict,
                changes=changes,
                executor=executor,
                engines=not no_engine,
                announce=click.echo,
                engine_source=engine_source,
                languages=() if "all" in languages else tuple(dict.fromkeys(languages)),
                strength=strength_bot,
                **({"strength_games": strength_games} if strength_games else {}),
            )
    except InputError as exc:  # the data did not load: the CI document still says why
        _write_document(output_format, output_path, Findings(problems=list(exc.problems), loaded=False))
        raise
    finally:
        if bars:
            bars[0].__exit__(None, None, None)
        if executor is not None:
            executor.close()

    with summary():
        _print_checks(result)
        _print_scripts(result)
        _print_odds(result)
        _print_games(project, result)
    _write_document(output_format, output_path, findings_of(result))
    if result.problems:
        raise InputError(result.problems)
    if quiet:  # beside a document on stdout, the last line goes to stderr
        click.echo(f"OK: {counted(len(result.games), 'game')} validated, no problems",
                   err=output_format not in ("text", "github") and output_path is None)


def _write_document(output_format: str, output_path: Path | None, findings) -> None:
    """The --format document: to its file, or to stdout (github's annotations always go to stdout)."""
    from generator.core.write import atomic_write
    from generator.pipeline.ci_report import render

    if output_format == "text":
        return
    text = render(output_format, findings)
    if output_path is not None and output_format != "github":
        atomic_write(output_path, text)
    else:
        click.echo(text, nl=False)


def _strength_bot(strength: bool, games: int | None, budget: str | None) -> str | None:
    """The bot name `--strength` plays with (None without it); a located line for a bad budget or an option
    given without --strength."""
    from generator.core.errors import InputError
    from generator.validator.lookahead import DEFAULT_BUDGET, BotNameError, checked_budget, lookahead_name

    if not strength:
        if games is not None or budget is not None:
            option = "--strength-games" if games is not None else "--lookahead-budget"
            raise InputError(f"{option} sets up --strength; expected --strength with it")
        return None
    try:
        chosen = DEFAULT_BUDGET if budget is None else checked_budget(budget, f"--lookahead-budget {budget}")
        return lookahead_name(chosen)
    except BotNameError as exc:
        raise InputError(str(exc)) from None


def _print_checks(result) -> None:
    """Each game's static checks, its languages and what --option/--set changed."""
    for entry in result.games:
        report = entry.report
        say(
            f"OK  {report.game}: {counted(report.cards, 'card')} in {counted(report.decks, 'deck')} "
            f"({counted(report.card_types, 'card type')}); {counted(len(report.checks), 'check')} passed"
        )
        for name in report.checks:
            click.echo(f"      - {name}")
        for language, found in entry.languages.items():
            mark = "OK " if found.startswith("translated") else "-- " if "not translated" in found else "BAD"
            say(f"{mark} {report.game} ({language}): {found}")
    for line in result.changes:
        say(f"--  changed: {line}")


def _script_line(entry, changed: bool) -> str:
    if entry.engine_skipped:
        return (f"--  {entry.game}: --no-engine: its rules engine was not imported; scripts and simulation "
                "skipped")
    if not entry.has_engine:
        return f"--  {entry.game}: no `engine:` in game.yaml; scripts and simulation skipped"
    if changed:
        return f"--  {entry.game}: scripts skipped (they pin the game as written; --option/--set change it)"
    return (f"{'OK ' if not entry.scripts_failing else 'BAD'} {entry.game}: "
            f"{entry.scripts - entry.scripts_failing} of {entry.scripts} scripts pass")


def _print_scripts(result) -> None:
    """Each game's scripted games (or why they did not run) and the player counts it does not play."""
    for entry in result.games:
        say(_script_line(entry, bool(result.changes)))
    for entry in result.games:
        if entry.playtests and entry.figures is None:
            say(f"--  {entry.game}: {counted(len(entry.playtests), 'playtest')} checked; compared "
                       "with simulated games when they are played")
    for entry in result.games:
        if entry.unplayed_counts:
            say(
                f"--  {entry.game}: not simulating {', '.join(map(str, entry.unplayed_counts))} players; the "
                f"engine plays {', '.join(map(str, entry.engine_counts))}"
            )


def _print_odds(result) -> None:
    """Whether each game's goals can be completed by the exact deck odds (the odds in brief follow its
    simulation's summary; pnp odds GAME prints them all), or what its engine should declare."""
    for entry in result.games:
        if entry.no_odds:
            click.echo(f"--  {entry.no_odds}")
        if entry.odds is None:
            continue
        goals = len(next(iter(entry.odds["by_players"].values()), {}).get("goals", {}))
        click.echo(f"{'OK ' if not entry.odds_problems else 'BAD'} {entry.game}: deck odds of "
                   f"{counted(goals, 'goal')}, {len(entry.odds_problems)} that can never be completed "
                   f"(pnp odds {entry.game} prints every figure)")


def _print_games(project, result) -> None:
    """The simulated games: how many, each game's failures and balance summary, the reports, the warnings."""
    from generator.validator.odds import summary_lines
    from generator.validator.report import terminal_summary

    if result.games_played:
        rule = result.stopping
        until = (f"; until every win rate by turn position was within ±{100 * rule.half_width:g} pp at 95 % "
                 f"or {rule.cap} games per player count") if rule else ""
        click.echo(f"Played {result.games_played} games in {result.seconds:.1f} s "
                   f"({result.games_played / max(result.seconds, 1e-9):.0f} games/s, {result.where}){until}")
    if result.strength_games:
        click.echo(f"Played {result.strength_games} games with the lookahead bot in every seat (--strength) "
                   f"in {result.strength_seconds:.1f} s")
    for entry in result.games:
        if entry.figures is None:
            continue
        failed = sum(f["failed"] for f in entry.figures["by_players"].values())
        found = entry.sim_problems
        say(f"{'OK ' if not found else 'BAD'} {entry.game}: {failed} failed games, "
                   f"{len(found)} composition problem{'s' if len(found) != 1 else ''}")
        for line in terminal_summary(entry.figures) + (summary_lines(entry.odds) if entry.odds else []):
            click.echo(line)
        click.echo(f"  balance report: {project.show(entry.balance_pdf)}")
    if result.report_path is not None:
        click.echo(f"figures written to {project.show(result.report_path)}")
    for warning in result.warnings:
        say(f"warning: {warning}", err=True)
    if result.warnings:
        click.echo(f"{len(result.warnings)} warning{'s' if len(result.warnings) != 1 else ''} "
                   "(pnp validate --strict fails on them)", err=True)
