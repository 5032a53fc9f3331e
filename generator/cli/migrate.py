"""`pnp migrate [GAME...]`: rewrite keys that were renamed to their new names, in place."""

from __future__ import annotations

import click

from generator.cli.common import project_of, quiet_aware


@click.command("migrate")
@click.argument("games", nargs=-1)
@click.pass_context
@quiet_aware
def migrate_cmd(ctx: click.Context, games: tuple[str, ...]) -> None:
    """Rewrite the old names of renamed keys (game.yaml `components:` is now `extras:`) in place.

    Only the key's name changes: comments, order and spacing are kept. A game with nothing to change is left
    as it is.
    """
    from generator.core.yamlio import load_yaml
    from generator.data.renames import migrate_file

    project = project_of(ctx)
    changed = 0
    for name in project.select(games):
        path = project.cards_dir / name / "game.yaml"
        if not path.is_file():
            continue
        shown = project.show(path)
        for line in migrate_file(path, load_yaml(path, shown), shown):
            click.echo(f"  {line}")
            changed += 1
    click.echo(f"{changed} renamed key{'s' if changed != 1 else ''} rewritten" if changed else
               "Nothing to migrate: every key has its current name.")
