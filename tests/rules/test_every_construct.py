"""Breaking each construct of the shipped rules files gives a located line: every step's verb misspelt, every
condition made unreadable, every zone's key misspelt, each one problem at its own line."""

from __future__ import annotations

import re

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.rules.engine import engine_from_text
from generator.rules.language import STEP_VERBS
from tests.conftest import run_pnp

GAMES = ("crazy-eights", "go-fish", "short-order-hero")
STEP = re.compile(r"^(\s*- )(\w+):")  # a step: `- verb: ...`
CONDITION = re.compile(r'^(\s*(?:- )?(?:if|when|until|score|where): )"(.*)"(.*)$')


def _problems(game, text: str, file: str) -> list:
    with pytest.raises(InputError) as caught:
        engine_from_text(text, file, game)
    return caught.value.problems


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_verb_and_condition_broken_is_one_located_line(repo_project, game_id):
    game = load_game(repo_project, game_id)
    file = f"cards/{game_id}/rules.yaml"
    lines = (repo_project.root / file).read_text(encoding="utf-8").splitlines()
    engine_from_text("\n".join(lines), file, game)  # the file as shipped reads
    broken_steps = broken_conditions = 0
    for number, line in enumerate(lines, 1):
        step = STEP.match(line)
        if step and step.group(2) in STEP_VERBS:
            changed = lines[: number - 1] + [STEP.sub(r"\1\2x:", line, count=1)] + lines[number:]
            found = _problems(game, "\n".join(changed), file)
            assert [(p.file, p.line) for p in found] == [(file, number)], (line, found)
            assert (
                f"unknown effect '{step.group(2)}x'" in found[0].message
                and "did you mean" in found[0].message
            )
            broken_steps += 1
        condition = CONDITION.match(line)
        if condition:
            changed = (
                lines[: number - 1]
                + [f'{condition.group(1)}"({condition.group(2)}"{condition.group(3)}']
                + lines[number:]
            )
            found = _problems(game, "\n".join(changed), file)
            assert found and all((p.file, p.line) == (file, number) for p in found), (line, found)
            assert "does not parse" in found[0].message
            broken_conditions += 1
    assert broken_steps >= 8 and broken_conditions >= 4


@pytest.mark.parametrize("game_id", GAMES)
def test_every_zone_key_misspelt_is_one_located_line(repo_project, game_id):
    game = load_game(repo_project, game_id)
    file = f"cards/{game_id}/rules.yaml"
    text = (repo_project.root / file).read_text(encoding="utf-8")
    zone_lines = [(n, line) for n, line in enumerate(text.splitlines(), 1)
                  if re.match(r"^  \w+: \{.*(face|owner|deck)", line)]
    assert zone_lines
    for number, line in zone_lines:
        key = re.search(r"\b(face|owner|deck): ", line).group(1)
        changed = text.splitlines()
        changed[number - 1] = re.sub(rf"\b{key}: ", f"{key}z: ", line, count=1)
        found = _problems(game, "\n".join(changed), file)
        assert found[0].line == number and f"unknown key '{key}z'" in found[0].message, found


def test_the_described_examples_validate_with_their_scripts(repo_project):
    result = run_pnp(
        "validate", "crazy-eights", "go-fish", "--games", "20", "--jobs", "1", project=repo_project
    )
    assert result.exit_code == 0, result.output
    for game_id in ("crazy-eights", "go-fish"):
        assert f"OK  {game_id}: 1 of 1 scripts pass" in result.output
        assert f"OK  {game_id}: 0 failed games, 0 composition problems" in result.output
