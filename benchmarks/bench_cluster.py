"""Simulation throughput on a Dask cluster against local processes, measured in the same run.

100,000 games of Short Order Hero (2 players, the validator's bot line-ups) through the simulation map twice: on
local processes (one per core) and through `--cluster local:2` (a Dask LocalCluster with 2 worker processes,
started inside the timing, as `pnp sweep --cluster local:2` starts it). Target: the cluster keeps >= 80% of the
local-process throughput. `PNP_BENCH_CLUSTER_GAMES` changes the number of games (a quick run plays 5,000).
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import resource
import time
from pathlib import Path

from benchmarks import quick
from generator.data.load import load_game
from generator.data.project import Project
from generator.validator.cluster import executor_for
from generator.engines.registry import engine_for
from generator.validator.simulate import Run, SimSettings, available_cores, simulate

ROOT = Path(__file__).resolve().parents[1]
GAMES = int(os.environ.get("PNP_BENCH_CLUSTER_GAMES", "5000" if quick() else "100000"))
TARGET = 0.80


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measure(label: str, cluster: str | None, runs: list[Run], settings: SimSettings) -> tuple[float, float, str]:
    """Games per second of wall time and of CPU time, and a digest of the results (the results themselves are not
    kept: a second measurement holding the first one's 100,000 games would pay for them in every garbage collection)."""
    started, cpu = time.perf_counter(), _cpu()
    executor = executor_for(0, cluster)
    try:
        results = simulate(runs, settings, executor)
    finally:
        executor.close()
    elapsed, cpu = time.perf_counter() - started, _cpu() - cpu
    rate = GAMES / elapsed
    # CPU too: on a shared machine the wall clock also measures the neighbours
    print(f"{label:34} {GAMES} games in {elapsed:6.1f} s: {rate:6.0f} games/s ({cpu:.0f} s CPU counted)")
    digest = hashlib.sha256(json.dumps(results, sort_keys=True).encode()).hexdigest()
    del results
    gc.collect()
    return rate, GAMES / cpu, digest


def run() -> None:
    """Print both throughputs and their ratio against the target."""
    project = Project(ROOT)
    game = load_game(project, "short-order-hero")
    runs = [Run("hero", game, engine_for(game), {})]
    settings = SimSettings(games=GAMES, seed=1, players=(2,))
    local, local_cpu, local_digest = _measure(f"local processes ({available_cores()})", None, runs, settings)
    cluster, cluster_cpu, cluster_digest = _measure("Dask LocalCluster (local:2)", "local:2", runs, settings)
    status = "ok" if cluster >= TARGET * local else "BELOW TARGET"
    print(f"cluster / local throughput: {cluster / local:.2f} wall (target >= {TARGET:.2f}) [{status}], "
          f"{cluster_cpu / local_cpu:.2f} per CPU second; results identical: {cluster_digest == local_digest}")
