"""The rules language: games per CPU-second of Short Order Hero described in cards/short-order-hero/rules.yaml
beside its hand-written Python engine, measured side by side in one run (interleaved, median of 3 rounds).

Both play the same seeds with the validator's bot mix (half the games all greedy, half greedy against random) at
each player count, through the validator's harness without logs, as `pnp validate` plays them. The ratio is the
described game's CPU time per game over the Python engine's. Target (issue 30): within 3x.
(bench_rules.py is the rule booklets' benchmark; this one is the rules played as data.)
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from benchmarks import quick

REPO = Path(__file__).resolve().parents[1]
ROUNDS = 3
TARGET = 3.0


def _rate(engine, game, players: int, games: int) -> float:
    """Games per CPU-second of `engine` over `games` seeded games."""
    from generator.validator.harness import play_game
    from generator.validator.simulate import bots_for

    started = time.process_time()
    for index in range(games):
        record = play_game(engine, game, players, index, bots_for(index, players), log=False)
        if not record.ok:
            raise SystemExit(f"{engine.name}: game {index} with {players} players failed: {record.failure}")
    return games / (time.process_time() - started)


def run() -> None:
    """Print games per CPU-second of both engines per player count, and the ratio."""
    from generator.data.load import load_game
    from generator.data.project import Project
    from generator.engines.registry import engine_for, rules_engine

    game = load_game(Project(REPO), "short-order-hero")
    python_engine = engine_for(game)  # the hand-written engine, cards/short-order-hero/engine/
    described = rules_engine(game, "rules.yaml")
    games = 10 if quick() else 60
    _rate(described, game, 3, 2)  # compiled once and warmed before anything is timed
    _rate(python_engine, game, 3, 2)
    print(f"Short Order Hero, {games} games per player count per round, median of {ROUNDS} rounds (games per "
          "CPU-second)")
    print(f"{'players':>8} {'described':>10} {'python':>10} {'ratio':>7}")
    ratios = []
    for players in (2, 3, 4, 5):
        ours, theirs = [], []
        for _ in range(ROUNDS):  # interleaved: both see the same load on a shared machine
            ours.append(_rate(described, game, players, games))
            theirs.append(_rate(python_engine, game, players, games))
        a, b = statistics.median(ours), statistics.median(theirs)
        ratios.append(b / a)
        print(f"{players:>8} {a:>10.1f} {b:>10.1f} {b / a:>6.1f}x")
    worst = max(ratios)
    print(f"described / hand-written: {worst:.1f}x slower at worst (target within {TARGET:g}x: "
          f"{'met' if worst <= TARGET else 'NOT met'})")


if __name__ == "__main__":
    run()
