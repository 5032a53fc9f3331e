"""What Short Order Hero declares for exact deck odds (`pnp odds`): each recipe as the ingredients it needs
(Any Meat: beef, chicken or pork; Secret Ingredient: any one), dealt 7 cards from the whole ingredients deck
at every player count, then drawing from the rest."""

from __future__ import annotations

from collections import Counter

from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals

from .data import rules_for


def deck_odds(game, options: dict | None = None) -> GoalsAndDeals:  # noqa: ARG001 - no option changes a deal
    """Every recipe's required ingredients and the deal of each player count (Engine.deck_odds)."""
    rules = rules_for(game)
    cards = {card.id: card for card in game.decks["recipes"].cards}
    goals = []
    for rid, recipe in rules.recipes.items():
        slots = [(frozenset({ingredient}), count) for ingredient, count in recipe.need.items()]
        if recipe.any_meat:
            slots.append((rules.meats, recipe.any_meat))
        card = cards[rid]
        goals.append(GoalNeeds(rid, tuple(slots), frozenset(rules.wilds), recipe.name, card.file,
                               card.line_of("required")))
    deck = tuple(sorted(Counter(rules.ingredient_cards).items()))
    hand = int(game.setting("start_hand", 7))
    return GoalsAndDeals(tuple(goals), tuple(Deal(players, deck, hand) for players in (2, 3, 4, 5)))
