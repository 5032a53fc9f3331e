"""`pnp watch`: build, then rebuild whenever a file under cards/ or templates/ is saved (incremental
builds)."""

from __future__ import annotations

import threading

import click

from generator.cli.build import build_options, echo_stale, echo_warnings, sheet_options
from generator.cli.common import debugging, project_of


class _Printer:
    """Prints what the watcher reports."""

    def __init__(self, project):
        self.project = project

    def wrote(self, output) -> None:
        click.echo(f"  wrote {output.path}")

    def built(self, result, seconds: float) -> None:
        echo_warnings(result)
        echo_stale(result, self.project.show(self.project.build_dir))
        click.echo(f"{len(result.written)} file{'s' if len(result.written) != 1 else ''} written, "
                   f"{len(result.skipped)} up to date ({seconds:.1f} s). Waiting for changes...")

    def failed(self, problems) -> None:
        for problem in problems:
            click.echo(str(problem), err=True)
        count = len(problems)
        click.echo(f"{count} problem{'s' if count != 1 else ''} found; the last good outputs are kept. "
                   "Waiting for the next change...", err=True)

    def watching(self, roots) -> None:
        click.echo(f"Watching {', '.join(self.project.show(r) for r in roots)} (Ctrl+C to stop)")

    def changed(self, paths) -> None:
        click.echo(f"changed: {', '.join(paths)}")


@click.command("watch")
@click.argument("games", nargs=-1)
@sheet_options
@click.option("--timeout", type=float, default=None, hidden=True, help="Stop after SECONDS (for tests).")
@click.option(
    "--max-rebuilds", type=int, default=None, hidden=True, help="Stop after N rebuilds (for tests)."
)
@click.option(
    "--debounce", type=int, default=300, hidden=True, help="Milliseconds to group the saves of an edit."
)
@click.pass_context
def watch_cmd(ctx, games, timeout, max_rebuilds, debounce, **sheet) -> None:
    """Build the games, then rebuild what changed each time a file under cards/ or templates/ is saved.

    Takes the sheet options of `pnp build` (--paper, --duplex, --gap, --marks, --pack, --ink, ...)."""
    from generator.pipeline.watch import watch

    project = project_of(ctx)
    names = project.select(games)  # unknown game names fail at once
    stop = threading.Event()
    if timeout is not None:
        timer = threading.Timer(timeout, stop.set)
        timer.daemon = True
        timer.start()
    watch(
        project,
        names,
        build_options(**sheet),
        _Printer(project),
        stop=stop,
        debounce_ms=debounce,
        max_rebuilds=max_rebuilds,
        debug=debugging(ctx),
    )
    click.echo("Stopped watching.")
