"""Named built-ins of the rules language: what a game needs that the expression language cannot say itself.

Each is `function(state, *arguments)`, called from an expression as `name(arguments)`. They read the table and
never change it (effects are steps). The list is closed: a rules file names only these. The requirement
matcher `payments` finds every way a hand pays for a goal: named cards, "any of" slots, wilds, and an ordered
bonus chain.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations_with_replacement
from operator import attrgetter

from generator.core.graphs import distances

BONUS = re.compile(r"^\s*([a-z0-9][a-z0-9_-]*)\s+([+-]\s*\d+)\s*$")
WILD = "*"  # a slot a wild fills, while the ways are enumerated
MEMO_SIZE = 200_000  # ways to pay remembered per process (by the counts of the cards that decide them)
_memo: dict[tuple, tuple] = {}
_id_of = attrgetter("id")  # a C-level read: a hand is counted at every decision


class Payment:
    """One way to pay for a goal: the cards for its slots (in order), the bonus cards laid on it, what the
    bonus is worth and how many wilds it spends. Written `slot slot + bonus` (as scripts write a cook)."""

    __slots__ = ("slots", "bonus", "points", "wilds", "text")

    def __init__(self, slots: tuple, bonus: tuple, points: int, wilds: int):
        self.slots, self.bonus, self.points, self.wilds = slots, bonus, points, wilds
        self.text = " ".join(slots) + (" + " + " ".join(bonus) if bonus else "")

    def part(self, name: str):
        if name == "cards":
            return list(self.slots + self.bonus)
        if name == "bonus_count":
            return len(self.bonus)
        value = getattr(self, name, None) if name in self.__slots__ else None
        return list(value) if isinstance(value, tuple) else value

    def __str__(self) -> str:
        return self.text


def bonus_chain(state, texts) -> list:
    """'egg +1' texts as [card id, points] pairs (texts that do not read so are left out)."""
    key = tuple(texts or ())
    found = _chains.get(key)
    if found is None:
        found = _chains[key] = tuple(_chain(key))
    return found


_chains: dict[tuple, tuple] = {}


def _chain(texts: tuple) -> list:
    chain = []
    for text in texts:
        match = BONUS.match(str(text))
        if match:
            chain.append((match.group(1), int(match.group(2).replace(" ", ""))))
    return chain


def chain_cards(state, chain) -> list:
    """The card ids of a bonus chain, in order."""
    return [card for card, _points in chain or ()]


def chain_points(state, chain, count) -> int:
    """The points of the first `count` links of a bonus chain."""
    return sum(points for _card, points in list(chain or ())[: int(count or 0)])


def payments(state, hand, needs, any_count=0, any_of=(), bonus=(), wilds=()) -> list[Payment]:
    """Every distinct way `hand` pays for a goal: one card per name in `needs` (repeats allowed), `any_count`
    cards of `any_of`, a wild for any of them, then each obtainable prefix of the ordered `bonus` chain."""
    counted = state.kept.get(("held", state.epoch, id(hand)))  # the same hand is paid from for every goal
    if counted is None or counted[0] is not hand:
        counted = state.kept[("held", state.epoch, id(hand))] = (hand, Counter(map(_id_of, hand)))
    have = counted[1]
    goal = _goal(needs, any_count, any_of, bonus)
    held_wild = False
    for wild in wilds or ():
        if have.get(wild):
            held_wild = True
            break
    if held_wild:
        wild_ids = tuple(sorted(w for w in wilds if have.get(w)))
        spare = sum(map(have.get, wild_ids))
    else:
        wild_ids, spare = (), 0
    # a wild fills one slot: fewer wilds than the named cards missing, and than the "any of" slots no card of
    # theirs fills, cannot pay whatever the order (most goals fail here: plain loops)
    for card, count in goal[6]:
        held = have.get(card, 0)
        if held < count:
            spare -= count - held
            if spare < 0:
                return []
    if goal[2] and goal[2] > sum(have.get(card, 0) for card in goal[3]) + spare:
        return []
    # the ways depend only on the goal, the wilds held and how many of each card that matters the hand holds
    get = have.get
    key = (goal[0], wild_ids, tuple(map(get, goal[5])), tuple(map(get, wild_ids)))
    found = _memo.get(key)
    if found is None:
        found = tuple(_ways(have, goal[1], goal[2], goal[3], goal[4], wild_ids))
        if len(_memo) < MEMO_SIZE:
            _memo[key] = found
    return list(found)


def _goal(needs, any_count, any_of, bonus) -> tuple:
    """A goal as `payments` reads it: (its number, needs, any count, any of sorted, the chain, the cards that
    matter, how many of each named card it needs); kept by the identity of its arguments (a card's fields
    and a kept chain are the same objects each time), else by their values."""
    ident = (id(needs), any_count, id(any_of), id(bonus))
    kept = _goals.get(ident)
    if kept is not None and kept[0] is needs and kept[1] is any_of and kept[2] is bonus:
        return kept[3]
    needs_t = tuple(needs or ())
    any_of_t = tuple(sorted(any_of or ()))
    chain = tuple(tuple(link) for link in (bonus or ()))
    relevant = tuple(dict.fromkeys((*needs_t, *any_of_t, *(c for c, _ in chain))))
    value = (needs_t, int(any_count or 0), any_of_t, chain, relevant, tuple(Counter(needs_t).items()))
    goal = _interned.get(value)
    if goal is None:
        goal = _interned[value] = (len(_interned), *value)
    if len(_goals) < MEMO_SIZE:
        _goals[ident] = (needs, any_of, bonus, goal)  # the arguments held: their ids stay theirs
    return goal


_goals: dict[tuple, tuple] = {}
_interned: dict[tuple, tuple] = {}


def _ways(have: Counter, needs: tuple, any_count: int, any_of: tuple, chain: tuple, wild_ids: tuple):
    wild_pool = [w for w in wild_ids for _ in range(have[w])]
    groups = list(Counter(needs).items())
    out, seen = [], set()

    def emit(slots: list, prefix: list, used: Counter, wilds_left: int) -> None:
        fillers = iter(wild_pool)
        named = tuple(next(fillers) if f == WILD else f for f in slots)
        extra = tuple(next(fillers) if f == WILD else f for f in prefix)
        key = (named, extra)
        if key not in seen:
            seen.add(key)
            spent = sum(1 for f in slots + prefix if f == WILD)
            out.append(Payment(named, extra, sum(p for _, p in chain[: len(prefix)]), spent))
        if len(prefix) == len(chain):
            return
        card = chain[len(prefix)][0]
        if have.get(card, 0) - used[card] > 0:
            used[card] += 1
            emit(slots, prefix + [card], used, wilds_left)
            used[card] -= 1
        if wilds_left:
            emit(slots, prefix + [WILD], used, wilds_left - 1)

    def finish(choice: dict, extra: tuple, used: Counter, wilds_left: int) -> None:
        cursor = dict.fromkeys(choice, 0)
        slots = []
        for card in needs:
            slots.append(choice[card][cursor[card]])
            cursor[card] += 1
        emit(slots + list(extra), [], used, wilds_left)

    def walk(index: int, choice: dict, used: Counter, wilds_left: int) -> None:
        if index == len(groups):
            if not any_count:
                finish(choice, (), used, wilds_left)
                return
            for combo in combinations_with_replacement(any_of + (WILD,), any_count):
                need = Counter(c for c in combo if c != WILD)
                wild_need = any_count - sum(need.values())
                if wild_need > wilds_left or any(have.get(c, 0) - used[c] < k for c, k in need.items()):
                    continue
                used.update(need)
                finish(choice, combo, used, wilds_left - wild_need)
                used.subtract(need)
            return
        card, count = groups[index]
        real_have = have.get(card, 0) - used[card]
        for wild in range(0, min(count, wilds_left) + 1):
            real = count - wild
            if real > real_have:
                continue
            used[card] += real
            walk(index + 1, {**choice, card: [card] * real + [WILD] * wild}, used, wilds_left - wild)
            used[card] -= real

    walk(0, {}, Counter(), len(wild_pool))
    return out


def unpaid(  # noqa: PLR0913 - the arguments of payments, the written payment and the words of a slot
    state, hand, needs, any_count=0, any_of=(), bonus=(), wilds=(), written=None, any_name="any"
):
    """Why the payment `written` ('slot slot + bonus', as a cook is written) does not pay for a goal from
    `hand` (the arguments of `payments`), or none when it does or is no written payment: the wrong number
    of cards, a card that cannot fill its slot (`any_name` names an "any of" slot), a bonus out of the
    printed order, or a card the hand does not hold enough of."""
    if not isinstance(written, str):
        return None
    required, _, extra = written.partition("+")
    slots, laid = required.split(), extra.split()
    needs = [str(n) for n in needs or ()]
    wanted = needs + [WILD] * int(any_count or 0)
    wild_ids = set(wilds or ())
    any_ids = sorted(str(a) for a in any_of or ())
    chain = [str(link[0]) for link in bonus or ()]
    if len(slots) != len(wanted):
        names = " ".join(needs + [any_name] * int(any_count or 0))
        return f"it needs one card for each of {names}; got {len(slots)}"
    _wilds_last(slots, wanted, wild_ids)
    for slot, card in zip(wanted, slots, strict=True):
        if card in wild_ids:
            continue
        if slot == WILD and card not in any_ids:
            return f"{card} cannot be {any_name}; expected {', '.join(any_ids)} or a wild"
        if slot != WILD and card != slot:
            return f"{card} cannot stand for {slot}"
    if len(laid) > len(chain):
        return f"it has only {len(chain)} bonus card{'s' if len(chain) != 1 else ''}"
    for link, card in zip(chain, laid, strict=False):
        if card != link and card not in wild_ids:
            return f"bonus cards go on in the printed order: {link} comes next, not {card}"
    held = Counter(card.id for card in hand or ())
    for card, count in Counter(slots + laid).items():
        if held[card] < count:
            return f"you hold {held[card]} {card}, need {count}"
    return None


def _wilds_last(fillers: list, names: list, wild_ids: set) -> None:
    """Among slots that ask for the same card, the written cards in order with the wilds last (as the
    ways are written)."""
    groups: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        groups.setdefault(name, []).append(index)
    for positions in groups.values():
        if len(positions) > 1:
            ordered = sorted((fillers[i] for i in positions), key=lambda f: (f in wild_ids, f))
            for index, filler in zip(positions, ordered, strict=True):
                fillers[index] = filler


def floored_total(state, start, amounts, floor):
    """`start` plus each of `amounts` in turn, the running total kept no lower than `floor` after each (a
    floor applied per attachment)."""
    total = start or 0
    for amount in amounts or ():
        total = max(floor, total + (amount or 0))
    return total


def argmax(state, items, values):
    """The first item whose value is the highest (none for no items)."""
    best, best_value = None, None
    for item, value in zip(items or (), values or (), strict=False):
        if best_value is None or value > best_value:
            best, best_value = item, value
    return best


def flatten(state, lists) -> list:
    """The items of a list of lists, in order."""
    return [item for part in lists or () for item in (part or ())]


def clamp(state, value, low=None, high=None):
    """`value` kept between `low` and `high` (either may be none)."""
    if low is not None and value < low:
        return low
    if high is not None and value > high:
        return high
    return value


def track(state, board_id):
    """The spaces of the board `board_id` a marker visits from this player count's start space to the end
    space (a round tracker), or [] when the board has none for it."""
    return list(state.table.track(str(board_id), state.n))


def track_paths(board) -> dict[int, tuple[str, ...]]:
    """Player count -> the spaces from that count's start space to the board's end space, by the shortest
    roads (the first neighbour in name order among equals)."""
    ends = [s.id for s in board.model.spaces if s.kind == "end"]
    if not ends:
        return {}
    graph = board.neighbours()
    dist = distances(graph, ends[0])
    paths: dict[int, tuple[str, ...]] = {}
    for space in board.model.spaces:
        if space.id not in dist:
            continue
        for count in space.start_for:
            path, here = [space.id], space.id
            while here != ends[0]:
                here = min(n for n in graph[here] if dist.get(n, 1 << 30) == dist[here] - 1)
                path.append(here)
            paths[count] = tuple(path)
    return paths


BUILT_INS = {
    "payments": payments,
    "bonus_chain": bonus_chain,
    "chain_points": chain_points,
    "chain_cards": chain_cards,
    "argmax": argmax,
    "flatten": flatten,
    "clamp": clamp,
    "track": track,
    "unpaid": unpaid,
    "floored_total": floored_total,
}
