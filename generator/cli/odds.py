"""`pnp odds`: the exact deck odds of a game's goals (recipes, orders, sets), counted from its deck data."""

from __future__ import annotations

import sys

import click

from generator.cli.common import change_options, project_of


def _draw_counts(ctx, param, value: str) -> tuple[int, ...]:  # noqa: ARG001 - click callback
    try:
        counts = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        counts = ()
    if not counts or min(counts) < 0:
        raise click.BadParameter(f"'{value}'; expected draw counts >= 0 separated by commas, e.g. 1,5,10")
    return counts


@click.command("odds")
@click.argument("game_id", metavar="GAME")
@click.option("--players", "players", type=click.IntRange(min=1), multiple=True,
              help="Player count (repeatable; default: every count the engine declares a deal for).")
@click.option("--draws", default="1,3,5,10,15,20", show_default=True, callback=_draw_counts,
              help="The 'complete within N draws' columns, comma-separated.")
@click.option("--json", "as_json", is_flag=True, help="Print every figure as JSON instead of tables.")
@change_options
@click.pass_context
def odds_cmd(ctx: click.Context, game_id: str, players: tuple[int, ...], draws: tuple[int, ...],
             as_json: bool, options: tuple[str, ...], sets: tuple[str, ...]) -> None:
    """Print the exact chance that an opening hand holds each goal the engine declares, that it is complete
    within N draws at each player count, the expected draws to complete it, and the chance to see each card
    in the opening hand; exit 1 if a goal can never be completed (located at its card).

    Counted from the deck data, no simulation; --set/--option show what a change does. Example:
    pnp odds short-order-hero --set ingredients.egg.copies=20
    """
    from generator.core.errors import InputError, Problem, Problems
    from generator.data.checks import check_data
    from generator.data.load import load_game
    from generator.engines.registry import engine_for, engine_origin
    from generator.pipeline.changes import Changes, rule_options
    from generator.validator.odds import game_odds, no_goals_line, odds_lines, to_json

    project = project_of(ctx)
    changes = Changes(options=tuple(options), sets=tuple(sets))
    # the data and its references, as every command checks them (the drawing and composition checks are
    # build's and validate's: odds only count cards)
    (name,) = project.select([game_id])
    game = load_game(project, name, changes.overrides())
    found = Problems()
    check_data(game, found)
    found.raise_if_any()
    origin = engine_origin(game)
    if origin is not None:  # said before the project's Python is imported, as every command that plays does
        click.echo(f"{game.id}: running its rules engine, the project's own Python in {origin}", err=True)
    engine = engine_for(game)
    rules = rule_options(game, engine, changes) if engine is not None else {}
    figures, problems = game_odds(game, engine, rules, players, draws)
    if figures is None:
        click.echo(no_goals_line(game.id, engine), err=True)
        sys.exit(1)
    if players and not figures["player_counts"]:
        declared = ", ".join(map(str, figures["declared_player_counts"]))
        raise InputError(Problem("", 0, f"--players {', '.join(map(str, players))}: {game.id} declares deals "
                                        f"for {declared} players; expected one of those"))
    if as_json:
        click.echo(to_json(figures), nl=False)
    else:
        click.echo(f"{game.title}: exact deck odds")
        for line in odds_lines(figures):
            click.echo(line)
    if problems:
        raise InputError(problems)
