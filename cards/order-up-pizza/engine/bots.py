"""Order Up bots: 'random' (uniform over legal actions) and 'greedy' (drive to payable orders, else home)."""

from __future__ import annotations

from collections import Counter

from .actions import (
    DRAW_DECK,
    ENERGY_DRINK,
    PIZZA_PLUNDER,
    PLAY_ENERGY,
    PLAY_PLUNDER,
    SPEED_TRAP,
    STOP,
    WILD,
    Action,
)
from .state import PizzaState

ACTION_WORTH = {WILD: 10.0, ENERGY_DRINK: 2.0, SPEED_TRAP: 1.0, PIZZA_PLUNDER: 1.5}


def random_bot(state: PizzaState, rng) -> Action:
    """Any legal action, uniformly (the harness's rng)."""
    return rng.choice(state.legal_actions())


# The last answer of _hand_facts per seat: (the game's data, a copy of the hand, a copy of the face-up orders,
# the
# payable orders, Pizza Plunder held). The hand and the display rarely change while a player drives, so most
# calls
# compare two short lists.
_PAYABLE: dict[int, tuple] = {}


def _payable(state: PizzaState, seat: int) -> list[str]:
    """Face-up orders this hand can pay now."""
    return _hand_facts(state, seat)[3]


def _hand_facts(state: PizzaState, seat: int) -> tuple:
    """(data, hand, display, the face-up orders this hand can pay now, Pizza Plunder held), remembered per
    seat."""
    hand, shown, data = state.hands[seat], state.ofaceup, state.data
    last = _PAYABLE.get(seat)
    if last is not None and last[0] is data and last[1] == hand and last[2] == shown:
        return last
    wilds, found = hand.count(WILD), []
    for order in shown:
        req = data.order_req.get(order) if order is not None else None
        if req is None:
            continue
        missing = 0
        for topping, qty in req:
            have = hand.count(topping)
            if have < qty:
                missing += qty - have
        if missing <= wilds:
            found.append(order)
    last = _PAYABLE[seat] = (data, list(hand), list(shown), found, PIZZA_PLUNDER in hand)
    return last


def usefulness(state: PizzaState, card: str, hand: Counter, held: bool = False) -> float:
    """How much a card helps towards the face-up orders (higher = keep / take). `held`: the card is one of the
    copies in `hand` (a discard choice), so the copies that count towards an order are the others plus this
    one; counting it as surplus threw away the only sausage an order needed, for ever (2 players, long
    games)."""
    return _worth(state, card, hand[card] - (1 if held else 0))


def _worth(state: PizzaState, card: str, others: int) -> float:
    """usefulness() of `card` when `others` copies of it are held besides the one judged."""
    if card in ACTION_WORTH:
        return ACTION_WORTH[card]
    score = 0.0
    needs = state.data.needs
    for order in state.ofaceup:
        req = needs.get(order)
        if req is not None and card in req:
            score += 3.0 if others < req[card] else 0.5
    return score


def _step_towards(state: PizzaState, here: str, goal: str) -> Action:
    step = state.data.first_step.get((here, goal), False)
    if step is False:
        step = state.data.step_towards(here, goal)
    return step or STOP


def greedy_bot(state: PizzaState, rng) -> Action:
    """Deliver whenever possible, drive to the nearest payable order, else go home and draw."""
    legal = state.legal_actions()
    phase, seat = state.phase, state.current
    if phase == "move":
        if legal[0].verb == "deliver":  # deliveries come first in the list
            return legal[0]  # the first is the one using the fewest Wild Cards
        return _drive(state, seat, state.hands[seat], legal)
    if phase == "colours":  # the corners are alike: any free colour, by the harness's random choice
        return rng.choice(legal)
    if phase == "after":  # the move is over: plunder a rival's restaurant when it pays, else end the turn
        plunder = PLAY_PLUNDER
        if plunder in legal and len(state.hands[state.home_owner[state.pos[seat]]]) >= 2 \
                and len(state.hands[seat]) < state.params.hand_limit - 1:
            return plunder
        return legal[-1]
    hand = state.hands[seat]  # usefulness() with the copies counted in the list, not a Counter
    if phase == "draw":
        best, most = None, 0.0  # the first face-up topping of the highest usefulness
        for action in legal:
            if action.verb == "draw" and action.arg != "deck":
                worth = _worth(state, action.arg, hand.count(action.arg))
                if best is None or worth > most:
                    best, most = action, worth
        if best is not None and most >= 3.0:
            return best
        return DRAW_DECK if DRAW_DECK in legal else legal[-1]
    if phase == "discard":
        # drop the least useful card; among equals the one held most often
        chosen, lowest = None, None
        for action in legal:  # min(): the first of the lowest
            held = hand.count(action.arg)
            key = (_worth(state, action.arg, held - 1), -held, action.arg)
            if chosen is None or key < lowest:
                chosen, lowest = action, key
        return chosen
    if phase == "plunder":
        return max(legal, key=lambda a: (_worth(state, a.arg, hand.count(a.arg)), a.arg))
    return legal[0]


def _drive(state: PizzaState, seat: int, hand: list[str], legal: list[Action]) -> Action:
    data, here = state.data, state.pos[seat]
    dist = data.dist[here]
    home = state.homes[seat]
    if state.moved == 0 and SPEED_TRAP in hand:
        # send home the rival who is furthest from their restaurant, if that costs them real time
        far = max(
            (t for t in range(state.n) if t != seat), key=lambda t: data.dist[state.pos[t]][state.homes[t]]
        )
        if data.dist[state.pos[far]][state.homes[far]] >= 8:
            return Action("play", f"{SPEED_TRAP} {state.colours[far]}")
    last = _PAYABLE.get(seat)  # _hand_facts(state, seat), its common case inline
    if last is None or last[0] is not data or last[1] != hand or last[2] != state.ofaceup:
        last = _hand_facts(state, seat)
    payable = last[3]
    if payable:  # the nearest, then the best paid, then the first space by name
        order_space, order_value, best = data.order_space, data.order_value, None
        for order in payable:  # min(): the first of the smallest
            space = order_space[order]
            target = (dist[space], -order_value[order], space)
            if best is None or target < best:
                best = target
        steps, _, goal = best
        if steps <= state.steps_left:
            step = data.first_step.get((here, goal), False)  # _step_towards, its common case inline
            return step or STOP if step is not False else _step_towards(state, here, goal)
        if steps <= state.steps_left + state.params.energy_bonus * hand.count(ENERGY_DRINK):
            return PLAY_ENERGY
        if state.steps_left > 0:
            return _step_towards(state, here, goal)
        return STOP
    if last[4] and len(hand) < state.params.hand_limit - 1:  # Pizza Plunder held
        if PLAY_PLUNDER in legal and len(state.hands[state.home_owner[here]]) >= 2:
            return PLAY_PLUNDER
        rivals = [state.homes[t] for t in range(state.n) if t != seat and len(state.hands[t]) >= 3]
        near = [r for r in rivals if dist[r] <= state.steps_left and dist[r] < dist[home]]
        if near:
            return _step_towards(state, here, min(near, key=lambda r: dist[r]))
    if here == home or state.steps_left == 0:
        return STOP
    return _step_towards(state, here, home)
