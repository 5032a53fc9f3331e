"""The Order Up trading game's data loads, passes every check and has the published composition."""

from __future__ import annotations

from collections import Counter

from pnp_engine_order_up_trading import ENGINE, static_checks

from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAME = "order-up-trading"


def test_game_loads_and_every_check_passes(repo_project):
    game = load_game(repo_project, GAME)
    report = check_game(game, engines=True)
    assert report.cards == 6 + 42 + 6
    for name, problems in static_checks(game):
        assert problems == [], name
        assert name in report.checks


def test_published_counts_6_recipes_42_ingredients_6_rule_cards(repo_project):
    game = load_game(repo_project, GAME)
    assert list(game.decks) == ["recipes", "ingredients", "rules"]
    assert [game.decks[d].copies for d in game.decks] == [6, 42, 6]
    assert [row.id for row in game.tables["food-groups"].rows] == ["grains", "protein", "dairy", "produce"]
    assert game.config.players.min == 3 and game.config.players.max == 6


def test_each_set_holds_exactly_its_recipe_and_shares_three_names(repo_project):
    game = load_game(repo_project, GAME)
    cards = game.decks["ingredients"].cards
    copies = Counter()
    for card in cards:
        copies[card.ingredient] += card.copies
    for recipe in game.decks["recipes"].cards:
        names = Counter(c.ingredient for c in cards if c.recipe == recipe.id)
        assert names == Counter(recipe.ingredients)
        # 4 own names + 3 shared with one other recipe
        assert sum(copies[n] for n in recipe.ingredients) == 10
        assert sum(1 for n in recipe.ingredients if copies[n] == 2) == 3


def test_engine_goals_are_the_recipe_ids(repo_project):
    game = load_game(repo_project, GAME)
    assert ENGINE.goals(game) == ["burrito", "burger", "salad", "pizza", "spaghetti", "pancakes"]
