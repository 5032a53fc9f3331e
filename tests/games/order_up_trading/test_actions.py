"""The trading engine's bit-mask reading of a hand (HandView) gives the card-by-card answers, on every hand of
real games."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from itertools import combinations

import pytest
from pnp_engine_order_up_trading import ENGINE, Action
from pnp_engine_order_up_trading.actions import HandView
from pnp_engine_order_up_trading.data import trading_deck

from generator.data.load import load_game
from generator.validator.harness import play_game

GAME = "order-up-trading"


@pytest.fixture(scope="module")
def game(repo_project):
    return load_game(repo_project, GAME)


def reference_unwanted(deck, hand, recipe) -> list[str]:
    """The seat's unwanted cards as the rules say: keep each needed name once per use, icon matches first."""
    need = Counter(deck.needs[recipe])
    ordered = sorted(hand, key=deck.cards.index)
    unwanted = []
    for card in [c for c in ordered if deck.icon[c] == recipe] + [
        c for c in ordered if deck.icon[c] != recipe
    ]:
        if need[deck.name[card]] > 0:
            need[deck.name[card]] -= 1
        else:
            unwanted.append(card)
    return unwanted


def reference_groups(deck, cards) -> list[list[str]]:
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(deck.group[card], []).append(card)
    return list(groups.values())


def reference_offers(deck, hand) -> list[Action]:
    ordered = sorted(hand, key=deck.cards.index)
    return [Action("offer", cards) for colour in deck.groups
            for same in [tuple(c for c in ordered if deck.group[c] == colour)]
            for size in range(1, len(same) + 1) for cards in combinations(same, size)]


def check_view(state, seat: int) -> None:
    deck, hand, recipe = state.deck, state.hands[seat], state.recipe_of[seat]
    view = state.hand_view(seat)
    unwanted = reference_unwanted(deck, hand, recipe)
    assert view.complete == (sorted(deck.name[c] for c in hand) == sorted(deck.needs[recipe]))
    assert view.has_unwanted() == bool(unwanted)
    assert view.unwanted_by_group() == reference_groups(deck, unwanted)
    assert [(size, offer) for size, offer in view.unwanted_offers()] == [
        (len(g), Action("offer", tuple(sorted(g, key=deck.cards.index))))
        for g in reference_groups(deck, unwanted)
    ]
    assert state.legal_actions()[:-2] == reference_offers(deck, hand)


def test_hand_views_agree_with_the_card_by_card_reading_in_real_games(game):
    checked = Counter()

    def checking(bot):
        def policy(state, rng):
            if state.phase == "offers":
                check_view(state, state.current_player())
                checked["hands"] += 1
            return bot(state, rng)
        return policy

    engine = dataclasses.replace(ENGINE, bots={name: checking(bot) for name, bot in ENGINE.bots.items()})
    for players in (3, 6):
        for seed in range(6):
            bots = (["greedy", "random"] * 3 if seed % 2 else ["greedy"] * 6)[:players]
            record = play_game(engine, game, players, seed, bots,
                               {"bundle_policy": "random"} if seed % 3 == 0 else {}, log=False)
            assert record.ok, record.failure
    assert checked["hands"] > 1000


def test_a_hand_with_a_card_twice_or_no_recipe_is_read_card_by_card(game):
    deck = trading_deck(game)
    rng = random.Random(4)
    for _ in range(200):
        recipe = rng.choice(deck.recipe_ids)
        hand = rng.sample(deck.cards, 6)
        twice = hand + [hand[0]]  # not possible in a game: the view falls back to the card-by-card reading
        view = HandView(deck, twice, recipe)
        assert view.mask is None
        assert view.has_unwanted() == bool(reference_unwanted(deck, twice, recipe))
        assert view.unwanted_by_group() == reference_groups(deck, reference_unwanted(deck, twice, recipe))
        assert view.complete == (sorted(deck.name[c] for c in twice) == sorted(deck.needs[recipe]))
        assert deck.offers(twice, None) == reference_offers(deck, twice)
    assert HandView(deck, deck.sets["pizza"], None).complete is False
    assert HandView(deck, deck.sets["pizza"], "pizza").complete is True
