"""Many seeded games per player count, in parallel, and the composition problems they reveal.

Every game's seed comes from a stable hash of (base seed, game, players, index) and its bots from its index, so
the results are the same whatever the number of worker processes: chunks are played anywhere and put back in
index order before anything is summed.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.data.game import Game
from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.base import Engine
from generator.engines.harness import SETUP, STALLED, play_game, replay_command
from generator.engines.registry import engine_for

CHUNK = 25  # games per task: small enough to balance the load, large enough to keep pickling cheap
BOT_MIX = "even games: every seat greedy; odd games: greedy and random seats alternating, rotating by game"


@dataclass(frozen=True)
class SimSettings:
    """What `pnp validate` was asked to simulate."""

    games: int = 1000
    seed: int = 1
    players: tuple[int, ...] = ()  # empty: every count of ENGINE.player_counts
    jobs: int = 0  # 0: every available core


def derive_seed(base: int, game_id: str, players: int, index: int) -> int:
    """The seed of game `index`: a stable hash (never Python's hash(), which changes per process)."""
    digest = hashlib.sha256(f"{base}/{game_id}/{players}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def bots_for(index: int, players: int) -> list[str]:
    """Half the games all-greedy (seat balance), half greedy against random with seats rotating."""
    if index % 2 == 0:
        return ["greedy"] * players
    return ["random" if (seat + index // 2) % 2 == 0 else "greedy" for seat in range(players)]


def available_cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def player_counts(engine: Engine, settings: SimSettings) -> list[int]:
    """The player counts to simulate: those asked for that the engine supports (all of them by default)."""
    if not settings.players:
        return list(engine.player_counts)
    return sorted(set(settings.players) & set(engine.player_counts))


# -- worker side: each process loads each game once ------------------------------------------------------------------
_LOADED: dict[tuple[str, str], tuple[Game, Engine]] = {}


def _game_and_engine(root: str, game_id: str) -> tuple[Game, Engine]:
    key = (root, game_id)
    if key not in _LOADED:
        game = load_game(Project(Path(root)), game_id)
        _LOADED[key] = (game, engine_for(game))
    return _LOADED[key]


def play_chunk(root: str, game_id: str, players: int, base_seed: int, start: int, stop: int) -> list[dict]:
    """Play games start..stop-1 of one game and player count; plain dicts (cheap to send between processes)."""
    game, engine = _game_and_engine(root, game_id)
    results = []
    for index in range(start, stop):
        seed = derive_seed(base_seed, game_id, players, index)
        bots = bots_for(index, players)
        record = play_game(engine, game, players, seed, bots, log=False)
        results.append({
            "index": index, "seed": seed, "bots": bots, "scores": record.scores, "winners": record.winners,
            "metrics": record.metrics, "failure": record.failure, "kind": record.failure_kind,
            "decisions": record.decisions,
        })
    return results


def _context():
    # fork shares the games already loaded by the parent; elsewhere the platform default re-loads them per worker
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def simulate(project: Project, games: list[tuple[Game, Engine]], settings: SimSettings,
             progress: Callable[[int], None] | None = None) -> dict[str, dict[int, list[dict]]]:
    """Play `settings.games` games per player count of every game: game id -> players -> results by index."""
    root = str(project.root.resolve())
    tasks = []
    for game, engine in games:
        _LOADED[(root, game.id)] = (game, engine)
        for players in player_counts(engine, settings):
            for start in range(0, settings.games, CHUNK):
                tasks.append((root, game.id, players, settings.seed, start, min(start + CHUNK, settings.games)))
    done: list[list[dict] | None] = [None] * len(tasks)
    jobs = min(settings.jobs or available_cores(), len(tasks)) or 1
    if jobs == 1:
        for i, task in enumerate(tasks):
            done[i] = play_chunk(*task)
            if progress:
                progress(task[5] - task[4])
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
            futures = {pool.submit(play_chunk, *task): i for i, task in enumerate(tasks)}
            for future in as_completed(futures):
                i = futures[future]
                try:
                    done[i] = future.result()
                except Exception as exc:  # a worker that died (engine import error, out of memory) names its task
                    raise InputError(Problem("", 0, f"simulating {tasks[i][1]} with {tasks[i][2]} players failed in a "
                                                    f"worker: {type(exc).__name__}: {exc}")) from exc
                if progress:
                    progress(tasks[i][5] - tasks[i][4])
    results: dict[str, dict[int, list[dict]]] = {game.id: {} for game, _ in games}
    for task, chunk in zip(tasks, done, strict=True):
        results[task[1]].setdefault(task[2], []).extend(chunk or [])
    return results


def _card_named(game: Game, card_id: str):
    for deck in game.decks.values():
        for card in deck.cards:
            if card.id == card_id:
                return deck, card
    return None, None


def composition_problems(game: Game, engine: Engine, results: dict[int, list[dict]]) -> list[Problem]:
    """What playing revealed: setup failures, stalls, broken rules (with seeds) and goals never completed."""
    game_file = game.show(game.dir / "game.yaml")
    problems: list[Problem] = []
    for players, games in sorted(results.items()):
        failed = [g for g in games if g["failure"]]
        by_kind: dict[str, list[dict]] = {}
        for g in failed:
            by_kind.setdefault(g["kind"], []).append(g)
        for kind, found in sorted(by_kind.items()):
            first = found[0]
            if kind == SETUP:
                problems.append(Problem(game_file, 0, f"{first['failure']}; expected the game to set up for every "
                                        f"player count of the engine ({', '.join(map(str, engine.player_counts))})"))
                continue
            label = "stalled game" if kind == STALLED else f"{kind} failure"
            problems.append(Problem(game_file, 0, (
                f"{label} in {len(found)} of {len(games)} games with {players} players: {first['failure']}; "
                f"first seed {first['seed']}, replay with: "
                f"{replay_command(game.id, first['seed'], players, first['bots'])}")))
    if engine.goals is None:
        return problems
    played = [g for games in results.values() for g in games if not g["failure"]]
    if not played:
        return problems
    completed = {goal for g in played for goal in g["metrics"].get("completed_goals", [])}
    counts = ", ".join(str(p) for p in sorted(results))
    for goal in engine.goals(game):
        if goal in completed:
            continue
        deck, card = _card_named(game, goal)
        where, line = (card.file, card.line) if card else (game_file, 0)
        name = f"{deck.name} card '{card.name}' ({goal})" if card else f"goal '{goal}'"
        problems.append(Problem(where, line, f"{name} was never completed in {len(played)} simulated games "
                                f"({counts} players); expected every goal to be completable, check what it needs "
                                f"against the decks"))
    return problems
