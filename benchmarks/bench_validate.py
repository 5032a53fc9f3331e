"""Rules validator speed: games per second per game and player count, and the wall time of `pnp validate`."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from pathlib import Path

from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.harness import play_game
from generator.engines.registry import engine_for
from generator.engines.simulate import available_cores, bots_for, derive_seed

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = 200  # games per game and player count for the single-core rate
TARGET_S = 60  # default `pnp validate` (all scripts + 1000 games per player count per game) on 2 cores


def games_per_second() -> None:
    """Single-process rate with the validator's bot line-ups."""
    project = Project(ROOT)
    for game_id in project.game_ids():
        game = load_game(project, game_id)
        engine = engine_for(game)
        if engine is None:
            continue
        for players in engine.player_counts:
            started, cpu = time.perf_counter(), time.process_time()
            for index in range(SAMPLE):
                play_game(engine, game, players, derive_seed(1, game_id, players, index), bots_for(index, players), log=False)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            # CPU time too: on a busy machine the wall clock says more about the neighbours than about the code
            print(f"{game_id:20} {players} players: {SAMPLE / elapsed:6.0f} games/s wall, {SAMPLE / cpu:6.0f} games/s "
                  f"per CPU second ({1000 * cpu / SAMPLE:.1f} ms CPU/game)")


def validate_wall_time() -> None:
    """The default `pnp validate` of the repository, as a user runs it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "generator", "validate"], cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # includes the worker processes, which validate reaps
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    played = next((line for line in result.stdout.splitlines() if line.startswith("Played ")), "no games played")
    status = "ok" if result.returncode == 0 else f"exit {result.returncode}"
    print(f"pnp validate (default, {available_cores()} cores): {elapsed:.1f} s wall, {cpu:.1f} s CPU "
          f"(= {cpu / 2:.1f} s on 2 idle cores); target < {TARGET_S} s on 2 cores [{status}]")
    print(f"  {played}")


def run() -> None:
    """Print the figures."""
    games_per_second()
    validate_wall_time()
