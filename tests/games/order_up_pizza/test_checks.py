"""Order Up (pizza): every composition check catches broken data. The rules written in game.yaml `checks:`
name the check's line, the check and the card (with its own file and line); the engine's graph checks name the
board line."""

from __future__ import annotations

import re

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAME = "order-up-pizza"
DIR = f"cards/{GAME}"

REFERENCE_CHECK = "reference cards list exactly the deck's toppings and action cards"
COLLECTABLE_CHECK = "every order can be collected while each other player holds one of its toppings"


def edit(project, file: str, old: str, new: str) -> None:
    """Replace the first `old` in a game file of the throw-away project."""
    path = project.cards_dir / GAME / file
    text = path.read_text()
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, 1))


def line(project, file: str, text: str) -> int:
    """1-based line of the first line of `file` containing `text`."""
    lines = (project.cards_dir / GAME / file).read_text().splitlines()
    return next(i for i, content in enumerate(lines, start=1) if text in content)


def check(project, name: str) -> str:
    """'cards/order-up-pizza/game.yaml:<line>: check '<name>' failed' for a check declared in game.yaml."""
    return f"{DIR}/game.yaml:{line(project, 'game.yaml', f'- name: {name}')}: check '{name}' failed"


def card(project, file: str, card_id: str) -> str:
    """' for card '<id>' (cards/order-up-pizza/<file>:<line>)'."""
    return f" for card '{card_id}' ({DIR}/{file}:{line(project, file, f'id: {card_id}')})"


def problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        check_game(load_game(project, GAME), engines=True)
    return [str(p) for p in caught.value.problems]


def test_the_untouched_copy_passes(tmp_project):
    assert check_game(load_game(tmp_project, GAME), engines=True).cards == 128


def test_box_counts(tmp_project):
    edit(tmp_project, "toppings.yaml", "total: 91", "total: 90")
    edit(tmp_project, "toppings.yaml", "copies: 12,", "copies: 11,")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'toppings deck matches the box')}: toppings has 90 cards; "
        "expected 91 as in the published box"
    ]


def test_the_box_is_data_a_variant_changes_it_in_yaml_alone(tmp_project):
    edit(tmp_project, "toppings.yaml", "total: 91", "total: 90")
    edit(tmp_project, "toppings.yaml", "copies: 12,", "copies: 11,")
    edit(
        tmp_project, "game.yaml", "assert: decks.toppings.copies == 91", "assert: decks.toppings.copies == 90"
    )
    assert check_game(load_game(tmp_project, GAME), engines=True).cards == 127


def test_a_second_game_over_card(tmp_project):
    edit(tmp_project, "orders.yaml", "total: 33", "total: 34")
    edit(
        tmp_project,
        "orders.yaml",
        "    kind: game-over\n",
        "    kind: game-over\n  - {id: game-over-2, name: Game Over, copies: 1, layout: game-over, kind: "
        "game-over}\n",
    )
    edit(tmp_project, "game.yaml", "decks.orders.copies == 33", "decks.orders.copies == 34")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'exactly one Game Over card')}: the orders deck has 2 Game Over "
        "cards (game-over, game-over-2); expected exactly one card with kind: game-over "
        "and copies: 1"
    ]


def test_no_game_over_card(tmp_project):
    edit(tmp_project, "orders.yaml", "    kind: game-over\n", "")
    edit(
        tmp_project,
        "orders.yaml",
        "  - id: game-over\n    name: Game Over\n",
        "  - id: game-over\n    name: Game Over\n    customer: Nobody\n",
    )
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'exactly one Game Over card')}: the orders deck has 0 Game Over cards (none); "
        "expected exactly one card with kind: game-over and copies: 1"
    ) in found
    assert (
        f"{check(tmp_project, 'orders carry customer, toppings, address and value')}"
        f"{card(tmp_project, 'orders.yaml', 'game-over')}: order 'game-over' has no toppings, address, "
        "value; "
        "expected customer, toppings, address and value on every order (only Game Over leaves them out)"
    ) in found


def test_a_topping_without_price(tmp_project):
    edit(tmp_project, "toppings.yaml", "kind: topping, price: 2}", "kind: topping}")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'every topping has a price')}"
        f"{card(tmp_project, 'toppings.yaml', 'pepperoni')}: "
        "topping 'pepperoni' has no price; expected price: <dollars> (order values add up topping prices)"
    ]


def test_type_closure_order_asks_for_an_action_card(tmp_project):
    edit(tmp_project, "orders.yaml", "toppings: {mushrooms: 2}", "toppings: {mushrooms: 1, wild-card: 1}")
    assert (
        f"{check(tmp_project, 'orders ask only for toppings')}"
        f"{card(tmp_project, 'orders.yaml', 'grandma-rosa')}: "
        "order 'grandma-rosa' asks for wild-card, an action card; expected toppings only"
    ) in problems(tmp_project)


def test_type_closure_reference_card_leaves_out_a_topping(tmp_project):
    edit(tmp_project, "reference.yaml", ", pineapple, anchovies]", ", pineapple]")
    assert problems(tmp_project) == [
        f"{check(tmp_project, REFERENCE_CHECK)}"
        f"{card(tmp_project, 'reference.yaml', 'reference-red')}: reference card 'reference-red' lists "
        "pepperoni, "
        "mushrooms, sausage, onions, black-olives, green-peppers, ham, pineapple and wild-card, speed-trap, "
        "energy-drink, "
        "pizza-plunder; expected exactly the deck's toppings (pepperoni, mushrooms, sausage, onions, "
        "black-olives, "
        "green-peppers, ham, pineapple, anchovies) and action cards (wild-card, speed-trap, energy-drink, "
        "pizza-plunder)"
    ]


def test_obtainability_with_the_per_player_margin(tmp_project):
    edit(
        tmp_project,
        "orders.yaml",
        "toppings: {sausage: 2, pineapple: 1}",
        "toppings: {sausage: 2, pineapple: 1, pepperoni: 13}",
    )
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, COLLECTABLE_CHECK)}"
        f"{card(tmp_project, 'orders.yaml', 'big-bob')}: order 'big-bob' needs 13 pepperoni but the deck has "
        "12; "
        "expected at most 12 - (players - 1) = 9"
    ) in found


def test_order_larger_than_the_starting_hand(tmp_project):
    edit(
        tmp_project,
        "orders.yaml",
        "toppings: {black-olives: 2, green-peppers: 2}",
        "toppings: {black-olives: 3, green-peppers: 4}",
    )
    assert (
        f"{check(tmp_project, 'no order needs more toppings than a starting hand (or the hand limit) holds')}"
        f"{card(tmp_project, 'orders.yaml', 'sir-reginald')}: order 'sir-reginald' needs 7 toppings; "
        "expected at "
        "most start_hand 6 and hand_limit 10"
    ) in problems(tmp_project)


def test_demand_out_of_proportion_to_supply(tmp_project):
    edit(tmp_project, "toppings.yaml", "copies: 4, icon: anchovies", "copies: 8, icon: anchovies")
    edit(tmp_project, "toppings.yaml", "copies: 12,", "copies: 8,")
    name = "each topping is asked for in proportion to its copies (within 15% of the mean)"
    assert problems(tmp_project) == [
        f"{check(tmp_project, name)}{card(tmp_project, 'toppings.yaml', 'anchovies')}: topping 'anchovies' "
        "is needed 5 "
        "times on the orders for 8 copies (ratio 0.62); expected within 15% of the mean 1.30, i.e. 1.10-1.49",
        f"{check(tmp_project, name)}{card(tmp_project, 'toppings.yaml', 'pepperoni')}: topping 'pepperoni' "
        "is needed 16 "
        "times on the orders for 8 copies (ratio 2.00); expected within 15% of the mean 1.30, i.e. 1.10-1.49",
    ]


def test_the_tolerance_is_data(tmp_project):
    edit(tmp_project, "toppings.yaml", "copies: 4, icon: anchovies", "copies: 8, icon: anchovies")
    edit(tmp_project, "toppings.yaml", "copies: 12,", "copies: 8,")
    path = tmp_project.cards_dir / GAME / "game.yaml"
    path.write_text(path.read_text().replace("<= 0.15 * mean", "<= 0.6 * mean"))
    assert check_game(load_game(tmp_project, GAME), engines=True).cards == 128


def test_a_topping_on_more_than_half_the_orders(tmp_project):
    path = tmp_project.cards_dir / GAME / "orders.yaml"
    path.write_text(
        re.sub(r"    toppings: \{(?![^}]*pepperoni)", "    toppings: {pepperoni: 1, ", path.read_text())
    )
    assert (
        f"{check(tmp_project, 'no topping on more than half of the orders')}"
        f"{card(tmp_project, 'toppings.yaml', 'pepperoni')}: "
        "topping 'pepperoni' is on 32 of 32 orders; expected at most half"
    ) in problems(tmp_project)


def test_two_orders_at_one_address(tmp_project):
    edit(tmp_project, "orders.yaml", "address: 11 Basil Boulevard", "address: 11 Pepperoni Parkway")
    assert (
        f"{check(tmp_project, 'one order per address')}{card(tmp_project, 'orders.yaml', 'coach-carter')}: "
        "order "
        "'coach-carter' has the address '11 Pepperoni Parkway' of order grandma-rosa too; expected one order "
        "per "
        "address"
    ) in problems(tmp_project)


def test_an_address_not_on_the_board(tmp_project):
    edit(tmp_project, "orders.yaml", "address: 11 Basil Boulevard", "address: 12 Basil Boulevard")
    at = line(tmp_project, "orders.yaml", "12 Basil Boulevard")
    found = problems(tmp_project)
    assert len(found) == 1 and found[0].startswith(
        f"{DIR}/orders.yaml:{at}: address '12 Basil Boulevard' is not on the board"
    )


def test_street_colour_like_a_player_colour_or_another_street(tmp_project):
    edit(tmp_project, "board.yaml", 'color: "#7b2cbf"', 'color: "#1f5fbf"')
    edit(tmp_project, "board.yaml", 'color: "#7d8491"', 'color: "#8b5a2b"')
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'street colours are far apart')} for 'marinara-way': street 'Calzone Court' "
        "colour #8b5a2b "
        "is too close to street 'Marinara Way' (#8b5a2b); expected a distinct colour per street (at least 60 "
        "apart), "
        "since the order border shows it",
        f"{check(tmp_project, 'street colours are unlike the player colours')}"
        f" for players row 'blue' ({DIR}/players.yaml:{line(tmp_project, 'players.yaml', 'id: blue')}): "
        "street 'Basil "
        "Boulevard' colour #1f5fbf is too close to player colour Blue (#1f5fbf); expected road colours "
        "unlike the "
        "restaurant colours (at least 60 apart)",
    ]


def test_a_printed_border_must_be_the_street_colour(tmp_project):
    edit(
        tmp_project,
        "orders.yaml",
        "  value: {type: int",
        "  border: {type: color, required: false}\n  value: {type: int",
    )
    edit(
        tmp_project,
        "orders.yaml",
        "    address: 41 Pepperoni Parkway\n",
        "    address: 41 Pepperoni Parkway\n    border: \"#7b2cbf\"\n",
    )
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'every order' + chr(39) + 's border shows its street colour')}"
        f"{card(tmp_project, 'orders.yaml', 'nguyen-twins')}: order 'nguyen-twins' has border #7b2cbf but "
        "its street "
        "Pepperoni Parkway is #f77f00 (Orange); expected the street colour"
    ]


def test_player_colour_differs_from_its_restaurant(tmp_project):
    edit(tmp_project, "players.yaml", 'color: "#f4c430"', 'color: "#ffff00"')
    at = line(tmp_project, "players.yaml", "#ffff00")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'each player colour starts on a restaurant of its colour')} for players row "
        "'yellow' "
        f"({DIR}/players.yaml:{at}): player colour 'yellow' (#ffff00) starts on 'r0c10', a restaurant space "
        "of colour "
        "#f4c430; expected a restaurant of the same colour"
    ]


def test_board_disconnected_space_and_restaurant_off_the_corners(tmp_project):
    edit(
        tmp_project,
        "board.yaml",
        "streets:\n",
        "  - {id: lonely, at: [6, 2]}\n  - {id: r2c2, at: [10, 7], kind: restaurant}\nstreets:\n",
    )
    lonely, extra = line(tmp_project, "board.yaml", "id: lonely"), line(tmp_project, "board.yaml", "id: r2c2")
    found = problems(tmp_project)
    assert (
        f"{DIR}/board.yaml:{lonely}: space 'lonely' is not connected to the roads of 'r0c0'; expected one "
        "connected road network"
        in found
    )
    assert (f"{DIR}/board.yaml:{extra}: restaurant 'r2c2' at (10, 7) is not at a corner of the city; "
            "expected one of (4, 0), (4, 10), (14, 0), (14, 10)") in found
    assert (
        f"{check(tmp_project, 'every restaurant belongs to a player colour')} for 'r2c2': restaurant 'r2c2' "
        "belongs to no player colour in players.yaml"
    ) in found


def test_addresses_too_far_for_one_die(tmp_project):
    edit(tmp_project, "game.yaml", "  dice: 2 ", "  dice: 1 ")
    assert (
        f"{check(tmp_project, 'every address is within three average rolls of every restaurant')}"
        f"{card(tmp_project, 'orders.yaml', 'dr-patel')}: order 'dr-patel' at '91 Mozzarella Lane' is 19 "
        "steps from "
        "the Red restaurant; expected at most 10 (three average rolls of 1 dice)"
    ) in problems(tmp_project)


def test_seat_fairness_broken_by_moving_one_order(tmp_project):
    edit(tmp_project, "orders.yaml", "address: 11 Pepperoni Parkway", "address: 21 Pepperoni Parkway")
    at = line(tmp_project, "orders.yaml", "address: 21 Pepperoni Parkway")
    assert problems(tmp_project) == [
        f"{DIR}/orders.yaml:{at}: the {colour} restaurant ({home}) sees different (distance, value) pairs "
        "than the Red restaurant (r0c0): "
        f"only {colour}: {mine}; only Red: {red}; expected identical multisets so no seat is favoured"
        for colour, home, mine, red in (
            (
                "Blue",
                "r10c10",
                "(1 steps, $4) dr-patel, (18 steps, $4) grandma-rosa",
                "(2 steps, $4) grandma-rosa, (19 steps, $4) dr-patel",
            ),
            (
                "Green",
                "r10c0",
                "(1 steps, $4) mayor-mcbean, (12 steps, $4) grandma-rosa",
                "(2 steps, $4) grandma-rosa, (11 steps, $4) coach-carter",
            ),
            (
                "Yellow",
                "r0c10",
                "(1 steps, $4) coach-carter, (8 steps, $4) grandma-rosa",
                "(2 steps, $4) grandma-rosa, (9 steps, $4) mayor-mcbean",
            ),
        )
    ]


def test_order_value_must_be_the_sum_of_topping_prices(tmp_project):
    edit(
        tmp_project,
        "orders.yaml",
        "address: 82 Marinara Way\n    value: 9",
        "address: 82 Marinara Way\n    value: 10",
    )
    assert (
        f"{check(tmp_project, 'every order is worth the sum of its toppings' + chr(39) + ' prices')}"
        f"{card(tmp_project, 'orders.yaml', 'big-bob')}: order 'big-bob' is worth $10 but its toppings cost "
        "$9 "
        "(1 pineapple x $5 + 2 sausage x $2); expected value = sum of topping prices"
    ) in problems(tmp_project)


def test_setup_that_does_not_fit_the_deck_and_a_game_over_preset_out_of_range(tmp_project):
    edit(tmp_project, "game.yaml", "start_hand: 6 ", "start_hand: 30 ")
    edit(tmp_project, "game.yaml", "long: 21", "long: 40")
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'the deal fits the toppings deck')}: 4 players x start_hand 30 + 3 face-up "
        "toppings "
        "= 123 cards but the Toppings deck has 91; expected at most 91"
    ) in found
    assert (
        f"{check(tmp_project, 'Game Over depth presets keep Game Over out of the first orders')} for 'long': "
        "game_over_depth preset 'long' = 40 is out of range; expected 0..29 (32 orders - 3 face up)"
    ) in found


def test_customer_names_unique(tmp_project):
    edit(tmp_project, "orders.yaml", "customer: Coach Carter", "customer: grandma  rosa")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'customer names are unique')}{card(tmp_project, 'orders.yaml', order)}: order "
        f"'{order}' "
        f"has customer '{name}' like another order; expected unique customer names"
        for order, name in (("coach-carter", "grandma  rosa"), ("grandma-rosa", "Grandma Rosa"))
    ]


def test_a_broken_check_expression_is_one_located_line(tmp_project):
    edit(
        tmp_project, "game.yaml", "assert: decks.toppings.copies == 91", "assert: decks.topings.copies == 91"
    )
    assert problems(tmp_project) == [
        f"{DIR}/game.yaml:{line(tmp_project, 'game.yaml', '- name: toppings deck matches the box')}: check "
        "'toppings deck "
        "matches the box' cannot be evaluated: assert: error: no field 'topings' here (did you mean "
        "'toppings'?); known: "
        "orders, reference, toppings; expected an expression over the game's data (see `pnp docs templates`)"
    ]
