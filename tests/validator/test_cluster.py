"""The simulation map on a Dask LocalCluster: same results as local processes, a killed worker changes
nothing, and the failures a designer can meet (no scheduler, no Dask) are one line. One cluster for the whole
module."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import threading

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.engines import registry
from generator.engines.registry import engine_for
from generator.validator.cluster import DaskExecutor, executor_for, parse_cluster
from generator.validator.executors import LocalProcesses
from generator.validator.simulate import Run, SimSettings, simulate
from tests.conftest import run_pnp
from tests.fixtures import toy_engine as toy

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    executor = DaskExecutor("local:2")
    yield executor
    executor.close()


def same(a, b) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_cluster_results_equal_local_results_whatever_the_chunk_size(cluster, repo_project):
    game = load_game(repo_project, "short-order-hero")
    runs = [
        Run("hero", game, engine_for(game), {}),
        Run("hero-no-tracker", game, engine_for(game), {"use_tracker": False}),
    ]
    settings = SimSettings(games=24, seed=4, players=(2, 3))
    with LocalProcesses(1) as local:
        expected = simulate(runs, settings, local)
    assert cluster.workers == 2
    assert same(simulate(runs, settings, cluster, size=5), expected)
    assert not same(expected["hero"], expected["hero-no-tracker"])  # the option reached the workers


def test_the_lookahead_bot_plays_the_same_games_on_the_cluster(cluster, repo_project):
    game = load_game(repo_project, "short-order-hero")
    runs = [Run("hero", game, engine_for(game), {}, bots=("lookahead:1", "greedy"))]
    settings = SimSettings(games=2, seed=6, players=(2,))
    with LocalProcesses(1) as local:
        expected = simulate(runs, settings, local)
    found = simulate(runs, settings, cluster, size=1)
    assert same(found, expected) and found["hero"][2][0]["bots"] == ["lookahead:1", "greedy"]


def test_a_worker_killed_mid_run_changes_nothing(cluster, repo_project):
    game = load_game(repo_project, "short-order-hero")
    runs = [Run("hero", game, engine_for(game), {})]
    settings = SimSettings(games=240, seed=9, players=(2,))
    with LocalProcesses(1) as local:
        expected = simulate(runs, settings, local)
    started, finished, out = threading.Event(), [], {}

    def progress(games: int) -> None:
        finished.append(games)
        started.set()

    thread = threading.Thread(
        target=lambda: out.update(results=simulate(runs, settings, cluster, progress, size=10))
    )
    thread.start()
    assert started.wait(120)
    victim = next(iter(cluster.client.nthreads()))
    pid = cluster.client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    killed_at = sum(finished)
    thread.join(300)
    assert killed_at < 240  # the worker died while chunks were still to play
    assert victim not in cluster.client.nthreads()
    assert sum(finished) == 240
    assert same(out["results"], expected)
    cluster.client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next test


def test_validate_on_an_existing_scheduler_writes_the_same_report(cluster, tmp_path):
    registry.register(toy.ENGINE)
    try:
        project = toy.make_toy_project(tmp_path)
        reports = []
        for where in (["--jobs", "1"], ["--cluster", cluster.client.scheduler.address]):
            report = tmp_path / f"report-{len(reports)}.json"
            result = run_pnp(
                "validate", "--games", "30", "--seed", "2", "--report", str(report), *where, project=project
            )
            assert result.exit_code == 0, result.output
            reports.append(report.read_bytes())
        assert "Dask cluster tcp://127.0.0.1:" in result.output
        assert reports[0] == reports[1]
    finally:
        registry.unregister(toy.ENGINE.name)


def test_an_unreachable_scheduler_is_one_line_with_its_address(repo_project):
    address = f"tcp://127.0.0.1:{free_port()}"
    result = run_pnp(
        "sweep",
        "order-up-pizza",
        "--vary",
        "settings.dice=1,2",
        "--games",
        "5",
        "--cluster",
        address,
        project=repo_project,
    )
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"--cluster {address}: cannot reach a Dask scheduler there (")
    assert lines[1:] == ["1 problem found."]


def test_a_scheduler_is_recognised_from_a_thread_that_runs_an_event_loop(cluster):
    """As in Jupyter, or after Playwright's sync API in the same run: asyncio.run would refuse to start."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from generator.validator.cluster import _handshake

    async def inside_a_loop() -> None:
        _handshake(cluster.client.scheduler.address, 10.0)  # raises InputError when it is not recognised

    with ThreadPoolExecutor(1) as pool:  # a thread of its own whatever loop this one may be running
        pool.submit(asyncio.run, inside_a_loop()).result()


@pytest.mark.parametrize("answer", [None, b"HTTP/1.0 400 Bad Request\r\n\r\n"])
def test_a_server_that_is_no_dask_scheduler_is_one_line_not_a_wait(repo_project, answer):
    """Something else listens at the port (a web server, or one that never answers): the Client would wait for
    its handshake for ever; the identity asked first, with a timeout, makes it one line."""
    server = socket.create_server(("127.0.0.1", 0))
    port, held = server.getsockname()[1], []

    def serve():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed: the test is over
                return
            held.append(connection)
            if answer:
                connection.recv(65536)
                connection.sendall(answer)
                connection.close()

    threading.Thread(target=serve, daemon=True).start()
    previous = signal.signal(
        signal.SIGALRM, lambda *_: pytest.fail("still waiting for the server after 60 s")
    )
    signal.alarm(60)
    try:
        address = f"tcp://127.0.0.1:{port}"
        result = run_pnp(
            "validate", "order-up-pizza", "--games", "5", "--cluster", address, project=repo_project
        )
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        server.close()
        for connection in held:
            connection.close()
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert (
        lines[0].startswith(f"--cluster {address}: cannot reach a Dask scheduler there (")
        and "Dask scheduler" in lines[0]
    )
    assert lines[1:] == ["1 problem found."]


@pytest.mark.parametrize("text, expected", [
    ("local:2", ("local", 2)), ("tcp://127.0.0.1:8786", ("scheduler", "tcp://127.0.0.1:8786")),
    ("localhost:8786", ("scheduler", "tcp://localhost:8786")), ("[::1]:8786", ("scheduler", "tcp://[::1]:8786")),
])
def test_cluster_addresses(text, expected):
    assert parse_cluster(text) == expected


@pytest.mark.parametrize("text", ["local:0", "local:two", "tcp://host", "http://host:80", "tcp://:80",
                                  "tcp://[::1:8786", "[::1", "tcp://host:99999", "tcp://[zz]:1"])
def test_bad_cluster_addresses_are_one_line(text):
    with pytest.raises(InputError) as caught:
        parse_cluster(text)
    assert str(caught.value).startswith(f"--cluster {text}: expected ")
    assert "\n" not in str(caught.value)


def test_an_unclosed_ipv6_scheduler_address_is_one_located_line(tmp_path):
    """No internal error: urllib's ValueError becomes the option's own line."""
    from tests.conftest import run_pnp
    from tests.fixtures import toy_engine as toy

    with toy.registered_project(tmp_path) as project:
        result = run_pnp("validate", "toy", "--cluster", "tcp://[::1:8786", project=project.root)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.splitlines() == [
        "--cluster tcp://[::1:8786: expected tcp://HOST:PORT of a running Dask scheduler (Invalid IPv6 URL), "
        "e.g. tcp://[::1]:8786 for an IPv6 address, or local:N for N workers on this machine",
        "1 problem found."]


def test_without_dask_the_cluster_option_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now raises ImportError
    with pytest.raises(InputError) as caught:
        executor_for(0, "local:2")
    assert str(caught.value) == (
        "--cluster needs Dask distributed, an optional part of pnp-forge; install it with: "
        "pip install 'pnp-forge[cluster]'"
    )
    assert isinstance(executor_for(1, None), LocalProcesses)
