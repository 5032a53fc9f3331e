"""Short Order Hero bots: 'random' (any legal action) and 'greedy' (cook big, spice own, sabotage the
leader)."""

from __future__ import annotations

from .actions import (
    DISCARD,
    DRAW,
    END,
    PLAY,
    PLAY_FROM,
    PLAY_ON,
    REDRAW,
    Action,
)
from .state import SOHState

# Order in which the greedy bot gives up cards to a hand limit (lowest first).
_KEEP_RANK = {"ingredient": 1, "acquire": 2, "sabotage": 3, "spice": 4, "wild": 5}


def random_bot(state: SOHState, rng) -> Action:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


def useless_cards(state: SOHState, seat: int) -> list[str]:
    """Ingredient cards in the hand that no recipe on display can use, sorted."""
    useful = state.display_useful()
    kind = state.r.kind
    return sorted(c for c in state.hands[seat] if kind.get(c) == "ingredient" and c not in useful)


def best_cook(state: SOHState) -> Action | None:
    """The most valuable cook on display, longest bonus prefix, fewest wilds spent (the first of equals)."""
    best, best_rank = None, None
    for cooks in state.displayed_cooks():
        if cooks.best is not None and (best_rank is None or cooks.rank > best_rank):
            best, best_rank = cooks.best, cooks.rank
    return best


def greedy_bot(state: SOHState, _rng) -> Action:
    """Draw and steal first, cook the best recipe, spice its best recipe, sabotage the leader, else tidy
    up."""
    me, r = state.cur, state.r
    hand = state.hands[me]
    if state.phase == "hand-limit":
        useless = useless_cards(state, me)
        card = useless[0] if useless else min(hand, key=lambda c: (_KEEP_RANK.get(r.kind.get(c), 0), c))
        return DISCARD[card]
    if state.phase == "discarding":
        useless = useless_cards(state, me)
        return DISCARD[useless[0]] if useless else REDRAW
    # the first card in name order that draws, else the first that steals (sets: most hands hold neither)
    drawing = r.draw.keys() & hand.keys()
    if drawing:
        return PLAY[min(drawing)]
    stealing = r.steal.keys() & hand.keys()
    if stealing:
        targets = [s for s in ((me + k) % state.n for k in range(1, state.n)) if state.hands[s]]
        if targets:
            return PLAY_FROM[min(stealing), max(targets, key=lambda s: sum(state.hands[s].values()))]
    cook = best_cook(state)
    if cook is not None:
        return cook
    cards = sorted(hand)
    kind = r.kind
    spices = [c for c in cards if kind.get(c) == "spice"]
    if spices and state.completed[me]:
        target = max(state.completed[me], key=state.recipe_score)
        return PLAY_ON[max(spices, key=lambda c: r.points[c]), target.recipe.id]
    sabotage = [c for c in cards if kind.get(c) == "sabotage"]
    if sabotage:
        opponents = [(me + k) % state.n for k in range(1, state.n)]
        scores = state.scores()
        leader = max(opponents, key=lambda s: scores[s])
        victims = [c for c in state.completed[leader] if state.recipe_score(c) > state.floor]
        if victims:
            target = max(victims, key=state.recipe_score)
            return PLAY_ON[min(sabotage, key=lambda c: r.points[c]), target.recipe.id]
    if not state.discard_used:
        useless = useless_cards(state, me)
        if useless:
            return DISCARD[useless[0]]
    return END if state.acted else DRAW


BOTS = {"random": random_bot, "greedy": greedy_bot}
