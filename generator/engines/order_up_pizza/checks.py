"""Static invariants of Order Up (games.md A.3): deck composition, board and fairness, with file:line problems."""

from __future__ import annotations

from collections import Counter

from generator.core.errors import Problem
from generator.engines.common import GameYaml, at
from generator.engines.order_up_pizza.board_checks import (
    check_board_graph,
    check_colours,
    check_players,
    check_seat_fairness,
)
from generator.engines.order_up_pizza.data import (
    ACTION_CARDS,
    PLAYERS_TABLE,
    board_of,
    depth_presets,
    is_game_over,
)

BOX = {"toppings": 91, "orders": 33, "reference": 4}  # the published box contents (games.md 1.A)
DEMAND_TOLERANCE = 0.15  # demand/supply of each topping within 15 % of the deck-wide mean
MAX_ORDER_SHARE = 0.5  # no topping on more than half of the orders


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
        self.topping_cards = [c for c in self.toppings.cards if c.kind == "topping"] if self.toppings else []
        self.copies = {c.id: c.copies for c in self.topping_cards}
        self.max_players = game.config.players.max
        self.yaml = GameYaml(game)
        self.game_file = self.yaml.file
        self.setting_line = self.yaml.setting_line

    def complete_orders(self):
        """Orders with every field the checks need (incomplete ones are reported by check_order_cards)."""
        return [o for o in self.orders if o.toppings and o.address and o.value is not None]


def check_parts(ctx: Ctx) -> list[Problem]:
    """The files this engine needs exist: toppings/orders/reference decks, the city board, the players table."""
    missing = [name for name, part in (("deck 'toppings'", ctx.toppings), ("deck 'orders'", ctx.orders_deck),
                                       ("deck 'reference'", ctx.reference), ("a board with streets", ctx.board),
                                       (f"table '{PLAYERS_TABLE}'", ctx.players)) if part is None]
    return [Problem(ctx.game_file, 0, f"the order_up_pizza engine needs {m}; expected it in the game folder") for m in missing]


def check_box_counts(ctx: Ctx) -> list[Problem]:
    """Deck totals equal the published box (printed counts are the copies, so this fixes every count)."""
    problems = []
    for deck_id, expected in BOX.items():
        deck = ctx.game.decks[deck_id]
        if deck.copies != expected:
            problems.append(Problem(deck.file, deck.line, f"deck '{deck_id}' has {deck.copies} cards; expected {expected} as in the published box"))
    if ctx.reference.copies < ctx.max_players:
        problems.append(Problem(ctx.reference.file, ctx.reference.line,
                                f"{ctx.reference.copies} reference cards for up to {ctx.max_players} players; expected one per player"))
    return problems


def check_game_over(ctx: Ctx) -> list[Problem]:
    """Exactly one Game Over card (one copy) in the orders deck."""
    overs = [c for c in ctx.orders_deck.cards if is_game_over(c)]
    if not overs:
        return [Problem(ctx.orders_deck.file, ctx.orders_deck.line, "the orders deck has no Game Over card; expected exactly one card with kind: game-over")]
    if len(overs) > 1:
        names = ", ".join(f"'{c.id}' (line {c.line})" for c in overs)
        return [Problem(c.file, c.line, f"card '{c.id}' is one of {len(overs)} Game Over cards: {names}; expected exactly one") for c in overs]
    if overs[0].copies != 1:
        return [at(overs[0], "copies", f"Game Over card '{overs[0].id}' has {overs[0].copies} copies; expected exactly one")]
    return []


def check_card_fields(ctx: Ctx) -> list[Problem]:
    """Orders carry customer, toppings, address and value; toppings a price; action cards a known effect."""
    problems = []
    for order in ctx.orders:
        absent = [key for key in ("customer", "toppings", "address", "value") if order.fields.get(key) in (None, {}, "")]
        if absent:
            problems.append(Problem(order.file, order.line, f"order '{order.id}' has no {', '.join(absent)}; expected customer, toppings, address and value on every order (only Game Over leaves them out)"))
    for card in ctx.toppings.cards:
        if card.kind == "topping" and card.fields.get("price") is None:
            problems.append(Problem(card.file, card.line, f"topping '{card.id}' has no price; expected price: <dollars> (order values add up topping prices)"))
        if card.kind == "action":
            if card.id not in ACTION_CARDS:
                problems.append(at(card, "id", f"action card '{card.id}' has no rule in the engine; expected one of: {', '.join(ACTION_CARDS)}"))
            if not card.fields.get("effect"):
                problems.append(Problem(card.file, card.line, f"action card '{card.id}' has no effect text; expected effect: <what the card does>"))
    return problems


def check_type_closure(ctx: Ctx) -> list[Problem]:
    """Orders ask only for toppings; each reference card lists exactly the deck's toppings and actions."""
    problems = []
    kinds = {c.id: c.kind for c in ctx.toppings.cards}
    toppings = [c.id for c in ctx.topping_cards]
    for order in ctx.orders:
        for item in order.toppings or {}:
            if kinds.get(item) == "action":
                problems.append(at(order, "toppings", f"order '{order.id}' asks for '{item}', which is an action card; expected a topping ({', '.join(toppings)})"))
    actions = [c.id for c in ctx.toppings.cards if c.kind == "action"]
    for card in ctx.reference.cards:
        for key, want, what in (("toppings", toppings, "topping"), ("actions", actions, "action card")):
            listed = card.fields.get(key) or []
            extra = [x for x in listed if x not in want]
            lacking = [x for x in want if x not in listed]
            doubled = sorted(x for x, n in Counter(listed).items() if n > 1)
            if extra or lacking or doubled:
                parts = ([f"lists {', '.join(extra)}, which {'is not a' if len(extra) == 1 else 'are not'} {what}{'' if len(extra) == 1 else 's'} of the deck"] if extra else []) + \
                        ([f"leaves out {', '.join(lacking)}"] if lacking else []) + ([f"lists {', '.join(doubled)} twice"] if doubled else [])
                problems.append(at(card, key, f"reference card '{card.id}' {'; '.join(parts)}; expected exactly the deck's {what}s: {', '.join(want)}"))
    return problems


def check_obtainability(ctx: Ctx) -> list[Problem]:
    """No order needs more copies than exist minus one per other player, or more cards than a hand holds."""
    problems = []
    others = ctx.max_players - 1
    start_hand = ctx.game.setting("start_hand", 6)
    hand_limit = ctx.game.setting("hand_limit", 10)
    for order in ctx.orders:
        for topping, qty in (order.toppings or {}).items():
            copies = ctx.copies.get(topping)
            if copies is not None and qty > copies - others:
                problems.append(at(order, "toppings", f"order '{order.id}' needs {qty} {topping} but the deck has {copies}; "
                                                       f"expected at most {copies} - (players - 1) = {copies - others}"))
        total = sum((order.toppings or {}).values())
        for name, limit in (("start_hand", start_hand), ("hand_limit", hand_limit)):
            if total > limit:
                problems.append(at(order, "toppings", f"order '{order.id}' needs {total} toppings; expected at most {name} = {limit}"))
    return problems


def check_demand(ctx: Ctx) -> list[Problem]:
    """Each topping's demand/supply ratio is within 15 % of the mean; no topping is on more than half the orders."""
    orders = ctx.complete_orders()
    if not orders or not ctx.topping_cards:
        return []
    demand: Counter = Counter()
    carriers: Counter = Counter()
    for order in orders:
        for topping, qty in order.toppings.items():
            demand[topping] += qty * order.copies
            carriers[topping] += order.copies
    n_orders = sum(o.copies for o in orders)
    mean = sum(demand.values()) / sum(ctx.copies.values())
    low, high = mean * (1 - DEMAND_TOLERANCE), mean * (1 + DEMAND_TOLERANCE)
    problems = []
    for card in ctx.topping_cards:
        ratio = demand[card.id] / card.copies
        if not low <= ratio <= high:
            problems.append(at(card, "copies", f"topping '{card.id}' is needed {demand[card.id]} times on the orders for {card.copies} copies "
                                                f"(ratio {ratio:.2f}); expected within 15% of the mean {mean:.2f}, i.e. {low:.2f}-{high:.2f}"))
        if carriers[card.id] > MAX_ORDER_SHARE * n_orders:
            problems.append(at(card, "id", f"topping '{card.id}' is on {carriers[card.id]} of {n_orders} orders; expected at most half"))
    return problems


def check_addresses(ctx: Ctx) -> list[Problem]:
    """Each order's address is a house of a street, an ordinary road space, and no two orders share it."""
    problems = []
    addresses = ctx.board.addresses()
    spaces = ctx.board.spaces
    for order in ctx.orders:
        address = order.address
        if not address:
            continue
        if address not in addresses:
            problems.append(at(order, "address", f"order '{order.id}' goes to '{address}', which is not a house on any street of board '{ctx.board.id}'"))
            continue
        space = spaces[addresses[address]]
        if space.kind in ("restaurant", "junction"):
            problems.append(at(order, "address", f"order '{order.id}' goes to '{address}' on a {space.kind} ({space.id}); expected an ordinary road space"))
    for order, other in _repeats([o for o in ctx.orders if o.address in addresses], lambda o: o.address):
        problems.append(at(order, "address", f"order '{order.id}' has the same address '{order.address}' as order '{other.id}' "
                                              f"(line {other.line_of('address')}); expected one order per address"))
    return problems


def _repeats(orders, key):
    """(order, earlier order) for every order whose key an earlier order already has."""
    first = {}
    for order in orders:
        other = first.setdefault(key(order), order)
        if other is not order:
            yield order, other


def check_values(ctx: Ctx) -> list[Problem]:
    """Every order is worth more than $0 and exactly the sum of its toppings' prices."""
    problems = []
    prices = {c.id: c.fields.get("price") for c in ctx.topping_cards}
    for order in ctx.complete_orders():
        if order.value <= 0:
            problems.append(at(order, "value", f"order '{order.id}' is worth ${order.value}; expected more than $0"))
            continue
        if any(prices.get(t) is None for t in order.toppings):
            continue
        cost = sum(prices[t] * q for t, q in order.toppings.items())
        if cost != order.value:
            parts = " + ".join(f"{q} {t} x ${prices[t]}" for t, q in sorted(order.toppings.items()))
            problems.append(at(order, "value", f"order '{order.id}' is worth ${order.value} but its toppings cost ${cost} ({parts}); expected value = sum of topping prices"))
    return problems


def check_setup(ctx: Ctx) -> list[Problem]:
    """The deal and a full table always fit the Toppings deck; Game Over depth presets keep it out of the first orders."""
    problems = []
    game, n = ctx.game, ctx.max_players
    size = ctx.toppings.copies
    start_hand, hand_limit = game.setting("start_hand", 6), game.setting("hand_limit", 10)
    faceup_t, faceup_o = game.setting("faceup_toppings", 3), game.setting("faceup_orders", 3)
    draw = game.setting("draw_at_restaurant", [1, 2])
    draw_max = draw if isinstance(draw, int) else max(draw)
    for name, value in (("start_hand", start_hand), ("hand_limit", hand_limit), ("faceup_toppings", faceup_t), ("faceup_orders", faceup_o)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            problems.append(Problem(ctx.game_file, ctx.setting_line(name), f"setting {name} is {value!r}; expected a whole number >= 1"))
    if problems:
        return problems
    deal = n * start_hand + faceup_t
    if deal > size:
        problems.append(Problem(ctx.game_file, ctx.setting_line("start_hand"), f"{n} players x start_hand {start_hand} + {faceup_t} face-up toppings = {deal} cards "
                                                                                 f"but the Toppings deck has {size}; expected at most {size}"))
    full = n * hand_limit + faceup_t + draw_max
    if full > size:
        problems.append(Problem(ctx.game_file, ctx.setting_line("hand_limit"), f"{n} full hands of {hand_limit} + {faceup_t} face-up + {draw_max} drawn = {full} cards "
                                                                                 f"but the Toppings deck has {size}; expected at most {size} so a draw never fails"))
    n_orders = sum(o.copies for o in ctx.orders)
    top = n_orders - faceup_o
    presets, default = depth_presets(game)
    line = ctx.setting_line("game_over_depth")
    for name, value in presets.items():
        if not isinstance(value, int) or not 0 <= value <= top:
            problems.append(Problem(ctx.game_file, line, f"game_over_depth preset '{name}' = {value!r} is out of range; "
                                                         f"expected 0..{top} ({n_orders} orders - {faceup_o} face up)"))
    if isinstance(default, str) and default not in presets:
        problems.append(Problem(ctx.game_file, line, f"game_over_depth default '{default}' is not a preset; known: {', '.join(presets) or 'none'}"))
    elif isinstance(default, int) and not 0 <= default <= top:
        problems.append(Problem(ctx.game_file, line, f"game_over_depth default {default} is out of range; expected 0..{top}"))
    return problems


def check_customers(ctx: Ctx) -> list[Problem]:
    """Customer names are unique (ignoring case and spaces)."""
    named = [o for o in ctx.orders if o.customer]
    return [at(order, "customer", f"order '{order.id}' has customer '{order.customer}' like order '{other.id}' "
                                  f"(line {other.line_of('customer')}); expected unique customer names")
            for order, other in _repeats(named, lambda o: " ".join(o.customer.casefold().split()))]


CHECKS = [
    ("deck totals match the box: 91 toppings, 33 orders, 4 reference cards", check_box_counts),
    ("exactly one Game Over card", check_game_over),
    ("orders, toppings and action cards carry their fields", check_card_fields),
    ("type closure: orders and reference cards name the deck's toppings", check_type_closure),
    ("obtainability: copies - (players - 1), order size <= start hand and hand limit", check_obtainability),
    ("demand/supply within 15% of the mean, no topping on over half the orders", check_demand),
    ("addresses: on a street, not a restaurant or junction, one order each", check_addresses),
    ("colours: border = street colour, streets distinct and unlike player colours", check_colours),
    ("players: one colour per restaurant", check_players),
    ("board: connected, restaurants at corners, addresses within 3 average rolls", check_board_graph),
    ("seat fairness: same (distance, value) pairs from every restaurant", check_seat_fairness),
    ("order value = sum of topping prices, all > 0", check_values),
    ("setup feasibility and Game Over depth presets", check_setup),
    ("customer names unique", check_customers),
]


def static_checks(game) -> list[tuple[str, list[Problem]]]:
    """Every static Order Up invariant as (check name, problems); [] problems means the check passed."""
    ctx = Ctx(game)
    missing = check_parts(ctx)
    if missing:
        return [("game parts present", missing)]
    return [(name, check(ctx)) for name, check in CHECKS]
