"""Bots for the trading game. They read only their own hand, recipe and offer (never other hands): hidden information."""

from __future__ import annotations

from generator.engines.order_up_trading.cards import CALL, Action


def unwanted_cards(state, seat: int) -> list[str]:
    """The seat's cards not needed for its recipe; of two cards with a needed name the icon match is kept."""
    deck, recipe = state.deck, state.recipe_of[seat]
    need: dict[str, int] = {}
    for name in deck.needs[recipe]:
        need[name] = need.get(name, 0) + 1
    unwanted = []
    hand = sorted(state.hands[seat], key=deck.index.__getitem__)
    icon = deck.icon
    for card in [c for c in hand if icon[c] == recipe] + [c for c in hand if icon[c] != recipe]:
        name = deck.name[card]
        if need.get(name, 0) > 0:
            need[name] -= 1
        else:
            unwanted.append(card)
    return unwanted


def _by_group(state, cards) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(state.deck.group[card], []).append(card)
    return groups


def _false_call(state, rng) -> bool:
    rate = state.options["false_call_rate"]
    return bool(rate) and rng.random() < rate


def split_choice(state, seat: int, m: int, rng) -> list[str]:
    """The m offered cards a greedy seat gives in a split: off-icon cards first, chosen at random among equals."""
    # Every offered card is unwanted; giving away the off-icon ones keeps the +1 bonus cards. The pick among equals
    # must not follow deck order: giving the first sets' cards away first made them change hands more often, and
    # their recipes won up to 4x as often (burrito 28% vs pancakes 6% of rounds with 6 greedy players).
    recipe, icon = state.recipe_of[seat], state.deck.icon
    off_icon = [c for c in state.offers[seat] if icon[c] != recipe]
    if len(off_icon) >= m:
        return rng.sample(off_icon, m)
    return off_icon + rng.sample([c for c in state.offers[seat] if icon[c] == recipe], m - len(off_icon))


def greedy_bot(state, rng) -> Action:
    """Keeps the needed names (icon matches first) and offers its largest unwanted colour group."""
    seat = state.current_player()
    if state.phase == "split":
        _, m = state.split
        return Action("give", state.canonical(split_choice(state, seat, m, rng)))
    if _false_call(state, rng):
        return CALL
    unwanted = unwanted_cards(state, seat)
    if not unwanted:
        return CALL
    groups = list(_by_group(state, unwanted).values())
    if state.options["bundle_policy"] == "largest":
        most = max(map(len, groups))
        groups = [g for g in groups if len(g) == most]
    bundle = groups[0] if len(groups) == 1 else rng.choice(groups)
    return Action("offer", state.canonical(bundle))


def random_bot(state, rng) -> Action:
    """Offers a random number of random unwanted cards of one random colour; splits at random."""
    seat = state.current_player()
    if state.phase == "split":
        _, m = state.split
        return Action("give", state.canonical(rng.sample(state.offers[seat], m)))
    if _false_call(state, rng):
        return CALL
    unwanted = unwanted_cards(state, seat) or list(state.hands[seat])
    cards = rng.choice(list(_by_group(state, unwanted).values()))
    return Action("offer", state.canonical(rng.sample(cards, rng.randint(1, len(cards)))))
