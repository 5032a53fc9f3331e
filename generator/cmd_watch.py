"""`pnp watch`: build, then rebuild whenever a file under cards/ or templates/ is saved (incremental builds).

Broken data is reported like `pnp build` reports it and the watcher keeps running; since a build checks
everything before writing and every output is written atomically, the last good PDFs stay in place meanwhile.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import click

from generator.cli import project_of
from generator.cmd_build import echo_warnings


def _build_once(project, games: tuple[str, ...], options) -> bool:
    """One incremental build of the selected games; prints what happened, never raises on bad input."""
    from generator.build import build
    from generator.errors import InputError

    started = time.perf_counter()
    try:
        result = build(project, project.select(games), options,
                       progress=lambda o: click.echo(f"  wrote {o.path}"))
    except InputError as exc:
        for problem in exc.problems:
            click.echo(str(problem), err=True)
        count = len(exc.problems)
        click.echo(f"{count} problem{'s' if count != 1 else ''} found; the last good outputs are kept. "
                   "Waiting for the next change...", err=True)
        return False
    echo_warnings(result)
    elapsed = time.perf_counter() - started
    click.echo(f"{len(result.written)} file{'s' if len(result.written) != 1 else ''} written, {len(result.skipped)} up to date ({elapsed:.1f} s). "
               "Waiting for changes...")
    return True


SOURCE_SUFFIXES = (".yaml", ".yml", ".j2", ".md", ".svg", ".png", ".jpg", ".jpeg")


def _is_source(path: Path) -> bool:
    """A file a build reads; editors' swap, backup and temporary files are not."""
    return path.suffix.lower() in SOURCE_SUFFIXES and not path.name.startswith((".", "~"))


def _relevant(project, changes) -> list[str]:
    """The changed paths a build reads (cards/ and templates/), shown relative to the project."""
    roots = (project.cards_dir.resolve(), project.templates_dir.resolve())
    shown = []
    for _change, name in changes:
        path = Path(name).resolve()
        if any(path.is_relative_to(root) for root in roots) and _is_source(path):
            shown.append(project.show(path))
    return sorted(set(shown))


@click.command("watch")
@click.argument("games", nargs=-1)
@click.option("--paper", type=click.Choice(["letter", "a4", "both"]), default="both", show_default=True,
              help="Paper size of the home-print sheets.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: build/).")
@click.option("--timeout", type=float, default=None, hidden=True, help="Stop after SECONDS (for tests).")
@click.option("--max-rebuilds", type=int, default=None, hidden=True, help="Stop after N rebuilds (for tests).")
@click.option("--debounce", type=int, default=300, hidden=True, help="Milliseconds to group the saves of an edit.")
@click.pass_context
def watch_cmd(ctx, games, paper, out_dir, timeout, max_rebuilds, debounce) -> None:
    """Build the games, then rebuild what changed each time a file under cards/ or templates/ is saved."""
    from watchfiles import watch

    from generator.build import BuildOptions

    project = project_of(ctx)
    project.select(games)  # unknown game names fail at once
    papers = ("letter", "a4") if paper == "both" else (paper,)
    options = BuildOptions(papers=papers, out_dir=out_dir)
    _build_once(project, games, options)
    stop = threading.Event()
    if timeout is not None:
        timer = threading.Timer(timeout, stop.set)
        timer.daemon = True
        timer.start()
    roots = [str(p) for p in (project.cards_dir, project.templates_dir) if p.is_dir()]
    click.echo(f"Watching {', '.join(project.show(Path(r)) for r in roots)} (Ctrl+C to stop)")
    rebuilds = 0
    for changes in watch(*roots, stop_event=stop, debounce=debounce, step=50, rust_timeout=200,
                         raise_interrupt=False):
        changed = _relevant(project, changes)
        if not changed:
            continue
        click.echo(f"changed: {', '.join(changed)}")
        _build_once(project, games, options)
        rebuilds += 1
        if max_rebuilds is not None and rebuilds >= max_rebuilds:
            break
    click.echo("Stopped watching.")
