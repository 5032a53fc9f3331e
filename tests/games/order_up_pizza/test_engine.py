"""Order Up (pizza) engine: each rule driven with explicit chance outcomes, then many seeded bot games."""

from __future__ import annotations

import random

import pytest
from pnp_engine_order_up_pizza import ENGINE
from pnp_engine_order_up_pizza.actions import Action

from generator.data.load import load_game
from generator.engines.base import CHANCE, TERMINAL, ChanceOutcome, IllegalAction
from generator.validator.harness import play_game

GAME = "order-up-pizza"


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, GAME)


def arrange(items, top) -> tuple:
    """A shuffle outcome: the `top` ids first, the rest in file order (as scripts do)."""
    rest = list(items)
    for card in top:
        rest.remove(card)
    return tuple(top) + tuple(rest)


def new_game(game, players: int, **options):
    """A new game whose players chose their colours in table order (seat 0 Red, seat 1 Yellow, ...)."""
    state = ENGINE.new_state(game, players, {**ENGINE.options, **options})
    for colour in ("red", "yellow", "blue", "green")[:players]:
        state.apply(state.parse_action(f"choose {colour}"))
    return state


def start(game, players=2, hands=(), faceup=("pineapple", "anchovies", "ham"), deck=(), orders=(), **options):
    """A game after setup: `hands` (one list per seat) dealt, then the face-up toppings, then `deck` on
    top."""
    state = new_game(game, players, **options)
    top = [card for hand in hands for card in hand] + list(faceup) + list(deck)
    state.apply(ChanceOutcome("toppings-deck", arrange(state.chance_request().items, top)))
    state.apply(ChanceOutcome("order-deck", arrange(state.chance_request().items, orders)))
    return state


def roll(state, *dice):
    state.apply(ChanceOutcome("roll", tuple(dice)))


def act(state, *texts):
    for text in texts:
        state.apply(state.parse_action(text))


def legal(state) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def end_turn(state) -> None:
    """End a turn that waits after the move (the player still holds an action card they may play)."""
    if state.phase == "after":
        act(state, "end")


RED = ["mushrooms", "mushrooms", "pepperoni", "ham", "pepperoni", "pepperoni"]
YELLOW = ["pepperoni", "sausage", "onions", "onions", "black-olives", "green-peppers"]
ORDERS = ["grandma-rosa", "coach-carter", "dr-patel", "senora-garza", "tiny-tim", "mayor-mcbean"]


# ----- setup and chance
# -----------------------------------------------------------------------------------------
def test_setup_asks_for_both_shuffles_then_the_first_roll(game):
    state = ENGINE.new_state(game, 3, dict(ENGINE.options))
    assert state.current_player() == 0 and [str(a) for a in state.legal_actions()] == [
        "choose red", "choose yellow", "choose blue", "choose green"]  # the youngest chooses first
    for colour in ("red", "yellow", "blue"):
        state.apply(state.parse_action(f"choose {colour}"))
    request = state.chance_request()
    assert (state.current_player(), request.kind, request.label, len(request.items)) == (
        CHANCE,
        "shuffle",
        "toppings-deck",
        91,
    )
    state.apply(ChanceOutcome("toppings-deck", request.items))
    request = state.chance_request()
    assert (request.label, len(request.items), "game-over" in request.items) == ("order-deck", 32, False)
    state.apply(ChanceOutcome("order-deck", request.items))
    assert state.chance_request().kind == "dice" and state.chance_request().count == 2
    snap = state.snapshot()
    assert [p["hand_size"] for p in snap["players"]] == [6, 6, 6]
    assert snap["topping_deck"] == 91 - 18 - 3 and len(snap["toppings_faceup"]) == 3
    assert snap["order_deck"] == 30 and snap["players"][2]["position"] == "r10c10"
    assert state.card_count() == {"toppings": 91, "orders": 33, "reference": 4}


@pytest.mark.parametrize(("option", "depth"), [(None, 14), ("short", 7), ("max", 29), (0, 0), ("5", 5)])
def test_game_over_lies_under_depth_cards_after_the_face_up_orders(game, option, depth):
    state = start(game, game_over_depth=option)
    assert state.odeck[-(depth + 1)] == "game-over"  # the (depth+1)-th refill
    assert "game-over" not in state.ofaceup


@pytest.mark.parametrize(("options", "reason"), [
    ({"game_over_depth": 30}, "out of range; expected 0..29"),
    ({"game_over_depth": "huge"}, "is not a preset"),
    ({"end_mode": "sudden"}, "expected one of: immediate, finish_round"),
    ({"start_hand": 40, "hand_limit": 40}, "need 163 Toppings cards"),
    ({"hand_limit": 5}, "start_hand 6 is over the hand limit 5"),
])
def test_bad_options_fail_at_setup(game, options, reason):
    with pytest.raises(ValueError, match=reason):
        ENGINE.new_state(game, 4, {**ENGINE.options, **options})


def test_chance_outcomes_are_checked(game):
    state = new_game(game, 2)
    with pytest.raises(IllegalAction, match="'toppings-deck' is next"):
        state.apply(ChanceOutcome("roll", (3, 4)))
    with pytest.raises(IllegalAction, match="permutation"):
        state.apply(ChanceOutcome("toppings-deck", ("pepperoni",) * 91))
    state = start(game)
    with pytest.raises(IllegalAction, match="2 values in 1..6"):
        roll(state, 7, 1)


def test_single_die_variant_rolls_one_die(game):
    state = start(game, dice=1)
    assert state.chance_request().count == 1
    roll(state, 5)
    assert state.steps_left == 5


# ----- driving and delivering
# -----------------------------------------------------------------------------------
def test_moving_one_step_at_a_time_up_to_the_roll(game):
    state = start(game, hands=[RED, YELLOW], orders=ORDERS)
    roll(state, 1, 1)
    assert legal(state) == ["move r0c1", "move r1c0", "stop"]
    act(state, "move r0c1", "move r0c0")  # reversing and revisiting are allowed
    assert state.steps_left == 0 and legal(state) == ["stop"]
    with pytest.raises(IllegalAction, match="no steps left"):
        act(state, "move r0c1")


def test_delivery_on_entering_refills_at_once(game):
    state = start(game, hands=[RED, YELLOW], orders=ORDERS)
    roll(state, 3, 2)
    act(state, "move r0c1")
    assert "deliver grandma-rosa" in legal(state)
    act(state, "deliver grandma-rosa")
    assert state.ofaceup == ["senora-garza", "coach-carter", "dr-patel"]
    assert state.money[0] == 4 and sorted(state.hands[0]) == ["ham", "pepperoni", "pepperoni", "pepperoni"]
    assert state.tdiscard == ["mushrooms", "mushrooms"]
    # the refill, same turn
    act(state, "move r0c0", "move r1c0", "move r2c0", "move r3c0", "deliver senora-garza")
    assert state.delivered[0] == ["grandma-rosa", "senora-garza"] and state.money[0] == 10


def test_delivery_needs_the_toppings_and_the_address(game):
    state = start(
        game, hands=[["mushrooms", "pepperoni", "ham", "sausage", "onions", "onions"], YELLOW], orders=ORDERS
    )
    roll(state, 2, 2)
    with pytest.raises(IllegalAction, match="goes to r0c1, but your car is on r0c0"):
        act(state, "deliver grandma-rosa")
    act(state, "move r0c1")
    assert not [a for a in legal(state) if a.startswith("deliver")]
    with pytest.raises(
        IllegalAction, match=r"not enough toppings for 'grandma-rosa': it needs 2 mushrooms \(you hold 1\)"
    ):
        act(state, "deliver grandma-rosa")
    with pytest.raises(IllegalAction, match="not face up"):
        act(state, "deliver tiny-tim")


def test_wild_cards_give_every_way_to_pay(game):
    state = start(
        game,
        hands=[["mushrooms", "wild-card", "wild-card", "onions", "onions", "ham"], YELLOW],
        orders=ORDERS,
    )
    roll(state, 1, 1)
    act(state, "move r0c1")
    assert [a for a in legal(state) if a.startswith("deliver")] == [
        "deliver grandma-rosa wild:mushrooms", "deliver grandma-rosa wild:mushrooms,mushrooms"]
    act(state, "deliver grandma-rosa wild:mushrooms")
    assert sorted(state.hands[0]) == ["ham", "onions", "onions", "wild-card"]
    assert sorted(state.tdiscard) == ["mushrooms", "wild-card"] and state.usage["wild-card"] == 1


def test_delivering_on_the_space_where_the_turn_starts(game):
    state = start(game, hands=[RED, YELLOW], orders=ORDERS)
    roll(state, 5, 6)
    act(
        state,
        "move r0c1",
        "deliver grandma-rosa",
        "move r0c0",
        "move r1c0",
        "move r2c0",
        "move r3c0",
        "deliver senora-garza",
    )
    act(state, *[f"move r{r}c0" for r in range(4, 10)], "stop")
    roll(state, 1, 1)
    # refill: mayor-mcbean at r9c0, under the red car
    act(state, "move r1c10", "deliver coach-carter", "stop")
    roll(state, 1, 1)
    assert "deliver mayor-mcbean" in legal(state)
    act(state, "deliver mayor-mcbean")
    assert state.money == [14, 4]


# ----- drawing and the hand limit
# -------------------------------------------------------------------------------
def test_drawing_only_when_the_move_ends_at_home(game):
    state = start(game, hands=[RED, YELLOW], deck=["wild-card", "onions"], orders=ORDERS)
    roll(state, 1, 1)
    act(state, "move r0c1", "move r0c0", "stop")
    # the rulebook says you *may* draw one or two: ending the turn without drawing is allowed
    assert legal(state) == ["draw deck", "draw anchovies", "draw ham", "draw pineapple", "end"]
    act(state, "draw ham")
    assert state.tfaceup == ["pineapple", "anchovies"] and "end" in legal(state)
    act(state, "draw deck")
    assert state.tfaceup == ["pineapple", "anchovies", "onions"]  # refilled after both picks
    assert sorted(state.hands[0]).count("wild-card") == 1 and len(state.hands[0]) == 8
    assert state.current == 1 and state.current_player() == CHANCE
    roll(state, 2, 2)
    act(state, "move r0c9", "stop")
    assert state.current == 0 and len(state.hands[1]) == 6  # yellow ended away from home: no draw
    roll(state, 1, 1)
    with pytest.raises(IllegalAction, match="only when your move ends on your restaurant"):
        act(state, "draw deck")


def test_hand_limit_discards_of_the_owners_choice(game):
    state = start(game, hands=[RED, YELLOW], deck=["anchovies", "onions"], hand_limit=7)
    roll(state, 6, 6)
    act(state, "stop", "draw deck", "draw deck")
    assert state.phase == "discard" and legal(state) == [
        "discard anchovies",
        "discard ham",
        "discard mushrooms",
        "discard onions",
        "discard pepperoni",
    ]
    assert state.invariant_problems() == []  # over the limit only while discarding
    act(state, "discard anchovies")
    assert len(state.hands[0]) == 7 and state.limit_discards == 1 and state.current == 1


def test_no_voluntary_discard(game):
    state = start(game, hands=[RED, YELLOW])
    roll(state, 2, 3)
    with pytest.raises(IllegalAction, match="no voluntary discards"):
        act(state, "discard pepperoni")


def test_reshuffling_when_the_face_up_row_needs_a_card(game):
    # 40 cards each (in file order) leave 8 in the deck: speed-trap, 4 energy-drink, 3 pizza-plunder
    state = start(game, faceup=(), start_hand=40, hand_limit=42)
    assert state.tfaceup == ["wild-card", "speed-trap", "speed-trap"] and len(state.tdeck) == 8
    for discards in ([], [], ["pepperoni", "pepperoni"], ["anchovies", "anchovies"]):
        roll(state, 1, 1)
        act(state, "stop", "draw deck", "draw deck", *[f"discard {card}" for card in discards])
        end_turn(state)
    assert state.tdeck == [] and state.tdiscard == ["pepperoni", "pepperoni", "anchovies", "anchovies"]
    roll(state, 1, 1)
    act(state, "stop", "draw wild-card", "draw speed-trap")
    request = state.chance_request()
    assert (state.current_player(), request.label, sorted(request.items)) == (
        CHANCE,
        "toppings-reshuffle",
        ["anchovies", "anchovies", "pepperoni", "pepperoni"],
    )
    state.apply(ChanceOutcome("toppings-reshuffle", ("pepperoni", "anchovies", "pepperoni", "anchovies")))
    assert state.tfaceup == ["speed-trap", "pepperoni", "anchovies"] and state.tdeck == [
        "anchovies",
        "pepperoni",
    ]
    assert state.tdiscard == [] and state.phase == "discard" and state.reshuffles == 1
    assert state.card_count()["toppings"] == 91


def test_drawing_when_deck_and_discard_are_empty(game):
    state = start(game, faceup=(), start_hand=40, hand_limit=50)
    for _ in range(4):
        roll(state, 1, 1)
        act(state, "stop", "draw deck", "draw deck")
        end_turn(state)
    roll(state, 1, 1)
    act(state, "stop")
    assert legal(state) == ["draw speed-trap", "draw wild-card", "play speed-trap yellow", "end"]
    act(state, "draw wild-card", "draw speed-trap", "end")
    assert state.tfaceup == ["speed-trap"] and state.current == 1  # nothing left to refill the row with
    roll(state, 1, 1)
    act(state, "stop", "draw speed-trap")
    assert legal(state) == ["play speed-trap red", "end"]  # nothing left to draw


# ----- action cards
# -------------------------------------------------------------------------------------------
def test_energy_drink_adds_three_after_the_roll_and_stacks(game):
    state = start(game, hands=[["energy-drink", "energy-drink", "ham", "ham", "ham", "ham"], YELLOW])
    roll(state, 1, 2)
    act(state, "play energy-drink", "play energy-drink")
    assert state.steps_left == 9 and state.tdiscard == ["energy-drink", "energy-drink"]


def test_speed_trap_sends_another_car_home(game):
    state = start(game, players=3, hands=[["speed-trap"] + RED[1:], YELLOW, RED])
    roll(state, 1, 1)
    act(state, "stop", "draw deck", "end")
    roll(state, 4, 4)
    act(state, *[f"move r{r}c10" for r in range(1, 9)], "stop")
    roll(state, 1, 1)
    act(state, "stop", "draw deck", "end")
    roll(state, 1, 1)
    assert "play speed-trap yellow" in legal(state) and "play speed-trap red" not in legal(state)
    with pytest.raises(IllegalAction, match="not your own"):
        act(state, "play speed-trap red")
    act(state, "play speed-trap yellow")
    assert (
        state.pos[1] == "r0c10" and "speed-trap" not in state.hands[0] and state.tdiscard[-1] == "speed-trap"
    )


def test_pizza_plunder_takes_two_of_your_choice_and_then_the_hand_limit(game):
    state = start(game, players=2, hands=[["pizza-plunder"] + ["ham"] * 5, YELLOW], hand_limit=6)
    roll(state, 6, 4)
    act(state, *[f"move r0c{c}" for c in range(1, 11)])
    act(state, "play pizza-plunder")
    assert state.phase == "plunder" and state.steps_left == 0
    assert legal(state) == [
        "take black-olives",
        "take green-peppers",
        "take onions",
        "take pepperoni",
        "take sausage",
    ]
    act(state, "take onions", "take black-olives")
    assert sorted(state.hands[1]) == ["green-peppers", "onions", "pepperoni", "sausage"]
    # 5 ham + 2 taken = 7 cards: discard down to 6 at once, any card (also one just taken)
    assert state.phase == "discard" and len(state.hands[0]) == 7 and state.invariant_problems() == []
    act(state, "discard onions")
    assert state.current == 1 and sorted(state.hands[0]) == ["black-olives"] + ["ham"] * 5
    assert state.tdiscard == ["pizza-plunder", "onions"] and state.usage["pizza-plunder"] == 1
    assert state.card_count()["toppings"] == 91


def test_pizza_plunder_only_on_an_active_opponents_restaurant(game):
    state = start(game, players=2, hands=[["pizza-plunder"] + ["energy-drink"] * 3 + ["ham", "ham"], YELLOW])
    roll(state, 6, 5)
    act(state, "play energy-drink", "play energy-drink", "play energy-drink")
    assert "play pizza-plunder" not in legal(state)  # at home
    act(state, *[f"move r{r}c0" for r in range(1, 11)], *[f"move r10c{c}" for c in range(1, 11)])
    assert state.pos[0] == "r10c10"  # blue's restaurant, unused with 2 players
    with pytest.raises(IllegalAction, match="active opponent's restaurant"):
        act(state, "play pizza-plunder")


def test_plunder_takes_all_when_the_victim_holds_fewer(game):
    state = start(
        game,
        players=2,
        hands=[["pizza-plunder", "ham", "ham", "ham", "ham", "ham"], ["sausage"] + ["mushrooms"] * 5],
    )
    state.tdiscard += state.hands[1][1:]  # the victim has spent all but one card
    state.hands[1] = state.hands[1][:1]
    roll(state, 6, 4)
    act(state, *[f"move r0c{c}" for c in range(1, 11)], "play pizza-plunder", "take sausage")
    assert state.hands[1] == [] and "sausage" in state.hands[0] and state.current == 1


# ----- the end
# -------------------------------------------------------------------------------------------------
def test_game_over_ends_the_game_immediately(game):
    state = start(game, hands=[RED, YELLOW], orders=ORDERS, game_over_depth=0)
    roll(state, 6, 6)
    act(state, "move r0c1", "deliver grandma-rosa")
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.ofaceup[0] == "game-over" and state.metrics()["ended_by"] == "game-over"
    assert state.winners() == [0] and state.snapshot()["winners"] == [0]
    with pytest.raises(IllegalAction, match="the game is over"):
        act(state, "stop")


def test_finish_round_gives_the_later_seats_one_more_turn(game):
    state = start(
        game, players=3, hands=[RED, YELLOW, RED], orders=ORDERS, game_over_depth=0, end_mode="finish_round"
    )
    roll(state, 6, 6)
    act(state, "move r0c1", "deliver grandma-rosa")
    assert state.current_player() == CHANCE and state.current == 1
    roll(state, 1, 1)
    act(state, "move r1c10", "deliver coach-carter")
    assert state.ofaceup == ["game-over", None, "dr-patel"]  # no refill after Game Over
    act(state, "stop")
    roll(state, 1, 1)
    act(state, "stop", "draw deck", "end")
    assert state.is_terminal() and state.winners() == [0, 1]  # $4 and 1 delivery each: a shared win


def test_finish_round_ends_at_once_when_the_last_seat_triggers(game):
    state = start(game, players=2, hands=[RED, YELLOW], orders=["coach-carter", "dr-patel", "tiny-tim"],
                  game_over_depth=0, end_mode="finish_round")
    roll(state, 1, 1)
    act(state, "stop", "draw deck", "end")
    roll(state, 1, 1)
    act(state, "move r1c10", "deliver coach-carter")
    assert state.is_terminal() and state.winners() == [1]


def test_tie_breaks_money_then_deliveries_then_shared(game):
    state = start(game, players=3)
    state.money, state.delivered = [8, 8, 6], [["a", "b"], ["c"], ["d"]]
    assert state.winners() == [0]
    state.delivered = [["a"], ["c"], ["d"]]
    assert state.winners() == [0, 1]
    state.money = [8, 9, 6]
    assert state.winners() == [1]


# ----- properties over many games
# ------------------------------------------------------------------------------
def test_every_legal_action_parses_back_from_its_text(game):
    rng = random.Random(4)
    for seed in range(20):
        state = start(game, players=2 + seed % 3)
        for _ in range(400):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                from generator.engines.base import sample_chance

                state.apply(sample_chance(state.chance_request(), rng))
                continue
            actions = state.legal_actions()
            assert all(state.parse_action(str(a)) == a for a in actions)
            state.apply(rng.choice(actions))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_bot_games_end_conserve_cards_and_last_depth_plus_one_deliveries(game, players):
    for seed in range(100):
        bots = ["greedy"] * players if seed % 2 else ["random"] + ["greedy"] * (players - 1)
        # checks conservation after every action
        record = play_game(ENGINE, game, players, seed, bots, log=False)
        assert record.ok, record.failure
        assert record.metrics["ended_by"] == "game-over"
        assert len(record.metrics["completed_goals"]) == 15  # standard depth 14: exactly d + 1 deliveries
        assert sum(record.metrics["extra"]["money_per_seat"]) == sum(record.scores)


def test_finish_round_and_short_games_with_one_die(game):
    for seed in range(40):
        record = play_game(ENGINE, game, 4, seed, ["greedy"] * 4,
                           {"end_mode": "finish_round", "dice": 1, "game_over_depth": "short"}, log=False)
        assert record.ok, record.failure
        assert len(record.metrics["completed_goals"]) >= 8


def test_metrics_report_the_standard_keys(game):
    record = play_game(ENGINE, game, 3, 11, ["greedy"] * 3, log=False)
    metrics = record.metrics
    for key in (
        "turns",
        "rounds",
        "ended_by",
        "completed_goals",
        "dwell",
        "card_usage",
        "hand_limit_discards",
        "dead_hand_turns",
    ):
        assert key in metrics
    assert metrics["rounds"] == -(-metrics["turns"] // 3)
    assert set(metrics["completed_goals"]) <= set(ENGINE.goals(game))
    assert len(ENGINE.goals(game)) == 32
    # 15 delivered, 2 still face up at the end
    assert sum(len(v) for v in metrics["dwell"].values()) == 15 + 2


def test_greedy_bot_plays_every_action_card(game):
    used = {}
    for seed in range(30):
        record = play_game(ENGINE, game, 4, seed, ["greedy"] * 4, log=False)
        for card, times in record.metrics["card_usage"].items():
            used[card] = used.get(card, 0) + times
    assert all(used.get(card, 0) > 0 for card in ("wild-card", "speed-trap", "energy-drink", "pizza-plunder"))


def test_action_text_is_readable():
    assert (
        str(Action("deliver", "big-bob wild:sausage")) == "deliver big-bob wild:sausage"
        and str(Action("stop")) == "stop"
    )
