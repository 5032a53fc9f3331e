"""Rules validator speed: games per second per game and player count, and the wall time of `pnp validate`.

`pnp validate` runs as a user runs it (a whole process, default settings: every script, and games at every
player count of every game until each win rate by turn position is known to ±3 pp at 95 %, on every core), as
`make validate` runs it (every game of the repository) and for the three games with engines of their own (Short
Order Hero, Order Up and its trading game). Its wall and CPU time (its own and its workers') are printed, and
its results as a digest of its --report JSON: the same seed must give the same digest, whatever the machine,
the number of cores or the commit that only made it faster. Target: under 30 s on 2 idle cores for the three
games.
A quick run (`make bench-quick`) plays 100 games per player count.
Then where its time goes, measured in this process: how long the checks keep the games waiting (the games start
once the data is loaded; the checks run while the workers play), and how long each worker waits for work.
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
from generator.validator import executors
from generator.validator.harness import play_game
from generator.engines.registry import engine_for
from generator.validator.simulate import SimSettings, available_cores, bots_for, derive_seed
from generator.validator.stopping import Stopping
from generator.pipeline.validate import validate

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = 200  # games per game and player count for the single-core rate
TARGET_S = 30  # default `pnp validate` of the three games with engines of their own, on 2 idle cores
ENGINE_GAMES = ("short-order-hero", "order-up-pizza", "order-up-trading")


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


def validate_wall_time(names: tuple[str, ...] = ()) -> None:
    """The default `pnp validate` of these games (all of the repository's by default), as a user runs it, and
    the digest of its results."""
    games = ["--games", "100"] if quick() else []
    with tempfile.TemporaryDirectory(prefix="pnp-bench-validate-") as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "generator", "validate", *names, *games, "--report", str(report)]
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
    # on a shared machine the wall clock says more about the neighbours: half the CPU time is what 2 idle
    # cores would take (the workers and this run's checks share them)
    verdict = "" if games or not names else \
        f"; {'ok' if cpu / 2 < TARGET_S else 'over'} the {TARGET_S} s target on 2 idle cores"
    print(f"pnp validate {' '.join(names) or '(every game)'} {' '.join(games) or '(default)'} on "
          f"{available_cores()} cores, load {load:.1f}: {elapsed:.1f} s wall, {cpu:.1f} s CPU "
          f"(= {cpu / 2:.1f} s on 2 idle cores){verdict} [{status}]")
    print(f"  {played}")
    for line in result.stdout.splitlines():
        if line.startswith("  seat wins "):  # how sure the default run got, per game
            print(f"  {line.strip()}")
    print(f"  results digest (sha256 of the --report JSON, seed 1): {digest}")


_SPANS: list[Path] = []  # where the forked workers note when they play each chunk (set before validate forks them)
_PLAY = executors._play_installed  # noqa: SLF001 - the worker's task, timed below


def _timed_chunk(chunk):
    started, cpu = time.perf_counter(), time.process_time()
    games = _PLAY(chunk)
    with open(_SPANS[0], "a", encoding="utf-8") as spans:  # one short line per chunk: appends do not interleave
        spans.write(f"{os.getpid()} {started} {time.perf_counter()} {time.process_time() - cpu}\n")
    return games


def validate_timeline() -> None:
    """The default validate in this process (2 workers): when the first game starts, each round's workers' busy
    and idle time, and the parent's own CPU time."""
    settings = SimSettings(games=100, jobs=2) if quick() else SimSettings(jobs=2, stopping=Stopping())
    with tempfile.TemporaryDirectory(prefix="pnp-bench-validate-") as folder:
        _SPANS[:] = [Path(folder) / "spans"]
        executors._play_installed = _timed_chunk  # noqa: SLF001 - the forked workers inherit it
        try:
            project = Project(ROOT)
            started, cpu = time.perf_counter(), time.process_time()
            result = validate(project, project.select(()), settings)
            ended, cpu = time.perf_counter(), time.process_time() - cpu
        finally:
            executors._play_installed = _PLAY  # noqa: SLF001
        spans = [line.split() for line in _SPANS[0].read_text(encoding="utf-8").splitlines()]
    first = min(float(span[1]) for span in spans)
    last = max(float(span[2]) for span in spans)
    games = "100 games per player count" if quick() else f"{result.games_played} games until ±3 pp"
    print(f"  timeline ({games}, 2 workers, {len(spans)} chunks, load {os.getloadavg()[0]:.1f}): "
          f"first game {first - started:.2f} s after validate started, games {last - first:.1f} s, validate "
          f"{ended - started:.1f} s; parent CPU {cpu:.1f} s [{'ok' if result.ok else 'problems'}]")
    # the default run plays in rounds, each on workers forked for it: a worker's idle time is within its round
    lives = {}
    for pid in {span[0] for span in spans}:
        mine = [span for span in spans if span[0] == pid]
        lives[pid] = (min(float(s[1]) for s in mine), max(float(s[2]) for s in mine), mine)
    rounds: list[list[str]] = []
    for pid in sorted(lives, key=lambda p: lives[p][0]):
        if rounds and lives[pid][0] < max(lives[p][1] for p in rounds[-1]):
            rounds[-1].append(pid)
        else:
            rounds.append([pid])
    for number, pids in enumerate(rounds, 1):
        begin, end = min(lives[p][0] for p in pids), max(lives[p][1] for p in pids)
        print(f"    round {number}: {end - begin:.1f} s")
        for pid in pids:
            _, done, mine = lives[pid]
            busy = sum(float(span[2]) - float(span[1]) for span in mine)
            print(f"      worker {pid}: {len(mine)} chunks, busy {busy:.1f} s "
                  f"({sum(float(s[3]) for s in mine):.1f} s CPU), idle {end - begin - busy:.2f} s of which "
                  f"{end - done:.2f} s waiting for the round's last chunk")


def run() -> None:
    """Print the figures."""
    games_per_second()
    validate_wall_time()
    validate_wall_time(ENGINE_GAMES)
    validate_timeline()
