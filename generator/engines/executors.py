"""Where the simulation map runs: one interface, local processes (the default) or a Dask cluster (engines.cluster).

An executor receives the runs' payloads (game data, engine, rule options) once and a list of chunks, and returns
each chunk's results in the order of the chunks. Nothing it does may change a result: a game depends only on its
seed, so a chunk played twice (after a lost worker) gives the same games.
"""

from __future__ import annotations

import multiprocessing
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from generator.core.errors import InputError, Problem
from generator.engines.simulate import Chunk, available_cores, play_chunk

Payloads = dict[str, tuple]  # run key -> (game, engine, options)
Progress = Callable[[int], None] | None
POOL_RESTARTS = 2  # a process pool whose worker died is started again this often before the run gives up


class Executor(ABC):
    """Plays chunks of games somewhere; use as a context manager (or call close()) to release its workers."""

    workers: int = 1  # how many chunks it plays at once (chunk sizes are planned from it)

    @abstractmethod
    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        """Every chunk's results, in the order of `chunks`; `progress(games)` as chunks finish."""

    def describe(self) -> str:
        """Where the games run, for the terminal ('2 local processes')."""
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def close(self) -> None:  # noqa: B027 - most executors hold nothing to release
        """Release the workers."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def failed_chunk(chunk: Chunk, exc: BaseException) -> InputError:
    """A chunk that raised (an engine that cannot be imported, memory) as a located, one-line error."""
    return InputError(Problem("", 0, f"simulating {chunk.game_id} with {chunk.players} players (games {chunk.start}-"
                                     f"{chunk.stop - 1}) failed in a worker: {type(exc).__name__}: {exc}"))


# -- local processes --------------------------------------------------------------------------------------------------
_PAYLOADS: Payloads = {}  # in each worker process: the runs it plays, installed once when the process starts


def _install(payloads: Payloads) -> None:
    _PAYLOADS.clear()
    _PAYLOADS.update(payloads)


def _play_installed(chunk: Chunk) -> list[dict]:
    return play_chunk(_PAYLOADS[chunk.key], chunk)


def _context():
    # fork hands the loaded games to the workers without pickling; elsewhere each worker unpickles them once
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


class LocalProcesses(Executor):
    """Worker processes on this machine (`--jobs`; 0 = every core); one process plays in this process itself."""

    def __init__(self, jobs: int = 0):
        self.workers = max(1, jobs or available_cores())

    def describe(self) -> str:
        return f"{self.workers} local process{'es' if self.workers != 1 else ''}"

    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        results: list[list[dict] | None] = [None] * len(chunks)
        workers = min(self.workers, len(chunks))
        if workers <= 1:
            for i, chunk in enumerate(chunks):
                results[i] = play_chunk(payloads[chunk.key], chunk)
                if progress:
                    progress(chunk.games)
            return results  # type: ignore[return-value]
        for attempt in range(POOL_RESTARTS + 1):
            todo = [i for i, r in enumerate(results) if r is None]
            try:
                self._pool_map(payloads, chunks, todo, results, workers, progress)
                break
            except BrokenProcessPool as exc:  # a worker was killed (out of memory, a signal): play its chunks again
                if attempt == POOL_RESTARTS:
                    raise InputError(Problem("", 0, f"the simulation's worker processes died {attempt + 1} times "
                                                    f"({exc}); expected them to finish (memory? try --jobs 1)")) from exc
        return results  # type: ignore[return-value]

    @staticmethod
    def _pool_map(payloads, chunks, todo, results, workers, progress) -> None:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_install,
                                 initargs=(payloads,)) as pool:
            pending = {pool.submit(_play_installed, chunks[i]): i for i in todo}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    i = pending.pop(future)
                    try:
                        results[i] = future.result()
                    except BrokenProcessPool:
                        raise
                    except Exception as exc:  # noqa: BLE001 - name the chunk instead of a traceback
                        raise failed_chunk(chunks[i], exc) from exc
                    if progress:
                        progress(chunks[i].games)
