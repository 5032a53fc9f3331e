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
              help="Only write the .schema.json files into this folder (no editor settings).")
@click.pass_context
def schema_cmd(ctx: click.Context, out_dir: Path | None) -> None:
    """Write a JSON Schema for every YAML file of the project, and editor settings mapping each file to it.

    The schemas go to .pnp/schema/, the mapping to .vscode/settings.json (`yaml.schemas`, for VS Code's YAML
    extension; other settings are kept); `pnp build` keeps them current from then on. A game with problems
    gets the generic schemas until it loads. Example: pnp schema, then reopen the folder in VS Code.
    """
    project = project_of(ctx)
    if out_dir is not None:
        from generator.pipeline.gather import gather
        from generator.pipeline.schemas import write_all_schemas

        games, _ = gather(project, project.select(())) if project.game_ids() else ([], [])
        for path in write_all_schemas(out_dir, games):
            click.echo(project.show(path))
        return
    from generator.pipeline.editor import SCHEMA_DIR, SETTINGS, write_editor_files

    done = write_editor_files(project)
    for path in done.changed:
        click.echo(f"  wrote {project.show(path)}")
    for problem in done.problems:
        click.echo(f"warning: {problem}", err=True)
    broken = f"; games with problems get the generic schemas until they load ({len(done.problems)} " \
        "problems above)" if done.problems else ""
    click.echo(f"Schemas in {SCHEMA_DIR.as_posix()}/, mapped to every file in {SETTINGS.as_posix()}"
               f"{'' if done.changed else ' (already current)'}{broken}.")
