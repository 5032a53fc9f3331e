"""Balance beyond seat fairness: the harness's score track of real toy games, and the figures of the report on
small hand-checked tracks (margin, lead changes, drama, half-time leader, card influence, intervals)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.data.load import load_game
from generator.validator.harness import play_game
from generator.validator.report import per_count, terminal_summary
from generator.validator.score_tracks import (
    card_influence,
    drama,
    half_time_leader,
    lead_changes,
    margin,
    mean_interval,
    score_figures,
    t975,
    telling_card,
    wilson,
)
from tests.fixtures import toy_engine as toy

# seats 0 and 1: 0 leads, then 1, then 0, then 1 wins 9 to 8 after 6 turns
TRACK = [(0, (0, 0)), (1, (3, 0)), (2, (3, 5)), (4, (8, 5)), (6, (8, 9))]


def _game(track, winners, **metrics) -> dict:
    return {"scores": list(track[-1][1]), "winners": winners, "score_track": track, "metrics": metrics,
            "bots": ["greedy"] * len(track[0][1]), "failure": None, "kind": None, "decisions": track[-1][0]}


def _replayed_track(log: list[str], players: int) -> list[tuple[int, tuple]]:
    """The score track worked out from a game's log: its seat lines and the toy's 'Seat s claims t for p'."""
    score = [0] * players
    track, turns, last = [(0, tuple(score))], 0, None
    for line in log:
        if (acting := re.match(r"# seat (\d+) ", line)):
            seat = int(acting.group(1))
            if last is not None and seat != last:
                turns += 1
                if tuple(score) != track[-1][1]:
                    track.append((turns, tuple(score)))
            last = seat
        elif (claim := re.match(r"Seat (\d+) claims \S+ for (\d+)", line)):
            score[int(claim.group(1))] += int(claim.group(2))
    return [*track, (turns + 1, tuple(score))]


def test_the_harness_records_every_seats_score_after_every_turn(tmp_path: Path):
    game = load_game(toy.make_toy_project(tmp_path), "toy")
    for players, seed in ((2, 5), (3, 11), (4, 2)):
        record = play_game(toy.ENGINE, game, players, seed, ["greedy"] * players)
        assert record.ok
        assert record.score_track == _replayed_track(record.log, players)
        assert record.score_track[-1][1] == tuple(record.scores)
        assert len(record.score_track) > 2  # some claims happened
        quiet = play_game(toy.ENGINE, game, players, seed, ["greedy"] * players, log=False)
        assert quiet.score_track == record.score_track


def test_figures_of_one_hand_checked_track():
    assert margin([8, 9], [1]) == 1
    assert margin([8, 9, 9], [1, 2]) == 1  # the shared winners against the best seat that did not win
    assert margin([4, 4], [0, 1]) == 0
    assert lead_changes(TRACK) == 3
    # a tie for the top leads nobody: 0 leads, then 1 (one change)
    assert lead_changes([(0, (0, 0)), (1, (2, 2)), (2, (3, 2)), (3, (3, 3)), (4, (3, 4))]) == 1
    assert drama(TRACK, [1]) == 3  # 3 behind after turns 1 and 4
    assert drama(TRACK, [0]) == 2  # 3 to 5 after turn 2
    assert drama(TRACK, [0, 1]) == 2.5  # shared winners: their mean
    assert half_time_leader(TRACK) == 1  # after turn 3 the scores are still (3, 5)
    assert half_time_leader([(0, (0, 0)), (4, (1, 1)), (6, (1, 2))]) is None


def test_report_figures_with_their_intervals():
    runaway = [(0, (0, 0)), (1, (4, 0)), (2, (7, 0)), (3, (10, 0)), (4, (10, 1))]
    games = [_game(TRACK, [1]), _game(runaway, [0])]
    figures = score_figures(games)
    assert figures["games"] == 2
    # margins 1 and 9: mean 5, standard error 4, t(1) 12.7062
    assert figures["margin"] == {"n": 2, "mean": 5.0, "low": round(5 - 12.7062 * 4, 4),
                                 "high": round(5 + 12.7062 * 4, 4), "histogram": [[1.0, 1], [9.0, 1]]}
    assert figures["lead_changes"]["mean"] == 1.5 and figures["lead_changes"]["histogram"] == [[0, 1], [3, 1]]
    assert figures["drama"]["mean"] == 1.5
    assert figures["comebacks"]["count"] == 1
    # the half-time leader won both: 2 of 2, Wilson (0.3424, 1)
    wins = figures["half_time_leader_wins"]
    assert (wins["n"], wins["count"], wins["share"]) == (2, 2, 1.0)
    assert (wins["low"], wins["high"]) == (0.3424, 1.0)
    low, high = wilson(1, 2)
    assert (round(low, 4), round(high, 4)) == (0.0945, 0.9055)


def test_t_quantiles():
    assert t975(1) == 12.7062 and t975(10) == 2.2281
    for df, table in ((31, 2.0395), (40, 2.0211), (100, 1.9840), (10_000, 1.9602)):
        assert t975(df) == pytest.approx(table, abs=0.0002)
    assert mean_interval([]) == {"n": 0, "mean": None, "low": None, "high": None}
    assert mean_interval([3]) == {"n": 1, "mean": 3.0, "low": None, "high": None}


def test_card_influence_per_seat_when_the_engine_reports_who_played_what():
    games = [
        _game([(0, (0, 0)), (2, (5, 1))], [0], seat_card_usage=[{"a": 1}, {}]),
        _game([(0, (0, 0)), (2, (2, 6))], [1], seat_card_usage=[{"a": 2}, {"b": 1}]),
    ]
    influence = card_influence(games, 2)
    assert influence["basis"] == "seat"
    a, b = influence["cards"]["a"], influence["cards"]["b"]
    assert (a["played"]["n"], a["played"]["share"]) == (2, 0.5)
    assert (a["not_played"]["share"], a["difference"]) == (0.5, 0)
    # b: played by one seat that won; not played by three seats of which one won
    assert (b["played"]["count"], b["played"]["n"]) == (1, 1)
    assert (b["not_played"]["count"], b["not_played"]["n"]) == (1, 3)
    assert b["difference"] == round(1 - 1 / 3, 4)
    assert telling_card(influence) is None  # with four seats no interval is clear of the other


def test_card_influence_per_game_compares_the_margins():
    games = [_game([(0, (0, 0)), (2, (9, 1))], [0], card_usage={"a": 1, "b": 0}),
             _game([(0, (0, 0)), (2, (7, 1))], [0], card_usage={"a": 2, "b": 0}),
             _game([(0, (0, 0)), (2, (8, 1))], [0], card_usage={"a": 1}),
             _game([(0, (0, 0)), (2, (2, 3))], [1], card_usage={"a": 0, "b": 1}),
             _game([(0, (0, 0)), (2, (2, 4))], [1], card_usage={"a": 0, "b": 2}),
             _game([(0, (0, 0)), (2, (2, 3.5))], [1], card_usage={"b": 1})]
    influence = card_influence(games, 2)
    assert influence["basis"] == "game"
    a = influence["cards"]["a"]
    # margins 8, 6, 7 (mean 7, standard error 1/sqrt(3)) against 1, 2, 1.5 (mean 1.5, standard error 0.2887)
    assert (a["played"]["mean"], a["not_played"]["mean"], a["difference"]) == (7.0, 1.5, 5.5)
    assert a["played"]["low"] == round(7 - 4.3027 / 3**0.5, 4)
    assert influence["cards"]["b"]["difference"] == -5.5
    card, found = telling_card(influence)  # the intervals are apart; a and b tell as much, a comes first
    assert (card, found) == ("a", a)


def test_per_count_and_terminal_summary_show_the_new_figures():
    games = [_game(TRACK, [1], turns=6, card_usage={"a": 1}), _game(TRACK, [1], turns=6, card_usage={"a": 1})]
    f = per_count(games, 2)
    assert f["scores"]["margin"]["mean"] == 1.0 and f["scores"]["lead_changes"]["mean"] == 3.0
    assert f["card_influence"]["cards"]["a"]["not_played"]["n"] == 0
    figures = {"by_players": {"2": f}, "goals": {}, "cards": {"a": {"name": "Ace", "uses": 2}}}
    line = next(s for s in terminal_summary(figures) if "margin" in s)
    assert line == ("    margin 1.0 (1.0 to 1.0), lead changes 3.0 (3.0 to 3.0)/game, winner at worst 3.0 "
                    "(3.0 to 3.0) behind, half-time leader wins 100% (34-100%)")
