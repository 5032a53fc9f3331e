"""Rules validator speed: games per second per game and player count, and the wall time of `pnp validate`.

`pnp validate` runs as a user runs it (a whole process, default settings: every script and 1,000 games per player
count of every game on every core). Its results are printed as a digest of its --report JSON: the same seed must
give the same digest, whatever the machine, the number of cores or the commit that only made it faster.
Target: under 30 s on 2 cores. A quick run (`make bench-quick`) plays 100 games per player count.
"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import quick
from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.harness import play_game
from generator.engines.registry import engine_for
from generator.engines.simulate import available_cores, bots_for, derive_seed

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = 200  # games per game and player count for the single-core rate
TARGET_S = 30  # default `pnp validate` (all scripts + 1000 games per player count per game) on 2 cores


def games_per_second() -> None:
    """Single-process rate with the validator's bot line-ups."""
    project = Project(ROOT)
    sample = SAMPLE // 4 if quick() else SAMPLE
    for game_id in project.game_ids():
        game = load_game(project, game_id)
        engine = engine_for(game)
        if engine is None:
            continue
        for players in engine.player_counts:
            started, cpu = time.perf_counter(), time.process_time()
            for index in range(sample):
                play_game(engine, game, players, derive_seed(1, game_id, players, index), bots_for(index, players), log=False)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            # CPU time too: on a busy machine the wall clock says more about the neighbours than about the code
            print(f"{game_id:20} {players} players: {sample / elapsed:6.0f} games/s wall, {sample / cpu:6.0f} games/s "
                  f"per CPU second ({1000 * cpu / sample:.1f} ms CPU/game)")


def validate_wall_time() -> None:
    """The default `pnp validate` of the repository, as a user runs it, and the digest of its results."""
    games = ["--games", "100"] if quick() else []
    with tempfile.TemporaryDirectory(prefix="pnp-bench-validate-") as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "generator", "validate", *games, "--report", str(report)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # includes the worker processes, which validate reaps
        digest = hashlib.sha256(report.read_bytes()).hexdigest()[:16] if report.exists() else "no report"
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    played = next((line for line in result.stdout.splitlines() if line.startswith("Played ")), "no games played")
    status = "ok" if result.returncode == 0 else f"exit {result.returncode}"
    verdict = "" if games else f"; {'ok' if elapsed < TARGET_S else 'over'} the {TARGET_S} s target on 2 cores"
    print(f"pnp validate {' '.join(games) or '(default)'} on {available_cores()} cores, load {load:.1f}: "
          f"{elapsed:.1f} s wall, {cpu:.1f} s CPU (= {cpu / 2:.1f} s on 2 idle cores){verdict} [{status}]")
    print(f"  {played}")
    print(f"  results digest (sha256 of the --report JSON, seed 1): {digest}")


def run() -> None:
    """Print the figures."""
    games_per_second()
    validate_wall_time()
