"""What every `pnp` command shares: the project it works on and how problems are printed."""

from __future__ import annotations

import os
import sys

import click

from generator.core.errors import InputError, Problem, internal_error_line
from generator.data.project import Project


def fail(exc: InputError) -> None:
    """Print every problem (no traceback) and exit 1."""
    for problem in exc.problems:
        click.echo(str(problem), err=True)
    count = len(exc.problems)
    click.echo(f"{count} problem{'s' if count != 1 else ''} found.", err=True)
    sys.exit(1)


def debugging(ctx: click.Context) -> bool:
    """True with `pnp --debug` (or PNP_DEBUG=1): errors of pnp itself show their traceback."""
    return bool(ctx.find_root().meta.get("pnp.debug")) or os.environ.get("PNP_DEBUG", "") not in ("", "0")


class PnpGroup(click.Group):
    """A click group that turns InputError into located messages and exit code 1; an error of pnp itself becomes
    one line with the hint to run with --debug (which shows the traceback)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(exc)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, BrokenPipeError):
            raise
        except OSError as exc:  # a path pnp could not read or write that no check caught (e.g. --out into a file)
            if debugging(ctx):
                raise
            where = exc.filename if exc.filename is not None else ""
            reason = exc.strerror or str(exc)
            fail(InputError(Problem(str(where), 0, f"{reason}; pnp could not read or write this path")))
        except Exception as exc:
            if debugging(ctx):
                raise
            click.echo(internal_error_line(exc), err=True)
            sys.exit(1)


def project_of(ctx: click.Context) -> Project:
    """The project the command works on."""
    return ctx.find_root().obj


def papers_of(paper: str) -> tuple[str, ...]:
    """The papers named by a --paper choice (letter, a4 or both)."""
    return ("letter", "a4") if paper == "both" else (paper,)


def change_options(command):
    """`--option NAME=VALUE` and `--set PATH=VALUE` (both repeatable), shared by validate, replay and sweep."""
    command = click.option("--set", "sets", multiple=True, metavar="PATH=VALUE",
                           help="Change the game's data as loaded, never the files (repeatable), e.g. "
                                "toppings.pepperoni.copies=14 or settings.target=60.")(command)
    return click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
                        help="Set a rule option of the engine (repeatable); list them with "
                             "pnp validate --list-options GAME.")(command)


def cluster_option(command):
    """`--cluster ADDRESS`: play the simulated games on a Dask cluster instead of local processes."""
    return click.option("--cluster", default=None, metavar="tcp://HOST:PORT|local:N",
                        help="Play the games on a Dask cluster: a running scheduler, or local:N to start N "
                             "workers here (needs pip install 'pnp-forge[cluster]').")(command)
