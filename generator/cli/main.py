"""The `pnp` command line: a click group whose commands are thin layers over the library functions."""

from __future__ import annotations

import atexit
import importlib
import os
import sys
import threading
from pathlib import Path
from typing import NoReturn

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
}


class LazyPnpGroup(PnpGroup):
    """The `pnp` group with its commands imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return self.commands.get(name)


@click.group(cls=LazyPnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
@click.option("--project", "project_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder holding cards/ and templates/ (default: the current folder).")
@click.option("--debug", is_flag=True, help="Show the traceback of an error in pnp itself (for a bug report).")
@click.pass_context
def cli(ctx: click.Context, project_dir: Path | None, debug: bool) -> None:
    """Turn game data in YAML into print-ready PDFs, and prove the decks work by playing them.

    Work happens on the project in the current folder (its cards/<game>/ folders) or the one given with --project.
    Exit code 0: all good; 1: problems (each printed as file:line: what, expected), or an error of pnp itself.
    """
    ctx.meta["pnp.debug"] = debug
    ctx.obj = find_project(project_dir)



def main() -> None:
    """Entry point of the `pnp` console script."""
    from generator.core import codecache

    codecache.install()  # dataclasses' and typing's code compiled once across runs (before they are imported)
    try:
        cli(prog_name="pnp")
    except BrokenPipeError:  # `pnp list | head`: the reader left; say nothing more (Python's documented recipe)
        _silence_stdout()
        sys.exit(1)
    except SystemExit as done:  # click ends every command this way
        leave(done.code)


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def leave(code: object) -> NoReturn:
    """End the process with `code` as sys.exit does, without Python's teardown of every module and object (some
    0.1 s after a build has loaded a game and drawn): the exit handlers run and the output is flushed first. With
    another thread still running, or under a profiler or debugger (which reports when the program returns), the
    ordinary exit is taken."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # as sys.exit("message"): the message on stderr, status 1
        print(code, file=sys.stderr)
        status = 1
    watched = sys.getprofile() is not None or sys.gettrace() is not None
    if watched or threading.active_count() > 1 or not hasattr(atexit, "_run_exitfuncs"):
        sys.exit(status)
    atexit._run_exitfuncs()  # what the ordinary exit would run (multiprocessing's, logging's...)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader left (`pnp list | head`)
            status = status or 1
        except (OSError, ValueError):  # a full disk or a closed stream: Python's own exit says 120
            status = status or 120
    os._exit(status)
