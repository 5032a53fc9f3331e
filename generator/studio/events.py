"""Live updates: every open page holds a server-sent event stream; the studio's changes are sent to all of
them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

HEARTBEAT = 15.0  # seconds between comments that keep idle streams open (and notice closed tabs)
_CLOSE = object()


class Broker:
    """Fans events out to every connected page; lives on the server's event loop."""

    def __init__(self):
        self._queues: set[asyncio.Queue] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the loop, so other threads can publish into it."""
        self._loop = loop

    def publish(self, event: dict) -> None:
        """Send an event to every page (safe to call from any thread)."""
        if self._loop is None or self.closed:
            return
        try:
            self._loop.call_soon_threadsafe(self._deliver, event)
        except RuntimeError:  # the loop has closed: the server is stopping
            pass

    def _deliver(self, event) -> None:
        for q in list(self._queues):
            q.put_nowait(event)

    def close(self) -> None:
        """End every stream (the server is stopping); safe to call from any thread."""
        if self.closed:
            return
        self.closed = True
        if self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(self._deliver, _CLOSE)
            except RuntimeError:
                pass

    async def stream(self, hello: Callable[[], dict]) -> AsyncIterator[str]:
        """The text of one page's event stream: a greeting with the current state, then every event."""
        q: asyncio.Queue = asyncio.Queue()
        self._queues.add(q)
        try:
            yield "retry: 1000\n\n"  # reconnect quickly after a restart of the studio
            yield f"data: {json.dumps(hello())}\n\n"
            while not self.closed:
                try:
                    event = await asyncio.wait_for(q.get(), HEARTBEAT)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                if event is _CLOSE:
                    break
                yield f"data: {json.dumps(event)}\n\n"
        finally:
            self._queues.discard(q)
