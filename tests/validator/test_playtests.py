"""Playtests as data: the files of cards/<game>/playtests/ are read, every slip is one located line, and the
real plays are compared with the simulated figures of the same player count."""

from __future__ import annotations

import json

import pytest

from generator.data.load import load_game
from generator.pipeline.validate import validate
from generator.validator.playtests import Playtest, compare, load_playtests
from generator.validator.report import terminal_summary
from generator.validator.simulate import SimSettings
from tests.conftest import run_pnp
from tests.fixtures import toy_engine as toy
from tests.fixtures.built import pdf_text

BAD = """\
date: 2026-11-07
version: test print
seats:
  - {player: Mia, score: 68}
  - {player: Tom, score: forty}
winner: 3
length: {rounds: 28}
notes:
  pepperoni: fine
  peperoni: a typo
"""

NO_VERSION = """\
date: 2026-11-08
seats: [{player: Mia, score: 10}, {player: Tom, score: 12}]
winner: 2
length: {turns: 40}
"""


def test_the_bundled_order_up_playtests_read_cleanly(repo_project):
    plays, problems = load_playtests(load_game(repo_project, "order-up-pizza"))
    assert problems == []
    assert len(plays) == 5
    first = plays[0]
    assert (first.date, first.players, first.scores, first.winners, first.rounds) == (
        "2026-11-07", ("Mia", "Tom"), (68, 57), (0,), 28)
    assert first.roles == ("red", "yellow") and "pizza-plunder" in first.notes
    assert sorted(p.seats for p in plays) == [2, 3, 3, 4, 4]


@pytest.fixture
def bad_project(tmp_project):
    folder = tmp_project.cards_dir / "order-up-pizza" / "playtests"
    (folder / "bad.yaml").write_text(BAD, encoding="utf-8")
    (folder / "no-version.yaml").write_text(NO_VERSION, encoding="utf-8")
    return tmp_project


def test_every_slip_of_a_playtest_is_one_located_line(bad_project):
    plays, problems = load_playtests(load_game(bad_project, "order-up-pizza"))
    assert len(plays) == 5  # the good files still count
    shown = "cards/order-up-pizza/playtests"
    assert [str(p) for p in problems] == [
        f"{shown}/bad.yaml:5: seat 2: score is 'forty', not a number; expected the final score (a number)",
        f"{shown}/bad.yaml:6: winner 3: there is no seat 3; expected a seat number from 1 to 2",
        f"{shown}/bad.yaml:10: notes: unknown card id 'peperoni' (did you mean 'pepperoni'?); expected the "
        "id of a card of toppings, orders, reference",
        f"{shown}/no-version.yaml:1: missing field 'version': expected the build or data version played (a "
        "commit, a tag, a print date)",
    ]


def test_pnp_validate_fails_on_a_bad_playtest(bad_project):
    result = run_pnp("validate", "order-up-pizza", "--no-engine", project=bad_project)
    assert result.exit_code == 1
    assert "playtests/bad.yaml:5: seat 2: score is 'forty', not a number" in result.output
    assert "cards/order-up-pizza/playtests/no-version.yaml:1: missing field 'version'" in result.output
    assert "Traceback" not in result.output


def test_too_many_seats_and_a_winner_that_is_not_a_seat_number(tmp_project):
    folder = tmp_project.cards_dir / "order-up-pizza" / "playtests"
    seats = "".join(f"  - {{player: P{i}, score: {i}}}\n" for i in range(5))
    (folder / "five.yaml").write_text(f"date: 2026-12-01\nversion: x\nseats:\n{seats}winner: Mia\n"
                                      "length: {rounds: 0}\n", encoding="utf-8")
    _, problems = load_playtests(load_game(tmp_project, "order-up-pizza"))
    assert [str(p) for p in problems] == [
        "cards/order-up-pizza/playtests/five.yaml:3: 5 seats, but Order Up is played by 2 to 4 players; "
        "expected 2 to 4 seats",
        "cards/order-up-pizza/playtests/five.yaml:9: winner is 'Mia'; expected the seat number of the winner "
        "(1 = the first to play), or a list of them for a shared win",
        "cards/order-up-pizza/playtests/five.yaml:10: length: rounds is 0; expected a whole number above 0",
    ]


FIGURES = {"by_players": {"3": {
    "greedy_mirror_length": {"rounds": {"n": 10, "mean": 20.0, "p10": 15, "p90": 25},
                             "turns": {"n": 10, "mean": 60.0, "p10": 45, "p90": 75}},
    "scores": {"margin": {"n": 10, "mean": 5.5, "histogram": [[v, 1] for v in range(1, 11)]}},
    "position_wins_greedy_mirror": [{"rate": 0.33}, {"rate": 0.34}, {"rate": 0.33}],
}}}


def _play(rounds: int, scores: tuple, winners: tuple) -> Playtest:
    return Playtest("p.yaml", "2026-01-01", "v", tuple(f"P{i}" for i in range(len(scores))), scores, winners,
                    rounds=rounds)


def test_real_plays_outside_the_simulated_ranges_are_said_in_words():
    plays = [_play(10, (9, 5, 3), (0,)), _play(12, (8, 2, 2), (0,)), _play(30, (4, 6), (1,))]
    found = compare(plays, FIGURES)
    three = found["by_players"]["3"]
    # rounds 10 and 12: mean 11, below the simulated 10% of 15, 45% shorter than the simulated mean of 20
    assert three["length"] == {"unit": "rounds", "plays": 2, "real_mean": 11.0, "simulated_mean": 20.0,
                               "simulated_p10": 15, "simulated_p90": 25, "below": 2, "above": 0,
                               "relative": -0.45, "outside": True}
    # margins 4 and 6 against a simulated 1..10 (10%: 1, 90%: 9): inside
    assert (three["margin"]["real_mean"], three["margin"]["simulated_p10"], three["margin"]["outside"]) == (
        5.0, 1, False)
    first = three["positions"][0]
    assert (first["real_wins"], first["real_low"], first["outside"]) == (2, 0.3424, True)
    assert found["findings"][0] == "1 real game at 2 players, which were not simulated"
    assert found["findings"][1:] == [
        "real games are 45% shorter than simulated at 3 players: 11.0 rounds on average in 2 plays against "
        "20.0 (simulated 10-90%: 15-25)",
        "the 1st to play won 2 of 2 real games at 3 players (34-100%), against 33% of the simulated games",
    ]


TOY_PLAY = """\
date: 2026-10-01
version: toy print
seats:
  - {player: Ana, score: 3}
  - {player: Ben, score: 5}
winner: 2
length: {rounds: 4, turns: 8}
notes: {straight: never came up}
"""


def test_the_playtests_appear_in_the_report_and_the_summary(tmp_path):
    with toy.registered_project(tmp_path) as project:
        folder = project.cards_dir / "toy" / "playtests"
        folder.mkdir()
        (folder / "first.yaml").write_text(TOY_PLAY, encoding="utf-8")
        report = tmp_path / "report.json"
        result = validate(project, ["toy"], SimSettings(games=40, seed=2, players=(2,), jobs=1),
                          report_path=report)
    found = json.loads(report.read_text(encoding="utf-8"))["games"]["toy"]["playtests"]
    assert found["plays"] == 1 and found["files"] == ["cards/toy/playtests/first.yaml"]
    assert found["notes"] == {"straight": {"name": "Straight", "said": ["2026-10-01: never came up"]}}
    assert found["by_players"]["2"]["length"]["unit"] == "rounds"
    assert found["games"][0]["winners"] == [2]
    length = found["by_players"]["2"]["length"]
    assert length["real_mean"] == 4.0 and length["outside"] == (not length["simulated_p10"] <= 4
                                                                <= length["simulated_p90"])
    lines = terminal_summary(result.games[0].figures)
    at = lines.index("  playtests: 1 at 2 players")
    assert lines[at + 1:] == ([f"    {line}" for line in found["findings"]]
                              or ["    every real game falls within the simulated ranges"])
    text = pdf_text(project.build_dir / "toy" / "balance.pdf")
    assert "Playtests" in text and "Ana 3, Ben 5" in text and "never came up" in text
