"""Order Up (pizza): the game folder loads, passes every static check, and holds the published counts."""

from __future__ import annotations

from collections import Counter

import pytest

from generator.data.load import load_game
from generator.faces.icons import icon_names
from generator.pipeline.gather import check_game
from generator.validator.scripts import run_script, script_files
from tests.conftest import REPO, run_pnp

GAME = "order-up-pizza"


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, GAME)


def test_game_loads_and_every_check_passes(game):
    report = check_game(game, engines=True)
    assert report.cards == 91 + 33 + 4
    assert "exactly one Game Over card" in report.checks
    assert len(report.checks) >= 14


def test_deck_counts_match_the_box(game):
    assert [d.id for d in game.decks.values()] == ["toppings", "orders", "reference"]
    toppings, orders, reference = game.decks["toppings"], game.decks["orders"], game.decks["reference"]
    assert (toppings.copies, orders.copies, reference.copies) == (91, 33, 4)
    kinds = Counter()
    for card in toppings.cards:
        kinds[card.kind] += card.copies
    assert kinds == {"topping": 77, "action": 14}
    assert [c.id for c in orders.cards if c.kind == "game-over"] == ["game-over"]
    assert orders.card("game-over").layout == "game-over"
    assert {c.fields["player"] for c in reference.cards} == {"red", "yellow", "blue", "green"}


def test_action_cards_use_the_action_layout_and_print_the_design_texts(game):
    cards = game.decks["toppings"].by_id()
    for card_id in ("wild-card", "speed-trap", "energy-drink", "pizza-plunder"):
        assert cards[card_id].layout == "action"
        assert cards[card_id].icon == card_id
    assert (
        cards["energy-drink"].effect
        == "On your turn: add 3 to your dice roll. You may play it after rolling. Discard after use."
    )
    assert cards["pepperoni"].layout == "topping" and cards["pepperoni"].price == 2


def test_every_card_icon_exists_in_the_icon_library(game):
    known = icon_names(game.project.icon_dirs(game.id))
    missing = [c.icon for c in game.decks["toppings"].cards if c.icon not in known]
    assert missing == []


def test_board_has_the_city_of_the_design(game):
    board = game.boards["city"]
    kinds = Counter(space.kind for space in board.model.spaces)
    assert kinds == {"road": 48, "restaurant": 4, "junction": 5}
    assert len(board.addresses()) == 48
    assert (
        board.addresses()["41 Pepperoni Parkway"] == "r0c4"
        and board.addresses()["62 Calzone Court"] == "r6c5"
    )
    grid = board.model.grid
    assert all(0 <= s.at[0] < grid.cols and 0 <= s.at[1] < grid.rows for s in board.model.spaces)
    assert all(
        z.at[0] + z.size[0] <= grid.cols and z.at[1] + z.size[1] <= grid.rows for z in board.model.zones
    )
    players = game.tables["players"].by_id()
    assert {p: players[p].restaurant for p in players} == {
        "red": "r0c0",
        "yellow": "r0c10",
        "blue": "r10c10",
        "green": "r10c0",
    }


def test_orders_follow_the_design_table(game):
    orders = {c.id: c for c in game.decks["orders"].cards if c.kind == "order"}
    assert len(orders) == 32
    assert orders["nguyen-twins"].toppings == {"onions": 1, "black-olives": 2}
    assert orders["nguyen-twins"].address == "41 Pepperoni Parkway"
    assert sorted(Counter(o.value for o in orders.values()).items()) == [
        (4, 4), (6, 4), (7, 4), (8, 4), (9, 4), (11, 4), (12, 4), (13, 4)]


@pytest.mark.parametrize(
    "path", script_files(type("G", (), {"dir": REPO / "cards" / GAME})()), ids=lambda p: p.name
)
def test_scripted_games_pass(game, path):
    assert run_script(path, game) == []


def test_there_are_at_least_eight_scripts():
    assert len(list((REPO / "cards" / GAME / "scripts").glob("*.yaml"))) >= 8


def test_pnp_validate_prints_ok_for_the_game(tmp_project):
    result = run_pnp("validate", GAME, "--games", "20", "--jobs", "1", project=tmp_project)
    assert result.exit_code == 0, result.output
    assert f"OK  {GAME}: 128 cards in 3 decks" in result.output
