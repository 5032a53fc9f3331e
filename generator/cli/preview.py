"""`pnp preview`: a contact sheet PNG per deck (every card type once, with code and copies)."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import project_of, quiet_aware


@click.command("preview")
@click.argument("games", nargs=-1)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/).")
@click.pass_context
@quiet_aware
def preview_cmd(ctx, games, out_dir) -> None:
    """Write build/<game>/preview/<deck>.png for a quick look at every card of the games."""
    from generator.exports.preview import write_previews
    from generator.pipeline.gather import gather

    project = project_of(ctx)
    loaded, _ = gather(project, project.select(games))
    for game in loaded:
        for path in write_previews(game, out_dir or project.build_dir):
            click.echo(project.show(path))
