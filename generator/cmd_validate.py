"""`pnp validate`: static checks of every game (the simulation joins here later)."""

from __future__ import annotations

import click

from generator.cli import project_of


@click.command("validate")
@click.argument("games", nargs=-1)
@click.pass_context
def validate_cmd(ctx: click.Context, games: tuple[str, ...]) -> None:
    """Check every game's data and deck composition (all games by default)."""
    from generator.build import gather

    project = project_of(ctx)
    _, reports = gather(project, project.select(games))
    for report in reports:
        click.echo(f"OK  {report.game}: {report.cards} cards in {report.decks} decks ({report.card_types} card types); "
                   f"{len(report.checks)} checks passed")
        for name in report.checks:
            click.echo(f"      - {name}")
