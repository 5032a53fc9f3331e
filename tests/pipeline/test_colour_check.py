"""`pnp validate` warns (--strict: fails) where two things a player must tell apart differ only in colours a
colour-blind player cannot tell apart; the bundled games pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.load import load_game
from generator.pipeline.colour_check import colour_vision_problems
from tests.conftest import run_pnp

BUNDLED = ["order-up-pizza", "short-order-hero", "order-up-trading", "crazy-eights", "go-fish"]


@pytest.mark.parametrize("game_id", BUNDLED)
def test_the_bundled_games_pass(repo_project, game_id):
    assert colour_vision_problems(load_game(repo_project, game_id)) == []


def test_cars_told_apart_by_colour_alone_are_found(tmp_project):
    # the Order Up cars as they were: one red car on each player's colour, with no letter
    layout = tmp_project.cards_dir / "order-up-pizza" / "layouts" / "car.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text[: text.index("  badge:")], encoding="utf-8")
    [problem] = colour_vision_problems(load_game(tmp_project, "order-up-pizza"))
    assert problem.file == "cards/order-up-pizza/layouts/car.yaml" and problem.line == 5
    assert "'red-car' and 'green-car'" in problem.message and "deuteranopia" in problem.message


def _red_and_green_decks(root: Path) -> None:
    assert run_pnp("new", "demo", project=root).exit_code == 0
    game = root / "cards" / "demo"
    back = (game / "layouts" / "actions-back.yaml").read_text(encoding="utf-8")
    (game / "layouts" / "actions-back.yaml").write_text(back.replace("#243b55", "#c62828"), encoding="utf-8")
    (game / "layouts" / "spares-back.yaml").write_text(back.replace("#243b55", "#2e9e44"), encoding="utf-8")
    deck = (game / "actions.yaml").read_text(encoding="utf-8")
    deck = deck.replace("deck: actions", "deck: spares").replace("code: ACT", "code: SPR") \
        .replace("back: actions-back", "back: spares-back")
    for card_id in ("draw-two", "lucky-roll", "star-chef", "head-cook"):
        deck = deck.replace(f"id: {card_id}", f"id: spare-{card_id}")
    (game / "spares.yaml").write_text(deck, encoding="utf-8")
    config = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(config.replace("decks: [actions]", "decks: [actions, spares]"),
                                    encoding="utf-8")


def test_two_decks_with_only_red_and_green_backs_fail_strict_validation(tmp_path):
    _red_and_green_decks(tmp_path)
    warned = run_pnp("validate", "--no-sim", project=tmp_path)
    assert warned.exit_code == 0, warned.output
    line = next(x for x in warned.output.splitlines() if "look alike" in x)
    assert line.startswith("warning: cards/demo/layouts/spares-back.yaml:1: the backs of decks 'actions' and "
                           "'spares' look alike with deuteranopia")
    strict = run_pnp("validate", "--no-sim", "--strict", project=tmp_path)
    assert strict.exit_code == 1
    assert "the backs of decks 'actions' and 'spares' look alike" in strict.output
