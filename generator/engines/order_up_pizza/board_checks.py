"""Static invariants of Order Up about the city board that need a graph search: roads connected, restaurants at the
corners, and every seat seeing the same (distance, value) pairs (A.3 8-9)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from generator.core.errors import Problem
from generator.core.graphs import distances
from generator.engines.common import at

if TYPE_CHECKING:
    from generator.engines.order_up_pizza.checks import Ctx


def _space_line(board, space_id: str) -> int:
    spaces = board.raw.get("spaces")
    for i, item in enumerate(spaces):
        if isinstance(item, dict) and item.get("id") == space_id:
            return spaces.line_of(i)
    return board.raw.line


def _restaurants(ctx: Ctx) -> list[tuple[str, str]]:
    """(player colour name, restaurant space) per players-table row that names a real space."""
    return [(row.name, row.restaurant) for row in ctx.players.rows if row.restaurant in ctx.board.spaces]


def check_board_graph(ctx: Ctx) -> list[Problem]:
    """Roads connected and restaurants at the corners of the city (how far the addresses are is a game.yaml check)."""
    problems = []
    board = ctx.board
    graph = board.neighbours()
    spaces = board.model.spaces
    components: list[dict[str, int]] = []
    for space in spaces:
        if not any(space.id in c for c in components):
            components.append(distances(graph, space.id))
    main = max(components, key=len)  # the city: the largest connected road network
    start = next(s.id for s in spaces if s.id in main)
    for space in spaces:
        if space.id not in main:
            problems.append(Problem(board.file, _space_line(board, space.id), f"space '{space.id}' is not connected to the roads of '{start}'; expected one connected road network"))
    cols = [s.at[0] for s in spaces if s.id in main]
    rows = [s.at[1] for s in spaces if s.id in main]
    corners = {(c, r) for c in (min(cols), max(cols)) for r in (min(rows), max(rows))}
    for space in spaces:
        if space.kind == "restaurant" and tuple(space.at) not in corners:
            problems.append(Problem(board.file, _space_line(board, space.id), f"restaurant '{space.id}' at ({space.at[0]:g}, {space.at[1]:g}) is not at a corner of the city; "
                                                                                f"expected one of {', '.join(f'({c:g}, {r:g})' for c, r in sorted(corners))}"))
    return problems


def check_seat_fairness(ctx: Ctx) -> list[Problem]:
    """Every restaurant faces the same multiset of (distance, value) over the orders."""
    board = ctx.board
    graph, addresses = board.neighbours(), board.addresses()
    orders = [o for o in ctx.complete_orders() if o.address in addresses]
    seats = _restaurants(ctx)
    if not seats or not orders:
        return []
    views = []
    for name, home in seats:
        dist = distances(graph, home)
        pairs: dict[tuple[int, int], list] = {}
        for order in orders:
            pairs.setdefault((dist.get(addresses[order.address], -1), order.value), []).append(order)
        views.append((name, home, pairs))
    problems = []
    base_name, base_home, base = views[0]
    base_count = Counter({k: len(v) for k, v in base.items()})
    for name, home, pairs in views[1:]:
        count = Counter({k: len(v) for k, v in pairs.items()})
        only_here, only_base = count - base_count, base_count - count
        if not only_here and not only_base:
            continue
        involved = sorted({o.id: o for k in only_here for o in pairs[k]}.values(), key=lambda o: o.line)

        def show(diff, source):
            return ", ".join(f"({d} steps, ${v}) {' '.join(o.id for o in source[(d, v)])}" for d, v in sorted(diff))

        first = involved[0] if involved else orders[0]
        problems.append(at(first, "address", f"the {name} restaurant ({home}) sees different (distance, value) pairs than the {base_name} restaurant ({base_home}): "
                                              f"only {name}: {show(only_here, pairs) or 'none'}; only {base_name}: {show(only_base, base) or 'none'}; "
                                              f"expected identical multisets so no seat is favoured"))
    return problems
