"""Many seeded games per player count, in parallel, and the composition problems they reveal.

Every game's seed comes from a stable hash of (base seed, game, players, index) and its bots from its index,
so the results are the same whatever the number of worker processes: chunks are played anywhere and put back
in index order before anything is summed.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field

from generator.core.errors import Problem
from generator.data.game import Game
from generator.engines.base import Engine
from generator.validator.harness import SETUP, STALLED, play_game, replay_command
from generator.validator.stopping import Stopping, first_batch, next_total

# Games per task: enough tasks per worker that no worker waits long for the last one (tasks are handed out as
# workers
# free up, and the last tasks are smaller still), each large enough that scheduling and sending the results
# cost
# little beside playing (a cluster's scheduler pays milliseconds per task, a pool well under one; a game costs
# 2-15 ms, sending its result about 0.03 ms).
TASKS_PER_WORKER = 40
MIN_CHUNK, MAX_CHUNK = 25, 2000
TAIL_SPLIT = 4  # the last tasks (one round per worker) are split in this many, so the workers finish together
BOT_MIX = "even games: every seat greedy; odd games: greedy and random seats alternating, rotating by game"


@dataclass(frozen=True)
class SimSettings:
    """What `pnp validate` was asked to simulate."""

    games: int = 1000
    seed: int = 1
    players: tuple[int, ...] = ()  # empty: every count of ENGINE.player_counts
    jobs: int = 0  # 0: every available core (local processes; a cluster has its own workers)
    # the default run: batches until the seat figures are this sure (validator.stopping); `games` unused then
    stopping: Stopping | None = None


def derive_seed(base: int, game_id: str, players: int, index: int) -> int:
    """The seed of game `index`: a stable hash (never Python's hash(), which changes per process)."""
    digest = hashlib.sha256(f"{base}/{game_id}/{players}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def bots_for(index: int, players: int) -> list[str]:
    """Half the games all-greedy (seat balance), half greedy against random with seats rotating."""
    if index % 2 == 0:
        return ["greedy"] * players
    return ["random" if (seat + index // 2) % 2 == 0 else "greedy" for seat in range(players)]


def seated(bots: tuple[str, ...], players: int) -> list[str]:
    """A run's bots in every seat: one name plays them all, else one name per seat."""
    return list(bots) * players if len(bots) == 1 else list(bots)


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


@dataclass(frozen=True)
class Run:
    """One game to simulate: the loaded game (perhaps a variant with `--set` changes), its engine and rule
    options.

    `key` tells runs apart in one simulation (a game id, or a sweep's variant); seeds come from `game.id`, so
    every variant of a sweep plays the same seeds and their differences come from the rules, not from luck."""

    key: str
    game: Game
    engine: Engine
    options: dict = field(default_factory=dict)
    # one bot name for every seat (e.g. 'lookahead:16' for `validate --strength`, `sweep --bots`), or one per
    # seat; empty: the validator's mix of BOT_MIX
    bots: tuple[str, ...] = ()

    def payload(self) -> tuple[Game, Engine, dict]:
        """What a worker needs to play this run's games, sent to each worker once."""
        return self.game, self.engine, dict(self.options)


@dataclass(frozen=True)
class Chunk:
    """Games start..stop-1 of one run and player count: one task of the simulation map."""

    key: str
    game_id: str
    players: int
    base_seed: int
    start: int
    stop: int
    bots: tuple[str, ...] = ()  # the run's bots (Run.bots); empty: bots_for(index)

    @property
    def games(self) -> int:
        return self.stop - self.start


def play_chunk(payload: tuple[Game, Engine, dict], chunk: Chunk) -> list[dict]:
    """Play one chunk; plain dicts (cheap to send between processes), in index order."""
    game, engine, options = payload
    results = []
    for index in range(chunk.start, chunk.stop):
        seed = derive_seed(chunk.base_seed, chunk.game_id, chunk.players, index)
        bots = seated(chunk.bots, chunk.players) if chunk.bots else bots_for(index, chunk.players)
        record = play_game(engine, game, chunk.players, seed, bots, options, log=False)
        results.append({
            "index": index, "seed": seed, "bots": bots, "scores": record.scores, "winners": record.winners,
            "metrics": record.metrics, "failure": record.failure, "kind": record.failure_kind,
            "decisions": record.decisions, "score_track": record.score_track,
        })
    return results


def play_chunk_packed(payload: tuple[Game, Engine, dict], chunk: Chunk) -> bytes:
    """`play_chunk` for a worker process: the results as one bytes object, which the parent opens with
    `unpack`."""
    return pickle.dumps(play_chunk(payload, chunk), protocol=pickle.HIGHEST_PROTOCOL)


def unpack(packed: bytes) -> list[dict]:
    """The results of `play_chunk_packed`, made with the cyclic garbage collector paused.

    The results hold no reference cycles, and every collection that making them would trigger walks all the
    results this process keeps so far: measured with 40,000 games kept, unpickling took six times longer with
    the collector running (a Dask cluster's results, unpickled by Dask itself, cost the parent 0.08 ms per
    game)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(packed)
    finally:
        if collecting:
            gc.enable()


def chunk_size(total_games: int, workers: int) -> int:
    """Games per task: about TASKS_PER_WORKER tasks per worker, within MIN_CHUNK..MAX_CHUNK games."""
    return max(MIN_CHUNK, min(MAX_CHUNK, -(-total_games // max(1, workers * TASKS_PER_WORKER))))


def plan_chunks(runs: list[Run], settings: SimSettings, size: int) -> list[Chunk]:
    """Every chunk of every run and player count, in a fixed order (the order results are put back in)."""
    chunks = []
    for run in runs:
        for players in player_counts(run.engine, settings):
            for start in range(0, settings.games, size):
                chunks.append(
                    Chunk(run.key, run.game.id, players, settings.seed, start,
                          min(start + size, settings.games), run.bots)
                )
    return chunks


def finer_tail(chunks: list[Chunk], workers: int) -> list[Chunk]:
    """The same games with the last round of tasks (one per worker) split TAIL_SPLIT ways: while one worker
    plays the last task the others would wait, so the last ones are short. Same order of games."""
    if workers <= 1:
        return chunks
    head, tail = chunks[:-workers], chunks[-workers:]
    for chunk in tail:
        step = -(-chunk.games // TAIL_SPLIT)
        head += [
            Chunk(chunk.key, chunk.game_id, chunk.players, chunk.base_seed, start,
                  min(start + step, chunk.stop), chunk.bots)
            for start in range(chunk.start, chunk.stop, step)
        ]
    return head


class Simulation:
    """Games being played on an executor (`start_simulation`); `results()` waits for them and puts them in
    order.

    Use as a context manager: leaving it before the results are in stops the games (no worker left behind)."""

    def __init__(self, runs: list[Run], chunks: list[Chunk], executor):
        self.runs, self.chunks = runs, chunks
        self.pending = executor.start({run.key: run.payload() for run in runs}, chunks)

    def poll(self, progress: Callable[[int], None] | None = None) -> None:
        """Report the games finished so far to `progress`, without waiting."""
        self.pending.poll(progress)

    def results(self, progress: Callable[[int], None] | None = None) -> dict[str, dict[int, list[dict]]]:
        """Run key -> players -> results by index, once every game is played; `progress(n)` as chunks
        finish."""
        done = self.pending.results(progress)
        results: dict[str, dict[int, list[dict]]] = {run.key: {} for run in self.runs}
        for chunk, games in zip(self.chunks, done, strict=True):
            results[chunk.key].setdefault(chunk.players, []).extend(games)
        return results

    def cancel(self) -> None:
        """Stop the games still playing."""
        self.pending.cancel()

    def __enter__(self) -> Simulation:
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


class AdaptiveSimulation:
    """Games played in rounds until `settings.stopping` is met for every run and player count (see
    validator.stopping): each round plays one batch of every count not yet done, on `executor`, and its
    results decide the next. The same interface as Simulation; `planned` is the games asked for so far."""

    def __init__(self, runs: list[Run], settings: SimSettings, executor,
                 on_plan: Callable[[int], None] | None = None):
        self.runs, self.settings, self.executor, self.on_plan = runs, settings, executor, on_plan
        self.rule: Stopping = settings.stopping  # type: ignore[assignment]
        self.games: dict[tuple[str, int], list[dict]] = {}  # (run key, players) -> results by index
        self.targets: dict[tuple[str, int], int] = {}  # the counts still playing -> games after this round
        for run in runs:
            for players in player_counts(run.engine, settings):
                self.games[run.key, players] = []
                self.targets[run.key, players] = first_batch(players, self.rule)
        self.planned, self.rounds = 0, 0
        self.round: Simulation | None = None
        self._start_round()

    def _start_round(self) -> None:
        """Hand the next batch of every count still playing to the executor."""
        ids = {run.key: run.game.id for run in self.runs}
        total = sum(target - len(self.games[key]) for key, target in self.targets.items())
        size = chunk_size(total, self.executor.workers)
        chunks = [Chunk(key, ids[key], players, self.settings.seed, start, min(start + size, target))
                  for (key, players), target in self.targets.items()
                  for start in range(len(self.games[key, players]), target, size)]
        self.planned += total
        self.rounds += 1
        if self.on_plan:
            self.on_plan(self.planned)
        self.round = Simulation(self.runs, finer_tail(chunks, self.executor.workers), self.executor)

    def poll(self, progress: Callable[[int], None] | None = None) -> None:
        """Report the games finished so far to `progress`, without waiting."""
        if self.round is not None:
            self.round.poll(progress)

    def results(self, progress: Callable[[int], None] | None = None) -> dict[str, dict[int, list[dict]]]:
        """Run key -> players -> results by index, once the rule is met everywhere."""
        while self.round is not None:
            played = self.round.results(progress)
            self.round = None
            for key, players in list(self.targets):
                games = self.games[key, players]
                games.extend(played[key].get(players, []))
                more = next_total(games, players, self.rule)
                if more is None:
                    del self.targets[key, players]
                else:
                    self.targets[key, players] = more
            if self.targets:
                self._start_round()
        results: dict[str, dict[int, list[dict]]] = {run.key: {} for run in self.runs}
        for (key, players), games in self.games.items():
            results[key][players] = games
        return results

    def cancel(self) -> None:
        """Stop the games still playing."""
        if self.round is not None:
            self.round.cancel()

    def __enter__(self) -> AdaptiveSimulation:
        return self

    def __exit__(self, *exc) -> None:
        self.cancel()


def start_simulation(runs: list[Run], settings: SimSettings, executor, size: int | None = None,
                     on_plan: Callable[[int], None] | None = None) -> Simulation | AdaptiveSimulation:
    """Start playing `settings.games` games per player count of every run on `executor` and return at once
    (with `settings.stopping`: batches until it is met, an AdaptiveSimulation telling `on_plan` the games
    planned so far).

    The games go through `executor` (an engines.executors.Executor: local processes or a Dask cluster). The
    results depend only on the seed: chunks are put back in index order whatever ran them, however many
    workers. `size` fixes the games per chunk (default: planned from the executor's workers, with a finer last
    round)."""
    if len({run.key for run in runs}) != len(runs):
        raise ValueError("every run needs its own key")
    if settings.stopping is not None:
        return AdaptiveSimulation(runs, settings, executor, on_plan)
    if size:
        return Simulation(runs, plan_chunks(runs, settings, size), executor)
    total = sum(len(player_counts(run.engine, settings)) for run in runs) * settings.games
    chunks = plan_chunks(runs, settings, chunk_size(total, executor.workers))
    return Simulation(runs, finer_tail(chunks, executor.workers), executor)


def simulate(runs: list[Run], settings: SimSettings, executor, progress: Callable[[int], None] | None = None,
             size: int | None = None) -> dict[str, dict[int, list[dict]]]:
    """Play `settings.games` games per player count of every run: run key -> players -> results by index
    (`start_simulation`, then wait for its results)."""
    with start_simulation(runs, settings, executor, size) as simulation:
        return simulation.results(progress)


def _card_named(game: Game, card_id: str):
    for deck in game.decks.values():
        for card in deck.cards:
            if card.id == card_id:
                return deck, card
    return None, None


def composition_problems(
    game: Game, engine: Engine, results: dict[int, list[dict]], changes: str = ""
) -> list[Problem]:
    """What playing revealed: setup failures, stalls, broken rules (with seeds) and goals never completed.

    `changes` are the --option/--set arguments the games were played with, repeated in the replay commands."""
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
                problems.append(
                    Problem(
                        game_file,
                        0,
                        f"{first['failure']}; expected the game to set up for every "
                        f"player count of the engine ({', '.join(map(str, engine.player_counts))})",
                    )
                )
                continue
            label = "stalled game" if kind == STALLED else f"{kind} failure"
            problems.append(Problem(game_file, 0, (
                f"{label} in {len(found)} of {len(games)} games with {players} players: {first['failure']}; "
                f"first seed {first['seed']}, replay with: "
                f"{replay_command(game.id, first['seed'], players, first['bots'], changes)}")))
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
        problems.append(
            Problem(
                where,
                line,
                f"{name} was never completed in {len(played)} simulated games "
                f"({counts} players); expected every goal to be completable, check what it needs "
                f"against the decks",
            )
        )
    return problems
