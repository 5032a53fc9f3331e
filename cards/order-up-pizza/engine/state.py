"""The Order Up game state (games.md A.2/A.4): choose colours, roll, drive step by step, deliver, draw at
home, action cards.

A turn: roll (chance), `move`/`deliver`/`play` while driving, `stop`; then, on your own restaurant, `draw` 1
or 2 toppings or none (the rulebook: you *may* draw), and anywhere action cards may still be played (Speed
Trap any time, Pizza Plunder on a rival's restaurant); `end` finishes the turn, and it ends by itself when
nothing else is left to do. Whoever holds more cards than the hand limit after drawing or plundering discards
the excess at once.

Snapshot keys: current_player, terminal, scores, winners (once terminal), phase (setup-toppings | setup-orders
| roll | move | draw | discard | plunder | reshuffle | end), turn, round, roll, steps_left, picks, players
(list per seat: colour, restaurant, position, hand (sorted), hand_size, delivered, deliveries, money),
orders_faceup (slot list; None for an empty slot, 'game-over' once revealed), order_deck (count),
toppings_faceup, topping_deck (count), discard (list, oldest first), discard_size, game_over_revealed,
ended_by, plunder ({victim, left} while plundering).
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

from .actions import (
    SPEED_TRAP,
    WILD,
    Action,
    apply_action,
    legal_actions,
    may_plunder,
    parse_action,
    why_illegal,
)
from .data import PizzaData, pizza_data
from .options import Params, resolve_params

MID_TURN = frozenset({"draw", "after", "reshuffle", "discard", "plunder"})  # hand may exceed the limit
CHANCE_PHASES = {"setup-toppings": "toppings-deck", "setup-orders": "order-deck", "roll": "roll",
                 "reshuffle": "toppings-reshuffle"}
PLAYER_PHASES = frozenset({"colours", "move", "draw", "after", "discard", "plunder"})
SETUP_PHASES = frozenset({"colours", "setup-toppings", "setup-orders"})  # before the orders are dealt


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
            raise ValueError(
                f"start_hand {self.params.start_hand} is over the hand limit {self.params.hand_limit}"
            )
        dealt = players * self.params.start_hand + self.params.faceup_toppings
        if dealt > len(self.data.topping_deck):
            raise ValueError(
                f"{players} hands of {self.params.start_hand} + {self.params.faceup_toppings} face-up "
                f"need {dealt} Toppings cards; the deck has {len(self.data.topping_deck)}"
            )
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
        # where a hand-limit discard leads: 'end' (of the turn) or 'after' (a plunder)
        self.after_discard = "end"
        self.roll: tuple[int, ...] = ()
        self.steps_left = self.moved = self.picks = 0
        self.victim, self.plunder_left = -1, 0
        self.resume = ""  # what a toppings reshuffle interrupted: 'draw-deck' or 'refill'
        self.ended_by: str | None = None
        self.log = GameLog()  # the lines of rolls and actions are made only when read
        self._legal: list[Action] | None = None  # legal_actions() of the state as it is, until the next apply
        self.traps: list[list[Action]] | None = None  # per seat: Speed Traps at rivals (once colours are set)
        # while moving: (Energy Drink held, the Speed Trap actions, Pizza Plunder playable) until an action
        # other than
        # a step (only those change the hand or the turn)
        self.move_cards: tuple[bool, list[Action] | tuple, bool] | None = None
        # the last card_count(), reused while unchanged
        self._counts: tuple[int, int, dict[str, int]] | None = None
        # What the checks after an action must look at again: only steps of a move since the last clean
        # invariant_problems() (a step moves no card and grows no hand); no card moved since the last
        # card_count()
        # (steps, stopping, ending the turn after the move and rolling move none).
        self._clean_since = False
        self._counted_since = False
        # face-up orders -> the toppings they need
        self._wanted: tuple[list, frozenset[str]] = ([], frozenset())
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
            self._legal = self.move_cards = None
            self._clean_since = False  # a roll moves no card: the last card count stands
            self.roll = values
            self.steps_left, self.moved = sum(values), 0
            self.phase = "move"
            seat = self.current
            if not self._hand_useful(seat):
                self.dead_turns += 1
            self.log.append((_rolled, self.colours[seat], values))
            return
        request = self.chance_request()
        values = check_outcome(request, outcome)
        self._legal = None
        self.move_cards = None
        self._clean_since = False
        if self.phase != "roll":  # a roll moves no card
            self._counted_since = False
        CHANCE_HANDLERS[request.label](self, values)

    def _toppings_shuffled(self, values) -> None:
        p = self.params
        self.tdeck = list(reversed(values))
        for seat in range(self.n):  # dealt in blocks: seat 0 takes the top start_hand cards, and so on
            self.hands[seat] = [self.tdeck.pop() for _ in range(min(p.start_hand, len(self.tdeck)))]
        self._refill_toppings_now()
        self.phase = "setup-orders"

    def _orders_shuffled(self, values) -> None:
        p = self.params
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

    def _dice_rolled(self, values) -> None:
        self.roll = values
        self.steps_left, self.moved = sum(values), 0
        self.phase = "move"
        if not self._hand_useful(self.current):
            self.dead_turns += 1
        self.log.append((_rolled, self.colours[self.current], values))

    def _toppings_reshuffled(self, values) -> None:
        self.tdeck = list(reversed(values))
        self.tdiscard = []
        self.reshuffles += 1
        self.log.append("the topping discard pile is shuffled into a new deck")
        resume, self.resume = self.resume, ""
        self.phase = "draw" if resume == "draw-deck" else "after"
        if resume == "draw-deck":
            self.draw_from_deck()
        else:
            self.finish_draw(end_turn=resume == "refill-end")

    # ----- player actions (actions.py) ----------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: one list per state, shared until the next apply (do not
        change it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_actions(self)
        return legal

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    # ----- applying actions -----------------------------------------------------------------------
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
            legal = legal_actions(self)
        if action not in legal:
            raise IllegalAction(why_illegal(self, action))
        self._legal = None
        seat, verb, arg = self.current, action.verb, action.arg
        if verb == "move":  # most actions: one step (no card moves: move_cards stays)
            self.log.append((_moved, self.colours[seat], seat, arg))
        else:
            self.move_cards = None
            self.log.append((_said, self.colours[seat], seat, verb, arg))
            self._clean_since = False
            if verb != "stop" and not (verb == "end" and self.phase == "after"):
                self._counted_since = False
        apply_action(self, action)

    def game_over(self, why: str) -> None:
        """The game ends now (immediate) or after the round (finish_round)."""
        self.ended_by = why
        self.log.append(f"Game Over ({why})")
        if self.params.end_mode == "immediate":
            self.phase = "end"
        else:  # finish_round: the trigger player's turn ends; the rest of the round plays on
            self.steps_left = 0
            self.end_turn()

    def end_move(self) -> None:
        """The driver stops: at its own restaurant it may draw, elsewhere the move is over."""
        seat = self.current
        self.steps_left = 0
        if self.pos[seat] == self.homes[seat]:
            self.phase, self.picks = "draw", 0
        else:
            self.after_move()

    def after_move(self) -> None:
        """The move is over; the turn ends by itself when nothing is left to choose."""
        self.phase = "after"
        self.settle()

    def settle(self) -> None:
        """After the move, a turn with nothing left to choose but `end` ends by itself."""
        if self.phase != "after":
            return
        seat = self.current
        # what legal_actions() offers after the move besides `end`: Speed Traps at rivals, a Pizza Plunder
        if not (SPEED_TRAP in self.hands[seat] and self.n > 1) and not may_plunder(self, seat):
            self.check_hand_limit()

    def draw_from_deck(self) -> None:
        """The driver draws the top card of the toppings deck."""
        self.take_drawn(self.tdeck.pop())

    def take_drawn(self, card: str) -> None:
        """A drawn card goes into the driver's hand; the last pick refills the face-up toppings."""
        self.hands[self.current].append(card)
        self.picks += 1
        if self.picks >= self.params.draw_max:
            self.finish_draw()

    def ask_reshuffle(self, resume: str) -> None:
        """Chance shuffles the discard pile into a new deck, then `resume` goes on."""
        self.resume, self.phase = resume, "reshuffle"

    def finish_draw(self, end_turn: bool = False) -> None:
        """Refill the face-up toppings after all picks (reshuffling when needed); then the rest of the turn,
        or its end when the player said `end`."""
        self.phase = "after"
        while len(self.tfaceup) < self.params.faceup_toppings:
            if self.tdeck:
                self.tfaceup.append(self.tdeck.pop())
            elif self.tdiscard:
                self.ask_reshuffle("refill-end" if end_turn else "refill")
                return
            else:
                break
        if len(self.hands[self.current]) > self.params.hand_limit:  # discard the excess at once (rulebook)
            self.phase, self.after_discard = "discard", "end" if end_turn else "after"
        elif end_turn:
            self.end_turn()
        else:
            self.settle()

    def _refill_toppings_now(self) -> None:
        while len(self.tfaceup) < self.params.faceup_toppings and self.tdeck:
            self.tfaceup.append(self.tdeck.pop())

    def check_hand_limit(self) -> None:
        """The end of the turn: first discard down to the hand limit."""
        if len(self.hands[self.current]) > self.params.hand_limit:
            self.phase, self.after_discard = "discard", "end"
        else:
            self.end_turn()

    def end_turn(self) -> None:
        """The next seat's turn, or the end of the game once it is over."""
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

    # ----- lookahead: a copy, and the hidden cards dealt anew ---------------------------------------------
    def clone(self) -> PizzaState:
        """A deep, independent copy; the game data, the rule parameters and read-only caches stay shared."""
        new = object.__new__(PizzaState)
        new.__dict__.update(self.__dict__)
        new.log = GameLog(self.log)
        new.colours, new.homes, new.home_owner = list(self.colours), list(self.homes), dict(self.home_owner)
        new.hands = [list(hand) for hand in self.hands]
        new.pos, new.money = list(self.pos), list(self.money)
        new.delivered = [list(d) for d in self.delivered]
        new.tdeck, new.tdiscard, new.tfaceup = list(self.tdeck), list(self.tdiscard), list(self.tfaceup)
        new.odeck, new.ofaceup = list(self.odeck), list(self.ofaceup)
        new.usage, new.shown_at = Counter(self.usage), dict(self.shown_at)
        new.dwell = {k: list(v) for k, v in self.dwell.items()}
        new.completed = list(self.completed)
        return new

    def redeal(self, seat: int, rng) -> None:
        """Deal anew what `seat` cannot see: the other hands (same sizes) with the toppings deck, and the
        order deck's order (the Game Over card keeps its place: the rules put it there). Its hand, the
        face-up cards, the discard pile and the deliveries stay."""
        others = [s for s in range(self.n) if s != seat]
        unseen = sorted(self.tdeck + [card for s in others for card in self.hands[s]])
        rng.shuffle(unseen)
        for s in others:
            size = len(self.hands[s])
            self.hands[s] = unseen[len(unseen) - size:]
            del unseen[len(unseen) - size:]
        self.tdeck = unseen
        game_over = self.data.game_over
        orders = sorted(card for card in self.odeck if card != game_over)
        rng.shuffle(orders)
        self.odeck = [game_over if card == game_over else orders.pop() for card in self.odeck]
        # what was worked out from the old hands
        self._legal = self.move_cards = None
        self._clean_since = self._counted_since = False

    # ----- results and reports --------------------------------------------------------------------
    def scores(self) -> list[float]:
        return [float(m) for m in self.money]

    def winners(self) -> list[int]:
        best = max((self.money[s], len(self.delivered[s])) for s in range(self.n))
        return [s for s in range(self.n) if (self.money[s], len(self.delivered[s])) == best]

    def card_count(self) -> dict[str, int]:
        # Counted afresh after every change that may move a card (the check must see a lost card); a step of a
        # move
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
            # the common case: nothing below can fire (after clean checks, steps only change the steps)
            return []
        problems = []
        limit = self.params.hand_limit
        for seat, hand in enumerate(self.hands):
            if len(hand) > limit and not (seat == self.current and self.phase in MID_TURN):
                problems.append(f"{self.colours[seat]} holds {len(hand)} cards, over the hand limit {limit}")
        if len(self.tfaceup) > self.params.faceup_toppings:
            problems.append(
                f"{len(self.tfaceup)} face-up toppings; expected at most {self.params.faceup_toppings}"
            )
        if self.steps_left < 0:
            problems.append(f"negative steps left ({self.steps_left})")
        if self.phase == "end":  # checked once: money is what the delivered orders are worth
            for seat in range(self.n):
                value = sum(self.data.order_value[o] for o in self.delivered[seat])
                if value != self.money[seat]:
                    problems.append(
                        f"{self.colours[seat]} has ${self.money[seat]} but delivered orders worth ${value}"
                    )
        return problems

    def snapshot(self) -> dict[str, Any]:
        """The visible state as plain data, for script expectations (see the module docstring for the
        keys)."""
        snap: dict[str, Any] = {
            "current_player": self.current_player(),
            "terminal": self.phase == "end",
            "scores": self.scores(),
            "phase": self.phase,
            "turn": self.turns,
            "round": self.rounds(),
            "roll": list(self.roll),
            "steps_left": self.steps_left,
            "picks": self.picks,
            "players": [
                {
                    "colour": self.colours[s],
                    "restaurant": self.homes[s],
                    "position": self.pos[s],
                    "hand": sorted(self.hands[s]),
                    "hand_size": len(self.hands[s]),
                    "delivered": list(self.delivered[s]),
                    "deliveries": len(self.delivered[s]),
                    "money": self.money[s],
                }
                for s in range(self.n)
            ],
            "orders_faceup": list(self.ofaceup),
            "order_deck": len(self.odeck),
            "toppings_faceup": list(self.tfaceup),
            "topping_deck": len(self.tdeck),
            "discard": list(self.tdiscard),
            "discard_size": len(self.tdiscard),
            "game_over_revealed": self.data.game_over in self.ofaceup,
            "ended_by": self.ended_by,
            "plunder": {"victim": self.victim, "left": self.plunder_left}
            if self.phase == "plunder"
            else None,
        }
        if self.phase == "end":
            snap["winners"] = self.winners()
        return snap

    def rounds(self) -> int:
        """Rounds started so far."""
        return (self.turns + self.n - 1) // self.n

    def metrics(self) -> dict[str, Any]:
        """The standard balance-report figures of base.py plus Order Up extras."""
        dwell = {k: list(v) for k, v in self.dwell.items()}
        for order, since in self.shown_at.items():  # still on display at the end
            dwell.setdefault(order, []).append(self.turns - since)
        return {
            "turns": self.turns, "rounds": self.rounds(), "ended_by": self.ended_by or "unfinished",
            "completed_goals": list(self.completed), "dwell": dwell, "card_usage": dict(self.usage),
            "hand_limit_discards": self.limit_discards, "dead_hand_turns": self.dead_turns,
            "turn_order": list(range(self.n)),  # the youngest (seat 0) starts
            "seat_roles": list(self.colours),  # the restaurant each seat chose
            "extra": {
                "deliveries_per_seat": [len(d) for d in self.delivered], "money_per_seat": list(self.money),
                "reshuffles": self.reshuffles, "unclaimed_at_end": sorted(self.shown_at),
            },
        }


# chance event label -> what its outcome does to the state (a roll in the roll phase is applied inline above)
CHANCE_HANDLERS = {
    "toppings-deck": PizzaState._toppings_shuffled,
    "order-deck": PizzaState._orders_shuffled,
    "roll": PizzaState._dice_rolled,
    "toppings-reshuffle": PizzaState._toppings_reshuffled,
}
