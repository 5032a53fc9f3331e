"""Short Order Hero bots: 'random' (any legal action) and 'greedy' (cook big, spice own, sabotage the leader)."""

from __future__ import annotations

from generator.engines.short_order_hero.actions import DRAW, END, REDRAW, Action, cook_points
from generator.engines.short_order_hero.state import SOHState

# Order in which the greedy bot gives up cards to a hand limit (lowest first).
_KEEP_RANK = {"ingredient": 1, "acquire": 2, "sabotage": 3, "spice": 4, "wild": 5}


def random_bot(state: SOHState, rng) -> Action:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions())


def useless_cards(state: SOHState, seat: int) -> list[str]:
    """Ingredient cards in the hand that no recipe on display can use, sorted."""
    useful: set[str] = set()
    for rid in state.display:
        if rid:
            useful |= state.r.useful[rid]
    kind = state.r.kind
    return sorted(c for c in state.hands[seat] if kind.get(c) == "ingredient" and c not in useful)


def best_cook(state: SOHState) -> Action | None:
    """The most valuable cook on display, longest bonus prefix, fewest wilds spent."""
    best, best_key = None, None
    wilds, recipes = state.r.wilds, state.r.recipes
    for action in state.legal_actions():
        if action.verb != "cook":
            continue
        spent = sum(1 for c in action.slots + action.bonus if c in wilds)
        key = (cook_points(action, recipes[action.card]), len(action.bonus), -spent)
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


def greedy_bot(state: SOHState, rng) -> Action:
    """Draw and steal first, cook the best recipe, spice its best recipe, sabotage the leader, else tidy up."""
    me, r = state.cur, state.r
    hand = state.hands[me]
    if state.phase == "hand-limit":
        useless = useless_cards(state, me)
        card = useless[0] if useless else min(hand, key=lambda c: (_KEEP_RANK.get(r.kind.get(c), 0), c))
        return Action("discard", card)
    if state.phase == "discarding":
        useless = useless_cards(state, me)
        return Action("discard", useless[0]) if useless else REDRAW
    cards = sorted(hand)
    opponents = [(me + k) % state.n for k in range(1, state.n)]
    for card in cards:
        if card in r.draw:
            return Action("play", card)
    for card in cards:
        if card in r.steal:
            targets = [s for s in opponents if state.hands[s]]
            if targets:
                return Action("play", card, seat=max(targets, key=lambda s: sum(state.hands[s].values())))
    cook = best_cook(state)
    if cook is not None:
        return cook
    spices = [c for c in cards if r.kind.get(c) == "spice"]
    if spices and state.completed[me]:
        target = max(state.completed[me], key=state.recipe_score)
        return Action("play", max(spices, key=lambda c: r.points[c]), target=target.recipe.id)
    sabotage = [c for c in cards if r.kind.get(c) == "sabotage"]
    if sabotage:
        scores = state.scores()
        leader = max(opponents, key=lambda s: scores[s])
        victims = [c for c in state.completed[leader] if state.recipe_score(c) > state.floor]
        if victims:
            target = max(victims, key=state.recipe_score)
            return Action("play", min(sabotage, key=lambda c: r.points[c]), target=target.recipe.id)
    if not state.discard_used and useless_cards(state, me):
        return Action("discard", useless_cards(state, me)[0])
    return END if state.acted else DRAW


BOTS = {"random": random_bot, "greedy": greedy_bot}
