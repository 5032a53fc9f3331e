"""What the recipe trading game declares for exact deck odds (`pnp odds`): each recipe as the 7 ingredient
names it needs (any card of a name fills it, whatever its icon). A round deals the cards of the sets in play,
one set per player (chosen at random among the recipes), 7 to each; nobody draws, cards change hands by
trading, so the figure is the chance of a hand dealt complete."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals

from .data import INGREDIENTS, RECIPES


def deck_odds(game, options: dict | None = None) -> GoalsAndDeals:  # noqa: ARG001 - no option changes a deal
    """Every recipe's ingredient names and one deal per choice of the sets in play (Engine.deck_odds)."""
    recipes, ingredients = game.decks[RECIPES].cards, game.decks[INGREDIENTS].cards
    by_name: dict[str, set[str]] = {}
    for card in ingredients:
        by_name.setdefault(card.ingredient, set()).add(card.id)
    goals = tuple(
        GoalNeeds(card.id, tuple((frozenset(by_name.get(name, ())), count)
                                 for name, count in Counter(card.ingredients).items()),
                  frozenset(), card.name, card.file, card.line_of("ingredients"))
        for card in recipes
    )
    hand = int(game.setting("hand", 7))
    ids = [card.id for card in recipes]
    deals = []
    for players in (count for count in (3, 4, 5, 6) if count <= len(ids)):
        for chosen in combinations(ids, players):
            deck = tuple(sorted((c.id, c.copies) for c in ingredients if c.recipe in chosen))
            deals.append(Deal(players, deck, hand, draws=False, goals=frozenset(chosen)))
    return GoalsAndDeals(goals, tuple(deals))
