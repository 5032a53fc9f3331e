"""The two optional methods of the engine API, for every engine that has them (OpenSpiel style, one shared
test): `State.clone()` is independent of its original, and `State.redeal(seat, rng)` keeps what the seat sees
(its own hand, the public zones, every hand size), the card counts and the invariants, changes what it cannot
see, and replays from the same generator. The three bundled engines implement both; the rules-language
engines (crazy-eights, go-fish) do not, and say so."""

from __future__ import annotations

import copy
import random

import pytest

from generator.engines.base import CHANCE, TERMINAL, missing_lookahead_methods, sample_chance
from tests.engines.test_play_all_games import games_with_engines, loaded

BUNDLED = ("short-order-hero", "order-up-pizza", "order-up-trading")
# snapshot keys a re-deal may change, under players.<another seat>: what that seat holds and is dealt
HIDDEN = ("hand", "recipe", "complete")
POINTS_PER_GAME = 6  # decisions looked at in each game (spread over the game)


def lookahead_games() -> list[str]:
    found = []
    for game_id in games_with_engines():
        game, engine = loaded(game_id)
        state = engine.new_state(game, engine.player_counts[0], dict(engine.options))
        if not missing_lookahead_methods(state):
            found.append(game_id)
    return found


def test_the_bundled_engines_have_both_methods_and_the_rules_language_none():
    assert set(BUNDLED) <= set(lookahead_games())
    for game_id in set(games_with_engines()) - set(BUNDLED):
        game, engine = loaded(game_id)
        state = engine.new_state(game, engine.player_counts[0], dict(engine.options))
        assert missing_lookahead_methods(state) == ["clone", "redeal"], game_id


def decision_points(game_id: str, players: int, seed: int):
    """States of one greedy game at a few of its decisions (each a fresh copy the caller may change)."""
    game, engine = loaded(game_id)
    state = engine.new_state(game, players, dict(engine.options))
    rng = random.Random(seed)
    decisions, points = 0, []
    while state.current_player() != TERMINAL and decisions < engine.turn_cap:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state.chance_request(), rng))
            continue
        decisions += 1
        if decisions % 7 == 1:
            points.append(state)
            state = state.clone()  # the kept state is never touched again
        state.apply(engine.bots["greedy"](state, rng))
    return points[:: max(1, len(points) // POINTS_PER_GAME)]


def play_out(state, engine, rng, counts=None) -> None:
    """Play a state to its end: a random bot in the seat to move now, greedy bots after (cards checked)."""
    bot, decisions = engine.bots["random"], 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state.chance_request(), rng))
        else:
            decisions += 1
            assert decisions <= engine.turn_cap
            state.apply(bot(state, rng))
            bot = engine.bots["greedy"]
        assert counts is None or state.card_count() == counts


def flat(value, path: str = "") -> dict:
    """A snapshot as dotted path -> leaf value."""
    if isinstance(value, dict):
        return {k: v for key, item in value.items() for k, v in flat(item, f"{path}{key}.").items()}
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return {k: v for i, item in enumerate(value) for k, v in flat(item, f"{path}{i}.").items()}
    return {path.rstrip("."): value}


def seen_by(snapshot: dict, seat: int) -> dict:
    """What `seat` sees of a snapshot: all but the hidden keys of the other seats (their hand sizes count)."""
    seen = {}
    for path, value in flat(snapshot).items():
        words = path.split(".")
        if words[0] == "players" and int(words[1]) != seat and words[2] in HIDDEN:
            if words[2] == "hand":
                seen[f"{path}#size"] = len(value)
            continue
        seen[path] = value
    return seen


@pytest.mark.parametrize("game_id", BUNDLED)
def test_a_clone_is_independent_of_its_original(game_id):
    game, engine = loaded(game_id)
    for players in engine.player_counts:
        for state in decision_points(game_id, players, seed=players):
            before, log = copy.deepcopy(state.snapshot()), list(state.log)
            twin = state.clone()
            assert twin.snapshot() == before and twin.card_count() == state.card_count()
            play_out(twin, engine, random.Random(5))
            assert state.snapshot() == before, f"{game_id}: playing a clone changed the original"
            assert list(state.log) == log and state.legal_actions() == state.clone().legal_actions()


@pytest.mark.parametrize("game_id", BUNDLED)
def test_a_redeal_keeps_what_the_seat_sees_and_the_card_counts(game_id):
    game, engine = loaded(game_id)
    changed = 0
    for players in engine.player_counts:
        for state in decision_points(game_id, players, seed=10 + players):
            seat = state.current_player()
            before, counts = state.snapshot(), state.card_count()
            dealt = state.clone()
            dealt.redeal(seat, random.Random(3))
            after = dealt.snapshot()
            assert seen_by(after, seat) == seen_by(before, seat), f"{game_id}: seat {seat}'s view changed"
            assert dealt.card_count() == counts and dealt.invariant_problems() == state.invariant_problems()
            assert state.snapshot() == before, f"{game_id}: redeal() of a clone changed the original"
            changed += after != before
            again = state.clone()
            again.redeal(seat, random.Random(3))
            assert again.snapshot() == after, f"{game_id}: the same generator dealt differently"
            # the re-dealt game plays on to its end with every card kept
            play_out(dealt, engine, random.Random(7), counts)
    assert changed, f"{game_id}: no re-deal changed any hidden card"
