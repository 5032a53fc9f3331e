"""The scripted-game runner on the toy game: passing scripts, located failures, rejections and chance
control."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.load import load_game
from generator.validator.scripts import run_script
from tests.fixtures import toy_engine as toy

# number-deck top: seat 0 gets one one two, seat 1 gets three three four; the draw pile starts with two one
# ...
HEADER = """\
name: Claiming a pair of ones
players: 2
seed: 3
chance:
  - {label: number-deck, top: [one, one, two, three, three, four, two, one]}
  - {label: target-deck, top: [pair-of-ones, straight]}
steps:
"""


@pytest.fixture
def toy_game(tmp_path: Path):
    return load_game(toy.make_toy_project(tmp_path), "toy")


def run(game, steps: str, name: str = "test.yaml", header: str = HEADER) -> list[str]:
    path = game.dir / "scripts" / name
    path.write_text(header + steps, encoding="utf-8")
    return run_script(path, game, toy.ENGINE)


def test_a_correct_script_passes(toy_game):
    assert run(toy_game, """\
  - expect:
      players.0.hand: [one, one, two]
      players.1.hand: [four, three, three]
  - chance: {label: roll, values: [2]}
  - expect: {players.0.hand: [one, one, two, two], current_player: 0}
  - reject: {act: "claim straight", reason: "does not hold the cards"}
  - reject: {act: "claim big-seven", reason: "not on display"}
  - reject: {act: "discard one", reason: "only when your hand is over the limit"}
  - act: "claim pair-of-ones"
  - expect:
      scores: [1, 0]
      players.0.claimed: [pair-of-ones]
      display.0: straight
  - play_to_end: greedy
  - expect: {terminal: true}
""") == []


def test_wrong_expectation_names_file_step_line_expected_and_actual(toy_game):
    failures = run(toy_game, """\
  - chance: {label: roll, values: [2]}
  - act: "claim pair-of-ones"
  - expect:
      scores: [1, 0]
      players.0.hand: [two, one]
""", name="wrong.yaml")
    assert failures == [
        "cards/toy/scripts/wrong.yaml: step 3 (line 12): expected players.0.hand = [two, one], got [two, two]"
    ]


def test_missing_path_and_index_are_explained(toy_game):
    failures = run(toy_game, """\
  - expect:
      players.2.hand: []
      players.0.position: r0c3
""")
    assert failures[0].endswith(
        "step 1 (line 9): expected players.2.hand = [], but players has 2 items; index 2 is out of range"
    )
    assert "players.0 has no 'position'; known: claimed, hand, score" in failures[1]


def test_rejected_move_with_the_wrong_reason_fails(toy_game):
    failures = run(toy_game, """\
  - chance: {label: roll, values: [2]}
  - reject: {act: "claim straight", reason: "it is not your turn"}
""")
    assert failures == [
        'cards/toy/scripts/test.yaml: step 2 (line 9): \'claim straight\' was rejected with '
        '"your hand does not hold the cards for straight"; expected a reason containing "it is not your turn"'
    ]


def test_rejecting_a_legal_move_fails(toy_game):
    failures = run(toy_game, """\
  - chance: {label: roll, values: [2]}
  - reject: {act: "claim pair-of-ones", reason: "anything"}
""")
    assert failures == [
        "cards/toy/scripts/test.yaml: step 2 (line 9): expected 'claim pair-of-ones' to be rejected "
        "(anything), but it is a legal action now"
    ]


def test_an_illegal_act_stops_the_script_with_the_reason(toy_game):
    failures = run(toy_game, """\
  - chance: {label: roll, values: [2]}
  - act: "claim straight"
  - expect: {scores: [9, 9]}
""")
    assert len(failures) == 1
    assert failures[0].startswith(
        "cards/toy/scripts/test.yaml: step 2 (line 9): 'claim straight' was rejected: "
        "your hand does not hold the cards for straight; legal for seat 0: claim pair-of-ones, pass"
    )


def test_chance_step_with_the_wrong_label_fails(toy_game):
    failures = run(toy_game, """\
  - chance: {label: roll, values: [2]}
  - chance: {label: roll, values: [3]}
""")
    assert failures == [
        "cards/toy/scripts/test.yaml: step 2 (line 9): expected a chance event 'roll' next, but it is "
        "seat 0's turn (legal: claim pair-of-ones, pass)"
    ]


def test_dice_values_are_checked(toy_game):
    failures = run(toy_game, "  - chance: {label: roll, values: [7]}\n")
    assert failures == [
        "cards/toy/scripts/test.yaml: step 1 (line 8): 'roll' rolls 1 dice; expected 1 values in 1..6, got "
        "[7]"
    ]


def test_top_with_an_unknown_card_is_reported(toy_game):
    header = HEADER.replace("top: [pair-of-ones, straight]", "top: [pair-of-twos]")
    failures = run(toy_game, "  - expect: {round: 1}\n", header=header)
    assert len(failures) == 1
    assert (
        "chance entry at line 6: 'pair-of-twos' is not (or not that often) among the cards of the "
        "'target-deck' shuffle"
        in failures[0]
    )


def test_unused_chance_entry_is_reported(toy_game):
    header = HEADER.replace("steps:\n", "  - {label: rol, values: [3]}\nsteps:\n")
    failures = run(toy_game, "  - expect: {round: 1}\n", header=header)
    assert failures == ["cards/toy/scripts/test.yaml:7: no chance event 'rol' was left to use this entry; "
                        "chance events seen: number-deck, roll, target-deck"]


def test_yaml_error_is_reported_with_file_and_line(toy_game):
    failures = run(toy_game, "  - act: pass\n  - expect: {a: [1, 2}\n")
    assert len(failures) == 1
    assert failures[0].startswith("cards/toy/scripts/test.yaml:9: broken YAML: ")


def test_unknown_step_and_key_are_reported_with_lines(toy_game):
    failures = run(toy_game, "  - move: pass\n", header=HEADER.replace("seed: 3", "seed: 3\nsede: 4"))
    assert failures == [
        "cards/toy/scripts/test.yaml:4: unknown key 'sede'; expected one of: name, players, options, seed, "
        "chance, steps",
        "cards/toy/scripts/test.yaml:9: step 1: expected exactly one of chance, act, reject, expect, "
        "play_to_end, got [move]",
    ]


def test_play_to_end_finishes_and_the_seed_decides_the_rest(toy_game):
    steps = "  - play_to_end: random\n  - expect: {terminal: true, scores: [0, 0]}\n"
    first = run(toy_game, steps)
    assert len(first) == 1 and "expected scores = [0, 0], got [" in first[0]
    assert run(toy_game, steps) == first  # same seed, same game


def test_setup_failure_is_reported(toy_game):
    failures = run(toy_game, "  - expect: {round: 1}\n", header=HEADER.replace("players: 2", "players: 6"))
    assert failures == [
        "cards/toy/scripts/test.yaml:2: setup with 6 players failed: ValueError: Sum Up is for 2-4 "
        "players, not 6"
    ]
