"""Static invariants of Order Up that need the engine or a graph search: the parts the engine plays with, the action
cards it knows, a connected city with restaurants at its corners, and seats that see the same deliveries.

Every other composition rule (the box, the deck's balance, colours, setup numbers) is data: game.yaml `checks:`.
"""

from __future__ import annotations

from generator.core.errors import Problem
from generator.engines.common import GameYaml, at
from generator.engines.order_up_pizza.board_checks import check_board_graph, check_seat_fairness
from generator.engines.order_up_pizza.data import ACTION_CARDS, PLAYERS_TABLE, board_of, is_game_over


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
    """The files this engine needs exist: toppings/orders/reference decks, the city board, the players table."""
    missing = [name for name, part in (("deck 'toppings'", ctx.toppings), ("deck 'orders'", ctx.orders_deck),
                                       ("deck 'reference'", ctx.reference), ("a board with streets", ctx.board),
                                       (f"table '{PLAYERS_TABLE}'", ctx.players)) if part is None]
    return [Problem(ctx.game_file, 0, f"the order_up_pizza engine needs {m}; expected it in the game folder") for m in missing]


def check_action_cards(ctx: Ctx) -> list[Problem]:
    """Every action card is one the engine has a rule for."""
    return [at(card, "id", f"action card '{card.id}' has no rule in the engine; expected one of: {', '.join(ACTION_CARDS)}")
            for card in ctx.toppings.cards if card.kind == "action" and card.id not in ACTION_CARDS]


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
