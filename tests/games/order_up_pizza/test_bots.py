"""The Order Up bots: the greedy bot keeps the toppings an order needs, so long games do not stall."""

from __future__ import annotations

from collections import Counter

import pytest
from pnp_engine_order_up_pizza import ENGINE
from pnp_engine_order_up_pizza.bots import usefulness

from generator.data.load import load_game
from generator.validator.harness import play_game
from tests.games.order_up_pizza.test_engine import start


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, "order-up-pizza")


def test_the_only_copy_an_order_needs_is_not_surplus(game):
    # Tiny Tim wants sausage, onions and black olives; the hand holds one sausage.
    state = start(game, hands=[["sausage", "energy-drink", "energy-drink", "pepperoni", "ham", "ham"], []],
                  orders=["tiny-tim", "dr-patel", "coach-carter"])
    hand = Counter(state.hands[0])
    # Tiny Tim and Coach Carter each need one sausage: the one held counts for both ...
    assert usefulness(state, "sausage", hand, held=True) == pytest.approx(6.0)
    assert usefulness(state, "sausage", hand, held=True) > usefulness(state, "energy-drink", hand, held=True)
    # ... while a second one drawn would be spare
    assert usefulness(state, "sausage", hand) == pytest.approx(1.0)
    # The measure used to call the held sausage surplus (0.5) and discard it before the Energy Drinks, for
    # ever:
    # a 2-player long game then ran 1726 turns with 1449 of them without a delivery.


@pytest.mark.parametrize(("seed", "bots"), [(23, ["greedy", "random"]), (4, ["random", "greedy"]),
                                           # ran into the 20,000-decision cap
                                           (709900202, ["greedy", "greedy"])])
def test_long_two_player_games_that_stalled_end_normally(game, seed, bots):
    record = play_game(ENGINE, game, 2, seed, bots, {"game_over_depth": "long"}, log=False)
    assert record.ok and record.metrics["ended_by"] == "game-over"
    assert len(record.metrics["completed_goals"]) == 22  # long: 21 cards above Game Over, 22 deliveries
    # 445, 1726 and over 5,000 turns (the decision cap) with the old measure
    assert record.metrics["turns"] < 300


def test_the_stalled_seed_replays_to_the_end(repo_project):
    """`pnp replay` of the seed the attack reported (2 players, long preset) ends with Game Over."""
    from tests.conftest import run_pnp

    result = run_pnp("replay", "order-up-pizza", "--seed", "709900202", "--players", "2",
                     "--option", "game_over_depth=long", project=repo_project)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game Over (game-over)" in result.output and "FAILED" not in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("Scores [")
