"""The simulation map on a Dask cluster: `--cluster tcp://HOST:PORT` (a running scheduler) or `--cluster
local:N`.

Dask distributed is an optional extra (`pip install 'pnp-forge[cluster]'`) imported only here. Each run's game
data is scattered once to every worker (not sent with each task), chunks are tasks of up to thousands of
games, and a chunk whose worker is lost is played again elsewhere by the scheduler: a game depends only on its
seed, so the results are the same as on local processes.
"""

from __future__ import annotations

import hashlib
import logging
import socket
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

from generator.core.errors import InputError, Problem
from generator.engines.project_code import engine_module, first_line, package_code
from generator.validator.executors import Executor, LocalProcesses, Payloads, Pending, Progress, failed_chunk
from generator.validator.simulate import Chunk, play_chunk_packed, unpack

# seconds in all to reach a scheduler and see a worker before giving up (one line by 10 s)
CONNECT_TIMEOUT = 8.0
INSTALL = "pip install 'pnp-forge[cluster]'"


def _distributed():
    try:
        import distributed
    except ImportError:
        raise InputError(
            Problem(
                "",
                0,
                f"--cluster needs Dask distributed, an optional part of pnp-forge; install it "
                f"with: {INSTALL}",
            )
        ) from None
    return distributed


def parse_cluster(text: str) -> tuple[str, int | str]:
    """('local', N) for `local:N`, else ('scheduler', 'tcp://HOST:PORT'); a one-line error for anything
    else."""
    text = text.strip()
    if text.startswith("local:"):
        count = text.removeprefix("local:")
        if count.isdigit() and int(count) >= 1:
            return "local", int(count)
        raise InputError(
            Problem("", 0, f"--cluster {text}: expected local:N with N workers, a whole number >= 1")
        )
    address = text if "://" in text else f"tcp://{text}"
    why = ""
    try:  # an unclosed '[' of an IPv6 address, a port out of range: urllib's ValueError, said in one line
        parts = urlsplit(address)
        port, host = parts.port, parts.hostname
    except ValueError as exc:
        parts, port, host, why = None, None, None, f" ({exc})"
    if parts is None or parts.scheme not in ("tcp", "tls") or not host or port is None:
        raise InputError(
            Problem(
                "",
                0,
                f"--cluster {text}: expected tcp://HOST:PORT of a running Dask scheduler{why}, "
                f"e.g. tcp://[::1]:8786 for an IPv6 address, or local:N for N workers on this machine",
            )
        )
    return "scheduler", address


def _left(deadline: float) -> float:
    """Seconds left before `deadline` (at least a moment, so the last step is still tried)."""
    return max(0.5, deadline - time.monotonic())


def _unreachable(address: str, reason: str) -> InputError:
    return InputError(
        Problem(
            "",
            0,
            f"--cluster {address}: cannot reach a Dask scheduler there ({reason}); expected "
            f"one running (dask scheduler) and reachable from this machine",
        )
    )


def _probe(address: str, timeout: float) -> None:
    """Fail at once when nothing listens at the address (Dask itself would retry until its timeout)."""
    parts = urlsplit(address)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=timeout).close()
    except OSError as exc:
        raise _unreachable(address, exc.strerror or type(exc).__name__) from None


def _handshake(address: str, timeout: float) -> None:
    """Ask what listens at the address for its identity, as a Dask scheduler answers, within `timeout`
    seconds: a server of another kind (or one that never answers) is a one-line error here instead of a Client
    that waits for ever for its answer (and reports its failure from its destructor when the process ends)."""
    import asyncio

    from distributed.core import rpc

    async def identity() -> dict:
        remote = rpc(address, timeout=timeout)
        try:
            return await asyncio.wait_for(remote.identity(), timeout)
        finally:
            await remote.close_rpc()

    try:
        # on a thread of its own: the caller's thread may be running an event loop already (Jupyter, an app
        # embedding pnp, Playwright's sync API), where asyncio.run refuses to start another
        with ThreadPoolExecutor(1, thread_name_prefix="pnp-dask-handshake") as pool:
            answer = pool.submit(asyncio.run, identity()).result()
    except TimeoutError:
        raise _unreachable(address, f"nothing answered as a Dask scheduler within {timeout:.0f} s") from None
    except Exception as exc:  # noqa: BLE001 - whatever the other end sent: one line
        raise _unreachable(
            address, f"what answers there is not a Dask scheduler: {type(exc).__name__}"
        ) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        kind = answer.get("type") if isinstance(answer, dict) else type(answer).__name__
        raise _unreachable(address, f"what answers there is a {kind}, not a Dask scheduler")


class DaskExecutor(Executor):
    """Chunks as Dask tasks on an existing scheduler's workers, or on a LocalCluster started here."""

    def __init__(self, spec: str, timeout: float = CONNECT_TIMEOUT):
        kind, where = parse_cluster(spec)
        distributed = _distributed()
        self.cluster = None
        self.uploaded: set[str] = set()  # the engine archives sent to this cluster's workers
        if kind == "local":
            self.cluster = distributed.LocalCluster(n_workers=where, threads_per_worker=1, processes=True,
                                                    host="127.0.0.1", dashboard_address=None,
                                                    silence_logs=logging.ERROR)
            self.client = distributed.Client(self.cluster, set_as_default=False)
            self.address = spec
        else:
            self.address = str(where)
            deadline = time.monotonic() + timeout
            _probe(self.address, timeout / 2)
            _handshake(self.address, _left(deadline) / 2)
            try:
                self.client = distributed.Client(self.address, timeout=_left(deadline), set_as_default=False)
            # OSError, TimeoutError or a failed handshake: all one line
            except Exception as exc:  # noqa: BLE001
                raise _unreachable(
                    self.address, str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                ) from None
            timeout = _left(deadline)
        try:
            self.client.wait_for_workers(1, timeout=timeout)
        except Exception:  # noqa: BLE001 - dask raises TimeoutError here
            self.close()
            raise InputError(
                Problem(
                    "",
                    0,
                    f"--cluster {self.address}: the scheduler has no workers; expected "
                    f"`dask worker {self.address}` running somewhere",
                )
            ) from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def describe(self) -> str:
        return f"Dask cluster {self.address}, {self.workers} worker thread{'s' if self.workers != 1 else ''}"

    def start(self, payloads: Payloads, chunks: list[Chunk]) -> Pending:
        self._upload_engines(payloads)
        return _DaskRun(self.client, payloads, chunks)

    def _upload_engines(self, payloads: Payloads) -> None:
        """Send the code of every project engine the games need to every worker (and to workers that join
        later), once per version: the workers import it from there when the games' data arrives, as this
        process did."""
        for _game, engine, _options in payloads.values():
            known = engine_module(engine)
            if known is None:
                continue
            code = package_code(known)
            name = f"{known.module}-{hashlib.sha256(code).hexdigest()[:12]}.zip"
            if name in self.uploaded:
                continue
            with tempfile.TemporaryDirectory(prefix="pnp-engine-") as folder:
                archive = Path(folder) / name
                archive.write_bytes(code)
                try:
                    self.client.upload_file(str(archive), load=True)
                except Exception as exc:  # noqa: BLE001 - the workers' import error, whatever it is: one line
                    raise InputError(
                        Problem(
                            "",
                            0,
                            f"--cluster {self.address}: the workers could not import the "
                            f"rules engine {known.path.name} ({type(exc).__name__}: "
                            f"{first_line(exc)}); expected the same pnp and Python "
                            "there as here",
                        )
                    ) from None
            self.uploaded.add(name)

    def map(self, payloads: Payloads, chunks: list[Chunk], progress: Progress = None) -> list[list[dict]]:
        with self.start(payloads, chunks) as pending:
            return pending.results(progress)

    def close(self) -> None:
        client, self.client = getattr(self, "client", None), None
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


class _DaskRun(Pending):
    """Chunks submitted as tasks at once; their results are taken as they come."""

    def __init__(self, client, payloads: Payloads, chunks: list[Chunk]):
        self.client, self.chunks = client, chunks
        # task keys of this map only, so two runs on one scheduler never share results
        run = uuid.uuid4().hex[:12]
        # Sent once to every worker; a worker that joins later fetches it from a peer when a task needs it.
        self.data = {
            key: client.scatter([payload], broadcast=True, hash=False)[0] for key, payload in payloads.items()
        }
        self.futures = {
            client.submit(
                play_chunk_packed, self.data[chunk.key], chunk, key=f"pnp-chunk-{run}-{i}", pure=False
            ): i
            for i, chunk in enumerate(chunks)
        }
        self.done: list[list[dict] | None] = [None] * len(chunks)

    def _take(self, future, progress: Progress) -> None:
        i = self.futures.pop(future)
        try:
            self.done[i] = unpack(future.result())
        except Exception as exc:  # noqa: BLE001 - name the chunk instead of a traceback
            raise failed_chunk(self.chunks[i], exc) from exc
        future.release()
        if progress:
            progress(self.chunks[i].games)

    def poll(self, progress: Progress = None) -> None:  # a failed chunk is left for results() to report
        for future in [future for future in self.futures if future.status == "finished"]:
            self._take(future, progress)

    def results(self, progress: Progress = None) -> list[list[dict]]:
        try:
            for future in _distributed().as_completed(list(self.futures), loop=self.client.loop):
                if future in self.futures:
                    self._take(future, progress)
        finally:
            self.cancel()
        return self.done  # type: ignore[return-value]

    def cancel(self) -> None:
        if self.futures or self.data:
            self.client.cancel(list(self.futures) + list(self.data.values()))
            self.futures, self.data = {}, {}


def executor_for(jobs: int = 0, cluster: str | None = None) -> Executor:
    """Local processes (`--jobs`), or a Dask cluster for `--cluster tcp://HOST:PORT` / `--cluster local:N`."""
    return DaskExecutor(cluster) if cluster else LocalProcesses(jobs)
