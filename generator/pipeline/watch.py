"""`pnp watch` as a library function: build, then rebuild each time a file a build reads is saved.

Broken data is reported (never raised) and the watcher keeps running; since a build checks everything before
writing and every output is written atomically, the last good PDFs stay in place meanwhile.
"""

from __future__ import annotations

import threading
import time
import traceback
from pathlib import Path
from typing import Protocol

from generator.core.contract import BuildOptions, Output
from generator.core.errors import InputError, Problem, internal_error_line
from generator.data.project import Project
from generator.data.project import is_source as is_source_name
from generator.pipeline.build import BuildResult, build


class WatchReport(Protocol):
    """What the watcher tells its caller (the command line prints it)."""

    def wrote(self, output: Output) -> None: ...
    def built(self, result: BuildResult, seconds: float) -> None: ...
    def failed(self, problems: list[Problem]) -> None: ...
    def watching(self, roots: list[Path]) -> None: ...
    def changed(self, paths: list[str]) -> None: ...


def is_source(path: Path) -> bool:
    """A file a build reads (data.project.is_source); editors' swap, backup and temporary files are not."""
    return is_source_name(path.name)


def watched_roots(project: Project) -> list[Path]:
    """The folders whose files a build reads: cards/ and templates/ (those that exist)."""
    return [p for p in (project.cards_dir, project.templates_dir) if p.is_dir()]


def relevant_changes(project: Project, changes) -> list[str]:
    """The changed paths a build reads (under cards/ and templates/), shown relative to the project."""
    roots = (project.cards_dir.resolve(), project.templates_dir.resolve())
    shown = []
    for _change, name in changes:
        path = Path(name).resolve()
        if any(path.is_relative_to(root) for root in roots) and is_source(path):
            shown.append(project.show(path))
    return sorted(set(shown))


def build_once(project: Project, names: list[str], options: BuildOptions, report: WatchReport,
               debug: bool = False) -> bool:
    """One incremental build; reports what happened and returns whether it succeeded. It never raises: bad
    input is reported with file and line, an error of pnp itself as one line (its traceback with `debug`), so
    the watcher goes on and rebuilds once the project is fixed."""
    started = time.perf_counter()
    try:
        result = build(project, names, options, progress=report.wrote)
    except InputError as exc:
        report.failed(exc.problems)
        return False
    except Exception as exc:  # noqa: BLE001 - the watcher must outlive any one build
        text = traceback.format_exc().rstrip() if debug else internal_error_line(exc)
        report.failed([Problem("", 0, text)])
        return False
    report.built(result, time.perf_counter() - started)
    return True


def watch(project: Project, names: list[str], options: BuildOptions, report: WatchReport,
          stop: threading.Event | None = None, debounce_ms: int = 300, max_rebuilds: int | None = None,
          debug: bool = False) -> int:
    """Build, then rebuild after every relevant save until `stop` is set (or `max_rebuilds`); returns
    rebuilds."""
    from watchfiles import watch as watch_files

    build_once(project, names, options, report, debug)
    roots = watched_roots(project)
    report.watching(roots)
    rebuilds = 0
    try:  # Ctrl+C ends the watch quietly (watchfiles would log 'KeyboardInterrupt caught, stopping watch')
        for changes in watch_files(
            *map(str, roots),
            stop_event=stop or threading.Event(),
            debounce=debounce_ms,
            step=50,
            rust_timeout=200,
            raise_interrupt=True,
        ):
            changed = relevant_changes(project, changes)
            if not changed:
                continue
            report.changed(changed)
            build_once(project, names, options, report, debug)
            rebuilds += 1
            if max_rebuilds is not None and rebuilds >= max_rebuilds:
                break
    except KeyboardInterrupt:
        pass
    return rebuilds
