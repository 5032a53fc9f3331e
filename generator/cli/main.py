"""The `pnp` command line: a click group whose commands are thin layers over the library functions."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import click

from generator import __version__
from generator.cli.common import PnpGroup
from generator.data.project import find_project

# command -> the module and function that define it, imported only when that command runs (or help lists it):
# `pnp build` with nothing to do does not pay for importing the studio, the exports or the validator.
COMMANDS = {
    "validate": ("generator.cli.validate", "validate_cmd"),
    "sweep": ("generator.cli.sweep", "sweep_cmd"),
    "build": ("generator.cli.build", "build_cmd"),
    "replay": ("generator.cli.replay", "replay_cmd"),
    "export": ("generator.cli.export", "export_cmd"),
    "preview": ("generator.cli.preview", "preview_cmd"),
    "new": ("generator.cli.new", "new_cmd"),
    "watch": ("generator.cli.watch", "watch_cmd"),
    "serve": ("generator.cli.serve", "serve_cmd"),
    "list": ("generator.cli.info", "list_cmd"),
    "schema": ("generator.cli.info", "schema_cmd"),
    "i18n": ("generator.cli.i18n", "i18n_cmd"),
    "preflight": ("generator.cli.preflight", "preflight_cmd"),
}


class LazyPnpGroup(PnpGroup):
    """The `pnp` group with its commands imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:  # noqa: ARG002 - click.Group override
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:  # noqa: ARG002 - click API
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return self.commands.get(name)


@click.group(cls=LazyPnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--project", "project_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder holding cards/ and templates/ (default: the current folder).")
@click.option(
    "--debug", is_flag=True, help="Show the traceback of an error in pnp itself (for a bug report)."
)
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None, debug: bool) -> None:
    """Turn game data in YAML into print-ready PDFs, and prove the decks work by playing them.

    Work happens on the project in the current folder (its cards/<game>/ folders) or the one given with
    --project. Exit code 0: all good; 1: problems (each printed as file:line: what, expected), or an error of
    pnp itself.
    """
    ctx.meta["pnp.debug"] = debug
    ctx.obj = find_project(project_dir)



def main() -> None:
    """Entry point of the `pnp` console script; it ends through click's sys.exit, as any Python program."""
    try:
        cli(prog_name="pnp")
    # `pnp list | head`: the reader left; say nothing more (Python's documented recipe)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(1)


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
