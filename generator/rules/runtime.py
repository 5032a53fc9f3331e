"""A described game being played: its cards, zones and counters, and the steps of its rules run as one
program.

The program (setup, then turn after turn) is a Python generator over the steps the rules file compiles to. It
yields a `Decision` (the legal actions of the player to act) or a `ChanceRequest` (a shuffle or a pick: chance
comes from the harness, never from here) and is resumed with the action or the outcome. A step that cannot be
carried out, or a game that does more work than its budget, fails with the rules file's line.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from itertools import chain
from operator import attrgetter, countOf
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
from generator.rules.expressions import CARD, SEAT, RulesFailure, RulesLimit

STEP_BUDGET = 2_000_000  # steps (effects, checks, decisions) one game may run before it is stopped
BIG_ZONE = 24  # a zone this big is counted by deck again only when its cards changed (see card_count)


class Card:
    """One physical card: its type's fields (shared by its copies) and the cards laid under it."""

    __slots__ = ("id", "deck", "fields", "under")

    def __init__(self, card_id: str, deck: str, fields: dict):
        self.id, self.deck, self.fields = card_id, deck, fields
        self.under: Zone | None = None

    def part(self, name: str):
        """A field of the card (id, name, copies, deck and the deck's fields) or `under`."""
        if name == "under":
            if self.under is None:
                self.under = Zone(None, -1)
            return self.under
        return self.fields.get(name)

    def __str__(self) -> str:
        return self.id

    __repr__ = __str__


class Zone(list):
    """The cards of one zone, bottom first (the top card is the last); `spec` says what the zone is."""

    __slots__ = ("spec", "seat")

    def __init__(self, spec, seat: int, cards=()):
        super().__init__(cards)
        self.spec, self.seat = spec, seat

    def part(self, name: str):
        """A zone's size, top, bottom, empty or cards (as expressions read them)."""
        if name == "size":
            return len(self)
        if name == "top":
            return self[-1] if self else None
        if name == "bottom":
            return self[0] if self else None
        if name == "empty":
            return not self
        return list(self) if name == "cards" else None

    def __str__(self) -> str:
        name = self.spec.name if self.spec is not None else "under a card"
        return name if self.seat < 0 else f"{name} of seat {self.seat}"


class Row(Zone):
    """A zone of places (a display): a card taken leaves its place empty, a card coming in takes the first
    empty place. `places` holds each card's place, in order; `width` is the most places ever filled."""

    __slots__ = ("places", "width")

    def __init__(self, spec, seat: int, cards=()):
        super().__init__(spec, seat, cards)
        self.places = list(range(len(self)))
        self.width = len(self)

    def append(self, card) -> None:
        taken = set(self.places)
        place = next(number for number in range(len(taken) + 1) if number not in taken)
        at = bisect_left(self.places, place)
        self.insert(at, card)
        self.places.insert(at, place)
        self.width = max(self.width, place + 1)

    def extend(self, cards) -> None:
        for card in list(cards):
            self.append(card)

    def pop(self, index: int = -1):
        card = list.pop(self, index)
        self.places.pop(index)
        return card

    def remove(self, card) -> None:
        self.pop(self.index(card))

    def __delitem__(self, index) -> None:
        list.__delitem__(self, index)
        del self.places[index]

    def __setitem__(self, index, value) -> None:
        list.__setitem__(self, index, value)
        if isinstance(index, slice):  # a new order (a shuffle, a swap): the cards fill the first places
            self.places = list(range(len(self)))
            self.width = max(self.width, len(self))

    def shown(self) -> list:
        """The card ids place by place, None for an empty place (as snapshots show a display)."""
        out: list = [None] * self.width
        for place, card in zip(self.places, self, strict=True):
            out[place] = card.id
        return out


class Seat(int):
    """A seat number that knows its table: `seat.hand`, `seat.points` read its zones and counters."""

    state: RulesState

    def part(self, name: str):
        state = self.state
        zones = state.pzones.get(name)
        if zones is not None:
            return zones[self]
        values = state.pcounters.get(name)
        return values[self] if values is not None else None


class Act:
    """An action with its parameters: equal to another when they read the same (`str`, as scripts write
    it)."""

    __slots__ = ("name", "spec", "values", "text")

    def __init__(self, spec, values: dict, text: str):
        self.name, self.spec, self.values, self.text = spec.name, spec, values, text

    def part(self, name: str):
        return self.name if name == "name" else self.values.get(name)

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if type(other) is Act:  # two actions: the same when written the same (one compare, as the harness
            return other.text == self.text  # looks for a bot's action among the legal ones)
        return other == self.text

    def __hash__(self) -> int:
        return hash(self.text)  # a text keeps its hash once worked out

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


class Decision:
    """What the program waits for: the current player's choice among `actions`."""

    __slots__ = ("actions", "step")

    def __init__(self, actions: list[Act], step):
        self.actions, self.step = actions, step


class GameOver(Exception):
    """Unwinds the program when an end condition ends the game at once."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class TurnOver(Exception):
    """Unwinds the rest of the turn (the `end_turn` effect)."""


class Located:
    """A rule step's place in the rules file, for every failure it raises."""

    file: str = ""
    line: int = 0

    def failure(self, message: str) -> RulesFailure:
        return RulesFailure(f"{self.file}:{self.line}: {message}")


def run_steps(steps, s: RulesState, b: dict):
    """Run `steps` in order (a generator: it yields what the game waits for)."""
    for step in steps:
        s.epoch += 1  # every step may change the table: the values worked out before it are stale
        s.steps_left -= 1
        if s.steps_left < 0:
            raise RulesLimit(
                f"{step.file}:{step.line}: the game ran more than {STEP_BUDGET:,} rule steps; expected "
                "a game that ends (a repeat without progress?)"
            )
        if step.condition is not None and not step.condition(s, b):
            continue
        if step.pure:
            step.do(s, b)
        else:
            yield from step.run(s, b)


class RulesState(State):
    """One game of a described card game (the engine API of generator.engines.base)."""

    def __init__(self, program, table, players: int, options: dict):
        self.p, self.table, self.n = program, table, players
        # every rule option's value: given, else game.yaml's setting, else the rules' default
        self.options = {}
        unknown = sorted(set(options) - set(program.options))
        if unknown:
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)}; known: {', '.join(program.options) or 'none'}"
            )
        for name, (default, _help) in program.options.items():
            given = options.get(name)
            self.options[name] = given if given is not None else table.settings.get(name, default)
        self.log = GameLog()
        self.tables = {name: _for_count(values, players) for name, values in program.tables.items()}
        self.zones: dict[str, Zone] = {}
        self.pzones: dict[str, list[Zone]] = {}
        for spec in program.zones.values():
            kind = Row if spec.places else Zone
            if spec.per_player:
                self.pzones[spec.name] = [kind(spec, seat) for seat in range(players)]
            else:
                self.zones[spec.name] = kind(spec, -1)
        self._all_zones = [*self.zones.values(), *(z for zones in self.pzones.values() for z in zones)]
        self._limited = [zone for zone in self._all_zones if zone.spec.limit is not None]
        self._census: dict[int, tuple[list, list[int]]] = {}  # zone id -> (its cards, their count by deck)
        # every card starts in its deck's zone, so counts hold from the start
        for spec in program.zones.values():
            if spec.deck is not None:
                self.zones[spec.name].extend(table.new_cards(spec.deck))
        self.counters = {}
        self.pcounters = {}
        self.me = self.cur = self.first = 0
        self.seats = tuple(_seat(number, self) for number in range(players))
        # each seat's opponents from its left, made once (expressions read them, never change them)
        self.opponents = [[self.seats[(me + k) % players] for k in range(1, players)]
                          for me in range(players)]
        self.turns = self.rounds = 0
        self.taken: list[str] = []  # the actions taken this turn, by name
        self.trigger: str | None = None
        self.ended_by: str | None = None
        self._winners: list[int] = []
        self.usage: Counter = Counter()
        self.holders: list[Card] = []  # the cards that ever had cards laid under them (card_count)
        self.completed: list[str] = []
        self.skipped_draws = self.reshuffles = 0
        self.steps_left = STEP_BUDGET
        self.epoch = 0  # bumped by every step and every apply(): named values are kept for one epoch and seat
        self.kept: dict = {}
        # zone id -> (zone, its cards then, its distinct cards by id): see language._choices
        self.choices: dict = {}
        self.steady: dict = {}  # the values of steady names (settings, a card's points...) kept for the game
        self.decisions = 0
        self._pending: Any = None
        self._legal: list = []
        for name, counter in program.counters.items():
            if counter.per_player:
                values = []
                for seat in range(players):
                    self.me = seat
                    values.append(counter.start(self, {}))
                self.pcounters[name] = values
            else:
                self.counters[name] = counter.start(self, {})
        self.me = 0
        self._program = self._play()
        self._advance(None)

    # ----- the program
    # -------------------------------------------------------------------------------------------
    def _play(self):
        p = self.p
        try:
            yield from run_steps(p.setup, self, {})
            while True:
                self.me = self.cur
                self.taken = []
                try:
                    if p.skip_turn is None or not p.skip_turn(self, {}):
                        yield from run_steps(p.turn, self, {})
                except TurnOver:
                    pass
                self.me = self.cur
                yield from run_steps(p.after_turn, self, {})
                self.me = self.cur
                self.turns += 1
                self.epoch += 1
                self._check_end(p.end_now)
                if self.trigger is None:
                    for condition in p.end_round:
                        if condition.when(self, {}):
                            self.trigger = condition.reason
                            break
                nxt = (self.cur + 1) % self.n
                if nxt == self.first:
                    self.rounds += 1
                    self.epoch += 1
                    if self.trigger is not None:
                        raise GameOver(self.trigger)
                    self.me = self.cur
                    self._check_end(p.end_after_round)
                self.cur = self.me = nxt
                self.epoch += 1
        except GameOver as over:
            self._game_over(over.reason)

    def _check_end(self, conditions) -> None:
        for condition in conditions:
            if condition.when(self, {}):
                raise GameOver(condition.reason)

    def _advance(self, value) -> None:
        self.epoch += 1
        try:
            self._pending = self._program.send(value)
        except StopIteration:
            self._pending = None
        if type(self._pending) is Decision:
            self._legal = self._pending.actions
        else:
            self._legal = []

    def _game_over(self, reason: str) -> None:
        self.ended_by = reason
        self._winners = self.p.winners_of(self)
        self.log.append(f"game over ({reason}): scores {self.scores()}, winners {self._winners}")

    # ----- the engine API
    # ----------------------------------------------------------------------------------------
    def current_player(self) -> int:
        pending = self._pending
        if pending is None:
            return TERMINAL
        return self.cur if type(pending) is Decision else CHANCE

    def chance_request(self) -> ChanceRequest:
        if type(self._pending) is not ChanceRequest:
            raise IllegalAction("no chance event is pending")
        return self._pending

    def legal_actions(self) -> list:
        return self._legal

    def parse_action(self, text: str):
        wanted = " ".join(str(text).split())
        for action in self._legal:
            if action.text == wanted:
                return action
        words = {(a.text.split(" ", 1)[0] if a.text else a.name): a for a in self.p.actions.values()}
        word = wanted.split(" ", 1)[0] if wanted else ""
        if word not in words:
            raise IllegalAction(
                f"unknown action '{wanted}'; the rules' actions start with {', '.join(words)}"
            )
        return wanted  # an action of the rules that is not legal now: apply() says why

    def refusal(self, text: str) -> str | None:
        """Why the written action `text` is not allowed now, as the rules file says it: the choice's `refuse`
        when it offers no action written so, else the first `refuse:` entry of an action written so that
        holds (the action whose condition's parts over the parameters written hold first); None when the
        rules say nothing."""
        pending = self._pending
        if type(pending) is not Decision:
            return None
        offered = {spec.name for spec in getattr(pending.step, "actions", ())}
        candidates = []
        for spec in self.p.actions.values():
            match = spec.pattern.match(text) if spec.pattern is not None else None
            if match is None:
                continue
            bound = self._written(spec, match.groupdict())
            if bound is not None:
                candidates.append((spec, bound))
        if not candidates:
            return None
        mine = [(spec, bound) for spec, bound in candidates if spec.name in offered]
        if not mine:
            return getattr(pending.step, "refuse", None)
        self.me = self.cur
        mine.sort(key=lambda found: not self._parts_hold(*found))  # stable: the rules' order among equals
        for spec, bound in mine:
            if spec.once_per_turn and spec.name in self.taken:
                return f"'{spec.name}' is allowed only once per turn"
            for kind, read, say in spec.refusals:
                value = read(self, bound)
                if kind == "why" and value:
                    return str(value)
                if kind == "if" and value:
                    return say.format_map({name: _written_text(bound.get(name)) for name in spec.kinds})
        return None

    def _written(self, spec, words: dict) -> dict | None:
        """The parameters of a written action: each value of its range written so (while the earlier ones
        were in theirs), else the card of that id wherever it lies, the seat of that number, or the text;
        None when a card or seat written names none."""
        bound: dict = {}
        in_range = True
        for name, domain, _cards in spec.params:
            written = words.get(name)
            value = None
            if written is not None and in_range:
                try:
                    value = next((v for v in _range_of(domain(self, bound)) if str(v) == written), None)
                except (RulesFailure, RulesLimit):
                    value = None
            if value is None:
                in_range = False
                kind = spec.kinds.get(name)
                if written is None:
                    value = None
                elif kind == CARD:
                    value = self.find_card(written)
                    if value is None:
                        return None
                elif kind == SEAT:
                    if not written.isdigit() or not 0 <= int(written) < self.n:
                        return None
                    value = self.seats[int(written)]
                else:
                    value = written
            bound[name] = value
        return bound

    def _parts_hold(self, spec, bound: dict) -> bool:
        """The parts of the action's condition over the parameters written hold."""
        for names, read in spec.parts:
            if any(bound.get(n) is None for n in names if n in spec.kinds):
                continue
            try:
                if not read(self, bound):
                    return False
            except (RulesFailure, RulesLimit):
                return False
        return True

    def find_card(self, card_id: str):
        """The first card of that id in any zone or under any card (None when there is none)."""
        for zone in self._all_zones:
            for card in zone:
                if card.id == card_id:
                    return card
        for holder in self.holders:
            for card in holder.under:
                if card.id == card_id:
                    return card
        return None

    def apply(self, action) -> None:
        pending = self._pending
        if type(action) is ChanceOutcome:
            if type(pending) is not ChanceRequest:
                raise IllegalAction(
                    f"no chance event is pending, but an outcome for '{action.label}' was given"
                )
            self._advance(check_outcome(pending, action))
            return
        if pending is None:
            raise IllegalAction("the game is over")
        if type(pending) is ChanceRequest:
            raise IllegalAction(f"chance event '{pending.label}' must be decided first")
        if type(action) is not Act or not _listed(action, self._legal):
            text = str(action)
            found = next((a for a in self._legal if a.text == " ".join(text.split())), None)
            if found is None:
                why = self.refusal(" ".join(text.split()))
                if why:
                    raise IllegalAction(why)
                legal = ", ".join(a.text for a in self._legal[:12]) + (
                    " ..." if len(self._legal) > 12 else ""
                )
                raise IllegalAction(f"'{text}' is not allowed now; legal: {legal or 'nothing'}")
            action = found
        self.decisions += 1
        self.log.append((_said, self.cur, action.text))
        self._advance(action)

    def scores(self) -> list[float]:
        score = self.p.score
        values = []
        me = self.me
        for seat in range(self.n):
            self.me = seat
            values.append(score(self, {}))
        self.me = me
        return values

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_count(self) -> dict[str, int]:
        # the harness asks after every action: every card is of one of the table's decks, so the last deck's
        # count is what the others leave of the total (the sizes of the zones and of the cards under cards);
        # the others counted zone by zone, each zone (and the cards under each card that ever had any laid
        # under it) counted again only when it holds other cards than when it was last counted (a C-level
        # compare: an action changes one zone or two), a big one (a draw pile, a discard) not even when it
        # just has cards more or fewer on top (see _recounted)
        counts: dict[str, int] = {}
        if not self.table.kinds:
            return counts
        *others, last = self.table.kinds
        left = first = 0
        found = [0] * len(others)
        single = len(others) == 1
        census = self._census
        for zone in chain(self._all_zones, [holder.under for holder in self.holders]):
            left += len(zone)
            kept = census.get(id(zone))
            if kept is None or kept[0] != zone:
                counted = _recounted(kept, zone, others) if kept is not None and len(zone) >= BIG_ZONE \
                    else None
                if counted is None:
                    counted = [countOf(map(_deck_of, zone), deck) for deck in others]
                    census[id(zone)] = (list(zone), counted)
            else:
                counted = kept[1]
            if single:  # most games: one deck counted, the other what is left
                first += counted[0]
            else:
                for at, count in enumerate(counted):
                    found[at] += count
        if single:
            found[0] = first
        for at, deck in enumerate(others):
            count = counts[deck] = found[at]
            left -= count
        counts[last] = left
        return {deck: count for deck, count in counts.items() if count}

    def invariant_problems(self) -> list[str]:
        problems = []
        for zone in self._limited:  # asked after every action: only the zones that have a limit
            limit = zone.spec.limit
            if (
                limit is not None
                and len(zone) > limit
                and not (zone.seat == self.cur and self._pending is not None)
            ):
                problems.append(f"{zone} holds {len(zone)} cards; its limit is {limit}")
        return problems

    def snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = {
            "current_player": self.current_player(),
            "terminal": self._pending is None,
            "scores": self.scores(),
            "turn": self.turns + 1,
            "round": self.rounds + 1,
            "rounds_played": self.rounds,
            "first_player": self.first,
            "ended_by": self.ended_by,
            "end_trigger": self.trigger,
            "counters": dict(self.counters),
        }
        for name, zone in self.zones.items():
            if zone.spec.face != "up":
                snap[name] = len(zone)
            else:
                snap[name] = zone.shown() if type(zone) is Row else [c.id for c in zone]
            snap[f"{name}_size"] = len(zone)
        snap["players"] = [
            {**{name: sorted(c.id for c in zones[seat]) for name, zones in self.pzones.items()},
             **{f"{name}_size": len(zones[seat]) for name, zones in self.pzones.items()},
             **{name: values[seat] for name, values in self.pcounters.items()}, "score": snap["scores"][seat]}
            for seat in range(self.n)]
        me = self.me
        self.me = self.cur
        for key, read in self.p.snapshot:  # the rules' own keys (the names a Python engine's scripts read)
            snap[key] = shown_value(read(self, {}))
        for seat, player in enumerate(snap["players"]):
            self.me = seat
            for key, read in self.p.snapshot_players:
                player[key] = shown_value(read(self, {}))
        self.me = me
        if self._pending is None:
            snap["winners"] = self.winners()
        return snap

    def metrics(self) -> dict[str, Any]:
        return {
            "turns": self.turns, "rounds": self.rounds, "ended_by": self.ended_by,
            "completed_goals": list(self.completed), "card_usage": dict(self.usage),
            "turn_order": [(self.first + i) % self.n for i in range(self.n)],
            "extra": {"reshuffles": self.reshuffles, "skipped_draws": self.skipped_draws,
                      "shared_win": len(self._winners) > 1},
        }


_deck_of = attrgetter("deck")  # a C-level read: card_count runs after every action


def _recounted(kept: tuple, zone, others: list) -> list[int] | None:
    """The count by deck of a big zone from its count when it held the cards `kept[0]`, when it holds the same
    cards with some taken from the top or laid on it since (a draw, a discard: the few cards that came or
    went counted); None when it holds other cards (counted again from scratch). The kept cards and counts
    follow."""
    old, counts = kept
    size, before = len(zone), len(old)
    if size == before:
        return counts if old == zone else None
    if size < before:
        moved = old[size:]
        del old[size:]
        sign = -1
    else:
        moved = zone[before:]
        old.extend(moved)
        sign = 1
    if old != zone:  # not the same cards below the top: `kept` is replaced
        return None
    for at, deck in enumerate(others):
        counts[at] += sign * countOf(map(_deck_of, moved), deck)
    return counts


def _seat(number: int, state) -> Seat:
    seat = Seat(number)
    seat.state = state
    return seat


def _listed(action, legal: list) -> bool:
    """`action` is one of the legal actions (by identity: a bot hands back one of them)."""
    for one in legal:  # noqa: SIM110 - a loop: no generator frame per decision
        if one is action:
            return True
    return False


def shown_value(value):
    """A value as a snapshot shows it: cards by id, zones as lists of ids, seats as numbers."""
    if type(value) is Card:
        return value.id
    if isinstance(value, Zone):
        return value.shown() if type(value) is Row else [c.id for c in value]
    if type(value) is Seat:
        return int(value)
    if isinstance(value, (list, tuple)):
        return [shown_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): shown_value(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _written_text(value) -> str:
    return "" if value is None else str(value)


def _range_of(values) -> list:
    """The values a parameter ranges over (the items of a zone or list)."""
    return [] if values is None else list(values)


def _said(seat: int, text: str) -> str:
    return f"seat {seat}: {text}"


def _for_count(values, players: int):
    """A player-count table's value for `players` (a table may give `default`)."""
    if not isinstance(values, dict):
        return values
    if players in values:
        return values[players]
    return values.get("default")
