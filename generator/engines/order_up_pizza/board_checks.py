"""Static invariants of Order Up about the city board: colours, restaurants, road graph and seat fairness (A.3 7-9)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from generator.core.errors import Problem
from generator.engines.common import at, distances

if TYPE_CHECKING:
    from generator.engines.order_up_pizza.checks import Ctx

MIN_COLOUR_DISTANCE = 60  # RGB distance below which two road/player colours are too easy to mix up


def _space_line(board, space_id: str) -> int:
    spaces = board.raw.get("spaces")
    for i, item in enumerate(spaces):
        if isinstance(item, dict) and item.get("id") == space_id:
            return spaces.line_of(i)
    return board.raw.line


def _street_line(board, index: int, key: str) -> int:
    streets = board.raw.get("streets")
    item = streets[index]
    return item.line_of(key) if hasattr(item, "line_of") else streets.line_of(index)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def colour_distance(a: str, b: str) -> float:
    """Euclidean distance of two #rrggbb colours in RGB."""
    return sum((x - y) ** 2 for x, y in zip(_rgb(a), _rgb(b), strict=True)) ** 0.5


def check_colours(ctx: Ctx) -> list[Problem]:
    """Order borders show their street colour; street colours are distinct and unlike the player colours."""
    problems = []
    board = ctx.board
    streets = board.model.streets
    street_of = {f"{n} {s.name}": s for s in streets for n in s.houses}
    for order in ctx.orders:
        border = order.fields.get("border")
        street = street_of.get(order.address or "")
        if border and street and border.lower() != street.color.lower():
            problems.append(at(order, "border", f"order '{order.id}' has border {border} but its street {street.name} is {street.color} "
                                                 f"({street.color_name}); expected the street colour"))
    players = [(row.name, row.color) for row in ctx.players.rows] if ctx.players else []
    for i, street in enumerate(streets):
        line = _street_line(board, i, "color")
        for other in streets[:i]:
            if colour_distance(street.color, other.color) < MIN_COLOUR_DISTANCE:
                problems.append(Problem(board.file, line, f"street '{street.name}' colour {street.color} is too close to street '{other.name}' "
                                                          f"({other.color}); expected a distinct colour per street, since the order border shows it"))
        for name, colour in players:
            if colour_distance(street.color, colour) < MIN_COLOUR_DISTANCE:
                problems.append(Problem(board.file, line, f"street '{street.name}' colour {street.color} is too close to player colour {name} "
                                                          f"({colour}); expected road colours unlike the restaurant colours"))
    return problems


def _restaurants(ctx: Ctx) -> list[tuple[str, str]]:
    """(player colour name, restaurant space) per players-table row that names a real space."""
    return [(row.name, row.restaurant) for row in ctx.players.rows if row.restaurant in ctx.board.spaces]


def check_players(ctx: Ctx) -> list[Problem]:
    """Enough player colours; each owns a restaurant space of its own colour; every restaurant has an owner."""
    problems = []
    rows, spaces = ctx.players.rows, ctx.board.spaces
    if len(rows) < ctx.max_players:
        problems.append(Problem(ctx.players.file, ctx.players.line, f"{len(rows)} player colours for up to {ctx.max_players} players; expected one per player"))
    owned = set()
    for row in rows:
        space = spaces.get(row.restaurant)
        owned.add(row.restaurant)
        if space is None:
            continue
        if space.kind != "restaurant":
            problems.append(at(row, "restaurant", f"player colour '{row.id}' starts on '{space.id}', which is a {space.kind} space; expected a restaurant"))
        elif (space.color or "").lower() != row.color.lower():
            problems.append(at(row, "color", f"player colour '{row.id}' is {row.color} but its restaurant '{space.id}' is {space.color}; expected the same colour"))
    for space in spaces.values():
        if space.kind == "restaurant" and space.id not in owned:
            problems.append(Problem(ctx.board.file, _space_line(ctx.board, space.id), f"restaurant '{space.id}' belongs to no player colour in {ctx.players.file}"))
    return problems


def check_board_graph(ctx: Ctx) -> list[Problem]:
    """Roads connected; restaurants at the corners; every address within three average rolls of every restaurant."""
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
    dice = ctx.game.setting("dice", 2)
    limit = int(3 * 3.5 * dice)
    addresses = board.addresses()
    for name, home in _restaurants(ctx):
        dist = distances(graph, home)
        for order in ctx.orders:
            target = addresses.get(order.address or "")
            if target is None:
                continue
            if target not in dist:
                problems.append(at(order, "address", f"order '{order.id}' at '{order.address}' cannot be reached from the {name} restaurant ({home}); expected every address reachable"))
            elif dist[target] > limit:
                problems.append(at(order, "address", f"order '{order.id}' at '{order.address}' is {dist[target]} steps from the {name} restaurant; "
                                                      f"expected at most {limit} (three average rolls of {dice} dice)"))
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
