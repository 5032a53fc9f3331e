"""Drawing a build's outputs: one after another, or side by side in worker processes when there are cores to
use.

Every output is drawn whole by one process into a temporary file beside its target, so its bytes do not depend
on the number of workers; outputs that share work (the rules and the booklets imposed from them) stay together
in one process. The workers are forked after the games are loaded, checked and planned: they start with all of
it. The build hands the drawn files to its staging (core.write), which renames them into place only when every
output was drawn without a problem. A bug in a worker reaches this process as the same exception, named by the
output and carrying the worker's traceback as its cause.
"""

from __future__ import annotations

import errno
import gc
import itertools
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.contract import Output
from generator.core.errors import InputError, Problem
from generator.core.forked import ForkedWorkers, WorkerEnded
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
    together (the booklets are imposed from the reading pages), its card sheets in one language together (the
    second paper draws the texts the first laid out, generator.faces.face), every other output on its own."""
    groups: dict[tuple, list[int]] = {}
    for index, output in enumerate(outputs):
        if output.kind.startswith("rules") or output.kind == "cards":
            key: tuple = (
                output.game,
                output.language,
                "rules" if output.kind.startswith("rules") else "cards",
            )
        else:
            key = (index,)
        groups.setdefault(key, []).append(index)
    return list(groups.values())


# what each Drawing draws (its outputs and their files), by its number: set before its workers are forked,
# which
# find it here (a build draws with two Drawings at once, generator.pipeline.build)
_JOBS: dict[int, tuple[list[Output], list[Path]]] = {}
_numbers = itertools.count()


def _draw(job: int, index: int) -> tuple[dict, list[Problem]]:
    outputs, files = _JOBS[job]
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
    # a bug of ours: it reaches the CLI (one line, or the traceback with --debug), named;
    except Exception as exc:
        # from a worker, with the worker's traceback as its cause
        exc.add_note(f"while drawing {output.path}")
        raise


def _draw_task(job_task: tuple[int, list[int]]) -> list[tuple[dict, list[Problem]]]:
    job, task = job_task
    return [_draw(job, index) for index in task]


def draw_outputs(outputs: list[Output], build_dir: Path, jobs: int = 0,
                 drawn: Callable[[Output], None] | None = None) -> list[Drawn]:
    """Draw every output into a temporary file beside its target (in `build_dir`), with up to `jobs` worker
    processes (0: every available core; 1: this process only). `drawn(output)` is called in this process as
    each one is done, in order. The caller renames or deletes the files."""
    with start_drawing(outputs, build_dir, jobs) as drawing:
        return drawing.results(drawn)


def start_drawing(outputs: list[Output], build_dir: Path, jobs: int = 0, busy: bool = False) -> Drawing:
    """Start drawing every output as draw_outputs does and return at once: the workers draw while this process
    does other work (`busy`: the build's composition checks; then one task is drawn by a worker too, when
    there are two cores to use). With one process, nothing is drawn before `results` is asked for. Use the
    Drawing as a context manager: leaving it before `results` returned stops the workers and removes every
    file they drew."""
    files: list[Path] = []
    made: list[Path] = []  # the folders made for them, removed again when nothing is put in place
    try:
        for output in outputs:
            target = Path(build_dir) / output.path
            missing = [folder for folder in (target.parent, *target.parent.parents) if not folder.exists()]
            target.parent.mkdir(parents=True, exist_ok=True)
            made += reversed(missing)
            # named like the build's staged files, so a killed build's leftovers are found and removed
            # (core.write)
            handle, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                            dir=target.parent)
            os.close(handle)
            files.append(Path(name))
    except BaseException:
        _remove(files, made)
        raise
    return Drawing(outputs, files, jobs, made, busy)


def _remove(files: list[Path], folders: list[Path]) -> None:
    """Remove the files, then the folders made for them while they are empty (the deepest first)."""
    for file in files:
        file.unlink(missing_ok=True)
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:  # something else is in it now, or it is gone
            pass


class Drawing:
    """Outputs being drawn (start_drawing): `results` waits for them, `cancel` stops the workers and removes
    the files."""

    def __init__(self, outputs: list[Output], files: list[Path], jobs: int, made: list[Path] = (),
                 busy: bool = False):
        self.outputs, self.files, self.made = outputs, files, list(made)
        self.tasks = tasks_of(outputs)
        cores = jobs or available_cores()
        workers = min(cores, len(self.tasks))
        # fork only from the main thread (a fork copies one thread, and a lock another holds would stay
        # locked)
        parallel = (workers > 1 or (busy and cores > 1 and workers == 1)) \
            and threading.current_thread() is threading.main_thread() \
            and hasattr(os, "fork")
        self.workers = self.done = None
        self.finished = False
        self.job = next(_numbers)
        _JOBS[self.job] = (outputs, files)
        if parallel:
            # the loaded games stay out of the workers' collections (fewer copied pages); in this process they
            # stay
            # frozen as long as whoever froze them first wants (a build: until it ends,
            # generator.core.collector)
            frozen = gc.get_freeze_count()
            gc.freeze()
            try:
                self.workers = ForkedWorkers(_draw_task, [(self.job, task) for task in self.tasks], workers)
                self.done = self.workers.results()
            except BaseException:
                self.cancel()
                raise
            finally:
                if not frozen:
                    gc.unfreeze()

    def results(self, drawn: Callable[[Output], None] | None = None) -> list[Drawn]:
        """Every output's file, facts and problems, in the order of the outputs (a bug in a worker is raised
        here, and every file removed); `drawn(output)` as each one is done."""
        results: list[Drawn] = [Drawn(file) for file in self.files]
        try:
            if self.done is not None:
                for task, found in zip(self.tasks, self.done, strict=True):
                    _collect(task, found, results, self.outputs, drawn)
            else:
                for task in self.tasks:
                    _collect(task, _draw_task((self.job, task)), results, self.outputs, drawn)
        except WorkerEnded as exc:  # killed from outside (out of memory, a user): not a bug, nothing replaced
            self.cancel()
            names = ", ".join(str(self.outputs[index].path) for index in self.tasks[exc.task])
            raise InputError(
                Problem(
                    "",
                    0,
                    (
                        f"the process drawing {names} {f'was ended by {exc.how}' if exc.how else 'ended'} "
                        "before it finished, so no "
                        "output was replaced; expected it to finish: if the machine ran short of memory, "
                        "--jobs 1 draws "
                        "one output at a time in one process"
                    ),
                )
            ) from None
        except BaseException:
            self.cancel()
            raise
        self.finished = True
        self._close()
        return results

    def cancel(self, drawn_too: bool = False) -> None:
        """Stop drawing: the workers are ended and every file drawn removed. After `results` it does nothing,
        unless `drawn_too`: then the files `results` handed over are removed too (a later drawing of the build
        failed)."""
        if self.finished and not drawn_too:
            return
        self.finished = True
        self._close()
        _remove(self.files, self.made)

    def _close(self) -> None:
        _JOBS.pop(self.job, None)
        if self.workers is not None:
            self.workers.stop()  # ends the workers and waits for them
            self.workers = None

    def __enter__(self) -> Drawing:
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


class Drawings:
    """Outputs drawn by Drawings started one after another: a build starts the first outputs it plans while it
    plans the others (generator.pipeline.build). Leaving it stops every one of them, as leaving a Drawing
    does."""

    def __init__(self) -> None:
        self.started: list[Drawing] = []

    def start(self, outputs: list[Output], build_dir: Path, jobs: int = 0, busy: bool = False) -> None:
        """Start drawing these outputs now (start_drawing)."""
        self.started.append(start_drawing(outputs, build_dir, jobs, busy))

    @property
    def outputs(self) -> list[Output]:
        """Every output started so far."""
        return [output for drawing in self.started for output in drawing.outputs]

    def results(self, outputs: list[Output], drawn: Callable[[Output], None] | None = None) -> list[Drawn]:
        """What Drawing.results gives, for `outputs` (every output started, in any order), in their order."""
        found: dict[int, Drawn] = {}
        try:
            for drawing in self.started:
                for output, one in zip(drawing.outputs, drawing.results(drawn), strict=True):
                    found[id(output)] = one
        except BaseException:
            # those already drawn are not put in place either: their files go too
            for drawing in self.started:
                drawing.cancel(drawn_too=True)
            raise
        return [found[id(output)] for output in outputs]

    def cancel(self) -> None:
        """Stop every drawing and remove what it drew."""
        for drawing in self.started:
            drawing.cancel()

    def __enter__(self) -> Drawings:
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


def _collect(task, found, results: list[Drawn], outputs: list[Output], drawn) -> None:
    for index, (facts, problems) in zip(task, found, strict=True):
        results[index].facts, results[index].problems = facts, problems
        if drawn and not problems:
            drawn(outputs[index])
        for file in [results[index].file] if problems else []:
            file.unlink(missing_ok=True)
