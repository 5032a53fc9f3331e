"""One thread that does all of the studio's drawing, most urgent first.

ReportLab and pdfium are driven from this thread only (pdfium is not thread-safe), so the web server's event
loop never waits on a drawing. A job submitted under a `key` replaces the queued job of the same key (the
latest edit is the one worth drawing); `delay` holds a job back, so a burst of saves draws the rules once, not
per save.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future

URGENT = 0      # a page is waiting for this image
REFRESH = 1     # a save: reload, fingerprint, re-draw the changed faces
FACES = 2       # the first drawing of every face
PAGES = 5       # board, rules and balance pages


class Worker:
    """A priority queue of jobs run one at a time on a daemon thread."""

    def __init__(self, on_busy: Callable[[bool], None] | None = None):
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()
        self._latest: dict[str, int] = {}
        self._lock = threading.Lock()
        self._on_busy = on_busy
        self._busy = False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pnp-studio-worker", daemon=True)
        self._thread.start()

    def submit(self, priority: int, job: Callable[[], object], key: str | None = None,
               delay: float = 0.0) -> Future:
        """Run `job` on the worker; a later job with the same key makes this one a no-op (its future gets
        None)."""
        future: Future = Future()
        with self._lock:
            order = next(self._order)
            if key is not None:
                self._latest[key] = order
        entry = (priority, order, time.monotonic() + delay, key, job, future)
        self._queue.put(entry)
        self._set_busy(True)
        return future

    @property
    def busy(self) -> bool:
        """True while a job is queued or running."""
        return self._busy

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            if self._on_busy is not None:
                self._on_busy(busy)

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                entry = self._queue.get(timeout=0.2)
            except queue.Empty:
                continue
            priority, order, not_before, key, job, future = entry
            if job is None:  # the stop marker
                break
            wait = not_before - time.monotonic()
            if wait > 0:  # not yet: put it back and look again shortly (an urgent job may come meanwhile)
                self._queue.put(entry)
                self._stopped.wait(min(wait, 0.05))
                continue
            with self._lock:
                superseded = key is not None and self._latest.get(key) != order
            if not future.set_running_or_notify_cancel():
                pass  # cancelled by whoever asked for it
            elif superseded:
                future.set_result(None)
            else:
                try:
                    future.set_result(job())
                except BaseException as exc:  # handed to whoever waits for it (a bug shows there, not here)
                    future.set_exception(exc)
            if self._queue.empty():
                self._set_busy(False)

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the running job, drop the queued ones and end the thread."""
        self._stopped.set()
        self._queue.put((-1, -1, 0.0, None, None, Future()))
        self._thread.join(timeout)
