"""The lookahead bot: its cost per game and what it buys, in 4-player Short Order Hero.

One lookahead seat (its default budget) against three greedy bots, seeds from the validator's derivation, on
one core: the lookahead seat's win share with its 95% interval (a fair share is 25%) and seconds per game of
wall and CPU time (about 60 s of CPU in all). A quick run (`make bench-quick`) plays a quarter of the games.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks import quick
from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.registry import engine_for
from generator.validator.harness import play_game
from generator.validator.lookahead import DEFAULT_BUDGET, lookahead_name
from generator.validator.score_tracks import wilson
from generator.validator.simulate import derive_seed

ROOT = Path(__file__).resolve().parents[1]
GAMES, PLAYERS = 24, 4


def run() -> None:
    project = Project(ROOT)
    game = load_game(project, "short-order-hero")
    engine = engine_for(game)
    games = GAMES // 4 if quick() else GAMES
    bots = [lookahead_name(DEFAULT_BUDGET)] + ["greedy"] * (PLAYERS - 1)
    started, cpu, wins = time.perf_counter(), time.process_time(), 0.0
    for index in range(games):
        record = play_game(engine, game, PLAYERS, derive_seed(1, game.id, PLAYERS, index), bots, log=False)
        assert record.ok, record.failure
        wins += 1 / len(record.winners) if 0 in record.winners else 0
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    low, high = wilson(wins, games)
    print(f"short-order-hero {PLAYERS} players, {','.join(bots)}: {games} games, lookahead won {wins:.1f} "
          f"({wins / games:.0%}, 95% interval {low:.0%}-{high:.0%}; fair 25%)")
    print(f"  {elapsed / games:.2f} s wall, {cpu / games:.2f} s CPU per game")
