"""A described game through the commands: game.yaml `engine: {rules: ...}`, `pnp validate --engine rules`,
`pnp new --rules`, `pnp replay`; each bad door one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.data.scaffold import new_game
from generator.engines.registry import engine_for
from tests.conftest import run_pnp


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    """`pnp new demo --rules` in an empty folder."""
    project = Project(tmp_path / "designer")
    new_game(project, "demo", rules=True)
    return project


def test_a_new_game_from_a_rules_file_validates_and_replays_at_once(demo):
    result = run_pnp("validate", "--games", "30", "--jobs", "1", project=demo)
    assert result.exit_code == 0, result.output
    assert "OK  demo: 0 failed games, 0 composition problems" in result.output
    assert "every card of a deck the actions play can be played" in result.output
    assert "running its rules engine" not in result.output  # a rules file is no Python of the project
    replay = run_pnp(
        "replay", "demo", "--seed", "3", "--players", "2", "--bots", "greedy,random", project=demo
    )
    assert replay.exit_code == 0, replay.output
    assert "seat 0: play " in replay.output


def test_validate_engine_rules_plays_the_rules_file_instead_of_the_named_engine(demo):
    game_yaml = demo.cards_dir / "demo" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8").replace(
        "engine: {rules: rules.yaml}", "engine: no-such-engine"
    )
    game_yaml.write_text(text, encoding="utf-8")
    named = run_pnp("validate", "demo", "--no-sim", project=demo)
    assert named.exit_code == 1 and "rules engine 'no-such-engine' does not exist" in named.output
    described = run_pnp("validate", "demo", "--games", "20", "--jobs", "1", "--engine", "rules", project=demo)
    assert described.exit_code == 0, described.output
    assert "OK  demo: 0 failed games" in described.output


def test_validate_engine_rules_without_a_rules_file_is_one_located_line(tmp_path):
    project = Project(tmp_path / "p")
    new_game(project, "plain")
    result = run_pnp("validate", "plain", "--engine", "rules", project=project)
    assert result.exit_code == 1
    assert (
        "cards/plain/game.yaml:0: rules file 'rules.yaml' does not exist in cards/plain/" in result.output
        or "rules file 'rules.yaml' does not exist in cards/plain/" in result.output
    )
    assert "Traceback" not in result.output


def test_engine_needs_exactly_one_of_module_and_rules(demo):
    game_yaml = demo.cards_dir / "demo" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    for written in ("engine: {rules: rules.yaml, module: engine.py}", "engine: {}"):
        game_yaml.write_text(text.replace("engine: {rules: rules.yaml}", written), encoding="utf-8")
        with pytest.raises(InputError) as caught:
            load_game(demo, "demo")
        line = next(n for n, t in enumerate(game_yaml.read_text().splitlines(), 1) if t.startswith("engine:"))
        found = [str(p) for p in caught.value.problems if "expected exactly one" in p.message]
        assert len(found) == 1 and found[0].startswith(f"cards/demo/game.yaml:{line}: "), (
            caught.value.problems
        )


def test_a_rules_file_that_is_missing_or_broken_is_located(demo):
    rules = demo.cards_dir / "demo" / "rules.yaml"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace("  - choose: [play]", "  - choose: [plya]"), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        engine_for(load_game(demo, "demo"))
    (problem,) = caught.value.problems
    line = next(n for n, t in enumerate(rules.read_text().splitlines(), 1) if "plya" in t)
    assert str(problem) == (
        f"cards/demo/rules.yaml:{line}: unknown action 'plya' (did you mean 'play'?); known: play"
    )
    rules.unlink()
    with pytest.raises(InputError) as caught:
        engine_for(load_game(demo, "demo"))
    assert "rules file 'rules.yaml' does not exist" in str(caught.value.problems[0])


def test_new_refuses_both_engine_and_rules(tmp_path):
    with pytest.raises(InputError) as caught:
        new_game(Project(tmp_path / "p"), "demo", engine=True, rules=True)
    assert "--engine and --rules both give the game its rules" in str(caught.value.problems[0])


def test_the_editor_schema_knows_the_rules_files_top_level_keys():
    from generator.data.schema import RULES_FILE_KEYS
    from generator.rules.language import TOP_KEYS

    assert sorted(RULES_FILE_KEYS) == sorted(TOP_KEYS)
