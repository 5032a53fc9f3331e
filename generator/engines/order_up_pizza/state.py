"""The Order Up game state (games.md A.2/A.4): choose colours, roll, drive step by step, deliver, draw at home,
action cards.

A turn: roll (chance), `move`/`deliver`/`play` while driving, `stop`; then, on your own restaurant, `draw` 1 or 2
toppings or none (the rulebook: you *may* draw), and anywhere action cards may still be played (Speed Trap any
time, Pizza Plunder on a rival's restaurant); `end` finishes the turn, and it ends by itself when nothing else is
left to do. Whoever holds more cards than the hand limit after drawing or plundering discards the excess at once.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from generator.engines.base import (
    CHANCE,
    TERMINAL,
    ChanceOutcome,
    ChanceRequest,
    GameLog,
    IllegalAction,
    State,
)
from generator.engines.common import check_outcome
from generator.engines.order_up_pizza.actions import END, STOP, VERBS, Action, deliver_action, payment_options
from generator.engines.order_up_pizza.data import (
    ENERGY_DRINK,
    PIZZA_PLUNDER,
    SPEED_TRAP,
    WILD,
    Params,
    PizzaData,
    pizza_data,
    resolve_params,
)
from generator.engines.order_up_pizza.reasons import why_illegal
from generator.engines.order_up_pizza.views import metrics, snapshot

MID_TURN = frozenset({"draw", "after", "reshuffle", "discard", "plunder"})  # hand may exceed the limit
CHANCE_PHASES = {"setup-toppings": "toppings-deck", "setup-orders": "order-deck", "roll": "roll",
                 "reshuffle": "toppings-reshuffle"}
PLAYER_PHASES = frozenset({"colours", "move", "draw", "after", "discard", "plunder"})
SETUP_PHASES = frozenset({"colours", "setup-toppings", "setup-orders"})  # before the orders are dealt
PLAY_ENERGY, PLAY_PLUNDER, DRAW_DECK = Action("play", ENERGY_DRINK), Action("play", PIZZA_PLUNDER), Action("draw", "deck")


def _rolled(colour: str, values: tuple) -> str:
    """A roll's log line."""
    return f"{colour} rolls {'+'.join(map(str, values))}"


def _moved(colour: str, seat: int, space: str) -> str:
    """A step's log line."""
    return f"{colour or f'seat {seat}'}: move {space}"


def _said(colour: str, seat: int, verb: str, arg: str) -> str:
    """Another action's log line: str(action) after its player."""
    who = colour or f"seat {seat}"
    return f"{who}: {verb} {arg}" if arg else f"{who}: {verb}"


class PizzaState(State):
    """One game of Order Up in progress."""

    def __init__(self, game, players: int, options: dict | None = None):
        self.data: PizzaData = pizza_data(game)
        self.params: Params = resolve_params(game, options, len(self.data.order_ids))
        if not 1 <= players <= len(self.data.seats):
            raise ValueError(f"{players} players; the board has {len(self.data.seats)} restaurants")
        self.n = players
        if self.params.start_hand > self.params.hand_limit:
            raise ValueError(f"start_hand {self.params.start_hand} is over the hand limit {self.params.hand_limit}")
        dealt = players * self.params.start_hand + self.params.faceup_toppings
        if dealt > len(self.data.topping_deck):
            raise ValueError(f"{players} hands of {self.params.start_hand} + {self.params.faceup_toppings} face-up "
                             f"need {dealt} Toppings cards; the deck has {len(self.data.topping_deck)}")
        # Colours are chosen at setup (rulebook: the youngest first, then clockwise): seat 0 is the youngest.
        self.colours: list[str] = [""] * players
        self.homes: list[str] = [""] * players
        self.home_owner: dict[str, int] = {}
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.pos = [""] * players
        self.money = [0] * players
        self.delivered: list[list[str]] = [[] for _ in range(players)]
        self.tdeck: list[str] = []  # top of the deck is the end of the list
        self.tdiscard: list[str] = []
        self.tfaceup: list[str] = []
        self.odeck: list[str] = []
        self.ofaceup: list[str | None] = []
        self.phase = "colours"
        self.current, self.turns = 0, 0
        self.plundered = False  # Pizza Plunder played this turn (once per turn: it ends your move)
        self.after_discard = "end"  # where a hand-limit discard leads: 'end' (of the turn) or 'after' (a plunder)
        self.roll: tuple[int, ...] = ()
        self.steps_left = self.moved = self.picks = 0
        self.victim, self.plunder_left = -1, 0
        self.resume = ""  # what a toppings reshuffle interrupted: 'draw-deck' or 'refill'
        self.ended_by: str | None = None
        self.log = GameLog()  # the lines of rolls and actions are made only when read
        self._legal: list[Action] | None = None  # legal_actions() of the state as it is, until the next apply
        self._traps: list[list[Action]] | None = None  # per seat: Speed Trap aimed at each rival (once colours are set)
        # while moving: (Energy Drink held, the Speed Trap actions, Pizza Plunder playable) until an action other than
        # a step (only those change the hand or the turn)
        self._move_cards: tuple[bool, list[Action] | tuple, bool] | None = None
        self._counts: tuple[int, int, dict[str, int]] | None = None  # the last card_count(), reused while unchanged
        # What the checks after an action must look at again: only steps of a move since the last clean
        # invariant_problems() (a step moves no card and grows no hand); no card moved since the last card_count()
        # (steps, stopping, ending the turn after the move and rolling move none).
        self._clean_since = False
        self._counted_since = False
        self._wanted: tuple[list, frozenset[str]] = ([], frozenset())  # face-up orders -> the toppings they need
        self._roll_request = ChanceRequest("dice", "roll", count=self.params.dice, sides=6)
        # metrics
        self.usage: Counter = Counter()
        self.shown_at: dict[str, int] = {}
        self.dwell: dict[str, list[int]] = {}
        self.limit_discards = self.dead_turns = self.reshuffles = 0
        self.completed: list[str] = []

    # ----- chance ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase in PLAYER_PHASES:
            return self.current
        if phase == "end":
            return TERMINAL
        if phase in CHANCE_PHASES:
            return CHANCE
        return self.current

    def chance_request(self) -> ChanceRequest:
        label = CHANCE_PHASES.get(self.phase)
        if label is None:
            raise IllegalAction("chance does not decide now")
        if self.phase == "setup-toppings":
            return ChanceRequest("shuffle", label, items=self.data.topping_deck)
        if self.phase == "setup-orders":
            return ChanceRequest("shuffle", label, items=self.data.order_ids)
        if self.phase == "roll":
            return self._roll_request
        return ChanceRequest("shuffle", label, items=tuple(self.tdiscard))

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        if self.phase == "roll" and outcome.label == "roll":  # the common case, checked inline
            values = tuple(outcome.values)
            if len(values) != self.params.dice:
                values = check_outcome(self._roll_request, outcome)  # raises with the reason
            for v in values:
                if not (isinstance(v, int) and 1 <= v <= 6):
                    values = check_outcome(self._roll_request, outcome)
            self._legal = self._move_cards = None
            self._clean_since = False  # a roll moves no card: the last card count stands
            self.roll = values
            self.steps_left, self.moved = sum(values), 0
            self.phase = "move"
            seat = self.current
            if not self._hand_useful(seat):
                self.dead_turns += 1
            self.log.append((_rolled, self.colours[seat], values))
            return
        values = check_outcome(self.chance_request(), outcome)
        self._legal = None
        self._move_cards = None
        self._clean_since = False
        if self.phase != "roll":  # a roll moves no card
            self._counted_since = False
        p = self.params
        if self.phase == "setup-toppings":
            self.tdeck = list(reversed(values))
            for seat in range(self.n):  # dealt in blocks: seat 0 takes the top start_hand cards, and so on
                self.hands[seat] = [self.tdeck.pop() for _ in range(min(p.start_hand, len(self.tdeck)))]
            self._refill_toppings_now()
            self.phase = "setup-orders"
        elif self.phase == "setup-orders":
            deck = list(values)
            deck.insert(p.faceup_orders + p.depth, self.data.game_over)
            self.odeck = list(reversed(deck))
            self.ofaceup = []
            for _ in range(p.faceup_orders):
                card = self.odeck.pop()
                self.ofaceup.append(card)
                self.shown_at[card] = 1
            self.log.append(f"setup: orders {' '.join(self.ofaceup)}; toppings {' '.join(self.tfaceup)}")
            self._start_turn(0)
        elif self.phase == "roll":
            self.roll = values
            self.steps_left, self.moved = sum(values), 0
            self.phase = "move"
            if not self._hand_useful(self.current):
                self.dead_turns += 1
            self.log.append((_rolled, self.colours[self.current], values))
        else:
            self.tdeck = list(reversed(values))
            self.tdiscard = []
            self.reshuffles += 1
            self.log.append("the topping discard pile is shuffled into a new deck")
            resume, self.resume = self.resume, ""
            self.phase = "draw" if resume == "draw-deck" else "after"
            if resume == "draw-deck":
                self._draw_from_deck()
            else:
                self._finish_draw(end_turn=resume == "refill-end")

    # ----- legal actions --------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: one list per state, shared until the next apply (do not change it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _speed_traps(self, seat: int) -> list[Action]:
        """Speed Trap aimed at each rival of `seat`, in seat order (the colours are fixed once chosen)."""
        traps = self._traps
        if traps is None:
            aimed = self.data.traps
            traps = [[aimed.get(self.colours[t]) or Action("play", f"{SPEED_TRAP} {self.colours[t]}")
                      for t in range(self.n) if t != s] for s in range(self.n)]
            if self.phase != "colours":
                self._traps = traps
        return traps[seat]

    def _compute_legal(self) -> list[Action]:
        phase, seat = self.phase, self.current
        if phase == "move":  # most decisions: one step of a move
            pos, data = self.pos[seat], self.data
            order = data.space_order.get(pos)
            if order is not None and order in self.ofaceup:
                acts = self.deliveries()
                if self.steps_left > 0:
                    acts += data.moves[pos]
            else:
                acts = list(data.moves[pos]) if self.steps_left > 0 else []
            cards = self._move_cards
            if cards is None:  # the action cards in hand: the same for every step of one move
                hand = self.hands[seat]
                cards = self._move_cards = (ENERGY_DRINK in hand, self._speed_traps(seat) if SPEED_TRAP in hand else (),
                                            PIZZA_PLUNDER in hand and not self.plundered)
            if cards[0]:
                acts.append(PLAY_ENERGY)
            if cards[1]:
                acts += cards[1]
            if cards[2] and self.home_owner.get(pos, seat) != seat:  # _may_plunder
                acts.append(PLAY_PLUNDER)
            acts.append(STOP)
            return acts
        hand = self.hands[seat] if 0 <= seat < self.n else []
        if phase == "colours":
            taken = set(self.colours)
            return [Action("choose", colour) for colour, _name, _home in self.data.seats if colour not in taken]
        if phase in ("draw", "after"):
            acts = []
            if phase == "draw" and self.picks < self.params.draw_max:
                acts = [DRAW_DECK] if self.tdeck or self.tdiscard else []
                draws = self.data.draws
                acts += [draws[card] for card in sorted(set(self.tfaceup))]
            if SPEED_TRAP in hand:  # any time in your turn
                acts += self._speed_traps(seat)
            if phase == "after" and self._may_plunder(seat):
                acts.append(PLAY_PLUNDER)
            acts.append(END)  # drawing at your restaurant is a choice, not a duty
            return acts
        if phase == "discard":
            discards = self.data.discards
            return [discards[card] for card in sorted(set(hand))]
        if phase == "plunder":
            takes = self.data.takes
            return [takes[card] for card in sorted(set(self.hands[self.victim]))]
        return []

    def _may_plunder(self, seat: int) -> bool:
        """Pizza Plunder in hand, on a rival's restaurant, not yet played this turn."""
        return (PIZZA_PLUNDER in self.hands[seat] and not self.plundered
                and self.home_owner.get(self.pos[seat], seat) != seat)

    def deliveries(self) -> list[Action]:
        """Delivery actions for the face-up order at the current player's space (one per way to pay)."""
        seat = self.current
        order = self.data.space_order.get(self.pos[seat])
        if order is None or order not in self.ofaceup:
            return []
        hand = self.hands[seat]
        req = self.data.order_req[order]
        # the ways to pay depend only on the copies held up to each need and the Wild Cards up to the total need
        key = (order, tuple(min(hand.count(t), q) for t, q in req), min(hand.count(WILD), sum(q for _, q in req)))
        found = self.data.payments.get(key)
        if found is None:
            counts = Counter(hand)
            found = self.data.payments[key] = [deliver_action(order, w) for w in payment_options(req, counts, counts[WILD])]
        return list(found)

    # ----- applying actions -----------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        parts = text.split(None, 1)
        if not parts or parts[0] not in VERBS:
            raise IllegalAction(f"unknown action '{text}'; expected one of: {', '.join(VERBS)}")
        return Action(parts[0], " ".join(parts[1].split()) if len(parts) > 1 else "")

    def apply(self, action) -> None:
        if type(action) is not Action:
            if isinstance(action, ChanceOutcome):
                if self.current_player() != CHANCE:
                    raise IllegalAction("a player decides now, not chance")
                self._apply_chance(action)
                return
            if isinstance(action, str):
                action = self.parse_action(action)
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(why_illegal(self, action))
        self._legal = None
        seat, verb, arg = self.current, action.verb, action.arg
        if verb == "move":  # most actions: one step (no card moves: _move_cards stays)
            self.log.append((_moved, self.colours[seat], seat, arg))
            self.pos[seat] = arg
            self.steps_left -= 1
            self.moved += 1
            return
        self._move_cards = None
        self.log.append((_said, self.colours[seat], seat, verb, arg))
        self._clean_since = False
        if verb != "stop" and not (verb == "end" and self.phase == "after"):
            self._counted_since = False
        if verb == "choose":
            self._choose(seat, arg)
        elif verb == "stop":
            self._end_move()
        elif verb == "deliver":
            self._deliver(arg)
        elif verb == "play":
            self._play(arg)
        elif verb == "draw":
            if arg == "deck":
                if not self.tdeck:
                    self._ask_reshuffle("draw-deck")
                    return
                self._draw_from_deck()
            else:
                self.tfaceup.remove(arg)
                self._take_drawn(arg)
        elif verb == "end":
            if self.phase == "draw":
                self._finish_draw(end_turn=True)
            else:
                self._check_hand_limit()
        elif verb == "discard":
            self.hands[seat].remove(arg)
            self.tdiscard.append(arg)
            self.limit_discards += 1
            if len(self.hands[seat]) <= self.params.hand_limit:
                if self.after_discard == "after":
                    self._after_move()
                else:
                    self._end_turn()
        elif verb == "take":
            self.hands[self.victim].remove(arg)
            self.hands[seat].append(arg)
            self.plunder_left -= 1
            if self.plunder_left <= 0 or not self.hands[self.victim]:
                self._after_plunder()

    def _choose(self, seat: int, colour: str) -> None:
        """A seat takes a colour and its restaurant; after the last seat the cards are shuffled."""
        home = next(space for colour_id, _name, space in self.data.seats if colour_id == colour)
        self.colours[seat], self.homes[seat], self.pos[seat] = colour, home, home
        self.home_owner[home] = seat
        if seat + 1 < self.n:
            self.current = seat + 1
        else:
            self.current, self.phase = 0, "setup-toppings"

    def _play(self, arg: str) -> None:
        seat, card = self.current, arg.split()[0]
        self.hands[seat].remove(card)
        self.tdiscard.append(card)
        self.usage[card] += 1
        if card == ENERGY_DRINK:
            self.steps_left += self.params.energy_bonus
        elif card == SPEED_TRAP:
            target = self.colours.index(arg.split()[1])
            self.pos[target] = self.homes[target]
            if self.phase == "after":
                self._settle()
        elif card == PIZZA_PLUNDER:
            self.victim = self.home_owner[self.pos[seat]]
            self.plunder_left = min(self.params.plunder_take, len(self.hands[self.victim]))
            self.steps_left = 0
            self.plundered = True
            self.phase = "plunder"
            if self.plunder_left == 0:
                self._after_plunder()

    def _after_plunder(self) -> None:
        """The plunderer discards down to the hand limit at once (rulebook), then the turn goes on after the move."""
        if len(self.hands[self.current]) > self.params.hand_limit:
            self.phase, self.after_discard = "discard", "after"
        else:
            self._after_move()

    def _deliver(self, arg: str) -> None:
        seat = self.current
        order, _, wild_part = arg.partition(" wild:")
        wild_for = Counter(wild_part.split(",")) if wild_part else Counter()
        hand = self.hands[seat]
        for topping, qty in self.data.order_req[order]:
            for _ in range(qty - wild_for[topping]):
                hand.remove(topping)
                self.tdiscard.append(topping)
                self.usage[topping] += 1
        for _ in range(sum(wild_for.values())):
            hand.remove(WILD)
            self.tdiscard.append(WILD)
            self.usage[WILD] += 1
        self.delivered[seat].append(order)
        self.completed.append(order)
        self.money[seat] += self.data.order_value[order]
        self.dwell.setdefault(order, []).append(self.turns - self.shown_at.pop(order, self.turns))
        slot = self.ofaceup.index(order)
        self.ofaceup[slot] = None
        if self.ended_by:  # finish_round: the empty slot is not refilled any more
            return
        if not self.odeck:
            self._game_over("orders-exhausted")
            return
        card = self.odeck.pop()
        self.ofaceup[slot] = card
        if card == self.data.game_over:
            self._game_over("game-over")
        else:
            self.shown_at[card] = self.turns

    def _game_over(self, why: str) -> None:
        self.ended_by = why
        self.log.append(f"Game Over ({why})")
        if self.params.end_mode == "immediate":
            self.phase = "end"
        else:  # finish_round: the trigger player's turn ends; the rest of the round plays on
            self.steps_left = 0
            self._end_turn()

    def _end_move(self) -> None:
        seat = self.current
        self.steps_left = 0
        if self.pos[seat] == self.homes[seat]:
            self.phase, self.picks = "draw", 0
        else:
            self._after_move()

    def _after_move(self) -> None:
        self.phase = "after"
        self._settle()

    def _settle(self) -> None:
        """After the move, a turn with nothing left to choose but `end` ends by itself."""
        if self.phase != "after":
            return
        seat = self.current
        # what _compute_legal() offers after the move besides `end`: Speed Traps at rivals, a Pizza Plunder
        if not (SPEED_TRAP in self.hands[seat] and self.n > 1) and not self._may_plunder(seat):
            self._check_hand_limit()

    def _draw_from_deck(self) -> None:
        self._take_drawn(self.tdeck.pop())

    def _take_drawn(self, card: str) -> None:
        self.hands[self.current].append(card)
        self.picks += 1
        if self.picks >= self.params.draw_max:
            self._finish_draw()

    def _ask_reshuffle(self, resume: str) -> None:
        self.resume, self.phase = resume, "reshuffle"

    def _finish_draw(self, end_turn: bool = False) -> None:
        """Refill the face-up toppings after all picks (reshuffling when needed); then the rest of the turn, or its
        end when the player said `end`."""
        self.phase = "after"
        while len(self.tfaceup) < self.params.faceup_toppings:
            if self.tdeck:
                self.tfaceup.append(self.tdeck.pop())
            elif self.tdiscard:
                self._ask_reshuffle("refill-end" if end_turn else "refill")
                return
            else:
                break
        if len(self.hands[self.current]) > self.params.hand_limit:  # discard the excess at once (rulebook)
            self.phase, self.after_discard = "discard", "end" if end_turn else "after"
        elif end_turn:
            self._end_turn()
        else:
            self._settle()

    def _refill_toppings_now(self) -> None:
        while len(self.tfaceup) < self.params.faceup_toppings and self.tdeck:
            self.tfaceup.append(self.tdeck.pop())

    def _check_hand_limit(self) -> None:
        """The end of the turn: first discard down to the hand limit."""
        if len(self.hands[self.current]) > self.params.hand_limit:
            self.phase, self.after_discard = "discard", "end"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.ended_by and (self.params.end_mode == "immediate" or self.current == self.n - 1):
            self.phase = "end"
            return
        self._start_turn((self.current + 1) % self.n)

    def _start_turn(self, seat: int) -> None:
        self.current, self.phase = seat, "roll"
        self.turns += 1
        self.roll, self.steps_left, self.moved, self.picks = (), 0, 0, 0
        self.plundered = False

    def _hand_useful(self, seat: int) -> bool:
        hand = self.hands[seat]
        if WILD in hand:
            return True
        shown, wanted = self._wanted
        if shown != self.ofaceup:
            req = self.data.order_req
            shown = list(self.ofaceup)
            wanted = frozenset(t for o in shown if o in req for t, _ in req[o])
            self._wanted = shown, wanted
        return not wanted.isdisjoint(hand)

    # ----- results and reports --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(m) for m in self.money]

    def winners(self) -> list[int]:
        best = max((self.money[s], len(self.delivered[s])) for s in range(self.n))
        return [s for s in range(self.n) if (self.money[s], len(self.delivered[s])) == best]

    def card_count(self) -> dict[str, int]:
        # Counted afresh after every change that may move a card (the check must see a lost card); a step of a move
        # moves none. The dict is reused while the counts are equal.
        last = self._counts
        if self._counted_since and last is not None:
            return last[2]
        if self.phase in SETUP_PHASES:
            orders = len(self.data.order_ids) + 1
            toppings = len(self.data.topping_deck) if self.phase != "setup-orders" else \
                len(self.tdeck) + len(self.tdiscard) + len(self.tfaceup) + sum(map(len, self.hands))
        else:
            toppings = len(self.tdeck) + len(self.tdiscard) + len(self.tfaceup) + sum(map(len, self.hands))
            ofaceup = self.ofaceup
            orders = len(self.odeck) + len(ofaceup) - ofaceup.count(None) + sum(map(len, self.delivered))
        self._counted_since = True
        if last is not None and last[0] == toppings and last[1] == orders:
            return last[2]
        counts = {"toppings": toppings, "orders": orders, "reference": self.data.reference_copies}
        self._counts = (toppings, orders, counts)
        return counts

    def invariant_problems(self) -> list[str]:
        if self.steps_left >= 0 and (self._clean_since or (
                self.phase != "end" and len(self.tfaceup) <= self.params.faceup_toppings
                and max(map(len, self.hands)) <= self.params.hand_limit)):
            self._clean_since = True
            return []  # the common case: nothing below can fire (after clean checks, steps only change the steps)
        problems = []
        limit = self.params.hand_limit
        for seat, hand in enumerate(self.hands):
            if len(hand) > limit and not (seat == self.current and self.phase in MID_TURN):
                problems.append(f"{self.colours[seat]} holds {len(hand)} cards, over the hand limit {limit}")
        if len(self.tfaceup) > self.params.faceup_toppings:
            problems.append(f"{len(self.tfaceup)} face-up toppings; expected at most {self.params.faceup_toppings}")
        if self.steps_left < 0:
            problems.append(f"negative steps left ({self.steps_left})")
        if self.phase == "end":  # checked once: money is what the delivered orders are worth
            for seat in range(self.n):
                value = sum(self.data.order_value[o] for o in self.delivered[seat])
                if value != self.money[seat]:
                    problems.append(f"{self.colours[seat]} has ${self.money[seat]} but delivered orders worth ${value}")
        return problems

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self)

    def rounds(self) -> int:
        """Rounds started so far."""
        return (self.turns + self.n - 1) // self.n

    def metrics(self) -> dict[str, Any]:
        return metrics(self)


def new_state(game, players: int, options: dict | None = None) -> PizzaState:
    """A fresh game: the players choose their colours, then the setup shuffles (ENGINE.new_state)."""
    return PizzaState(game, players, options)
