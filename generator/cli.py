"""The `pnp` command line: thin commands over the stage modules."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator import __version__
from generator.errors import InputError, Problem
from generator.project import Project, find_project


def fail(exc: InputError) -> None:
    """Print every problem (no traceback) and exit 1."""
    for problem in exc.problems:
        click.echo(str(problem), err=True)
    count = len(exc.problems)
    click.echo(f"{count} problem{'s' if count != 1 else ''} found.", err=True)
    sys.exit(1)


class PnpGroup(click.Group):
    """A click group that turns InputError (and a folder it cannot write) into located messages and exit code 1."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(exc)
        except OSError as exc:  # e.g. --out pointing into a file or a read-only folder
            where = exc.filename if exc.filename is not None else ""
            reason = exc.strerror or str(exc)
            fail(InputError(Problem(str(where), 0, f"{reason}; expected a folder that can be created and written")))


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--project", "project_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder holding cards/ and templates/ (default: the current folder).")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None) -> None:
    """Turn game data in YAML into print-ready PDFs, and prove the decks work by playing them.

    Work happens on the project in the current folder (its cards/<game>/ folders) or the one given with --project.
    """
    ctx.obj = find_project(project_dir)


def project_of(ctx: click.Context) -> Project:
    """The project the command works on."""
    return ctx.find_root().obj


@cli.command("list")
@click.argument("games", nargs=-1)
@click.pass_context
def list_cmd(ctx: click.Context, games: tuple[str, ...]) -> None:
    """Show each game's components with counts (the list a rulebook prints)."""
    from generator.build import gather
    from generator.components import format_component_list

    project = project_of(ctx)
    loaded, _ = gather(project, project.select(games))
    click.echo("\n\n".join(format_component_list(game) for game in loaded))


@cli.command("schema")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the .schema.json files (default: build/schema).")
@click.pass_context
def schema_cmd(ctx: click.Context, out_dir: Path | None) -> None:
    """Write JSON Schemas of the YAML files for editor autocompletion and checking."""
    from generator.build import gather
    from generator.schema import write_schemas

    project = project_of(ctx)
    games, _ = gather(project, project.select(())) if project.game_ids() else ([], [])
    out = out_dir or project.build_dir / "schema"
    for path in write_schemas(out, games):
        click.echo(project.show(path))


def main() -> None:
    """Entry point of the `pnp` console script."""
    from generator import commands  # noqa: F401  (registers validate, build, ...)

    cli(prog_name="pnp")
