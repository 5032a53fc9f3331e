"""What Order Up declares for exact deck odds (`pnp odds`): each order as the toppings it needs (a Wild Card
is any one), dealt `start_hand` cards from the whole Toppings deck at every player count, then drawing."""

from __future__ import annotations

from collections import Counter

from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals

from .actions import WILD
from .data import is_game_over, pizza_data
from .options import resolve_params


def deck_odds(game, options: dict | None = None) -> GoalsAndDeals:
    """Every order's toppings and the deal of each player count the board seats (Engine.deck_odds)."""
    data = pizza_data(game)
    params = resolve_params(game, options, len(data.order_ids))
    wilds = frozenset({WILD} & set(data.topping_deck))
    goals = tuple(
        GoalNeeds(card.id, tuple((frozenset({topping}), count) for topping, count in data.order_req[card.id]),
                  wilds, card.name, card.file, card.line_of("toppings"))
        for card in game.decks["orders"].cards if not is_game_over(card)
    )
    deck = tuple(sorted(Counter(data.topping_deck).items()))
    counts = [players for players in (2, 3, 4) if players <= len(data.seats)]
    return GoalsAndDeals(goals, tuple(Deal(players, deck, params.start_hand) for players in counts))
