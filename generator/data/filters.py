"""Filters over collections of cards and rows, for the expressions of `checks:` and for any template.

    decks.toppings.cards | where(kind='topping')          the items whose fields have these values
    decks.orders.cards | tally('toppings')                 how many of each: a field's values (or list items,
    or
                                                           counts' keys times their numbers), each item
                                                           weighted by its copies; a list of plain values is
                                                           counted as is
    decks.toppings.cards | pluck('price')                  {id: price}
    order.toppings | dot(prices)                           sum of quantity x value over a counts mapping
    order.toppings | entries                               [{key, value}, ...] to loop over a mapping
    orders | map(attribute='customer') | duplicates        values found more than once (loose=true: ignoring
    case
                                                           and repeated spaces)
    order.customer | loose                                 a name for comparing: lower case, single spaces
    colour_distance('#d62828', '#f77f00')                  how far apart two colours are (RGB, 0 to 441)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from generator.core.colours import rgb


def _field(item: Any, name: str | None) -> Any:
    if name is None:
        return item
    if isinstance(item, dict):
        if name not in item:
            raise ValueError(
                f"no field '{name}' in {item.get('id', 'an item')}; known: {', '.join(map(str, item))}"
            )
        return item[name]
    raise ValueError(f"'{item}' has no field '{name}'")


def where(items, **equal) -> list:
    """The items whose fields equal the given values: `cards | where(kind='topping')`."""
    return [item for item in items if all(_field(item, key) == value for key, value in equal.items())]


def tally(items, field: str | None = None, weight: str | None = "copies", distinct: bool = False) -> dict:
    """How many of each value of `field` (list items, or counts' keys times their numbers), weighted by
    `weight` (copies by default; items without that field count once). Without `field`, the items themselves
    are counted. distinct=true counts each item once per value (how many cards name a topping, not how many
    toppings)."""
    totals: Counter = Counter()
    for item in items:
        value = _field(item, field)
        times = item.get(weight, 1) if isinstance(item, dict) and weight else 1
        if value is None:
            continue
        if isinstance(value, dict):
            for key, number in value.items():
                totals[key] += times if distinct else number * times
        elif isinstance(value, (list, tuple)):
            for element in (dict.fromkeys(value) if distinct else value):
                totals[element] += times
        else:
            totals[value] += times
    return dict(totals)


def pluck(items, field: str, key: str = "id") -> dict:
    """{item's key: item's field}: `cards | pluck('price')`, `cards | pluck('group', key='ingredient')`."""
    return {_field(item, key): _field(item, field) for item in items}


def dot(counts: dict, values: dict) -> float:
    """The sum of quantity x value over a counts mapping: `order.toppings | dot(prices)`."""
    missing = [key for key in counts if key not in values]
    if missing:
        raise ValueError(f"no value for {', '.join(map(str, missing))}")
    return sum(number * values[key] for key, number in counts.items())


def entries(mapping: dict) -> list[dict]:
    """A mapping as [{key, value}] in its order, to loop over it (`for_each`) or filter it."""
    return [{"key": key, "value": value} for key, value in mapping.items()]


def loose(text) -> str:
    """Text for comparing names: case and repeated spaces ignored ('Grandma  ROSA' -> 'grandma rosa')."""
    return " ".join(str(text).casefold().split())


def duplicates(values, loose: bool = False) -> list:
    """The values found more than once (once each, in order); loose: ignoring case and repeated spaces."""
    def norm(value):
        return " ".join(str(value).casefold().split()) if loose else value

    counts = Counter(norm(v) for v in values if v is not None)
    seen, out = set(), []
    for value in values:
        key = norm(value)
        if value is not None and counts[key] > 1 and key not in seen:
            seen.add(key)
            out.append(value)
    return out


def colour_distance(a: str, b: str) -> float:
    """The distance of two #rrggbb colours in RGB (0 = the same, 441 = black and white)."""
    return round(sum((x - y) ** 2 for x, y in zip(rgb(a), rgb(b), strict=True)) ** 0.5, 2)


FILTERS = {
    "where": where,
    "tally": tally,
    "pluck": pluck,
    "dot": dot,
    "entries": entries,
    "duplicates": duplicates,
    "loose": loose,
}
GLOBALS = {"colour_distance": colour_distance}
