"""A Dask scheduler and a worker as separate processes on 127.0.0.1, as a designer starts them (`dask
scheduler`, `dask worker`): the worker runs in a folder of its own, so it imports only what is installed or
sent to it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import REPO

# a loaded machine starts a Python process with Dask in a few seconds; wait for the condition
START_SECONDS = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _workers(address: str) -> int:
    from distributed import Client

    with Client(address, timeout=10, set_as_default=False) as client:
        return len(client.scheduler_info()["workers"])


@contextmanager
def running_scheduler(folder: Path) -> Iterator[str]:
    """A scheduler with one single-threaded worker; yields the scheduler's address, stops both afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # pnp itself, as installed; never the project's folder
    scheduler = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-dashboard",
        ],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "distributed.cli.dask_worker",
            address,
            "--nthreads",
            "1",
            "--nworkers",
            "1",
            "--no-dashboard",
            "--local-directory",
            str(folder),
        ],
        cwd=folder,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if _workers(address) >= 1:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or scheduler.poll() is not None or worker.poll() is not None:
                raise RuntimeError(f"no Dask scheduler with a worker at {address} within {START_SECONDS} s")
            time.sleep(0.2)
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
        for process in (worker, scheduler):
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
