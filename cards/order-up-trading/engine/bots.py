"""Bots for the trading game. They read only their own hand, recipe and offer (never other hands): hidden
information.

What a bot derives from its hand (the unwanted cards by colour, the bundles it chooses among) comes from the
seat's HandView (`state.hand_view(seat)`), worked out once per hand; the random draws are made at every turn,
the same draws in the same order for the same seed.
"""

from __future__ import annotations

from .actions import CALL, Action, by_group, new_action
from .actions import unwanted_cards as _unwanted
from .data import GREEDY_CACHE


def unwanted_cards(state, seat: int) -> list[str]:
    """The seat's cards not needed for its recipe; of two cards with a needed name the icon match is kept."""
    return _unwanted(state.deck, state.hands[seat], state.recipe_of[seat])


def split_choice(state, seat: int, m: int, rng) -> list[str]:
    """The m offered cards a greedy seat gives in a split: off-icon cards first, chosen at random among
    equals."""
    # Every offered card is unwanted; giving away the off-icon ones keeps the +1 bonus cards. The pick among
    # equals
    # must not follow deck order: giving the first sets' cards away first made them change hands more often,
    # and
    # their recipes won up to 4x as often (burrito 28% vs pancakes 6% of rounds with 6 greedy players).
    recipe, icon = state.recipe_of[seat], state.deck.icon
    off_icon = [c for c in state.offers[seat] if icon[c] != recipe]
    if len(off_icon) >= m:
        return rng.sample(off_icon, m)
    return off_icon + rng.sample([c for c in state.offers[seat] if icon[c] == recipe], m - len(off_icon))


def _greedy_bundles(state, view) -> list[Action]:
    """The offers a greedy seat chooses among: each colour group of its unwanted cards (the largest ones
    only)."""
    if not view.has_unwanted():
        return []
    groups = view.unwanted_offers()
    if state.options["bundle_policy"] == "largest":
        most = max([size for size, _ in groups])
        return [offer for size, offer in groups if size == most]
    return [offer for _, offer in groups]


def greedy_bot(state, rng) -> Action:
    """Keeps the needed names (icon matches first) and offers its largest unwanted colour group."""
    if state.phase == "split":
        seat, m = state.split
        return new_action(Action, ("give", state.canonical(split_choice(state, seat, m, rng))))
    rate = state.options["false_call_rate"]
    if rate and rng.random() < rate:  # a mistaken Order up! (the draw only when the rate is not 0)
        return CALL
    view = state.hand_view(state.current_player())
    bundles = view.greedy
    if bundles is None:
        # worked out from bit masks, the offers depend only on the recipe and the unwanted cards, and about
        # half the
        # hands recur in a game's simulations: kept per game data (a bounded number of them)
        known = state.deck.greedy
        key = (state.options["bundle_policy"], view.recipe, view.unwanted) \
            if view.unwanted is not None and state.deck.groups_partition else None
        bundles = known.get(key) if key is not None else None
        if bundles is None:
            bundles = _greedy_bundles(state, view)
            if key is not None and len(known) < GREEDY_CACHE:
                known[key] = bundles
        view.greedy = bundles
    if not bundles:  # every card is needed
        return CALL
    return bundles[0] if len(bundles) == 1 else rng.choice(bundles)


def random_bot(state, rng) -> Action:
    """Offers a random number of random unwanted cards of one random colour; splits at random."""
    if state.phase == "split":
        seat, m = state.split
        return new_action(Action, ("give", state.canonical(rng.sample(state.offers[seat], m))))
    rate = state.options["false_call_rate"]
    if rate and rng.random() < rate:
        return CALL
    view = state.hand_view(state.current_player())
    # the whole hand when every card is needed
    groups = view.unwanted_by_group() or by_group(state.deck, view.hand)
    cards = rng.choice(groups)
    return new_action(Action, ("offer", state.canonical(rng.sample(cards, rng.randint(1, len(cards))))))
