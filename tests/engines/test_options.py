"""Rule options as engines declare them: parsing, checking, listing, and changed settings of the wrong
kind."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.overrides import parse_overrides
from generator.engines.base import Engine, Option
from generator.engines.options import (
    check_settings,
    coerce,
    describe_data,
    describe_options,
    expected,
    parse_options,
    setup_failure,
)
from generator.engines.registry import engine_for


@pytest.fixture(scope="module")
def pizza(repo_project):
    game = load_game(repo_project, "order-up-pizza")
    return game, engine_for(game)


@pytest.mark.parametrize("game_id", ["order-up-pizza", "order-up-trading", "short-order-hero"])
def test_every_built_in_option_is_declared_with_help_and_its_default_sets_up(repo_project, game_id):
    game = load_game(repo_project, game_id)
    engine = engine_for(game)
    declared = engine.declared_options()
    assert sorted(declared) == sorted(engine.options)
    assert all(o.help and o.kind != "any" for o in declared.values())
    defaults = {name: coerce(option, option.default_for(game), game) for name, option in declared.items()}
    assert setup_failure(engine, game, defaults) is None


def test_an_engine_whose_declarations_do_not_match_its_options_is_refused():
    with pytest.raises(ValueError, match="one declaration per option"):
        Engine("bad", new_state=None, player_counts=(2,), bots={}, options={"a": None},
               rule_options=(Option("b", "int", "help"),))


def test_values_are_coerced_to_what_the_option_declares(pizza):
    game, engine = pizza
    depth = engine.declared_options()["game_over_depth"]
    assert (
        coerce(depth, "long", game) == "long"
        and coerce(depth, 21, game) == 21
        and coerce(depth, 4.0, game) == 4
    )
    assert expected(depth, game) == "a whole number 0..29 or one of: short, standard, long, max"
    with pytest.raises(ValueError, match="out of range"):
        coerce(depth, 30, game)
    with pytest.raises(ValueError, match="did you mean 'long'"):
        coerce(depth, "lng", game)
    flag = Option("use_tracker", "bool", "help")
    assert coerce(flag, False, game) is False
    with pytest.raises(ValueError, match="expected true or false"):
        coerce(flag, "yes please", game)
    rate = Option("rate", "number", "help", minimum=0, maximum=1)
    assert coerce(rate, 0.25, game) == 0.25
    with pytest.raises(ValueError, match="expected a number 0..1"):
        coerce(rate, 2, game)


def test_option_texts_become_the_options_new_state_takes(pizza):
    game, engine = pizza
    assert parse_options(engine, game, ["game_over_depth=long", "end_mode=finish_round", "dice=1"]) == {
        "game_over_depth": "long", "end_mode": "finish_round", "dice": 1}
    with pytest.raises(InputError) as caught:
        parse_options(engine, game, ["depth=3", "end_mode=finsh", "hand_limit=0", "dice"])
    lines = [str(p) for p in caught.value.problems]
    assert lines == [
        "--option depth=3: order-up-pizza has no rule option 'depth'; known: dice, end_mode, faceup_orders, "
        "game_over_depth, hand_limit, start_hand; see pnp validate --list-options order-up-pizza",
        "--option end_mode=finsh: 'finsh' is not allowed; expected one of: immediate, finish_round",
        "--option hand_limit=0: 0 is out of range; expected a whole number >= 1",
        "--option dice: expected NAME=VALUE, e.g. end_mode=finish_round",
    ]


def test_a_changed_setting_must_fit_its_option_or_keep_its_kind(repo_project):
    game = load_game(
        repo_project,
        "order-up-pizza",
        parse_overrides(
            [
                "settings.hand_limit=lots",
                "settings.energy_bonus=fast",
                "settings.end_mode=later",
                "settings.dice=3",
            ]
        ),
    )
    problems = [str(p) for p in check_settings(engine_for(game), game)]
    assert problems == [
        "cards/order-up-pizza/game.yaml:14: --set settings.hand_limit=lots: 'lots' is not allowed; expected "
        "a whole "
        "number >= 1",
        "cards/order-up-pizza/game.yaml:18: --set settings.energy_bonus=fast: 'fast' is text; expected a "
        "whole "
        "number, like the value in game.yaml (3)",
        "cards/order-up-pizza/game.yaml:24: --set settings.end_mode=later: 'later' is not allowed; expected "
        "one of: "
        "immediate, finish_round",
    ]
    hero = load_game(repo_project, "short-order-hero", parse_overrides(["settings.hand_limit=10"]))
    # 'none' in the file, a number is what the option takes
    assert check_settings(engine_for(hero), hero) == []


def test_a_setup_that_the_values_break_names_the_player_count(pizza):
    game, engine = pizza
    assert (
        setup_failure(engine, game, {"start_hand": 30})
        == "2 players: start_hand 30 is over the hand limit 10"
    )
    assert setup_failure(engine, game, {"start_hand": 25, "hand_limit": 30}).startswith(
        "4 players: 4 hands of 25"
    )


def test_list_options_shows_types_defaults_and_help(pizza):
    game, engine = pizza
    text = "\n".join(describe_options(engine, game) + describe_data(game))
    assert (
        "  game_over_depth  a whole number 0..29 or one of: short, standard, long, max; default standard"
        in text
    )
    assert "  hand_limit       a whole number >= 1; default 10 (game.yaml settings.hand_limit)" in text
    assert "Six-sided dice rolled for movement" in text
    assert (
        "toppings.CARD.FIELD: cards anchovies" in text
        and "settings.NAME: start_hand=6, hand_limit=10" in text
    )
