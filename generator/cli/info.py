"""`pnp list` and `pnp schema`: what the games hold, and JSON Schemas of their files for editors."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import project_of


@click.command("list")
@click.argument("games", nargs=-1)
@click.pass_context
def list_cmd(ctx: click.Context, games: tuple[str, ...]) -> None:
    """Show each game's components with counts (the list a rulebook prints)."""
    from generator.data.inventory import format_inventory
    from generator.pipeline.gather import gather

    project = project_of(ctx)
    loaded, _ = gather(project, project.select(games))
    click.echo("\n\n".join(format_inventory(game) for game in loaded))


@click.command("schema")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the .schema.json files (default: build/schema).")
@click.pass_context
def schema_cmd(ctx: click.Context, out_dir: Path | None) -> None:
    """Write JSON Schemas of the YAML files for editor autocompletion and checking."""
    from generator.pipeline.gather import gather
    from generator.pipeline.schemas import write_all_schemas

    project = project_of(ctx)
    games, _ = gather(project, project.select(())) if project.game_ids() else ([], [])
    out = out_dir or project.build_dir / "schema"
    for path in write_all_schemas(out, games):
        click.echo(project.show(path))
