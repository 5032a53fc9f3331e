"""The closed vocabulary of rule steps: what setup, a turn and an action's effects are made of.

Each step is compiled once from the rules file (generator.rules.language) and run on a `RulesState`. A step
that only changes the table is `pure` (`do`); one that may wait for chance or for a player is a generator
(`run`).
"""

from __future__ import annotations

from generator.engines.base import ChanceRequest
from generator.rules.runtime import Act, Card, Decision, GameOver, Located, TurnOver, Zone, run_steps


class Step(Located):
    """One step of the rules: its verb, where it is written, an optional condition."""

    verb = ""
    pure = True
    condition = None

    def do(self, s, b) -> None:  # pragma: no cover - every pure step defines it
        raise NotImplementedError

    def run(self, s, b):  # pragma: no cover - every step that waits defines it
        raise NotImplementedError
        yield


def _zone(step: Step, value) -> Zone:
    if not isinstance(value, Zone):
        raise step.failure(f"'{step.verb}' needs a zone here, got {value!r}")
    return value


def shuffled(s, zone: Zone, label: str, cards: list):
    """Ask chance for an order of `cards` and lay them into `zone`, the first of the outcome on top."""
    values = yield ChanceRequest("shuffle", label, items=tuple(c.id for c in cards))
    pool: dict[str, list[Card]] = {}
    for card in cards:
        pool.setdefault(card.id, []).append(card)
    zone[:] = [pool[card_id].pop() for card_id in reversed(values)]


def draw_one(s, source: Zone, step: Step):
    """The top card of `source` (a generator: refilling an empty deck may need a shuffle); None when none is
    left."""
    if not source:
        spec = source.spec
        empty = spec.when_empty if spec is not None else "nothing"
        if empty == "end":
            raise GameOver(f"{spec.name}-empty")
        if empty == "reshuffle":
            pile = s.zones[spec.reshuffle_from]
            keep = spec.reshuffle_keep
            moving = sorted(pile[: len(pile) - keep] if keep else pile, key=_card_id)
            if moving:
                del pile[: len(pile) - keep if keep else len(pile)]
                s.reshuffles += 1
                s.log.append(f"{spec.reshuffle_from} is shuffled into a new {spec.name}")
                source.extend(moving)  # in the pile while chance decides its order: every card is somewhere
                yield from shuffled(s, source, spec.reshuffle_label, moving)
        if not source:
            return None
    return source.pop()


def _card_id(card: Card) -> str:
    return card.id


class Shuffle(Step):
    verb, pure = "shuffle", False

    def __init__(self, zone, label: str | None):
        self.zone, self.label = zone, label

    def run(self, s, b):
        zone = _zone(self, self.zone(s, b))
        yield from shuffled(s, zone, self.label or zone.spec.label or zone.spec.name, list(zone))


class Draw(Step):
    """`draw: {from, to, count}`: the top cards of a pile (an empty pile does what its `when_empty` says)."""

    verb, pure = "draw", False

    def __init__(self, source, target, count):
        self.source, self.target, self.count = source, target, count

    def run(self, s, b):
        source, target = _zone(self, self.source(s, b)), _zone(self, self.target(s, b))
        count = int(self.count(s, b) or 0)
        for done in range(count):
            card = yield from draw_one(s, source, self)
            if card is None:
                s.skipped_draws += count - done
                return
            target.append(card)


class Deal(Step):
    """`deal: {from, to, count}`: `count` cards to each seat's zone `to`, seat by seat from seat 0."""

    verb, pure = "deal", False

    def __init__(self, source, zone_name: str, count):
        self.source, self.zone_name, self.count = source, zone_name, count

    def run(self, s, b):
        source = _zone(self, self.source(s, b))
        count = int(self.count(s, b) or 0)
        for target in s.pzones[self.zone_name]:
            for _ in range(count):
                card = yield from draw_one(s, source, self)
                if card is None:
                    raise self.failure(
                        f"{source} runs out while dealing {count} cards to each of {s.n} players; "
                        "expected enough cards for the deal"
                    )
                target.append(card)


def take(step: Step, zone: Zone, card) -> Card:
    """Remove `card` (a card, or a card id) from `zone`; a located failure when it is not there."""
    for index in range(len(zone) - 1, -1, -1):
        if zone[index] is card:
            return zone.pop(index)
    wanted = getattr(card, "id", card)
    for index in range(len(zone) - 1, -1, -1):
        if zone[index].id == wanted:
            return zone.pop(index)
    raise step.failure(f"'{wanted}' is not in {zone}; expected a card of that zone")


class Move(Step):
    """`move: {card, from, to}` (one card) or `move: {where, from, to}` (every card for which `where`
    holds)."""

    verb = "move"

    def __init__(self, card, where, source, target):
        self.card, self.where, self.source, self.target = card, where, source, target

    def do(self, s, b):
        source, target = _zone(self, self.source(s, b)), _zone(self, self.target(s, b))
        if self.where is None:
            card = self.card(s, b)
            if type(card) is list:  # several cards (a payment's)
                target.extend([take(self, source, one) for one in card])
            else:
                target.append(take(self, source, card))
            return
        where, bound = self.where, dict(b)
        keep = []
        for card in source:
            bound["card"] = card
            (target if where(s, bound) else keep).append(card)
        source[:] = keep


class Give(Step):
    """`give: {card, to, zone}`: a card of my zone `zone` to the same zone of seat `to`."""

    verb = "give"

    def __init__(self, card, seat, zone_name: str):
        self.card, self.seat, self.zone_name = card, seat, zone_name

    def do(self, s, b):
        zones = s.pzones[self.zone_name]
        seat = self.seat(s, b)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.n:
            raise self.failure(f"'give' needs a seat, got {seat!r}")
        zones[seat].append(take(self, zones[s.me], self.card(s, b)))


class Steal(Step):
    """`steal: {from, count, zone, to}`: `count` random cards of seat `from`'s zone into my zone `to`."""

    verb, pure = "steal", False

    def __init__(self, seat, count, zone_name: str, target, label: str):
        self.seat, self.count, self.zone_name, self.target, self.label = seat, count, zone_name, target, label

    def run(self, s, b):
        seat = self.seat(s, b)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.n:
            raise self.failure(f"'steal' needs a seat, got {seat!r}")
        victim = s.pzones[self.zone_name][seat]
        count = min(int(self.count(s, b) or 0), len(victim))
        if not count:
            return
        target = _zone(self, self.target(s, b))
        cards = sorted(victim, key=_card_id)
        picks = yield ChanceRequest("pick", self.label, count=count, n=len(cards))
        for index in picks:
            card = cards[int(index)]
            take(self, victim, card)
            target.append(card)


class Swap(Step):
    """`swap: {zone, with}`: two zones exchange their cards."""

    verb = "swap"

    def __init__(self, first, second):
        self.first, self.second = first, second

    def do(self, s, b):
        a, c = _zone(self, self.first(s, b)), _zone(self, self.second(s, b))
        a[:], c[:] = list(c), list(a)


class Refill(Step):
    """`refill: {zone, from, size}`: draw into `zone` until it holds `size` cards or the pile is empty."""

    verb, pure = "refill", False

    def __init__(self, zone, source, size):
        self.zone, self.source, self.size = zone, source, size

    def run(self, s, b):
        zone, source = _zone(self, self.zone(s, b)), _zone(self, self.source(s, b))
        size = int(self.size(s, b) or 0)
        while len(zone) < size:
            card = yield from draw_one(s, source, self)
            if card is None:
                return
            zone.append(card)


class Attach(Step):
    """`attach: {card, from, to}`: lay a card of zone `from` under card `to` (a spice on a recipe)."""

    verb = "attach"

    def __init__(self, card, source, target):
        self.card, self.source, self.target = card, source, target

    def do(self, s, b):
        target = self.target(s, b)
        if type(target) is not Card:
            raise self.failure(f"'attach' needs a card to lay it under, got {target!r}")
        if all(held is not target for held in s.holders):  # a few cards at the most (counted by card_count)
            s.holders.append(target)
        under, source, card = target.part("under"), _zone(self, self.source(s, b)), self.card(s, b)
        under.extend(
            [take(self, source, one) for one in card] if type(card) is list else [take(self, source, card)]
        )


class LaySets(Step):
    """`lay_sets: {from, to, by, size}`: every `size` cards of `from` that share field `by` go to `to`."""

    verb = "lay_sets"

    def __init__(self, source, target, by: str, size):
        self.source, self.target, self.by, self.size = source, target, by, size

    def do(self, s, b):
        source, target = _zone(self, self.source(s, b)), _zone(self, self.target(s, b))
        size = int(self.size(s, b) or 0)
        if size < 1:
            raise self.failure(f"'lay_sets' needs a size of at least 1, got {size}")
        groups: dict = {}
        for card in source:
            groups.setdefault(card.fields.get(self.by), []).append(card)
        laid = []
        for cards in groups.values():
            whole = len(cards) - len(cards) % size
            laid += cards[:whole]
        if laid:
            gone = {id(c) for c in laid}
            source[:] = [c for c in source if id(c) not in gone]
            target.extend(laid)


class Counter(Step):
    """`set: {name: value}` / `add: {name: amount}` (with `seat:` for another seat's counter)."""

    def __init__(self, verb: str, values: list, seat):
        self.verb, self.values, self.seat = verb, values, seat

    def do(self, s, b):
        seat = s.me if self.seat is None else self.seat(s, b)
        for name, per_player, value in self.values:
            new = value(s, b)
            if per_player:
                values = s.pcounters[name]
                values[seat] = values[seat] + new if self.verb == "add" else new
            else:
                s.counters[name] = s.counters[name] + new if self.verb == "add" else new


class Branch(Step):
    """`if: condition` with `then: [steps]` and `else: [steps]`."""

    verb, pure = "then", False

    def __init__(self, test, then: list, otherwise: list):
        self.test, self.then, self.otherwise = test, then, otherwise

    def run(self, s, b):
        yield from run_steps(self.then if self.test(s, b) else self.otherwise, s, b)


class Choose(Step):
    """`choose: [action, ...]`: the player to act picks one legal action of these; none legal: `if_none`;
    `refuse`: why an action this choice does not offer is refused (finish a discard first)."""

    verb, pure = "choose", False

    def __init__(self, actions: list, if_none: str, refuse: str | None = None):
        self.actions, self.if_none, self.refuse = actions, if_none, refuse

    def run(self, s, b):
        found: list[Act] = []
        for spec in self.actions:
            spec.collect(s, b, found)
        if not found:
            if self.if_none == "end_turn":
                raise TurnOver
            if self.if_none == "fail":
                raise self.failure(
                    f"seat {s.cur} has no legal action among {', '.join(a.name for a in self.actions)}"
                )
            return
        action = yield Decision(found, self)
        spec = action.spec
        s.taken.append(spec.name)
        for name in spec.played:
            card = action.values.get(name)
            if type(card) is Card:
                s.usage[card.id] += 1
        s.me = s.cur
        yield from run_steps(spec.do, s, {**b, **action.values} if b else action.values)
        s.me = s.cur
        s._check_end(s.p.end_now)


class Repeat(Step):
    """`repeat: {do: [steps], until: condition, max: n}`: the steps again until the condition holds, `max`
    times at the most (a repeat without `max` is refused: it could never end)."""

    verb, pure = "repeat", False

    def __init__(self, steps: list, until, most):
        self.steps, self.until, self.most = steps, until, most

    def run(self, s, b):
        most = int(self.most(s, b) or 0)
        for _ in range(most):
            if self.until is not None and self.until(s, b):
                return
            yield from run_steps(self.steps, s, b)


class EndTurn(Step):
    verb = "end_turn"

    def do(self, s, b):
        raise TurnOver


class EndGame(Step):
    """`end_game: reason` (at once) or `trigger: reason` (the round is played out, then the game ends)."""

    def __init__(self, verb: str, reason: str):
        self.verb, self.reason = verb, reason

    def do(self, s, b):
        if self.verb == "end_game":
            raise GameOver(self.reason)
        if s.trigger is None:
            s.trigger = self.reason


class Complete(Step):
    """`complete: card`: a goal is completed (for the balance report)."""

    verb = "complete"

    def __init__(self, card):
        self.card = card

    def do(self, s, b):
        card = self.card(s, b)
        s.completed.append(getattr(card, "id", str(card)))


class FirstPlayer(Step):
    """`first_player: random` (chance picks a seat) or an expression giving the seat."""

    verb, pure = "first_player", False

    def __init__(self, seat, label: str):
        self.seat, self.label = seat, label

    def run(self, s, b):
        if self.seat is None:
            picked = yield ChanceRequest("pick", self.label, count=1, n=s.n)
            seat = int(picked[0])
        else:
            seat = self.seat(s, b)
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < s.n:
                raise self.failure(f"'first_player' needs a seat from 0 to {s.n - 1}, got {seat!r}")
        s.first = s.cur = s.me = int(seat)
        s.log.append(f"seat {seat} goes first")
