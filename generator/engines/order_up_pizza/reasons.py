"""Why an Order Up action is not legal now: the reason IllegalAction carries (slow path, only on rejection)."""

from __future__ import annotations

from collections import Counter

from generator.engines.order_up_pizza.data import ACTION_CARDS, ENERGY_DRINK, PIZZA_PLUNDER, SPEED_TRAP, WILD

PHASE_TEXT = {
    "colours": "the players are choosing their colours", "move": "you are driving",
    "draw": "you may draw toppings at your restaurant", "after": "your move is over (end your turn)",
    "discard": "you must discard down to the hand limit", "plunder": "you are taking cards with Pizza Plunder",
    "end": "the game is over",
}


def why_illegal(state, action) -> str:
    """A reason a player can act on: what rule forbids `action` now."""
    phase, seat = state.phase, state.current
    if phase == "end":
        return "the game is over"
    if phase not in PHASE_TEXT:
        return f"chance decides next ({phase}); no player action now"
    verb, arg = getattr(action, "verb", ""), getattr(action, "arg", "")
    hand = state.hands[seat]
    now = PHASE_TEXT[phase]
    if verb == "choose":
        if phase != "colours":
            return f"colours are chosen at setup; now {now}"
        taken = [c for c in state.colours if c]
        if arg in taken:
            return f"'{arg}' is taken; free: {', '.join(c for c, _n, _s in state.data.seats if c not in taken)}"
        return f"unknown colour '{arg}'; expected one of: {', '.join(c for c, _n, _s in state.data.seats)}"
    if phase == "colours":
        return f"first choose a colour ({', '.join(str(a) for a in state.legal_actions())})"
    if verb == "move":
        if phase != "move":
            return f"you can only move during your move; now {now}"
        if state.steps_left <= 0:
            return "no steps left: the roll is used up (play an Energy Drink for 3 more, or stop)"
        if arg not in state.data.neighbours:
            return f"unknown space '{arg}'"
        adjacent = ", ".join(state.data.neighbours[state.pos[seat]])
        return f"'{arg}' is not next to {state.pos[seat]}; roads lead to: {adjacent}"
    if verb == "stop":
        return f"you can only stop while driving; now {now}"
    if verb == "deliver":
        return _why_not_deliver(state, arg, now)
    if verb == "play":
        return _why_not_play(state, arg, hand, now)
    if verb == "draw":
        if phase != "draw":
            return f"you draw toppings only when your move ends on your restaurant; now {now}"
        if state.picks >= state.params.draw_max:
            return f"you have drawn {state.picks}, the most you may draw; end your turn"
        if arg != "deck" and arg not in state.tfaceup:
            return f"'{arg}' is not face up; face up: {', '.join(state.tfaceup) or 'none'} (or draw deck)"
        return "the Toppings deck and the discard pile are both empty"
    if verb == "end":
        return f"'end' finishes your turn once your move is over; now {now}"
    if verb == "discard":
        if phase != "discard":
            return f"no voluntary discards: you discard only down to the hand limit of {state.params.hand_limit}; now {now}"
        return f"you hold no '{arg}'"
    if verb == "take":
        if phase != "plunder":
            return f"you take cards from another hand only with Pizza Plunder; now {now}"
        return f"the plundered hand holds no '{arg}'"
    return f"'{action}' is not an action of this game"


def _why_not_deliver(state, arg: str, now: str) -> str:
    seat = state.current
    order, _, wild_part = arg.partition(" wild:")
    if state.phase != "move":
        return f"you deliver only while driving; now {now}"
    if order not in state.data.order_req:
        return f"unknown order '{order}'"
    if order not in state.ofaceup:
        shown = ", ".join(o for o in state.ofaceup if o in state.data.order_req) or "none"
        return f"order '{order}' is not face up; face up: {shown}"
    where = state.data.order_space[order]
    if state.pos[seat] != where:
        return f"order '{order}' goes to {where}, but your car is on {state.pos[seat]}"
    need = Counter(dict(state.data.order_req[order]))
    hand = Counter(state.hands[seat])
    wild_for = Counter(wild_part.split(",")) if wild_part else Counter()
    if sum(wild_for.values()) > hand[WILD]:
        return f"you pay with {sum(wild_for.values())} Wild Card(s) but hold {hand[WILD]}"
    for topping, qty in wild_for.items():
        if qty > need[topping]:
            return f"a Wild Card may stand in only for a topping of the order; '{order}' needs {need[topping]} {topping}"
    short = [f"{need[t] - wild_for[t]} {t} (you hold {hand[t]})" for t in sorted(need) if hand[t] < need[t] - wild_for[t]]
    return f"not enough toppings for '{order}': it needs {', '.join(short)}; Wild Cards can fill the gap"


def _why_not_play(state, arg: str, hand: list[str], now: str) -> str:
    seat = state.current
    card = arg.split()[0] if arg else ""
    if card == WILD:
        return "a Wild Card is played only as part of a delivery (deliver <order> wild:<topping>)"
    if card not in ACTION_CARDS:
        return f"'{card}' is not an action card; known: {', '.join(ACTION_CARDS)}"
    if card not in hand:
        return f"you hold no {card}"
    if card == ENERGY_DRINK and state.phase != "move":
        return f"an Energy Drink adds to your roll, so it is played while driving; now {now}"
    if card == PIZZA_PLUNDER and state.plundered:
        return "you have played Pizza Plunder this turn already"
    if state.phase not in ("move", "draw", "after"):
        return f"action cards are played during your turn, not now: {now}"
    if card == SPEED_TRAP:
        target = arg.split()[1] if len(arg.split()) > 1 else ""
        if target == state.colours[seat]:
            return "Speed Trap sends another player's car home, not your own"
        return f"name the player to send home: {', '.join(c for c in state.colours if c != state.colours[seat])}"
    if card == PIZZA_PLUNDER:
        return "Pizza Plunder needs your move to end on an active opponent's restaurant"
    return f"'play {arg}' is not legal now"
