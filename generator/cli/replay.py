"""`pnp replay`: print the log of one seeded game, e.g. a stalled game reported by `pnp validate`."""

from __future__ import annotations

import sys

import click

from generator.cli.common import change_options, project_of


@click.command("replay")
@click.argument("game_id", metavar="GAME")
@click.option("--seed", type=int, required=True, help="The game's seed (as printed by pnp validate).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="Player count (default: the engine's smallest).")
@click.option("--bots", default="greedy", show_default=True,
              help="Bot per seat, comma-separated (greedy,random,lookahead:16); a single name plays every "
                   "seat.")
@change_options
@click.pass_context
def replay_cmd(ctx: click.Context, game_id: str, seed: int, players: int | None, bots: str,
               options: tuple[str, ...], sets: tuple[str, ...]) -> None:
    """Play one game from SEED with the validator's harness and print its log; exit 1 if the game failed.

    Pass the same --option/--set as the validate or sweep run that reported the seed."""
    from generator.core.errors import InputError, Problem, known_list
    from generator.engines.registry import engine_for
    from generator.pipeline.changes import Changes, rule_options
    from generator.pipeline.gather import gather
    from generator.validator.harness import play_game
    from generator.validator.lookahead import bots_problem

    project = project_of(ctx)
    changes = Changes(options=tuple(options), sets=tuple(sets))
    (game,), _ = gather(project, project.select([game_id]), changes.overrides(), engines=True,
                        announce=lambda line: click.echo(line, err=True))
    engine = engine_for(game)
    rules = rule_options(game, engine, changes)
    if engine is None:
        raise InputError(Problem(game.show(game.dir / "game.yaml"), 0,
                                 "this game has no `engine:`; expected one to replay games"))
    players = players or engine.player_counts[0]
    if players not in engine.player_counts:
        raise InputError(
            Problem(
                "",
                0,
                f"{game.id} is played by {', '.join(map(str, engine.player_counts))} players; "
                f"expected --players to be one of those, not {players}",
            )
        )
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise InputError(Problem("", 0, f"unknown bot '{bots}'; known: {known_list(engine.bots)}"))
    wrong = bots_problem(engine, names, lambda: engine.new_state(game, players, {**engine.options, **rules}))
    if wrong:
        raise InputError(Problem("", 0, wrong))
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise InputError(Problem("", 0, f"--bots names {len(names)} bots for {players} players; "
                                        f"expected one name, or one per seat"))
    record = play_game(engine, game, players, seed, names, rules)
    for line in record.log:
        click.echo(line)
    if record.failure:
        click.echo(f"FAILED: {record.failure}", err=True)
        sys.exit(1)
    click.echo(f"Scores {record.scores}; winners {', '.join(f'seat {w}' for w in record.winners)}; "
               f"{record.decisions} decisions")
