"""`pnp watch`: build, then rebuild whenever a file under cards/ or templates/ is saved (incremental
builds)."""

from __future__ import annotations

import threading
from pathlib import Path

import click

from generator.cli.build import echo_stale, echo_warnings
from generator.cli.common import PAPER_HELP, debugging, papers_of, project_of


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
@click.option("--paper", multiple=True, metavar="PAPER", help=PAPER_HELP)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/).")
@click.option("--timeout", type=float, default=None, hidden=True, help="Stop after SECONDS (for tests).")
@click.option(
    "--max-rebuilds", type=int, default=None, hidden=True, help="Stop after N rebuilds (for tests)."
)
@click.option(
    "--debounce", type=int, default=300, hidden=True, help="Milliseconds to group the saves of an edit."
)
@click.pass_context
def watch_cmd(ctx, games, paper, out_dir, timeout, max_rebuilds, debounce) -> None:
    """Build the games, then rebuild what changed each time a file under cards/ or templates/ is saved."""
    from generator.core.contract import BuildOptions
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
        BuildOptions(papers=papers_of(paper), papers_from_game=not paper, out_dir=out_dir),
        _Printer(project),
        stop=stop,
        debounce_ms=debounce,
        max_rebuilds=max_rebuilds,
        debug=debugging(ctx),
    )
    click.echo("Stopped watching.")
