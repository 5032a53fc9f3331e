"""--option, --set and --list-options on `pnp validate` and `pnp replay`, as a designer types them."""

from __future__ import annotations

import json
import re

from pypdf import PdfReader

from tests.conftest import run_pnp


def decisions(output: str) -> int:
    return int(re.search(r"; (\d+) decisions", output).group(1))


def test_list_options_prints_every_option_with_type_default_and_help(repo_project):
    result = run_pnp("validate", "--list-options", "order-up-pizza", project=repo_project)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "Rule options of order-up-pizza (engine order-up-pizza); change them with --option NAME=VALUE:\n"
    )
    for name in ("game_over_depth", "end_mode", "hand_limit", "dice", "faceup_orders", "start_hand"):
        assert re.search(rf"^  {name} +\S", result.output, re.M), name
    assert "one of: immediate, finish_round; default immediate (game.yaml settings.end_mode)" in result.output
    assert "Data you can change with --set PATH=VALUE" in result.output


def test_replay_plays_with_the_rule_options_given(repo_project):
    base = ["replay", "order-up-pizza", "--seed", "3", "--players", "2"]
    short = run_pnp(*base, "--option", "game_over_depth=short", project=repo_project)
    long = run_pnp(*base, "--option", "game_over_depth=long", project=repo_project)
    assert short.exit_code == 0 and long.exit_code == 0, short.output + long.output
    assert decisions(short.output) < decisions(long.output)
    same = run_pnp(*base, "--set", "settings.game_over_depth.default=long", project=repo_project)
    assert same.output == long.output  # an option and the same value as data play the same game


def test_replay_refuses_unknown_options_and_paths_in_one_line_each(repo_project):
    result = run_pnp("replay", "order-up-pizza", "--seed", "3", "--option", "game_over_depht=long",
                     "--option", "dice=two", project=repo_project)
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "order-up-pizza: running its rules engine, the project's own Python in cards/order-up-pizza/engine/",
        "--option game_over_depht=long: order-up-pizza has no rule option 'game_over_depht' (did you mean "
        "'game_over_depth'?); known: dice, end_mode, faceup_orders, game_over_depth, hand_limit, start_hand; "
        "see "
        "pnp validate --list-options order-up-pizza",
        "--option dice=two: 'two' is not allowed; expected a whole number >= 1",
        "2 problems found.",
    ]
    result = run_pnp("replay", "order-up-pizza", "--seed", "3", "--set", "toppings.pepperoni.copeis=14",
                     project=repo_project)
    assert result.exit_code == 1
    assert "(did you mean 'copies'?)" in result.output and len(result.output.splitlines()) == 2


def test_validate_plays_the_changed_game_and_says_so(tmp_project):
    report = tmp_project.root / "changed.json"
    result = run_pnp(
        "validate",
        "order-up-pizza",
        "--games",
        "6",
        "--players",
        "2",
        "--jobs",
        "1",
        "--report",
        str(report),
        "--set",
        "toppings.pepperoni.copies=13",
        "--set",
        "toppings.mushrooms.copies=10",
        "--option",
        "end_mode=finish_round",
        project=tmp_project,
    )
    assert result.exit_code == 0, result.output
    assert "--  changed: toppings.pepperoni.copies = 13 (was 12)" in result.output
    assert "--  changed: option end_mode = finish_round" in result.output
    assert "scripts skipped" in result.output
    figures = json.loads(report.read_text())["games"]["order-up-pizza"]
    assert figures["settings"]["changes"] == [
        "toppings.pepperoni.copies = 13 (was 12)",
        "toppings.mushrooms.copies = 10 (was 11)",
        "option end_mode = finish_round",
    ]
    text = "".join(
        page.extract_text()
        for page in PdfReader(tmp_project.build_dir / "order-up-pizza" / "balance-changed.pdf").pages
    )
    assert "Played with changes to the game as written" in text and "toppings.pepperoni.copies = 13" in text
    # the game as written keeps its own
    assert not (tmp_project.build_dir / "order-up-pizza" / "balance.pdf").exists()
    assert not (tmp_project.build_dir / "order-up-pizza" / "validation.json").exists()
    assert figures["by_players"]["2"]["games"] == 6


def test_validate_reports_a_change_that_breaks_a_composition_check(repo_project):
    result = run_pnp(
        "validate", "order-up-trading", "--no-sim", "--set", "settings.target=60", project=repo_project
    )
    assert result.exit_code == 1
    assert "does not print the target 60 from game.yaml settings" in result.output


def test_changes_name_one_game(repo_project):
    result = run_pnp(
        "validate", "order-up-pizza", "short-order-hero", "--set", "settings.dice=1", project=repo_project
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "--option and --set change one game, but 2 are named (order-up-pizza, "
        "short-order-hero); expected: pnp validate GAME --set ..."
    )
