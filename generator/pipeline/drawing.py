"""Drawing a build's outputs: one after another, or side by side in worker processes when there are cores to use.

Every output is drawn whole by one process into a temporary file beside its target, so its bytes do not depend on
the number of workers; outputs that share work (the rules and the booklets imposed from them) stay together in one
process. The workers are forked after the games are loaded, checked and planned: they start with all of it. The
build hands the drawn files to its staging (core.write), which renames them into place only when every output was
drawn without a problem. A bug in a worker reaches this process as the same exception, named by the output and
carrying the worker's traceback as its cause.
"""

from __future__ import annotations

import errno
import gc
import multiprocessing
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.contract import Output
from generator.core.errors import InputError, Problem
from generator.core.write import cannot_write

WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM}  # the disk, not the data


@dataclass
class Drawn:
    """One output drawn: its temporary file, the facts for the manifest, or the problems that stopped it."""

    file: Path
    facts: dict = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def tasks_of(outputs: list[Output]) -> list[list[int]]:
    """The outputs (by index) in groups one process draws in turn: a game's rules and booklets in one language
    together (the booklets are imposed from the reading pages), every other output on its own."""
    groups: dict[tuple, list[int]] = {}
    for index, output in enumerate(outputs):
        key = (output.game, output.language, "rules") if output.kind.startswith("rules") else (index,)
        groups.setdefault(key, []).append(index)
    return list(groups.values())


_JOB: tuple[list[Output], list[Path]] | None = None  # what forked workers draw (set before the pool starts)


def _draw(index: int) -> tuple[dict, list[Problem]]:
    outputs, files = _JOB
    output = outputs[index]
    try:
        return dict(output.render(files[index]) or {}), []
    except InputError as exc:
        return {}, list(exc.problems)
    except OSError as exc:
        if exc.errno in WRITE_ERRORS:  # the disk is full or read-only: a problem to report, not a bug
            return {}, list(cannot_write(files[index].parent / Path(output.path).name, exc).problems)
        exc.add_note(f"while drawing {output.path}")
        raise
    except Exception as exc:  # a bug of ours: it reaches the CLI (one line, or the traceback with --debug), named;
        exc.add_note(f"while drawing {output.path}")  # from a worker, with the worker's traceback as its cause
        raise


def _draw_task(task: list[int]) -> list[tuple[dict, list[Problem]]]:
    return [_draw(index) for index in task]


def draw_outputs(outputs: list[Output], build_dir: Path, jobs: int = 0,
                 drawn: Callable[[Output], None] | None = None) -> list[Drawn]:
    """Draw every output into a temporary file beside its target (in `build_dir`), with up to `jobs` worker
    processes (0: every available core; 1: this process only). `drawn(output)` is called in this process as each
    one is done, in order. The caller renames or deletes the files."""
    global _JOB
    files = []
    for output in outputs:
        target = Path(build_dir) / output.path
        target.parent.mkdir(parents=True, exist_ok=True)
        # named like the build's staged files, so a killed build's leftovers are found and removed (core.write)
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
        os.close(handle)
        files.append(Path(name))
    results: list[Drawn] = [Drawn(file) for file in files]
    tasks = tasks_of(outputs)
    workers = min(jobs or available_cores(), len(tasks))
    # fork only from the main thread (a fork copies one thread, and a lock another holds would stay locked)
    parallel = workers > 1 and threading.current_thread() is threading.main_thread() \
        and "fork" in multiprocessing.get_all_start_methods()
    _JOB = (outputs, files)
    try:
        if parallel:
            gc.freeze()  # the loaded games stay out of the workers' collections (fewer copied pages)
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                done = pool.imap(_draw_task, tasks)
                for task, found in zip(tasks, done, strict=True):
                    _collect(task, found, results, outputs, drawn)
        else:
            for task in tasks:
                _collect(task, _draw_task(task), results, outputs, drawn)
    except BaseException:
        for file in files:
            file.unlink(missing_ok=True)
        raise
    finally:
        _JOB = None
        gc.unfreeze()
    return results


def _collect(task, found, results: list[Drawn], outputs: list[Output], drawn) -> None:
    for index, (facts, problems) in zip(task, found, strict=True):
        results[index].facts, results[index].problems = facts, problems
        if drawn and not problems:
            drawn(outputs[index])
        for file in [results[index].file] if problems else []:
            file.unlink(missing_ok=True)
