"""What every `pnp` command shares: the project it works on and how problems are printed."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import sys
import traceback
from pathlib import Path

import click

from generator.core.errors import DEBUG_HINT, InputError, internal_error_line
from generator.data.project import Project

# A line's leading mark -> its colour on a terminal that shows colour (never with NO_COLOR set, nor into a
# file or pipe: click drops the codes there)
MARKS = (("OK ", "green"), ("BAD", "red"), ("-- ", "cyan"), ("warning:", "yellow"))


def colour_allowed() -> bool | None:
    """False when the NO_COLOR convention asks for plain text; None lets click decide (a terminal or not)."""
    return False if os.environ.get("NO_COLOR") else None


def say(line: str = "", err: bool = False) -> None:
    """Print a line, its leading mark (OK, BAD, --, warning:) coloured where colour is shown."""
    for mark, colour in MARKS:
        if line.startswith(mark):
            line = click.style(mark, fg=colour, bold=True) + line[len(mark):]
            break
    click.echo(line, err=err, color=colour_allowed())


def say_problem(problem) -> None:
    """A located problem on stderr, its place (file:line) in bold red where colour is shown."""
    text = str(problem)
    where = text.split(": ", 1)
    if problem.file and len(where) == 2:
        text = click.style(where[0] + ":", fg="red", bold=True) + " " + where[1]
    click.echo(text, err=True, color=colour_allowed())


def fail(exc: InputError) -> None:
    """Print every problem (no traceback) and exit 1."""
    for problem in exc.problems:
        say_problem(problem)
    count = len(exc.problems)
    click.echo(click.style(f"{count} problem{'s' if count != 1 else ''} found.", fg="red", bold=True),
               err=True, color=colour_allowed())
    sys.exit(1)


def verbosity(ctx: click.Context) -> int:
    """-1 with `pnp --quiet`, 1 with `pnp --verbose`, else 0."""
    return int(ctx.find_root().meta.get("pnp.verbosity", 0))


def quiet_aware(command):
    """A command whose report on stdout `pnp --quiet` leaves out (problems and warnings still go to
    stderr, and the exit code says how it went)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        if verbosity(click.get_current_context()) < 0:
            with contextlib.redirect_stdout(io.StringIO()):
                return command(*args, **kwargs)
        return command(*args, **kwargs)

    return run


def debugging(ctx: click.Context) -> bool:
    """True with `pnp --debug` (or PNP_DEBUG=1): errors of pnp itself show their traceback."""
    return bool(ctx.find_root().meta.get("pnp.debug")) or os.environ.get("PNP_DEBUG", "") not in ("", "0")


class PnpGroup(click.Group):
    """A click group that turns InputError into located messages and exit code 1; an error of pnp itself
    becomes one line with the hint to run with --debug (which shows the traceback)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(exc)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except OSError as exc:  # a path no check caught (e.g. --out into a file), a full disk, a closed pipe
            if debugging(ctx) and exc.errno != errno.EPIPE:
                raise
            if exc.errno == errno.EPIPE or _writing_output(exc):
                _quiet_output()
            _say(os_error_line(exc, project_of(ctx)))
            sys.exit(1)
        except Exception as exc:
            if debugging(ctx):
                raise
            click.echo(internal_error_line(exc), err=True)
            sys.exit(1)


def os_error_line(exc: OSError, project: Project | None) -> str:
    """One honest line for an error the operating system reported: a closed pipe, the output that could not be
    written, or the path that could not be read or written and why."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.EPIPE:
        return ("pnp: stopped: the program reading pnp's output closed it before the end (broken pipe); "
                "the command did not finish")
    if _writing_output(exc):
        return f"pnp: could not write to its output: {reason}; the command did not finish"
    paths = [p for p in (exc.filename, exc.filename2) if p is not None]
    if not paths:
        return f"pnp: the system refused to read or write a file: {reason} ({DEBUG_HINT})"
    shown = " -> ".join(project.show(Path(os.fsdecode(p))) if project else os.fsdecode(p) for p in paths)
    return f"{shown}: {reason}; expected a file or folder pnp may read and write"


def _writing_output(exc: BaseException) -> bool:
    """True when the error came from printing to the terminal, a pipe or a redirected file (click.echo)."""
    return any(frame.f_code.co_name == "echo" and "click" in frame.f_code.co_filename
               for frame, _ in traceback.walk_tb(exc.__traceback__))


def _quiet_output() -> None:
    """Point stdout at /dev/null so the interpreter's last flush does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _say(line: str) -> None:
    """A line on stderr, if stderr can still be written."""
    try:
        click.echo(line, err=True)
    except (OSError, ValueError):
        pass


def project_of(ctx: click.Context) -> Project:
    """The project the command works on."""
    return ctx.find_root().obj


PAPER_HELP = ("Paper of the home-print sheets: letter, a4, both (letter and a4), legal, tabloid, a3 or a "
              "size WIDTHxHEIGHT with its unit, e.g. 300x450mm (repeatable; default: the game's `paper:`, "
              "else both).")


def papers_of(paper: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """The papers named by --paper values (letter, a4, both, legal, tabloid, a3 or WxH<unit>; none: letter
    and a4); an InputError of one line for a paper that cannot be."""
    from generator.core.errors import InputError, Problem
    from generator.core.geometry import PaperError, paper_key

    values = (paper,) if isinstance(paper, str) else tuple(paper or ())
    names: list[str] = []
    for value in values or ("both",):
        for name in ("letter", "a4") if value.strip().lower() == "both" else (value.strip().lower(),):
            try:
                names.append(paper_key(name))
            except PaperError as exc:
                raise InputError(Problem("", 0, f"--paper: {exc}")) from None
    return tuple(dict.fromkeys(names))


def change_options(command):
    """`--option NAME=VALUE` and `--set PATH=VALUE` (both repeatable), shared by validate, replay and
    sweep."""
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
