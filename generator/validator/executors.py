"""Where the simulation map runs: one interface, local processes (the default) or a Dask cluster
(engines.cluster).

An executor receives the runs' payloads (game data, engine, rule options) once and a list of chunks, and
returns each chunk's results in the order of the chunks. Nothing it does may change a result: a game depends
only on its seed, so a chunk played twice (after a lost worker) gives the same games. `start` hands the chunks
over and returns at once, so the caller can do other work (`pnp validate`'s checks) while the workers play;
`map` waits.
"""

from __future__ import annotations

import gc
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable

from generator.core.errors import InputError, Problem
from generator.core.forked import ForkedWorkers, WorkerEnded
from generator.validator.simulate import Chunk, available_cores, play_chunk, play_chunk_packed, unpack

Payloads = dict[str, tuple]  # run key -> (game, engine, options)
Progress = Callable[[int], None] | None
WORKER_RESTARTS = 2  # workers are forked again this often after one died before the run gives up


class Pending(ABC):
    """Chunks handed to an executor: `poll` reports the games finished so far, `results` waits for all of
    them.

    Use as a context manager (or call cancel()): leaving it before `results` returned stops the workers."""

    @abstractmethod
    def poll(self, progress: Progress = None) -> None:
        """Call `progress(games)` for the chunks finished since the last look, without waiting."""

    @abstractmethod
    def results(self, progress: Progress = None) -> list[list[dict]]:
        """Every chunk's results, in the order of the chunks; `progress(games)` as chunks finish."""

    def cancel(self) -> None:  # noqa: B027 - a map played on demand holds nothing
        """Stop playing (nothing left running); harmless after `results`."""

    def __enter__(self) -> Pending:
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


class Executor(ABC):
    """Plays chunks of games somewhere; use as a context manager (or call close()) to release its workers."""

    workers: int = 1  # how many chunks it plays at once (chunk sizes are planned from it)

    @abstractmethod
    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        """Every chunk's results, in the order of `chunks`; `progress(games)` as chunks finish."""

    def start(self, payloads: Payloads, chunks: list[Chunk]) -> Pending:
        """Start playing the chunks and return at once (an executor that cannot plays them in `results`)."""
        return _OnDemand(self, payloads, chunks)

    def describe(self) -> str:
        """Where the games run, for the terminal ('2 local processes')."""
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def close(self) -> None:  # noqa: B027 - most executors hold nothing to release
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _OnDemand(Pending):
    """Chunks played by `executor.map` when their results are asked for (in this process with --jobs 1)."""

    def __init__(self, executor: Executor, payloads: Payloads, chunks: list[Chunk]):
        self.executor, self.payloads, self.chunks = executor, payloads, chunks

    def poll(self, progress: Progress = None) -> None:
        pass

    def results(self, progress: Progress = None) -> list[list[dict]]:
        return self.executor.map(self.payloads, self.chunks, progress)


def failed_chunk(chunk: Chunk, exc: BaseException) -> InputError:
    """A chunk that raised (an engine that cannot be imported, memory) as a located, one-line error."""
    return InputError(
        Problem(
            "",
            0,
            f"simulating {chunk.game_id} with {chunk.players} players (games {chunk.start}-"
            f"{chunk.stop - 1}) failed in a worker: {type(exc).__name__}: {exc}",
        )
    )


# -- local processes
# --------------------------------------------------------------------------------------------------
_PAYLOADS: Payloads = {}  # the runs being played: set before the workers are forked, so they inherit it


def _play_installed(chunk: Chunk) -> bytes:
    return play_chunk_packed(_PAYLOADS[chunk.key], chunk)


def _play(chunk: Chunk) -> bytes:
    return _play_installed(chunk)  # looked up when the worker plays (a test or a benchmark may replace it)


def _can_fork() -> bool:
    # a fork copies only the thread that forks: from any other thread, a lock another thread holds stays
    # locked
    return hasattr(os, "fork") and threading.current_thread() is threading.main_thread()


class LocalProcesses(Executor):
    """Worker processes on this machine (`--jobs`; 0 = every core); one process plays in this process itself,
    as does a run started off the main thread (forking is safe only from there)."""

    def __init__(self, jobs: int = 0):
        self.workers = max(1, jobs or available_cores())

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"

    def _here(self, chunks: list[Chunk]) -> bool:
        """Whether these chunks are played in this process (one worker's worth, or no safe fork)."""
        return min(self.workers, len(chunks)) <= 1 or not _can_fork()

    def start(self, payloads: Payloads, chunks: list[Chunk]) -> Pending:
        if self._here(chunks):  # the games are played here, when their results are asked for
            return _OnDemand(self, payloads, chunks)
        return _ForkedRun(payloads, chunks, min(self.workers, len(chunks)))

    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        if self._here(chunks):
            results = []
            for chunk in chunks:
                results.append(play_chunk(payloads[chunk.key], chunk))
                if progress:
                    progress(chunk.games)
            return results
        with self.start(payloads, chunks) as pending:
            return pending.results(progress)


class _ForkedRun(Pending):
    """Chunks played by worker processes forked now (generator.core.forked), which inherit the payloads; the
    chunks of a worker that died (out of memory, killed) are played again by new workers, WORKER_RESTARTS
    times at most."""

    def __init__(self, payloads: Payloads, chunks: list[Chunk], workers: int):
        self.payloads, self.chunks, self.count = payloads, chunks, workers
        self.done: list[list[dict] | None] = [None] * len(chunks)
        self.restarts = 0
        self.failures: dict[int, BaseException] = {}  # chunk -> what it raised (results() reports the first)
        self.error: InputError | None = None  # the workers died too often (found by poll, raised by results)
        self.workers: ForkedWorkers | None = None
        self.playing: list[int] = []  # the chunk of each task of the current workers
        self._fork()

    def _fork(self) -> None:
        self.playing = [i for i, result in enumerate(self.done) if result is None]
        _PAYLOADS.clear()
        _PAYLOADS.update(self.payloads)
        frozen = gc.get_freeze_count()
        # the forked workers never collect the loaded games (fewer copied pages, shorter collections)
        gc.freeze()
        try:
            self.workers = ForkedWorkers(_play, [self.chunks[i] for i in self.playing],
                                         min(self.count, len(self.playing)))
        finally:
            if not frozen:
                gc.unfreeze()
            _PAYLOADS.clear()  # this process keeps no reference to them (the workers have their copy)

    def _take(self, wait: bool, progress: Progress) -> None:
        """The chunks finished since the last look (with `wait`, at least one); workers that died are
        replaced."""
        try:
            finished = self.workers.finished(wait)
        # killed (out of memory, a signal): the chunks not played yet, on new workers
        except WorkerEnded as exc:
            self.restarts += 1
            if self.restarts > WORKER_RESTARTS:
                raise InputError(
                    Problem(
                        "",
                        0,
                        f"the simulation's worker processes died {self.restarts} times "
                        f"({exc}); expected them to finish (memory? try --jobs 1)",
                    )
                ) from None
            self._fork()
            return
        for task, (ok, value) in sorted(finished.items()):
            i = self.playing[task]
            if not ok:
                self.failures.setdefault(i, value)
                continue
            self.done[i] = unpack(value)
            if progress:
                progress(self.chunks[i].games)

    # a failed chunk or lost workers are left for results()
    def poll(self, progress: Progress = None) -> None:
        if self.workers is not None and not self.failures and self.error is None:
            try:
                self._take(False, progress)
            except InputError as exc:
                self.error = exc

    def results(self, progress: Progress = None) -> list[list[dict]]:
        try:
            while True:
                if self.error is not None:
                    raise self.error
                if self.failures:  # name the chunk instead of a traceback
                    i = min(self.failures)
                    raise failed_chunk(self.chunks[i], self.failures[i]) from self.failures[i]
                if all(result is not None for result in self.done):
                    return self.done  # type: ignore[return-value]
                self._take(True, progress)
        finally:
            self.cancel()

    def cancel(self) -> None:
        workers, self.workers = self.workers, None
        if workers is not None:
            workers.stop()
