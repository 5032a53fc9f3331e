"""Honest balance figures: wins counted by turn position (the first player is drawn at random in Short Order
Hero and the trading game, so seat numbers mean nothing), by seat where seats differ (a pizza restaurant), win
rates when dealt per player count, and chart labels that tell same-named cards apart."""

from __future__ import annotations

import pytest

from generator.data.load import load_game
from generator.engines.registry import engine_for
from generator.validator.harness import play_game
from generator.validator.report import card_labels, per_count, position_rates, role_rates, terminal_summary


def _game(order, winners, roles=None, dealt=(), completed=()):
    metrics = {
        "turn_order": order,
        "turns": 10,
        "dealt_goals": list(dealt),
        "completed_goals": list(completed),
    }
    if roles:
        metrics["seat_roles"] = roles
    return {
        "winners": winners,
        "scores": [0] * len(order),
        "metrics": metrics,
        "bots": ["greedy"] * len(order),
        "failure": None,
        "kind": None,
        "decisions": 10,
    }


def test_wins_are_counted_by_turn_position_not_by_seat_number():
    # The first player always wins, and the first player goes round the table: by seat every seat wins a
    # quarter.
    games = [_game([(first + i) % 4 for i in range(4)], [first]) for first in range(4)] * 25
    rates = position_rates(games, 4)
    assert [r["rate"] for r in rates] == [1.0, 0.0, 0.0, 0.0]
    assert rates[0]["position"] == 1 and rates[0]["low"] > 0.95 and rates[1]["high"] < 0.05  # 95% Wilson


def test_where_seats_differ_wins_are_counted_by_seat_as_well():
    games = [_game([0, 1], [0], roles=["red", "blue"]), _game([0, 1], [1], roles=["blue", "red"]),
             _game([0, 1], [0, 1], roles=["red", "blue"])]
    roles = role_rates(games)
    assert roles["red"]["games"] == 3 and roles["red"]["wins"] == pytest.approx(2.5)
    assert (
        roles["blue"]["rate"] == pytest.approx(0.5 / 3, abs=1e-4)
        and roles["blue"]["low"] < roles["blue"]["rate"]
    )


def test_win_rate_when_dealt_is_per_player_count():
    three = [_game([0, 1, 2], [0], dealt=["a", "b", "c"], completed=["a"])] * 4
    figures = per_count(three, 3)
    assert figures["win_rate_when_dealt"] == {"a": 1.0, "b": 0.0, "c": 0.0}
    lines = terminal_summary({"by_players": {"3": figures}, "goals": {}, "cards": {}})
    assert "wins by turn position (1st first) 100% 0% 0%" in lines[0]
    assert lines[1] == "    win rate when dealt (fair: 33%): a 100%, b 0%, c 0%"


@pytest.mark.parametrize("game_id", ["short-order-hero", "order-up-trading", "order-up-pizza"])
def test_each_engine_reports_who_really_played_first(repo_project, game_id):
    game = load_game(repo_project, game_id)
    engine = engine_for(game)
    players = engine.player_counts[-1]
    for seed in (1, 2, 3):
        record = play_game(engine, game, players, seed, ["greedy"] * players)
        order = record.metrics["turn_order"]
        assert sorted(order) == list(range(players))
        first_seat = next(int(line.split()[2]) for line in record.log if line.startswith("# seat "))
        # colours are chosen before the first turn, the youngest (seat 0) first
        if game_id == "order-up-pizza":
            assert order == list(range(players)) and first_seat == 0
            assert sorted(record.metrics["seat_roles"]) == sorted(
                ["red", "yellow", "blue", "green"][:players]
            )
        elif game_id == "order-up-trading":  # the first dealer is drawn; the tick starts to the dealer's left
            dealer = next(int(line.split()[-1]) for line in record.log if line.startswith("dealer: seat"))
            assert order[0] == (dealer + 1) % players and order[-1] == dealer
        else:
            assert first_seat == order[0]


def test_cards_with_the_same_name_are_told_apart_in_charts(repo_project):
    labels = card_labels(load_game(repo_project, "order-up-trading"))
    assert labels["burrito-ground-beef"] == "Ground Beef (Burrito)"
    assert labels["burger-ground-beef"] == "Ground Beef (Cheeseburger)"
    assert labels["burrito-rice"] == "Rice"  # a name on one card only stays as printed
    assert len(set(labels.values())) == len(labels)
