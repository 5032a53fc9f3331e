"""Static invariants of Order Up that need the engine or a graph search: the parts the engine plays with, the
action cards it knows, a connected city with restaurants at its corners, and seats that see the same
deliveries.

Every other composition rule (the box, the deck's balance, colours, setup numbers) is data: game.yaml
`checks:`.
"""

from __future__ import annotations

from collections import Counter

from generator.core.errors import Problem
from generator.core.graphs import distances
from generator.engines.common import GameYaml, at

from .actions import ACTION_CARDS
from .data import PLAYERS_TABLE, board_of, is_game_over


class Ctx:
    """The pieces of a game every check reads (decks, orders, board, settings with their lines)."""

    def __init__(self, game):
        self.game = game
        self.toppings = game.decks.get("toppings")
        self.orders_deck = game.decks.get("orders")
        self.reference = game.decks.get("reference")
        self.board = board_of(game)
        self.players = game.tables.get(PLAYERS_TABLE)
        order_cards = self.orders_deck.cards if self.orders_deck else []
        self.orders = [c for c in order_cards if not is_game_over(c)]
        self.max_players = game.config.players.max
        self.yaml = GameYaml(game)
        self.game_file = self.yaml.file

    def complete_orders(self):
        """Orders with every field the checks need (incomplete ones are reported by game.yaml checks)."""
        return [o for o in self.orders if o.toppings and o.address and o.value is not None]


def check_parts(ctx: Ctx) -> list[Problem]:
    """The files this engine needs exist: toppings/orders/reference decks, the city board, the players
    table."""
    missing = [
        name
        for name, part in (
            ("deck 'toppings'", ctx.toppings),
            ("deck 'orders'", ctx.orders_deck),
            ("deck 'reference'", ctx.reference),
            ("a board with streets", ctx.board),
            (f"table '{PLAYERS_TABLE}'", ctx.players),
        )
        if part is None
    ]
    return [
        Problem(ctx.game_file, 0, f"the order_up_pizza engine needs {m}; expected it in the game folder")
        for m in missing
    ]


def check_action_cards(ctx: Ctx) -> list[Problem]:
    """Every action card is one the engine has a rule for."""
    return [
        at(
            card,
            "id",
            f"action card '{card.id}' has no rule in the engine; expected one of: {', '.join(ACTION_CARDS)}",
        )
        for card in ctx.toppings.cards
        if card.kind == "action" and card.id not in ACTION_CARDS
    ]


# ---- the city board: roads connected, restaurants at the corners, every seat seeing the same
# (distance, value) pairs (A.3 8-9)


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
    """Roads connected and restaurants at the corners of the city (how far the addresses are is a game.yaml
    check)."""
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
            problems.append(
                Problem(
                    board.file,
                    _space_line(board, space.id),
                    f"space '{space.id}' is not connected to the roads of '{start}'; expected one connected "
                    "road network",
                )
            )
    cols = [s.at[0] for s in spaces if s.id in main]
    rows = [s.at[1] for s in spaces if s.id in main]
    corners = {(c, r) for c in (min(cols), max(cols)) for r in (min(rows), max(rows))}
    for space in spaces:
        if space.kind == "restaurant" and tuple(space.at) not in corners:
            problems.append(
                Problem(
                    board.file,
                    _space_line(board, space.id),
                    f"restaurant '{space.id}' at ({space.at[0]:g}, {space.at[1]:g}) is not at a corner of "
                    "the city; "
                    f"expected one of {', '.join(f'({c:g}, {r:g})' for c, r in sorted(corners))}",
                )
            )
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
            return ", ".join(
                f"({d} steps, ${v}) {' '.join(o.id for o in source[(d, v)])}" for d, v in sorted(diff)
            )

        first = involved[0] if involved else orders[0]
        problems.append(
            at(
                first,
                "address",
                f"the {name} restaurant ({home}) sees different (distance, value) pairs than the {base_name} "
                f"restaurant ({base_home}): "
                f"only {name}: {show(only_here, pairs) or 'none'}; only {base_name}: "
                f"{show(only_base, base) or 'none'}; "
                f"expected identical multisets so no seat is favoured",
            )
        )
    return problems


CHECKS = [
    ("action cards the engine plays", check_action_cards),
    ("board: connected, restaurants at the corners", check_board_graph),
    ("seat fairness: same (distance, value) pairs from every restaurant", check_seat_fairness),
]


def static_checks(game) -> list[tuple[str, list[Problem]]]:
    """Every static Order Up invariant as (check name, problems); [] problems means the check passed."""
    ctx = Ctx(game)
    missing = check_parts(ctx)
    if missing:
        return [("game parts present", missing)]
    return [(name, check(ctx)) for name, check in CHECKS]
