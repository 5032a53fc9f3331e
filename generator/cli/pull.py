"""`pnp pull [GAME...]`: download every live sheet (`cards_from: {url:, cache:}`) into its cache file."""

from __future__ import annotations

import click

from generator.cli.common import project_of


def pull_games(project, names: list[str]) -> None:
    """Pull the live sheets of the named games, one line per sheet; InputError with every sheet that could not
    be pulled (their last good caches are kept)."""
    from generator.core.errors import InputError, Problems
    from generator.data.live_sheets import pull_game

    problems = Problems()
    for name in names:
        try:
            for sheet, changed in pull_game(project, name):
                click.echo(f"  pulled {sheet.shown} from {sheet.url}{'' if changed else ' (unchanged)'}")
        except InputError as exc:
            problems.extend(exc.problems)
    problems.raise_if_any()


@click.command("pull")
@click.argument("games", nargs=-1)
@click.pass_context
def pull_cmd(ctx, games) -> None:
    """Download every live sheet of the games (`cards_from: {url: ..., cache: ...}`) into its cache file.

    Builds, validate and the studio read only the caches, so they work offline; `pnp build --pull` pulls
    first."""
    project = project_of(ctx)
    pull_games(project, project.select(games))
