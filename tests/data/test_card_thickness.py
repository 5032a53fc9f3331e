"""game.yaml `card_thickness`: the tuck boxes' depth is made of it (a length or a preset), a box's own
`thickness` wins, and a bad value is one located line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.core.units import mm
from generator.data.components import tuckbox_plan
from generator.data.load import load_game
from generator.data.project import Project
from tests.conftest import REPO


@pytest.fixture
def hero(tmp_path: Path) -> Project:
    shutil.copytree(REPO / "cards" / "short-order-hero", tmp_path / "cards" / "short-order-hero")
    return Project(tmp_path)


def _set_thickness(project: Project, value: str) -> None:
    path = project.cards_dir / "short-order-hero" / "game.yaml"
    lines = [line for line in path.read_text(encoding="utf-8").splitlines(keepends=True)
             if not line.startswith("card_thickness:")]
    at = lines.index("card_size: poker\n") + 1  # card_thickness on line 8
    path.write_text("".join(lines[:at] + [f"card_thickness: {value}\n"] + lines[at:]), encoding="utf-8")


def _depths(project: Project) -> dict[str, list[float]]:
    game = load_game(project, "short-order-hero")
    return {c.id: [box.depth for box in tuckbox_plan(c, game.decks)] for c in game.components.values()
            if c.kind == "tuckbox"}


def test_the_boxes_are_as_deep_as_the_cards_are_thick(hero):
    standard = _depths(hero)
    _set_thickness(hero, "sleeved")
    sleeved = _depths(hero)
    game = load_game(hero, "short-order-hero")
    assert standard.keys() == sleeved.keys() == {"recipes-box", "ingredients-box"}
    for box_id, boxes in sleeved.items():
        cards = [box.cards for box in tuckbox_plan(game.components[box_id], game.decks)]
        if len(boxes) == len(standard[box_id]):  # the same cards a box: each card 0.18 mm deeper
            for thick, thin, count in zip(boxes, standard[box_id], cards, strict=True):
                assert thick - thin == pytest.approx(count * mm(0.5 - 0.32), abs=0.01)
        assert max(boxes) > max(standard[box_id])
    _set_thickness(hero, "0.45mm")
    assert _depths(hero) != standard


def test_a_box_of_its_own_thickness_keeps_it(hero):
    box = hero.cards_dir / "short-order-hero" / "recipes-box.yaml"
    box.write_text(box.read_text(encoding="utf-8") + "thickness: 0.32mm\n", encoding="utf-8")
    before = _depths(hero)["recipes-box"]
    _set_thickness(hero, "thick")
    assert _depths(hero)["recipes-box"] == before


@pytest.mark.parametrize(("value", "says"), [("wet", "'wet' is not a card thickness"),
                                             ("5mm", "5mm is too thick for a card"),
                                             ("0.01mm", "0.01mm is too thin for a card")])
def test_a_bad_thickness_is_one_located_line(hero, value, says):
    _set_thickness(hero, value)
    with pytest.raises(InputError) as info:
        load_game(hero, "short-order-hero")
    problems = [str(p) for p in info.value.problems]
    assert len(problems) == 1, problems
    assert "game.yaml:8" in problems[0] and says in problems[0], problems
    assert "standard (0.32mm), thick (0.4mm), sleeved (0.5mm)" in problems[0]
