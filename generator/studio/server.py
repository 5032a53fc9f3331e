"""`pnp serve` as a library function: the studio's web app on uvicorn, the file watcher, and a clean stop.

The socket is bound here (not by uvicorn) so a port in use is one clear line and port 0 picks a free port. A
stop (Ctrl+C, or `StudioServer.stop()` from a test) first ends the event streams, which would otherwise keep
uvicorn waiting for the open pages, then the watcher and the drawing thread.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import threading
from contextlib import aclosing

import uvicorn

from generator.core.errors import InputError, Problem
from generator.data.project import Project
from generator.pipeline.watch import (
    ROOT_POLL_S,
    relevant_changes,
    replaced_roots,
    root_identity,
    watched_roots,
)
from generator.studio.app import StudioApp, create_app
from generator.studio.state import Studio, StudioReport
from generator.studio.views import DEFAULT_EDITOR

WATCH_DEBOUNCE_MS = 60  # a save is usually one write; an editor's write-rename pair lands within this


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port, or a located error naming the port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(Problem("", 0, f"--port {port}: the port is in use (another `pnp serve`?); "
                                            "expected a free port, e.g. --port 0 for any free one")) from None
        raise InputError(Problem("", 0, f"--host {host}: cannot listen there ({exc.strerror}); expected an "
                                        "address of this computer such as 127.0.0.1")) from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


class _Server(uvicorn.Server):
    """uvicorn, told to end the event streams as soon as it is asked to stop."""

    def __init__(self, config: uvicorn.Config, on_exit):
        super().__init__(config)
        self._on_exit = on_exit

    def handle_exit(self, sig, frame) -> None:
        self._on_exit()
        super().handle_exit(sig, frame)

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        self.on_started()

    def on_started(self) -> None:  # replaced per instance
        pass


class StudioServer:
    """The studio running on one socket: `run()` in the main thread (Ctrl+C stops it) or `start()` in a
    thread."""

    def __init__(  # noqa: PLR0913 - each of `pnp serve`'s options, as keywords with defaults, like the command
        self,
        project: Project,
        names: list[str] | None = None,
        host: str = "127.0.0.1",
        port: int = 8000,
        editor: str = DEFAULT_EDITOR,
        report: StudioReport | None = None,
        debug: bool = False,
        allow_hosts: tuple[str, ...] = (),
        editor_schemes: tuple[str, ...] = (),
    ):
        self.project = project
        self.host = host
        studio = Studio(project, names, report, debug)
        # a bad --editor is refused before the port is taken
        web = create_app(studio, editor, host, allow_hosts, editor_schemes, debug)
        self.socket = bind(host, port)
        self.port = self.socket.getsockname()[1]
        self.studio = studio
        self.web: StudioApp = web
        self.started = threading.Event()
        self._stop_watching: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        config = uvicorn.Config(self.web.app, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=3, ws="none")
        self.server = _Server(config, self._closing)
        self.server.on_started = self._on_started
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def _on_started(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop_watching = asyncio.Event()
        self._loop.create_task(self._watch(self._stop_watching))
        self.studio.start()
        self.started.set()

    def _closing(self) -> None:
        """First step of a stop: end the streams and the watcher (may run in a signal handler)."""
        self.web.broker.close()
        if self._loop is not None and self._stop_watching is not None:
            self._loop.call_soon_threadsafe(self._stop_watching.set)

    async def _watch(self, stop: asyncio.Event) -> None:
        """Refresh on every save; a cards/ or templates/ folder replaced as a whole (a branch switch) is
        watched anew and every game read again from it (generator.pipeline.watch)."""
        from watchfiles import awatch

        identity = root_identity(self.project)
        while not stop.is_set():
            roots = [str(p) for p in watched_roots(self.project)]
            if roots:
                # yield_on_timeout: a quiet interval comes back empty, so a replaced folder is noticed
                batches = awatch(*roots, stop_event=stop, debounce=WATCH_DEBOUNCE_MS, step=20,
                                 rust_timeout=200, yield_on_timeout=True)
                async with aclosing(batches):  # closed at once when the folder is replaced
                    async for changes in batches:
                        if root_identity(self.project) != identity:
                            break
                        changed = relevant_changes(self.project, changes)
                        if changed:
                            self.studio.request_refresh(changed)
            else:  # cards/ is away (mid-checkout): look again shortly
                try:
                    await asyncio.wait_for(stop.wait(), ROOT_POLL_S)
                except TimeoutError:
                    pass
            now = root_identity(self.project)
            if now != identity and not stop.is_set():
                identity = now
                self.studio.request_refresh(replaced_roots(self.project))

    def run(self) -> None:
        """Serve until Ctrl+C (or stop()); returns after a clean shutdown."""
        try:
            self.server.run(sockets=[self.socket])
        except KeyboardInterrupt:  # uvicorn re-raises the Ctrl+C it handled, once it has shut down
            pass
        finally:
            self.studio.stop()
            self.socket.close()

    def start(self, timeout: float = 30.0) -> StudioServer:
        """Serve from a background thread (tests, benchmarks); returns once the socket answers."""
        self._thread = threading.Thread(target=self.run, name="pnp-studio-server", daemon=True)
        self._thread.start()
        if not self.started.wait(timeout):
            raise RuntimeError("the studio did not start")
        return self

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving, as Ctrl+C does, and wait for it."""
        self._closing()
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)


def serve(  # noqa: PLR0913 - each of `pnp serve`'s options, as keywords with defaults, like the command
    project: Project, names: list[str], host: str = "127.0.0.1", port: int = 8000,
    editor: str = DEFAULT_EDITOR, report: StudioReport | None = None, on_ready=None,
    debug: bool = False, allow_hosts: tuple[str, ...] = (), editor_schemes: tuple[str, ...] = (),
) -> None:
    """Run the studio until Ctrl+C; `on_ready(url)` is called once it answers."""
    logging.getLogger("uvicorn.error").setLevel(logging.WARNING)
    server = StudioServer(project, names, host, port, editor, report, debug, allow_hosts, editor_schemes)
    if on_ready is not None:
        original = server._on_started

        def ready() -> None:
            original()
            on_ready(server.url)

        server.server.on_started = ready
    server.run()
