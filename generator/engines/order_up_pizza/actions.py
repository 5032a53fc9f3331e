"""Order Up actions: their text form and every way to pay an order with Wild Cards."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

VERBS = ("choose", "move", "stop", "deliver", "play", "draw", "end", "discard", "take")


class Action(NamedTuple):
    """A player action; str() is how scripts write it ('move r0c3', 'deliver big-bob wild:sausage')."""

    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.arg else self.verb


STOP, END = Action("stop"), Action("end")


def payment_options(req, hand: Counter, wilds: int) -> list[tuple[str, ...]]:
    """Every multiset of toppings that Wild Cards may stand in for (fewest wilds first); [] if unpayable."""
    ranges = [(t, max(0, q - hand.get(t, 0)), q) for t, q in req]
    if sum(lo for _, lo, _ in ranges) > wilds:
        return []
    options: list[tuple[str, ...]] = [()]
    for topping, lo, hi in ranges:
        options = [opt + (topping,) * k for opt in options for k in range(lo, hi + 1) if len(opt) + k <= wilds]
    return sorted(options, key=lambda o: (len(o), o))


def deliver_action(order: str, wild_for: tuple[str, ...]) -> Action:
    """The delivery action paying `wild_for` with Wild Cards."""
    return Action("deliver", f"{order} wild:{','.join(wild_for)}" if wild_for else order)
