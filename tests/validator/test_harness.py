"""The simulation harness on the toy game: seeded chance, legality, conservation, invariants and the turn
cap."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from generator.data.load import load_game
from generator.engines.base import (
    ChanceOutcome,
    ChanceRequest,
    GameLog,
    IllegalAction,
    roll_dice,
    sample_chance,
)
from generator.engines.common import check_outcome
from generator.validator.harness import play_game
from generator.validator.simulate import composition_problems
from tests.fixtures import toy_engine as toy


@pytest.fixture
def game(tmp_path: Path):
    return load_game(toy.make_toy_project(tmp_path), "toy")


def test_same_seed_gives_identical_records(game):
    first = play_game(toy.ENGINE, game, 3, 42, ["greedy", "random", "greedy"])
    again = play_game(toy.ENGINE, game, 3, 42, ["greedy", "random", "greedy"])
    other = play_game(toy.ENGINE, game, 3, 43, ["greedy", "random", "greedy"])
    assert first.failure is None
    assert (first.log, first.scores, first.winners, first.metrics) == (
        again.log,
        again.scores,
        again.winners,
        again.metrics,
    )
    assert first.log != other.log


def test_harness_answers_chance_from_its_own_seeded_random(game):
    record = play_game(toy.ENGINE, game, 2, 7, ["greedy", "greedy"])
    items = tuple(c.id for c in game.decks["numbers"].cards for _ in range(c.copies))
    expected = sample_chance(ChanceRequest("shuffle", "number-deck", items=items), random.Random(7))
    assert (
        record.log[1] == f"# chance number-deck: {' '.join(expected.values[:12])} ... ({len(items)} in all)"
    )


def test_every_toy_game_ends_with_cards_conserved(game):
    for players in (2, 3, 4):
        for seed in range(25):
            record = play_game(toy.ENGINE, game, players, seed, ["random"] * players, log=False)
            assert record.failure is None, (players, seed, record.failure)
            assert record.metrics["ended_by"] in ("all-done", "round-limit")
            assert record.winners and record.decisions > 0


def test_conservation_violation_is_detected(game):
    record = play_game(toy.LEAKY, game, 2, 3, ["greedy", "greedy"])
    assert record.failure_kind == "conservation"
    assert "numbers 17 -> 16" in record.failure and "claim" in record.failure
    assert record.log[-1].startswith("# FAILED (conservation)")


def test_broken_invariant_is_detected(game):
    record = play_game(toy.NO_LIMIT, game, 2, 3, ["random", "random"])
    assert record.failure_kind == "invariant"
    assert "over the hand limit of 5" in record.failure


def test_illegal_bot_action_is_detected(game):
    record = play_game(toy.CHEATING, game, 2, 1, ["random", "greedy"])
    assert record.failure_kind == "illegal"
    assert "'claim straight'" in record.failure and "not in legal_actions()" in record.failure


def test_setup_failure_names_the_player_count(game):
    record = play_game(toy.ENGINE, game, 5, 1, ["greedy"] * 5)
    assert record.failure_kind == "setup"
    assert "5 players" in record.failure and "2-4 players" in record.failure


def test_turn_cap_stops_a_game_that_never_ends_and_names_its_seed(game):
    record = play_game(toy.STALLING, game, 2, 1234, ["greedy", "random"])
    assert record.failure_kind == "stalled"
    assert record.decisions == toy.STALLING.turn_cap
    assert "turn cap of 60 decisions" in record.failure and "seed 1234" in record.failure
    results = {
        2: [
            {
                "index": 0,
                "seed": 1234,
                "bots": ["greedy", "random"],
                "failure": record.failure,
                "kind": record.failure_kind,
                "metrics": {},
                "scores": [],
                "winners": [],
                "decisions": 60,
            }
        ]
    }
    (problem,) = composition_problems(game, toy.STALLING, results)
    assert problem.file == "cards/toy/game.yaml"
    assert "stalled game in 1 of 1 games with 2 players" in problem.message
    assert "pnp replay toy --seed 1234 --players 2 --bots greedy,random" in problem.message


def test_goal_never_completed_names_the_card(game):
    results = {2: [{"index": 0, "seed": 1, "bots": ["greedy", "greedy"], "failure": None, "kind": None,
                    "metrics": {"completed_goals": ["pair-of-ones", "one-two", "two-threes", "straight"]},
                    "scores": [1, 0], "winners": [0], "decisions": 9}]}
    (problem,) = composition_problems(game, toy.ENGINE, results)
    line = next(i for i, text in enumerate(toy.TARGETS_YAML.splitlines(), 1) if "id: big-seven" in text)
    assert (problem.file, problem.line) == ("cards/toy/targets.yaml", line)
    assert (
        "Target deck card 'Big seven' (big-seven) was never completed in 1 simulated games" in problem.message
    )


def test_dice_are_randints_and_small_outcomes_are_shared():
    """roll_dice draws exactly what rng.randint(1, sides) would (the same games for the same seed)."""
    for seed in range(200):
        for sides in (1, 2, 3, 6, 7, 8, 12, 20, 100):
            count = 1 + seed % 3
            expected = random.Random(seed)
            values = roll_dice(random.Random(seed), count, sides)
            assert values == tuple(expected.randint(1, sides) for _ in range(count)), (seed, sides)
    rolls = ChanceRequest("dice", "roll", count=2, sides=6)
    first, again = sample_chance(rolls, random.Random(3)), sample_chance(rolls, random.Random(3))
    assert first is again and first == ChanceOutcome("roll", first.values)
    deck = ChanceRequest("shuffle", "deck", items=tuple(f"c{i}" for i in range(40)))
    # long: never kept
    assert sample_chance(deck, random.Random(3)) is not sample_chance(deck, random.Random(3))


def test_shuffle_outcomes_must_be_permutations_of_their_items():
    deck = ChanceRequest("shuffle", "deck", items=("a", "b", "b", "c"))
    assert check_outcome(deck, ChanceOutcome("deck", ("b", "c", "a", "b"))) == ("b", "c", "a", "b")
    for wrong in (("a", "b", "c", "c"), ("a", "b", "c"), ("a", "b", "b", "c", "c")):
        with pytest.raises(IllegalAction, match="must be a permutation of its 4 items"):
            check_outcome(deck, ChanceOutcome("deck", wrong))
    seats = ChanceRequest("shuffle", "pairing", items=(0, 2, 3))
    # as the simulator draws them
    assert check_outcome(seats, ChanceOutcome("pairing", (3, 0, 2))) == (3, 0, 2)
    # as a script writes them
    assert check_outcome(seats, ChanceOutcome("pairing", ("3", 0, "2"))) == ("3", 0, "2")
    for wrong in ((3, 0, 0), (3, 0, 1), ("3", "0", "1")):
        with pytest.raises(IllegalAction, match="must be a permutation of its 3 items"):
            check_outcome(seats, ChanceOutcome("pairing", wrong))


def test_game_log_makes_pending_lines_when_read():
    log = GameLog(["setup"])
    log.append(("{} rolls {}".format, "red", (3, 4)))
    log.append(("tick {}".format, 2))
    assert len(log) == 3 and type(list.__getitem__(log, 2)) is tuple
    assert log[1:] == ["red rolls (3, 4)", "tick 2"] and log == ["setup", "red rolls (3, 4)", "tick 2"]
    log.append(("{}!".format, "late"))
    assert list(log) == ["setup", "red rolls (3, 4)", "tick 2", "late!"] and "late!" in log
    assert (
        log.pop() == "late!" and log[-1] == "tick 2" and "\n".join(log) == "setup\nred rolls (3, 4)\ntick 2"
    )
