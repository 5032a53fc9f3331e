"""Order Up actions: their text form, every way to pay an order with Wild Cards, the legal actions, applying
them, and why an action is not legal now (the reason IllegalAction carries; slow path, only on rejection)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NamedTuple

from generator.engines.base import IllegalAction

if TYPE_CHECKING:
    from .state import PizzaState

ACTION_CARDS = ("wild-card", "speed-trap", "energy-drink", "pizza-plunder")  # the Toppings cards with a rule
WILD, SPEED_TRAP, ENERGY_DRINK, PIZZA_PLUNDER = ACTION_CARDS
VERBS = ("choose", "move", "stop", "deliver", "play", "draw", "end", "discard", "take")


class Action(NamedTuple):
    """A player action; str() is how scripts write it ('move r0c3', 'deliver big-bob wild:sausage')."""

    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


STOP, END = Action("stop"), Action("end")
PLAY_ENERGY, PLAY_PLUNDER = Action("play", ENERGY_DRINK), Action("play", PIZZA_PLUNDER)
DRAW_DECK = Action("draw", "deck")


def payment_options(req, hand: Counter, wilds: int) -> list[tuple[str, ...]]:
    """Every multiset of toppings that Wild Cards may stand in for (fewest wilds first); [] if unpayable."""
    ranges = [(t, max(0, q - hand.get(t, 0)), q) for t, q in req]
    if sum(lo for _, lo, _ in ranges) > wilds:
        return []
    options: list[tuple[str, ...]] = [()]
    for topping, lo, hi in ranges:
        options = [
            opt + (topping,) * k for opt in options for k in range(lo, hi + 1) if len(opt) + k <= wilds
        ]
    return sorted(options, key=lambda o: (len(o), o))


def deliver_action(order: str, wild_for: tuple[str, ...]) -> Action:
    """The delivery action paying `wild_for` with Wild Cards."""
    return Action("deliver", f"{order} wild:{','.join(wild_for)}" if wild_for else order)


# ----- legal actions ----------------------------------------------------------------------------------------


def legal_actions(state: PizzaState) -> list[Action]:
    """Every legal action of the current player now, in a fixed order."""
    phase, seat = state.phase, state.current
    if phase == "move":  # most decisions: one step of a move
        pos, data = state.pos[seat], state.data
        order = data.space_order.get(pos)
        if order is not None and order in state.ofaceup:
            acts = deliveries(state)
            if state.steps_left > 0:
                acts += data.moves[pos]
        else:
            acts = list(data.moves[pos]) if state.steps_left > 0 else []
        cards = state.move_cards
        if cards is None:  # the action cards in hand: the same for every step of one move
            hand = state.hands[seat]
            cards = state.move_cards = (
                ENERGY_DRINK in hand,
                speed_traps(state, seat) if SPEED_TRAP in hand else (),
                PIZZA_PLUNDER in hand and not state.plundered,
            )
        if cards[0]:
            acts.append(PLAY_ENERGY)
        if cards[1]:
            acts += cards[1]
        if cards[2] and state.home_owner.get(pos, seat) != seat:  # may_plunder
            acts.append(PLAY_PLUNDER)
        acts.append(STOP)
        return acts
    hand = state.hands[seat] if 0 <= seat < state.n else []
    if phase == "colours":
        taken = set(state.colours)
        return [Action("choose", colour) for colour, _name, _home in state.data.seats if colour not in taken]
    if phase in ("draw", "after"):
        acts = []
        if phase == "draw" and state.picks < state.params.draw_max:
            acts = [DRAW_DECK] if state.tdeck or state.tdiscard else []
            draws = state.data.draws
            acts += [draws[card] for card in sorted(set(state.tfaceup))]
        if SPEED_TRAP in hand:  # any time in your turn
            acts += speed_traps(state, seat)
        if phase == "after" and may_plunder(state, seat):
            acts.append(PLAY_PLUNDER)
        acts.append(END)  # drawing at your restaurant is a choice, not a duty
        return acts
    if phase == "discard":
        discards = state.data.discards
        return [discards[card] for card in sorted(set(hand))]
    if phase == "plunder":
        takes = state.data.takes
        return [takes[card] for card in sorted(set(state.hands[state.victim]))]
    return []


def speed_traps(state: PizzaState, seat: int) -> list[Action]:
    """Speed Trap aimed at each rival of `seat`, in seat order (the colours are fixed once chosen)."""
    traps = state.traps
    if traps is None:
        aimed = state.data.traps
        traps = [[aimed.get(state.colours[t]) or Action("play", f"{SPEED_TRAP} {state.colours[t]}")
                  for t in range(state.n) if t != s] for s in range(state.n)]
        if state.phase != "colours":
            state.traps = traps
    return traps[seat]


def may_plunder(state: PizzaState, seat: int) -> bool:
    """Pizza Plunder in hand, on a rival's restaurant, not yet played this turn."""
    return (PIZZA_PLUNDER in state.hands[seat] and not state.plundered
            and state.home_owner.get(state.pos[seat], seat) != seat)


def deliveries(state: PizzaState) -> list[Action]:
    """Delivery actions for the face-up order at the current player's space (one per way to pay)."""
    seat = state.current
    order = state.data.space_order.get(state.pos[seat])
    if order is None or order not in state.ofaceup:
        return []
    hand = state.hands[seat]
    req = state.data.order_req[order]
    # the ways to pay depend only on the copies held up to each need and the Wild Cards up to the total need
    key = (order, tuple(min(hand.count(t), q) for t, q in req), min(hand.count(WILD), sum(q for _, q in req)))
    found = state.data.payments.get(key)
    if found is None:
        counts = Counter(hand)
        found = state.data.payments[key] = [
            deliver_action(order, w) for w in payment_options(req, counts, counts[WILD])
        ]
    return list(found)


def parse_action(text: str) -> Action:
    """The action a script writes as `text`; IllegalAction for an unknown verb."""
    parts = text.split(None, 1)
    if not parts or parts[0] not in VERBS:
        raise IllegalAction(f"unknown action '{text}'; expected one of: {', '.join(VERBS)}")
    return Action(parts[0], " ".join(parts[1].split()) if len(parts) > 1 else "")


# ----- applying them ----------------------------------------------------------------------------------------


def apply_action(state: PizzaState, action: Action) -> None:
    """Apply a legal player action (State.apply has checked it and logged it)."""
    seat, verb, arg = state.current, action.verb, action.arg
    if verb == "move":
        state.pos[seat] = arg
        state.steps_left -= 1
        state.moved += 1
        return
    if verb == "choose":
        choose(state, seat, arg)
    elif verb == "stop":
        state.end_move()
    elif verb == "deliver":
        deliver(state, arg)
    elif verb == "play":
        play(state, arg)
    elif verb == "draw":
        draw(state, arg)
    elif verb == "end":
        if state.phase == "draw":
            state.finish_draw(end_turn=True)
        else:
            state.check_hand_limit()
    elif verb == "discard":
        discard(state, seat, arg)
    elif verb == "take":
        take(state, seat, arg)


def draw(state: PizzaState, arg: str) -> None:
    """Draw the top topping card (reshuffling the discards first when the deck is empty) or a face-up one."""
    if arg != "deck":
        state.tfaceup.remove(arg)
        state.take_drawn(arg)
    elif not state.tdeck:
        state.ask_reshuffle("draw-deck")
    else:
        state.draw_from_deck()


def discard(state: PizzaState, seat: int, card: str) -> None:
    """Discard down to the hand limit; once there, the turn goes on (or ends) as the rules say."""
    state.hands[seat].remove(card)
    state.tdiscard.append(card)
    state.limit_discards += 1
    if len(state.hands[seat]) <= state.params.hand_limit:
        if state.after_discard == "after":
            state.after_move()
        else:
            state.end_turn()


def take(state: PizzaState, seat: int, card: str) -> None:
    """Pizza Plunder: take a card from the victim's hand; after the last one the turn goes on."""
    state.hands[state.victim].remove(card)
    state.hands[seat].append(card)
    state.plunder_left -= 1
    if state.plunder_left <= 0 or not state.hands[state.victim]:
        after_plunder(state)


def choose(state: PizzaState, seat: int, colour: str) -> None:
    """A seat takes a colour and its restaurant; after the last seat the cards are shuffled."""
    home = next(space for colour_id, _name, space in state.data.seats if colour_id == colour)
    state.colours[seat], state.homes[seat], state.pos[seat] = colour, home, home
    state.home_owner[home] = seat
    if seat + 1 < state.n:
        state.current = seat + 1
    else:
        state.current, state.phase = 0, "setup-toppings"


def play(state: PizzaState, arg: str) -> None:
    """Play an action card: Energy Drink, Speed Trap at a rival or Pizza Plunder."""
    seat, card = state.current, arg.split()[0]
    state.hands[seat].remove(card)
    state.tdiscard.append(card)
    state.usage[card] += 1
    if card == ENERGY_DRINK:
        state.steps_left += state.params.energy_bonus
    elif card == SPEED_TRAP:
        target = state.colours.index(arg.split()[1])
        state.pos[target] = state.homes[target]
        if state.phase == "after":
            state.settle()
    elif card == PIZZA_PLUNDER:
        state.victim = state.home_owner[state.pos[seat]]
        state.plunder_left = min(state.params.plunder_take, len(state.hands[state.victim]))
        state.steps_left = 0
        state.plundered = True
        state.phase = "plunder"
        if state.plunder_left == 0:
            after_plunder(state)


def after_plunder(state: PizzaState) -> None:
    """The plunderer discards down to the hand limit at once (rulebook), then the turn goes on after the
    move."""
    if len(state.hands[state.current]) > state.params.hand_limit:
        state.phase, state.after_discard = "discard", "after"
    else:
        state.after_move()


def deliver(state: PizzaState, arg: str) -> None:
    """Deliver the order at the driver's space, paying with toppings and Wild Cards; the display refills."""
    seat = state.current
    order, _, wild_part = arg.partition(" wild:")
    wild_for = Counter(wild_part.split(",")) if wild_part else Counter()
    hand = state.hands[seat]
    for topping, qty in state.data.order_req[order]:
        for _ in range(qty - wild_for[topping]):
            hand.remove(topping)
            state.tdiscard.append(topping)
            state.usage[topping] += 1
    for _ in range(sum(wild_for.values())):
        hand.remove(WILD)
        state.tdiscard.append(WILD)
        state.usage[WILD] += 1
    state.delivered[seat].append(order)
    state.completed.append(order)
    state.money[seat] += state.data.order_value[order]
    state.dwell.setdefault(order, []).append(state.turns - state.shown_at.pop(order, state.turns))
    slot = state.ofaceup.index(order)
    state.ofaceup[slot] = None
    if state.ended_by:  # finish_round: the empty slot is not refilled any more
        return
    if not state.odeck:
        state.game_over("orders-exhausted")
        return
    card = state.odeck.pop()
    state.ofaceup[slot] = card
    if card == state.data.game_over:
        state.game_over("game-over")
    else:
        state.shown_at[card] = state.turns


# ----- why an action is not legal now -----------------------------------------------------------------------

PHASE_TEXT = {
    "colours": "the players are choosing their colours",
    "move": "you are driving",
    "draw": "you may draw toppings at your restaurant",
    "after": "your move is over (end your turn)",
    "discard": "you must discard down to the hand limit",
    "plunder": "you are taking cards with Pizza Plunder",
    "end": "the game is over",
}


def why_illegal(state, action) -> str:
    """A reason a player can act on: what rule forbids `action` now."""
    phase = state.phase
    if phase == "end":
        return "the game is over"
    if phase not in PHASE_TEXT:
        return f"chance decides next ({phase}); no player action now"
    verb, arg = getattr(action, "verb", ""), getattr(action, "arg", "")
    now = PHASE_TEXT[phase]
    if verb == "choose":
        return _why_not_choose(state, arg, now)
    if phase == "colours":
        return f"first choose a colour ({', '.join(str(a) for a in state.legal_actions())})"
    reason = _WHY_NOT.get(verb)
    return reason(state, arg, now) if reason is not None else f"'{action}' is not an action of this game"


def _why_not_choose(state, arg: str, now: str) -> str:
    if state.phase != "colours":
        return f"colours are chosen at setup; now {now}"
    taken = [c for c in state.colours if c]
    if arg in taken:
        return f"'{arg}' is taken; free: {', '.join(c for c, _n, _s in state.data.seats if c not in taken)}"
    return f"unknown colour '{arg}'; expected one of: {', '.join(c for c, _n, _s in state.data.seats)}"


def _why_not_move(state, arg: str, now: str) -> str:
    if state.phase != "move":
        return f"you can only move during your move; now {now}"
    if state.steps_left <= 0:
        return "no steps left: the roll is used up (play an Energy Drink for 3 more, or stop)"
    if arg not in state.data.neighbours:
        return f"unknown space '{arg}'"
    here = state.pos[state.current]
    return f"'{arg}' is not next to {here}; roads lead to: {', '.join(state.data.neighbours[here])}"


def _why_not_stop(_state, _arg: str, now: str) -> str:
    return f"you can only stop while driving; now {now}"


def _why_not_play_card(state, arg: str, now: str) -> str:
    return _why_not_play(state, arg, state.hands[state.current], now)


def _why_not_draw(state, arg: str, now: str) -> str:
    if state.phase != "draw":
        return f"you draw toppings only when your move ends on your restaurant; now {now}"
    if state.picks >= state.params.draw_max:
        return f"you have drawn {state.picks}, the most you may draw; end your turn"
    if arg != "deck" and arg not in state.tfaceup:
        return f"'{arg}' is not face up; face up: {', '.join(state.tfaceup) or 'none'} (or draw deck)"
    return "the Toppings deck and the discard pile are both empty"


def _why_not_end(_state, _arg: str, now: str) -> str:
    return f"'end' finishes your turn once your move is over; now {now}"


def _why_not_discard(state, arg: str, now: str) -> str:
    if state.phase != "discard":
        return ("no voluntary discards: you discard only down to the hand limit of "
                f"{state.params.hand_limit}; now {now}")
    return f"you hold no '{arg}'"


def _why_not_take(state, arg: str, now: str) -> str:
    if state.phase != "plunder":
        return f"you take cards from another hand only with Pizza Plunder; now {now}"
    return f"the plundered hand holds no '{arg}'"


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
            return (f"a Wild Card may stand in only for a topping of the order; '{order}' needs "
                    f"{need[topping]} {topping}")
    short = [
        f"{need[t] - wild_for[t]} {t} (you hold {hand[t]})"
        for t in sorted(need)
        if hand[t] < need[t] - wild_for[t]
    ]
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
        return (
            f"name the player to send home: {', '.join(c for c in state.colours if c != state.colours[seat])}"
        )
    if card == PIZZA_PLUNDER:
        return "Pizza Plunder needs your move to end on an active opponent's restaurant"
    return f"'play {arg}' is not legal now"


_WHY_NOT = {  # verb -> why an action of that verb is not allowed now (after setup's colour choices)
    "move": _why_not_move, "stop": _why_not_stop, "deliver": _why_not_deliver, "play": _why_not_play_card,
    "draw": _why_not_draw, "end": _why_not_end, "discard": _why_not_discard, "take": _why_not_take,
}
