"""`pnp new NAME`: scaffold a game that builds and validates out of the box."""

from __future__ import annotations

import click

from generator.cli.common import project_of, quiet_aware


@click.command("new")
@click.argument("name")
@click.option(
    "--title", default=None, help="Title of the game (default: from NAME, 'space-race' -> 'Space Race')."
)
@click.option(
    "--code", default=None, help="Card-code prefix, 2-6 upper-case letters/digits (default: from NAME)."
)
@click.option("--engine", is_flag=True,
              help="Also write a rules engine (engine.py) that plays the sample game, and a scripted game.")
@click.option("--rules", is_flag=True,
              help="Also write the sample game's rules as data (rules.yaml, the rules language), which "
                   "`pnp validate` plays.")
@click.pass_context
@quiet_aware
def new_cmd(ctx, name, title, code, engine, rules) -> None:
    """Create cards/NAME/ with game.yaml, a sample deck and its layouts, and templates/rules/NAME.md.j2.

    With --engine (Python) or --rules (rules.yaml: `pnp docs rules-language`), `pnp validate NAME` plays the
    new game at once: e.g. `pnp new space-race --rules`."""
    from generator.data.scaffold import new_game

    project = project_of(ctx)
    for path in new_game(project, name, title, code, engine, rules):
        click.echo(f"  created {project.show(path)}")
    from generator.pipeline.editor import write_editor_files

    # an editor opened on the project checks every file as the designer types (pnp build keeps it current)
    for path in write_editor_files(project).changed:
        click.echo(f"  wrote {project.show(path)}")
    then = f" (and its rules in cards/{name}/engine.py)" if engine else \
        f" (and its rules in cards/{name}/rules.yaml)" if rules else ""
    click.echo(
        f"Next: edit cards/{name}/actions.yaml{then}, then `pnp validate {name}` and `pnp build {name}`."
    )
