"""Rules of the trading game played through the engine API with explicit chance, plus seeded bot games."""

from __future__ import annotations

import copy
import random

import pytest
from pnp_engine_order_up_trading import ENGINE, Action

from generator.data.load import load_game
from generator.engines.base import CHANCE, TERMINAL, ChanceOutcome, IllegalAction, sample_chance
from generator.validator.harness import play_game
from generator.validator.scripts import run_script
from tests.conftest import REPO

GAME = "order-up-trading"
# Deal A (3 players, sets burrito/pizza/pancakes, dealer 2): every seat lacks one Produce card, in a ring.
DEAL_A = (
    "burrito-tortilla burrito-rice burrito-ground-beef burrito-black-beans burrito-sour-cream pizza-tomato "
    "pizza-mushroom "
    "pizza-flour pizza-pepperoni pizza-sausage pizza-parmesan pizza-mozzarella burrito-tomato "
    "pancakes-strawberries "
    "pancakes-flour pancakes-toast pancakes-egg pancakes-bacon pancakes-butter pancakes-milk burrito-lettuce"
).split()


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, GAME)


def chance(state, label, *values):
    assert state.current_player() == CHANCE
    assert state.chance_request().label == label
    state.apply(ChanceOutcome(label, tuple(values)))


def act(state, text):
    action = state.parse_action(text)
    assert action in state.legal_actions()
    state.apply(action)


def deal_a(game, **options):
    state = ENGINE.new_state(game, 3, options)
    chance(state, "sets", 0, 3, 5)
    chance(state, "dealer", 2)
    chance(state, "ingredients-deal", *DEAL_A)
    chance(state, "recipes-deal", "burrito", "pizza", "pancakes")
    return state


def test_set_selection_is_a_pick_for_3_to_5_players_and_absent_for_6(game):
    for players in (3, 4, 5):
        state = ENGINE.new_state(game, players, {})
        request = state.chance_request()
        assert (request.kind, request.label, request.n, request.count) == ("pick", "sets", 6, players)
    state = ENGINE.new_state(game, 6, {})
    assert state.chance_request().label == "dealer"
    assert state.snapshot()["in_play"] == ["burrito", "burger", "salad", "pizza", "spaghetti", "pancakes"]


def test_dealing_gives_7_cards_and_a_recipe_starting_left_of_the_dealer(game):
    state = ENGINE.new_state(game, 4, {})
    chance(state, "sets", 5, 0, 2, 3)
    chance(state, "dealer", 1)
    request = state.chance_request()
    assert request.kind == "shuffle" and len(request.items) == 28
    assert {state.deck.icon[c] for c in request.items} == {"burrito", "salad", "pizza", "pancakes"}
    order = request.items[::-1]  # in file order seat 2 would be dealt the whole Burrito set and win at once
    state.apply(ChanceOutcome("ingredients-deal", order))
    chance(state, "recipes-deal", "burrito", "salad", "pizza", "pancakes")
    snap = state.snapshot()
    assert [p["recipe"] for p in snap["players"]] == ["pizza", "pancakes", "burrito", "salad"]
    assert state.hands[2] == list(order[:7])  # seat 2 sits left of dealer 1
    assert sorted(c for h in state.hands for c in h) == sorted(request.items)
    assert state.current_player() == 2
    assert state.card_count() == {"ingredients": 42, "recipes": 6}


def test_wrong_chance_outcomes_are_rejected(game):
    state = ENGINE.new_state(game, 3, {})
    with pytest.raises(IllegalAction, match="expected chance 'sets'"):
        state.apply(ChanceOutcome("dealer", (0,)))
    with pytest.raises(IllegalAction, match="distinct indices"):
        state.apply(ChanceOutcome("sets", (0, 0, 1)))
    chance(state, "sets", 0, 1, 2)
    chance(state, "dealer", 0)
    with pytest.raises(IllegalAction, match="permutation"):
        state.apply(ChanceOutcome("ingredients-deal", ("burrito-rice",) * 21))
    with pytest.raises(IllegalAction, match="chance decides now"):
        state.apply(Action("pass"))


def test_every_legal_action_reads_back_from_its_text(game):
    state = deal_a(game)
    actions = state.legal_actions()
    # seat 0 holds Grains 2, Protein 2, Dairy 1, Produce 2: 3 + 3 + 1 + 3 monochrome bundles, call and pass
    assert len(actions) == 12
    for action in actions:
        assert state.parse_action(str(action)) == action
    assert state.parse_action("offer pizza-mushroom pizza-tomato") == Action(
        "offer", ("pizza-tomato", "pizza-mushroom")
    )


def test_a_trade_is_always_possible_one_card_of_any_colour(game):
    rng = random.Random(5)
    for players in (3, 4, 5, 6):
        state = ENGINE.new_state(game, players, {})
        while state.current_player() == CHANCE:
            state.apply(sample_chance(state.chance_request(), rng))
        seat = state.current_player()
        legal = state.legal_actions()
        assert all(Action("offer", (card,)) in legal for card in state.hands[seat])


def test_equal_trade_completes_a_recipe_and_scores_the_round(game):
    state = deal_a(game)
    act(state, "offer pizza-mushroom")
    act(state, "offer pancakes-strawberries")
    act(state, "offer burrito-lettuce")
    request = state.chance_request()
    assert (request.kind, request.label, request.items) == ("shuffle", "pairing", (0, 1, 2))
    chance(state, "pairing", 0, 2, 1)
    assert "burrito-lettuce" in state.hands[0] and "pizza-mushroom" in state.hands[2]
    assert state.hands[1][-1] == "pancakes-strawberries"  # unpaired: kept its offer
    # seat 0 completes Burrito with the Pizza set's tomato: icons need not match (+10, +6 icons)
    assert state.score == [16, 5, 6]
    assert state.history[0]["winner"] == 0 and state.dealer == 0
    assert state.card_usage["burrito-lettuce"] == 1 and state.card_usage["pancakes-strawberries"] == 0


def test_winner_set_swap_keeps_the_cards_they_won_with(game):
    state = deal_a(game)
    for text in ("offer pizza-mushroom", "offer pancakes-strawberries", "offer burrito-lettuce"):
        act(state, text)
    chance(state, "pairing", 0, 2, 1)
    request = state.chance_request()
    assert (request.label, request.n) == ("side", 3)
    won_with = sorted(state.hands[0])
    chance(state, "side", 2)  # spaghetti comes in
    assert state.in_play == ["pizza", "spaghetti", "pancakes"]
    assert sorted(state.side["burrito"]) == won_with and "pizza-tomato" in won_with
    pool = state.chance_request().items
    assert len(pool) == 21 and {state.deck.icon[c] for c in pool} >= {"spaghetti"}
    assert state.invariant_problems() == []


def test_split_rule_the_larger_offerer_chooses_which_cards_to_give(game):
    state = deal_a(game)
    act(state, "offer burrito-tortilla burrito-rice")
    act(state, "offer pancakes-strawberries")
    act(state, "pass")
    assert state.current_player() == 0 and state.phase == "split"
    assert [str(a) for a in state.legal_actions()] == ["give burrito-tortilla", "give burrito-rice"]
    with pytest.raises(IllegalAction, match="must give 1"):
        state.apply(Action("give", ("burrito-tortilla", "burrito-rice")))
    act(state, "give burrito-tortilla")
    assert "burrito-tortilla" in state.hands[1] and "burrito-rice" in state.hands[0]
    assert sorted(len(h) for h in state.hands) == [7, 7, 7]


def test_mixed_colour_bundle_is_forbidden(game):
    state = deal_a(game)
    with pytest.raises(IllegalAction, match="one food group colour"):
        state.apply(state.parse_action("offer burrito-tortilla burrito-sour-cream"))
    assert state.parse_action("offer burrito-tortilla burrito-sour-cream") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="not in seat 0's hand"):
        state.apply(state.parse_action("offer pizza-flour"))


def test_false_call_costs_five_and_play_continues(game):
    state = deal_a(game)
    act(state, "call")
    assert state.round_false == [1, 0, 0] and state.current_player() == 1
    act(state, "offer pancakes-strawberries")
    act(state, "offer burrito-lettuce")  # two offers pair without a pairing event
    assert state.history[0]["winner"] == 2
    assert state.score == [5 - 5, 5, 10 + 7]


def test_simultaneous_completions_race_for_the_bell(game):
    state = ENGINE.new_state(game, 4, {})
    chance(state, "sets", 0, 1, 3, 5)  # burrito, burger, pizza, pancakes
    chance(state, "dealer", 3)
    hands = [
        "burrito-tortilla burrito-rice burrito-ground-beef burrito-black-beans burrito-sour-cream "
        "burrito-tomato pancakes-strawberries",
        "pancakes-flour pancakes-toast pancakes-egg pancakes-bacon pancakes-butter pancakes-milk "
        "burrito-lettuce",
        "burger-hamburger-bun burger-ground-beef burger-cheese burger-milkshake burger-onion "
        "burger-french-fries pizza-mushroom",
        "pizza-flour pizza-pepperoni pizza-sausage pizza-parmesan pizza-mozzarella pizza-tomato "
        "burger-pickles",
    ]
    chance(state, "ingredients-deal", *" ".join(hands).split())
    chance(state, "recipes-deal", "burrito", "pancakes", "burger", "pizza")
    for seat in range(4):
        act(state, f"offer {hands[seat].split()[-1]}")
    chance(state, "pairing", 0, 1, 2, 3)
    request = state.chance_request()
    assert (request.kind, request.label, request.n, request.count) == ("pick", "bell", 4, 1)
    chance(state, "bell", 2)
    assert state.history[0]["winner"] == 2 and state.score[2] == 10 + 7


def test_reaching_the_target_with_a_unique_leader_ends_the_game(game):
    state = deal_a(game, target=16, max_rounds=1)
    for text in ("offer pizza-mushroom", "offer pancakes-strawberries", "offer burrito-lettuce"):
        act(state, text)
    chance(state, "pairing", 0, 2, 1)
    assert state.is_terminal() and state.winners() == [0] and state.ended_by == "target-score"


def test_tick_cap_ends_a_stalled_game(game):
    state = deal_a(game, max_ticks=2)
    for _ in range(6):
        act(state, "pass")
    assert state.current_player() == TERMINAL and state.ended_by == "tick-cap"
    assert state.metrics()["turns"] == 2


def test_bots_only_use_their_own_cards(game):
    state = deal_a(game)
    other = copy.deepcopy(state)
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]  # what seat 0 cannot see
    other.recipe_of[1], other.recipe_of[2] = other.recipe_of[2], other.recipe_of[1]
    for bot in ENGINE.bots.values():
        assert bot(state, random.Random(3)) == bot(other, random.Random(3))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_seeded_bot_games_end_with_cards_conserved(game, players):
    for seed in range(75):
        bots = ["greedy", "random"] * 4
        record = play_game(ENGINE, game, players, seed, bots[seed % 2:seed % 2 + players], log=False)
        assert record.ok, record.failure  # the harness checks conservation and invariants after every action
        metrics = record.metrics
        assert metrics["ended_by"] == "target-score" and max(record.scores) >= 50
        assert record.winners == [record.scores.index(max(record.scores))]
        assert len(metrics["completed_goals"]) == metrics["rounds"] == len(metrics["extra"]["winner_seat"])
        trades = sum(metrics["extra"]["trades_per_round"])
        # each side of a trade gives 1-7 cards
        assert 2 * trades <= sum(metrics["card_usage"].values()) <= 2 * 7 * trades


def test_false_call_rate_makes_bots_pay(game):
    record = play_game(ENGINE, game, 4, 7, ["greedy"] * 4, {"false_call_rate": 0.05}, log=False)
    assert record.ok and record.metrics["extra"]["false_calls"] > 0


@pytest.mark.parametrize("path", sorted((REPO / "cards" / GAME / "scripts").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_scripted_games_pass(game, path):
    assert run_script(path, game, ENGINE) == []
