"""Short Order Hero rules: unit tests with explicit chance outcomes, scripts, and seeded bot games."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from pnp_engine_short_order_hero import ENGINE, rules_for
from pnp_engine_short_order_hero.data import Cooked
from pnp_engine_short_order_hero.state import SOHState

from generator.data.load import load_game
from generator.engines.base import CHANCE, TERMINAL, ChanceOutcome, IllegalAction, sample_chance
from generator.validator.harness import play_game
from generator.validator.scripts import run_script, script_files
from tests.conftest import REPO

GAME = "short-order-hero"
SCRIPTS = sorted(p.name for p in (REPO / "cards" / GAME / "scripts").glob("*.yaml"))


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, GAME)


def arranged(items, top) -> tuple:
    """A shuffle outcome: `top` first, then the remaining items in file order."""
    rest = list(items)
    for card in top:
        rest.remove(card)
    return tuple(top) + tuple(rest)


def start(game, players=2, recipes=(), ingredients=(), first=0, **options):
    """A state after setup with the given recipe and ingredient cards on top."""
    rules = rules_for(game)
    state = ENGINE.new_state(game, players, {**ENGINE.options, **options})
    state.apply(ChanceOutcome("recipe-deck", arranged(rules.recipe_cards, recipes)))
    state.apply(ChanceOutcome("ingredients-deck", arranged(rules.ingredient_cards, ingredients)))
    state.apply(ChanceOutcome("first-player", (first,)))
    return state


SEAT0 = ["bread", "butter", "egg", "potato", "potato", "salt", "cockroach"]
SEAT1 = ["bun", "bun", "beef", "pickle", "onion", "black-hair", "milk"]
DISPLAY = ["buttered-toast", "fries", "blt", "sliders", "omelette"]


def test_setup_deals_seven_shows_five_and_asks_chance_in_order(game):
    state = ENGINE.new_state(game, 3, dict(ENGINE.options))
    assert state.card_count() == {"recipes": 22, "ingredients": 231}
    labels = []
    rng = random.Random(4)
    while state.current_player() == CHANCE:
        request = state.chance_request()
        labels.append(request.label)
        items = list(request.items) if request.kind == "shuffle" else []
        rng.shuffle(items)
        state.apply(ChanceOutcome(request.label, tuple(items) if items else (2,)))
    assert labels == ["recipe-deck", "ingredients-deck", "first-player"]
    snap = state.snapshot()
    assert snap["current_player"] == 2 and snap["first_player"] == 2
    assert [p["hand_size"] for p in snap["players"]] == [7, 7, 8]  # the first player has drawn
    assert sum(1 for r in snap["display"] if r) == 5 and snap["recipe_deck"] == 17 and snap["marker"] == "t2"


def test_chance_outcome_must_match_the_request(game):
    state = ENGINE.new_state(game, 2, dict(ENGINE.options))
    with pytest.raises(IllegalAction, match="'recipe-deck' is next"):
        state.apply(ChanceOutcome("ingredients-deck", ()))
    with pytest.raises(IllegalAction, match="permutation"):
        state.apply(ChanceOutcome("recipe-deck", ("blt",) * 22))


def test_option_b_draw_ends_turn_and_not_after_an_action(game):
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + SEAT1 + ["tomato", "lettuce", "cheese"])
    assert state.hands[0]["tomato"] == 1
    state.apply(state.parse_action("draw"))
    assert state.cur == 1 and state.hands[0]["lettuce"] == 1
    state.apply(state.parse_action("cook sliders: bun bun beef"))
    with pytest.raises(IllegalAction, match="only allowed instead of actions"):
        state.apply(state.parse_action("draw"))
    assert "draw" not in [str(a) for a in state.legal_actions()]


def test_discard_and_draw_once_per_turn(game):
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + SEAT1 + ["tomato", "lettuce", "cheese", "flour"])
    state.apply(state.parse_action("discard cockroach"))
    assert [str(a) for a in state.legal_actions()][0] == "redraw"
    state.apply(state.parse_action("discard salt"))
    state.apply(state.parse_action("redraw"))
    assert Counter(state.hands[0]) == Counter(
        ["bread", "butter", "egg", "potato", "potato", "tomato", "lettuce", "cheese"]
    )
    assert not any(a.verb == "discard" for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="only once per turn"):
        state.apply(state.parse_action("discard egg"))


def test_cook_with_any_meat_and_secret_ingredient(game):
    hand = ["bun", "bun", "chicken", "secret-ingredient", "egg", "egg", "cheese"]
    state = start(
        game,
        recipes=["sliders", "omelette", "fries", "blt", "buttered-toast"],
        ingredients=hand + SEAT1 + ["pork"],
    )
    legal = {str(a) for a in state.legal_actions()}
    assert {
        "cook sliders: bun bun chicken",
        "cook sliders: bun bun pork",
        "cook sliders: bun bun secret-ingredient",
        "cook sliders: bun secret-ingredient chicken",
        "cook omelette: egg egg cheese secret-ingredient",
    } <= legal
    # one canonical order per way of cooking
    assert "cook sliders: secret-ingredient bun chicken" not in legal
    assert state.parse_action("cook sliders: secret-ingredient bun chicken") == state.parse_action(
        "cook sliders: bun secret-ingredient chicken")
    with pytest.raises(IllegalAction, match="cannot be Any Meat"):
        state.apply(state.parse_action("cook sliders: bun bun egg"))
    state.apply(state.parse_action("cook sliders: bun bun chicken"))
    state.apply(state.parse_action("cook omelette: egg egg cheese pork"))
    assert state.scores() == [12, 0] and state.display[:2] == [None, None]
    state.apply(state.parse_action("end"))
    assert all(state.display)


def test_bonus_only_as_a_prefix_in_printed_order(game):
    hand = ["bread", "cheese", "butter", "pork", "tomato", "secret-ingredient", "salt"]
    state = start(
        game,
        recipes=["grilled-cheese", "fries", "blt", "sliders", "omelette"],
        ingredients=hand + SEAT1 + ["milk"],
    )
    with pytest.raises(IllegalAction, match="printed order: tomato comes next, not pork"):
        state.apply(state.parse_action("cook grilled-cheese: bread cheese butter + pork"))
    assert state.hands[0]["pork"] == 1  # a refused cook changes nothing
    legal = {str(a) for a in state.legal_actions() if a.card == "grilled-cheese"}
    assert "cook grilled-cheese: bread cheese butter + tomato pork" in legal
    assert "cook grilled-cheese: bread cheese butter + secret-ingredient pork" in legal
    assert "cook grilled-cheese: bread cheese butter + pork" not in legal
    state.apply(state.parse_action("cook grilled-cheese: bread cheese butter + secret-ingredient pork"))
    assert state.scores()[0] == 7
    assert state.completed[0][0].bonus == [("secret-ingredient", 1), ("pork", 2)]
    assert state.discard == ["bread", "cheese", "butter"]


@pytest.mark.parametrize(("mode", "after_sabotage", "after_spice"), [("end", 0, 1), ("clamp", 0, 3)])
def test_score_floor(game, mode, after_sabotage, after_spice):
    toast = rules_for(game).recipes["buttered-toast"]
    cooked = Cooked(toast, [])
    cooked.add("cockroach", -4, 0, mode)
    assert cooked.score(mode, 0) == after_sabotage
    cooked.add("hot-sauce", 3, 0, mode)
    assert cooked.score(mode, 0) == after_spice


def test_spice_own_and_sabotage_opponents_only(game):
    seat1 = SEAT1[:-1] + ["garlic"]
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + seat1 + ["milk", "egg"])
    state.apply(state.parse_action("cook buttered-toast: bread butter"))
    state.apply(state.parse_action("play salt on buttered-toast"))
    with pytest.raises(IllegalAction, match="opponent's completed recipe"):
        state.apply(state.parse_action("play cockroach on buttered-toast"))
    state.apply(state.parse_action("end"))
    with pytest.raises(IllegalAction, match="your own completed recipes"):
        state.apply(state.parse_action("play garlic on buttered-toast"))
    state.apply(state.parse_action("play black-hair on buttered-toast"))
    assert state.scores()[0] == 1 and state.floor_hits == 0


def test_fresh_delivery_and_steal(game):
    hand = ["fresh-delivery", "five-finger-discount", "egg", "egg", "salt", "salt", "salt"]
    state = start(game, 3, recipes=DISPLAY, ingredients=hand + SEAT1 + SEAT0 + ["garlic", "potato", "tomato"])
    state.apply(state.parse_action("play fresh-delivery"))
    assert state.hands[0]["potato"] == 1 and state.hands[0]["tomato"] == 1
    assert {
        str(a) for a in state.legal_actions() if a.verb == "play" and a.card == "five-finger-discount"
    } == {"play five-finger-discount from 1", "play five-finger-discount from 2"}
    state.apply(state.parse_action("play five-finger-discount from 2"))
    request = state.chance_request()
    assert (request.kind, request.label, request.n, request.count) == ("pick", "steal", 7, 1)
    # seat 2's hand in name order: bread butter cockroach egg potato potato salt
    state.apply(ChanceOutcome("steal", (6,)))
    assert state.hands[0]["salt"] == 4 and sum(state.hands[2].values()) == 6
    assert state.card_count() == {"recipes": 22, "ingredients": 231}


def test_reshuffle_when_the_draw_pile_is_empty(game):
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + SEAT1 + ["tomato"])
    state.discard, state.pile = state.pile, []
    state.apply(state.parse_action("draw"))
    request = state.chance_request()
    assert request.label == "ingredients-reshuffle" and len(request.items) == 231 - 15
    state.apply(ChanceOutcome("ingredients-reshuffle", arranged(request.items, ["pork", "chicken"])))
    assert state.hands[0]["pork"] == 1 and state.hands[1]["chicken"] == 1 and state.reshuffles == 1
    assert state.card_count()["ingredients"] == 231


def test_both_piles_empty_skips_draws(game):
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + SEAT1 + ["tomato"])
    state.hands[1]["pork"] = len(state.pile)  # every remaining card into seat 1's hand (count stays the same)
    state.pile = []
    state.apply(state.parse_action("draw"))
    # option B and then seat 1's opening draw find both piles empty
    assert state.skipped_draws == 2 and state.cur == 1 and sum(state.hands[0].values()) == 8


def test_hand_limit_option_forces_discards_at_end_of_turn(game):
    hand = ["salt"] * 7
    state = start(game, recipes=DISPLAY, ingredients=hand + SEAT1 + ["pepper"] * 10, hand_limit=8)
    assert state.hand_limit == 8
    state.apply(state.parse_action("draw"))  # 9 cards: over the limit
    assert state.phase == "hand-limit" and state.cur == 0
    assert {str(a) for a in state.legal_actions()} == {"discard pepper", "discard salt"}
    with pytest.raises(IllegalAction, match="hand limit"):
        state.apply(state.parse_action("end"))
    state.apply(state.parse_action("discard salt"))
    assert state.cur == 1 and state.hand_limit_discards == 1 and state.invariant_problems() == []


def test_recipe_deck_exhausted_finishes_the_round(game):
    state = start(game, recipes=DISPLAY, ingredients=SEAT0 + SEAT1 + ["tomato"], first=0)
    state.display = ["buttered-toast", None, None, None, None]
    state.completed[1] = [Cooked(rules_for(game).recipes[r], []) for r in state.recipe_deck + DISPLAY[1:]]
    for cooked in state.completed[1]:
        state.owner[cooked.recipe.id] = 1
    state.recipe_deck = []
    state.apply(state.parse_action("cook buttered-toast: bread butter"))
    state.apply(state.parse_action("end"))
    assert state.trigger == "recipes-exhausted" and state.cur == 1 and not state.is_terminal()
    state.apply(state.parse_action("draw"))
    assert state.is_terminal() and state.ended_by == "recipes-exhausted"


@pytest.mark.parametrize(("players", "rounds"), [(2, 18), (3, 17), (4, 16), (5, 15)])
def test_tracker_rounds_per_player_count(game, players, rounds):
    state = start(game, players, first=players - 1)
    turns = 0
    while not state.is_terminal():
        state.apply(state.parse_action("draw"))
        turns += 1
    assert (state.rounds, turns, state.ended_by) == (rounds, rounds * players, "all-done")
    assert state.snapshot()["marker"] == "all-done" and state.winners() == list(range(players))


def test_settings_apply_unless_an_option_changes_them(game):
    state = ENGINE.new_state(game, 2, dict(ENGINE.options))
    assert (state.hand_limit, state.floor_mode, state.trigger_count, state.use_tracker) == (
        None,
        "end",
        5,
        True,
    )
    state = ENGINE.new_state(game, 2, {**ENGINE.options, "hand_limit": 10, "use_tracker": False})
    assert state.hand_limit == 10 and not state.use_tracker and state.snapshot()["marker"] is None


def test_an_option_set_to_the_built_in_value_still_overrides_game_yaml(game):
    # game.yaml may choose clamp and no tracker; a script or a test asking for `end` and the tracker must get
    # them
    rules = replace(
        rules_for(game), settings={**rules_for(game).settings, "floor_mode": "clamp", "use_tracker": False}
    )
    assert SOHState(rules, 2, dict(ENGINE.options)).floor_mode == "clamp"
    state = SOHState(rules, 2, {**ENGINE.options, "floor_mode": "end", "use_tracker": True})
    assert state.floor_mode == "end" and state.use_tracker


def test_unknown_options_fail_at_setup(game):
    with pytest.raises(ValueError, match="unknown option"):
        ENGINE.new_state(game, 2, {**ENGINE.options, "floor": "clamp"})


def test_every_legal_action_round_trips_through_its_text(game):
    rng = random.Random(11)
    for seed in range(6):
        state = ENGINE.new_state(game, 2 + seed % 4, dict(ENGINE.options))
        rng.seed(seed)
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state.chance_request(), rng))
                continue
            legal = state.legal_actions()
            assert len(set(legal)) == len(legal)
            for action in legal:
                assert state.parse_action(str(action)) == action
            state.apply(ENGINE.bots["random"](state, rng))


def test_scripts_cover_the_rules(game):
    assert [p.name for p in script_files(game)] == SCRIPTS and len(SCRIPTS) >= 8


@pytest.mark.parametrize("script", SCRIPTS)
def test_scripts_pass(game, script):
    assert run_script(game.dir / "scripts" / script, game) == []


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_bot_games_end_and_conserve_cards(game, players):
    endings = Counter()
    for seed in range(60):
        bots = ["greedy"] * players if seed % 3 == 0 else ["random"] * players if seed % 3 == 1 else \
            [("greedy", "random")[i % 2] for i in range(players)]
        # checks conservation after every action
        record = play_game(ENGINE, game, players, seed, bots, log=False)
        assert record.ok, record.failure
        assert record.winners and record.metrics["ended_by"] in (
            "fifth-recipe",
            "all-done",
            "recipes-exhausted",
        )
        assert record.metrics["rounds"] <= 20 - players  # 18, 17, 16, 15 rounds on the tracker
        assert len(record.metrics["extra"]["hand_sizes"]) == record.metrics["turns"]
        endings[record.metrics["ended_by"]] += 1
    assert endings["all-done"] > 0


def test_without_tracker_games_still_end(game):
    for seed in range(20):
        record = play_game(ENGINE, game, 4, seed, ["greedy"] * 4, {"use_tracker": False}, log=False)
        assert record.ok, record.failure
        assert record.metrics["ended_by"] in ("fifth-recipe", "recipes-exhausted")


def test_remembered_cooks_equal_a_fresh_enumeration_for_every_hand_seen(game):
    """The per-game memo of cook actions (keyed by capped counts) and the quick without-wilds rejection give
    exactly what cook_options() enumerates from scratch, in the same order, for every position of seeded bot
    games."""
    from pnp_engine_short_order_hero.actions import cook_options

    rules = rules_for(game)
    checked = cookable = 0
    for players, seed in ((2, 3), (3, 11), (5, 7), (4, 5)):
        rng = random.Random(seed)
        state = ENGINE.new_state(game, players, dict(ENGINE.options))
        while state.current_player() != TERMINAL:
            if state.current_player() == CHANCE:
                state.apply(sample_chance(state.chance_request(), rng))
                continue
            if state.phase == "actions":
                hand = state.hands[state.cur]
                fresh = [
                    a for rid in state.display if rid for a in cook_options(rules.recipes[rid], hand, rules)
                ]
                remembered = [a for cooks in state.displayed_cooks() for a in cooks.actions]
                assert remembered == fresh
                assert [a for a in state.legal_actions() if a.verb == "cook"] == fresh
                checked += 1
                cookable += bool(fresh)
            bots = ("greedy", "random")
            state.apply(ENGINE.bots[bots[state.cur % 2]](state, rng))
    assert checked > 200 and cookable > 20


def test_card_count_sees_every_zone_and_a_broken_engine_fails_its_games(game, monkeypatch):
    """card_count() sums the hands and the cooked recipes' cards with C-level sums: losing a card anywhere
    shows, and a hero engine that loses a drawn card fails the harness's conservation check."""
    state = start(game, 2, recipes=DISPLAY, ingredients=SEAT0 + SEAT1)
    whole = {"recipes": 22, "ingredients": 231}
    assert state.card_count() == whole
    state.hands[0]["bread"] -= 1
    assert state.card_count() == {"recipes": 22, "ingredients": 230}
    state.hands[0]["bread"] += 1
    state.completed[1].append(Cooked(state.r.recipes["fries"], [("salt", 1)]))  # a cooked recipe from nowhere
    state.display.remove("fries")
    state.display.append(None)
    assert state.card_count() == {"recipes": 22, "ingredients": 232}
    state.completed[1][0].mods.append(("cockroach", -2))
    assert state.card_count()["ingredients"] == 233
    state.display[0] = "sliders"  # shown twice
    assert any("on display twice" in p for p in state.invariant_problems())

    drawn = SOHState.give

    def leaky_give(self, seat, card):  # the 30th card given is lost
        self.given = getattr(self, "given", 0) + 1
        if self.given != 30:
            drawn(self, seat, card)

    monkeypatch.setattr(SOHState, "give", leaky_give)
    record = play_game(ENGINE, game, 3, 5, ["greedy"] * 3)
    assert record.failure_kind == "conservation" and "ingredients 231 -> 230" in record.failure


def test_log_lines_are_made_when_read(game):
    """Action lines are kept as (formatter, values) and read as the same text as before."""
    state = start(game, 2, recipes=DISPLAY, ingredients=SEAT0 + SEAT1)
    state.apply(state.parse_action("discard cockroach"))
    assert type(list.__getitem__(state.log, -1)) is tuple  # not made yet
    assert state.log[-2:] == ["seat 0 goes first", "seat 0: discard cockroach"]
    with pytest.raises(IllegalAction):
        state.apply(state.parse_action("draw"))
    assert state.log[-1] == "seat 0: discard cockroach"  # a refused action leaves no trace
