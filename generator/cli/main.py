"""The `pnp` command line: a click group whose commands are thin layers over the library functions."""

from __future__ import annotations

from pathlib import Path

import click

from generator import __version__
from generator.cli.build import build_cmd
from generator.cli.common import PnpGroup
from generator.cli.export import export_cmd
from generator.cli.info import list_cmd, schema_cmd
from generator.cli.new import new_cmd
from generator.cli.preview import preview_cmd
from generator.cli.replay import replay_cmd
from generator.cli.serve import serve_cmd
from generator.cli.sweep import sweep_cmd
from generator.cli.validate import validate_cmd
from generator.cli.watch import watch_cmd
from generator.data.project import find_project


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


for command in (validate_cmd, sweep_cmd, build_cmd, replay_cmd, export_cmd, preview_cmd, new_cmd, watch_cmd, serve_cmd,
                list_cmd, schema_cmd):
    cli.add_command(command)


def main() -> None:
    """Entry point of the `pnp` console script."""
    cli(prog_name="pnp")
