"""Where the simulation map runs: one interface, local processes (the default) or a Dask cluster (engines.cluster).

An executor receives the runs' payloads (game data, engine, rule options) once and a list of chunks, and returns
each chunk's results in the order of the chunks. Nothing it does may change a result: a game depends only on its
seed, so a chunk played twice (after a lost worker) gives the same games. `start` hands the chunks over and returns
at once, so the caller can do other work (`pnp validate`'s checks) while the workers play; `map` waits.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from generator.core.errors import InputError, Problem
from generator.engines.simulate import Chunk, available_cores, play_chunk, play_chunk_packed, unpack

Payloads = dict[str, tuple]  # run key -> (game, engine, options)
Progress = Callable[[int], None] | None
POOL_RESTARTS = 2  # a process pool whose worker died is started again this often before the run gives up


class Pending(ABC):
    """Chunks handed to an executor: `poll` reports the games finished so far, `results` waits for all of them.

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
    return InputError(Problem("", 0, f"simulating {chunk.game_id} with {chunk.players} players (games {chunk.start}-"
                                     f"{chunk.stop - 1}) failed in a worker: {type(exc).__name__}: {exc}"))


# -- local processes --------------------------------------------------------------------------------------------------
_PAYLOADS: Payloads = {}  # in each worker process: the runs it plays, installed once when the process starts


def _install(payloads: Payloads) -> None:
    _PAYLOADS.clear()
    _PAYLOADS.update(payloads)


def _play_installed(chunk: Chunk) -> bytes:
    return play_chunk_packed(_PAYLOADS[chunk.key], chunk)


def _context():
    # fork hands the loaded games to the workers without pickling, but only from the main thread (a fork copies
    # one thread, and a lock another thread holds would stay locked); elsewhere each worker unpickles them once
    if sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class LocalProcesses(Executor):
    """Worker processes on this machine (`--jobs`; 0 = every core); one process plays in this process itself."""

    def __init__(self, jobs: int = 0):
        self.workers = max(1, jobs or available_cores())

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"

    def start(self, payloads: Payloads, chunks: list[Chunk]) -> Pending:
        workers = min(self.workers, len(chunks))
        if workers <= 1:  # one process: the games are played here, when their results are asked for
            return _OnDemand(self, payloads, chunks)
        return _PoolRun(payloads, chunks, workers)

    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        if min(self.workers, len(chunks)) <= 1:
            results = []
            for chunk in chunks:
                results.append(play_chunk(payloads[chunk.key], chunk))
                if progress:
                    progress(chunk.games)
            return results
        with self.start(payloads, chunks) as pending:
            return pending.results(progress)


class _PoolRun(Pending):
    """Chunks on a pool of worker processes, every one submitted at once (so the pool forks its workers now)."""

    def __init__(self, payloads: Payloads, chunks: list[Chunk], workers: int):
        self.payloads, self.chunks, self.workers = payloads, chunks, workers
        self.done: list[list[dict] | None] = [None] * len(chunks)
        self.attempts = 0
        self.pool: ProcessPoolExecutor | None = None
        self.pending: dict[Future, int] = {}
        self.broken: BrokenProcessPool | None = None  # a worker died while the chunks were handed out
        self._submit()

    def _submit(self) -> None:
        gc.freeze()  # the forked workers never collect the loaded games (fewer copied pages, shorter collections)
        try:
            self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=_context(), initializer=_install,
                                            initargs=(self.payloads,))
            self.pending = {}
            for i, result in enumerate(self.done):
                if result is None:
                    try:
                        self.pending[self.pool.submit(_play_installed, self.chunks[i])] = i
                    except BrokenProcessPool as exc:  # a worker killed already: results() plays them again
                        self.broken = exc
                        break
        finally:
            gc.unfreeze()

    def _take(self, finished, progress: Progress) -> None:
        for future in finished:
            i = self.pending.pop(future)
            try:
                self.done[i] = unpack(future.result())
            except BrokenProcessPool:
                raise
            except Exception as exc:  # noqa: BLE001 - name the chunk instead of a traceback
                raise failed_chunk(self.chunks[i], exc) from exc
            if progress:
                progress(self.chunks[i].games)

    def poll(self, progress: Progress = None) -> None:  # a failed chunk or a lost worker is left for results()
        self._take([future for future in self.pending if future.done() and not future.cancelled()
                    and future.exception() is None], progress)

    def results(self, progress: Progress = None) -> list[list[dict]]:
        try:
            while True:
                try:
                    if self.broken is not None:
                        broken, self.broken = self.broken, None
                        raise broken
                    while self.pending:
                        finished, _ = wait(self.pending, return_when=FIRST_COMPLETED)
                        self._take(finished, progress)
                    return self.done  # type: ignore[return-value]
                except BrokenProcessPool as exc:  # a worker was killed (out of memory, a signal): play its chunks again
                    self.attempts += 1
                    self.cancel()
                    if self.attempts > POOL_RESTARTS:
                        raise InputError(Problem("", 0, f"the simulation's worker processes died {self.attempts} times "
                                                        f"({exc}); expected them to finish (memory? try --jobs 1)")) from exc
                    self._submit()
        finally:
            self.cancel()

    def cancel(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        if any(result is None for result in self.done):  # stopped, not left to finish their chunks
            processes = list((getattr(pool, "_processes", None) or {}).values())
            for process in processes:
                process.terminate()
            # A worker ended while it wrote a result leaves half a message in the result pipe, and the pool's own
            # thread would wait for the rest of it forever (shutdown below with it). Once every worker has ended,
            # this process's end of the pipe is its only writer: closing it ends that wait (the pool is broken).
            multiprocessing.connection.wait([process.sentinel for process in processes], timeout=10)
            writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
            if writer is not None:
                writer.close()
        pool.shutdown(wait=True, cancel_futures=True)  # its own thread reaps the workers (joining here races it)
        self.pending = {}
