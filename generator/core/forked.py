"""Tasks run by worker processes forked from this one; their results come back over pipes, in the tasks' order
(`results`) or as they finish (`finished`).

A build's drawings and validate's games run here. Each worker is a multiprocessing Process of the fork
context (which forks it, and ends it without the parent's exit handlers), lighter than multiprocessing.Pool (a
fork and a pipe per worker, no helper threads) and safe to stop at any moment.
Stopping kills the workers and closes this process's ends of their pipes, so nothing is left waiting for the
rest of a result a killed worker had half written (a Pool's result thread can wait for it for ever). The
workers inherit everything this process holds: only the task numbers and the pickled results travel.

The task numbers wait in one pipe that every worker reads (4-byte records: a pipe hands each read its bytes
whole), so a free worker takes the next task without this process having to be there to hand it out (once they
are written: a pipe holds thousands of them).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.process
import os
import pickle
import select
import selectors
import signal
import struct
import sys
import traceback
from collections.abc import Callable, Iterator
from typing import cast

_FORK = multiprocessing.get_context("fork")  # the workers inherit everything this process holds
_TASK = struct.Struct("!I")
_SIZE = struct.Struct("!Q")


class WorkerTraceback(Exception):
    """The cause of an exception raised in a worker: the worker's own traceback, as text."""

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


def _with_cause(exc: BaseException, text: str) -> BaseException:
    exc.__cause__ = WorkerTraceback(text)
    return exc


class WorkerError(Exception):
    """An exception of a worker that could not be sent back as itself (its class cannot be rebuilt from its
    arguments, or it holds what does not pickle): its type and text, its notes, and the worker's traceback as
    cause."""


class _Raised:
    """An exception on its way back from a worker: unpickled, it is the exception with the worker's traceback
    as its cause (a traceback itself does not pickle)."""

    def __init__(self, exc: BaseException):
        self.text = "".join(traceback.format_exception(exc))
        try:
            # it comes back whole, or a stand-in goes
            pickle.loads(pickle.dumps(exc, pickle.HIGHEST_PROTOCOL))
            self.exc = exc
        except Exception:  # noqa: BLE001 - any failure to travel
            self.exc = WorkerError(f"{type(exc).__module__}.{type(exc).__qualname__}: {exc}")
            for note in getattr(exc, "__notes__", ()):
                self.exc.add_note(str(note))

    def __reduce__(self):
        return _with_cause, (self.exc, self.text)


class WorkerEnded(RuntimeError):
    """A worker ended before sending back the result of a task it took (killed from outside, out of memory):
    `task` is the index of the first task without a result, `how` the signal that ended it ('' or
    'SIGKILL')."""

    def __init__(self, message: str, task: int = 0, how: str = ""):
        super().__init__(message)
        self.task, self.how = task, how


class ForkedWorkers:
    """`function(task)` for every task, in up to `workers` processes forked now; `results()` yields the
    results in the tasks' order and `stop()` ends the workers (use as a context manager). `promptly`: each
    result is sent whole before the worker takes its next task (for a parent that waits on the first result
    while the worker works on the next), else what the pipe does not take at once waits for a later task's
    end (for a parent busy elsewhere between its looks, as validate's)."""

    def __init__(self, function: Callable, tasks: list, workers: int, promptly: bool = False):
        self.tasks = list(tasks)
        self.workers: dict[int, int] = {}  # pid -> the file descriptor its results are read from
        self.ended: dict[int, int] = {}  # pid -> its exit code once reaped (negative: the signal it died of)
        self.processes: dict[int, multiprocessing.process.BaseProcess] = {}  # pid -> the worker process
        # task numbers not yet written (more than the pipe holds): reading results writes them
        self._numbers = b""
        self._write_tasks = -1
        # task index -> (ok, result or exception), not yet taken
        self._done: dict[int, tuple[bool, object]] = {}
        self._taken: set[int] = set()  # the tasks whose outcome finished() handed out
        self._buffers: dict[int, bytearray] = {}  # result pipe -> what was read of its next message
        self._pids: dict[int, int] = {}  # result pipe -> the worker writing to it
        self._selector: selectors.BaseSelector | None = None
        if not self.tasks:
            return
        read_tasks, write_tasks = os.pipe()
        try:
            _flush_output()  # what is buffered here is not written twice by a worker
            for _ in range(min(workers, len(self.tasks))):
                read_results, write_results = os.pipe()
                # Ctrl-C waits while the worker is forked and recorded: it must not stop this process between
                # the two (a worker nobody knows of), nor reach the worker before it ignores it (a second copy
                # of the caller's code running on)
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    process = _FORK.Process(target=_worker, daemon=False, args=(
                        function, self.tasks, read_tasks, write_tasks, read_results, write_results,
                        list(self.workers.values()), promptly))
                    process.start()  # the worker's life is _worker; multiprocessing ends the process after it
                    pid = cast(int, process.pid)
                    self.processes[pid] = process
                    os.close(write_results)
                    self.workers[pid] = read_results
                finally:
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            # only the workers read them: if every one has died, writing fails instead of waiting
            os.close(read_tasks)
            read_tasks = -1
            os.set_blocking(write_tasks, False)
            self._write_tasks, write_tasks = write_tasks, -1
            self._numbers = b"".join(_TASK.pack(index) for index in range(len(self.tasks)))
            # as many as the pipe holds (16,384 on Linux); reading the results writes the rest
            self._write_numbers()
            self._selector = selectors.DefaultSelector()
            for pid, fd in self.workers.items():
                self._buffers[fd], self._pids[fd] = bytearray(), pid
                self._selector.register(fd, selectors.EVENT_READ)
            if self._write_tasks >= 0:
                self._selector.register(self._write_tasks, selectors.EVENT_WRITE)
        except BaseException:
            self.stop()
            raise
        finally:
            for fd in (read_tasks, write_tasks):
                if fd >= 0:
                    os.close(fd)

    def _write_numbers(self) -> None:
        """Write the task numbers still to write while the pipe takes them; close it once all are written."""
        while self._numbers:
            chunk = self._numbers[:select.PIPE_BUF]  # written whole or not at all, so no number is split
            try:
                os.write(self._write_tasks, chunk)
            except BlockingIOError:  # full: the workers take some first
                return
            except BrokenPipeError:  # no worker is left to take them: results() says so
                self._numbers = b""
                break
            self._numbers = self._numbers[len(chunk):]
        if self._write_tasks >= 0:
            os.close(self._write_tasks)  # the workers end once they have taken the last one
            self._write_tasks = -1

    def results(self) -> Iterator:
        """Each task's result in the tasks' order, as soon as it and those before it are in. A task's
        exception is raised here (with its worker's traceback as its cause) and the workers are stopped."""
        for index in range(len(self.tasks)):
            while index not in self._done:
                if not self._read(wait=True):
                    self._ended(index)
            ok, value = self._done.pop(index)
            self._taken.add(index)
            if not ok:
                self.stop()
                raise cast(BaseException, value)  # ok False: the value is the task's exception
            yield value

    def finished(self, wait: bool = False) -> dict[int, tuple[bool, object]]:
        """The tasks finished since the last call, in any order: task index -> (True, its result) or (False,
        its exception); with `wait`, at least one while any is left. Raises WorkerEnded (and stops the
        workers) when no worker is left to finish the tasks still to come."""
        while True:
            alive = self._read(wait=wait and not self._done)
            if self._done:
                break
            left = set(range(len(self.tasks))) - self._taken
            if left and not alive:
                self._ended(min(left))
            if not left or not wait:
                return {}
        done, self._done = self._done, {}
        self._taken.update(done)
        return done

    def _read(self, wait: bool) -> bool:
        """Read what the workers sent (with `wait`, wait until something comes) and write the task numbers the
        pipe takes now; False when no worker is left to send anything."""
        selector = self._selector
        if selector is None or not self._buffers.keys() & selector.get_map().keys():
            return False
        for key, _ in selector.select(None if wait else 0):
            fd = key.fd
            if fd == self._write_tasks:  # room for more task numbers
                self._write_numbers()
                if self._write_tasks < 0:
                    selector.unregister(fd)
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # the worker ended: it has no more tasks, or it was killed
                selector.unregister(fd)
                self._reap(self._pids[fd])
                continue
            self._buffers[fd] += chunk
            for number, ok, value in _messages(self._buffers[fd]):
                self._done[number] = (ok, value)
        return True

    def _ended(self, index: int) -> None:
        """Stop, and raise WorkerEnded for task `index`, whose result no worker is left to send."""
        self.stop()
        how = self._how_ended()
        raise WorkerEnded(f"a worker process ended before it sent back the result of task {index + 1} "
                          f"of {len(self.tasks)}{f' (ended by {how})' if how else ''}", index, how)

    def stop(self) -> None:
        """End every worker still running (killed: a task it was doing is lost) and close the pipes."""
        for pid in self.workers:
            if pid not in self.ended:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # it has ended already
                    pass
        if self._write_tasks >= 0:
            os.close(self._write_tasks)
            self._write_tasks, self._numbers = -1, b""
        for pid, fd in list(self.workers.items()):
            self._reap(pid)
            try:
                os.close(fd)
            except OSError:  # closed already
                pass
        self.workers.clear()
        if self._selector is not None:
            self._selector.close()
            self._selector = None

    def _reap(self, pid: int) -> None:
        if pid not in self.ended:
            process = self.processes.pop(pid)
            process.join()
            self.ended[pid] = process.exitcode or 0
            process.close()

    def _how_ended(self) -> str:
        killed = sorted({signal.Signals(-code).name for code in self.ended.values() if code < 0})
        return ", ".join(killed)

    def __enter__(self) -> ForkedWorkers:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _messages(buffer: bytearray) -> Iterator[tuple[int, bool, object]]:
    """The whole messages at the start of `buffer` (removed from it), unpickled."""
    while len(buffer) >= _SIZE.size:
        size = _SIZE.unpack_from(buffer)[0]
        end = _SIZE.size + size
        if len(buffer) < end:
            return
        message = pickle.loads(bytes(buffer[_SIZE.size:end]))
        del buffer[:end]
        yield message


def _worker(function: Callable, tasks: list, read_tasks: int, write_tasks: int, read_results: int,
            write_results: int, others: list[int], promptly: bool) -> None:
    """A worker process, forked by multiprocessing: Ctrl-C is left to the process that forked it, which stops
    it; only its own ends of the pipes stay open (the task numbers end when the forking process has written
    them); then it serves tasks and ends with the status _serve gives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for fd in (write_tasks, read_results, *others):
        os.close(fd)
    status = _serve(function, tasks, read_tasks, write_results, promptly)
    if status:
        sys.exit(status)


def _serve(function: Callable, tasks: list, read_tasks: int, write_results: int, promptly: bool) -> int:
    """A worker's life: take task numbers until there are none, send back each result (or exception; whole
    before the next task when `promptly`), then end."""
    status, me = 0, os.getpid()
    # results the pipe has not taken yet: while this process's parent is busy elsewhere (validate's checks
    # run between its looks at the games) a full pipe would stop the worker; it plays on and sends them later
    unsent = bytearray()
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.set_blocking(write_results, False)
        while True:
            record = os.read(read_tasks, _TASK.size)
            if not record:
                break
            index = _TASK.unpack(record)[0]
            try:
                message = (index, True, function(tasks[index]))
            except BaseException as exc:  # noqa: BLE001 - raised in the process that asked for it
                message = (index, False, _Raised(exc))
            if os.getpid() != me:  # a process the task forked and left running: it is not a worker
                return 0
            try:
                data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001 - a result that cannot travel is that task's error
                error = TypeError(f"the result of task {index + 1} cannot be sent back: {exc}")
                data = pickle.dumps((index, False, _Raised(error)))
            unsent += _SIZE.pack(len(data))
            unsent += data
            _write_some(write_results, unsent)
            if promptly and unsent:  # the parent waits for it: the rest sent before the next task
                os.set_blocking(write_results, True)
                _write_all(write_results, unsent)
                unsent.clear()
                os.set_blocking(write_results, False)
        os.set_blocking(write_results, True)  # no task left: wait until the parent has taken everything
        _write_all(write_results, unsent)
    except BaseException:  # noqa: BLE001 - the parent sees the missing result and says so
        status = 1
    return status  # multiprocessing flushes what the tasks printed and ends the process without exit handlers


def _flush_output() -> None:
    """Flush stdout and stderr; a reader that left or a closed stream is the caller's to hear of when it
    writes."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def _write_some(fd: int, unsent: bytearray) -> None:
    """Write what a non-blocking pipe takes now of `unsent`, removing it from there."""
    while unsent:
        try:
            written = os.write(fd, unsent)
        except BlockingIOError:  # full: the parent reads it later
            return
        del unsent[:written]


def _write_all(fd: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
