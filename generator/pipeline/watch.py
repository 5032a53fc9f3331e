"""`pnp watch` as a library function: build, then rebuild each time a file a build reads is saved.

Broken data is reported (never raised) and the watcher keeps running; since a build checks everything before
writing and every output is written atomically, the last good PDFs stay in place meanwhile.

A watched folder replaced as a whole (cards/ renamed away and another put in its place, as a `git checkout` of
another branch may do) takes the file watches with it: the watcher notices the folder's identity change (it
looks on every quiet interval of the file watcher), watches the new folder and builds again.
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


ROOT_POLL_S = 0.2  # how often a missing cards/ or templates/ is looked for again


def watched_roots(project: Project) -> list[Path]:
    """The folders whose files a build reads: cards/ and templates/ (those that exist)."""
    return [p for p in (project.cards_dir, project.templates_dir) if p.is_dir()]


def root_identity(project: Project) -> tuple:
    """Which cards/ and templates/ folders are there (device and inode; None when missing): it changes when a
    folder is replaced as a whole, which the file watches of the old folder never report."""
    found = []
    for folder in (project.cards_dir, project.templates_dir):
        try:
            stat = folder.stat()
            found.append((stat.st_dev, stat.st_ino))
        except OSError:
            found.append(None)
    return tuple(found)


def replaced_roots(project: Project) -> list[str]:
    """The watched folders as the designer names them (for the 'changed:' line of a replaced folder)."""
    return [project.show(folder) + "/" for folder in (project.cards_dir, project.templates_dir)]


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
    except FileNotFoundError as exc:  # a file moved or renamed away while the build read it
        shown = project.show(Path(exc.filename)) if exc.filename else ""
        report.failed([Problem(shown, 0, "the file went away while the build read it (moved, renamed or "
                                         "deleted meanwhile); expected it back: the watcher builds again on "
                                         "the next change")])
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

    stop = stop or threading.Event()
    identity = root_identity(project)
    build_once(project, names, options, report, debug)
    if max_rebuilds == 0:  # the first build alone (what a test of the options needs)
        return 0
    rebuilds = 0
    # "watching" is said once the watcher is set up (its first quiet interval): a save made after the line
    # is never missed
    announce = True

    def rebuild(changed: list[str]) -> bool:
        """Build after a change; True when the watch should end (`max_rebuilds` reached)."""
        nonlocal rebuilds
        report.changed(changed)
        build_once(project, names, options, report, debug)
        rebuilds += 1
        return max_rebuilds is not None and rebuilds >= max_rebuilds

    try:  # Ctrl+C ends the watch quietly (watchfiles would log 'KeyboardInterrupt caught, stopping watch')
        while not stop.is_set():
            roots = watched_roots(project)
            if roots:
                # yield_on_timeout: a quiet interval comes back empty, so a replaced folder is noticed
                for changes in watch_files(*map(str, roots), stop_event=stop, debounce=debounce_ms, step=50,
                                           rust_timeout=200, yield_on_timeout=True, raise_interrupt=True):
                    if announce:
                        report.watching(roots)
                        announce = False
                    if root_identity(project) != identity:
                        break
                    changed = relevant_changes(project, changes)
                    if changed and rebuild(changed):
                        return rebuilds
            else:  # cards/ is away (mid-checkout): look again shortly
                stop.wait(ROOT_POLL_S)
            now = root_identity(project)
            if now != identity and not stop.is_set():  # a folder replaced: read the game from the new one
                identity = now
                stop.wait(debounce_ms / 1000)  # let the checkout finish writing
                identity = root_identity(project)
                if rebuild(replaced_roots(project)):
                    return rebuilds
                announce = True
    except KeyboardInterrupt:
        pass
    return rebuilds
