"""Short Order Hero data: the YAML loads, passes every check and has the published counts."""

from __future__ import annotations

from collections import Counter

from pnp_engine_short_order_hero import rules_for
from pnp_engine_short_order_hero.data import parse_bonus

from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAME = "short-order-hero"


def test_game_loads_and_every_check_passes(repo_project):
    game = load_game(repo_project, GAME)
    report = check_game(game, engines=True)
    assert report.cards == 22 + 231
    assert report.card_types == 22 + 24
    assert "round tracker starts and lengths" in report.checks
    assert "card texts match their parameters" in report.checks


def test_published_counts_and_categories(repo_project):
    game = load_game(repo_project, GAME)
    recipes, ingredients = game.decks["recipes"], game.decks["ingredients"]
    assert [recipes.copies, len(recipes.cards)] == [22, 22]
    assert [ingredients.copies, len(ingredients.cards)] == [231, 24]
    kinds = Counter(card.kind for card in ingredients.cards)
    assert kinds == {"ingredient": 15, "spice": 4, "sabotage": 2, "acquire": 2, "wild": 1}
    copies = Counter()
    for card in ingredients.cards:
        copies[card.kind] += card.copies
    assert copies["ingredient"] == 166 and sum(copies.values()) - copies["ingredient"] == 65
    assert {c.id for c in ingredients.cards if c.meat} == {"beef", "chicken", "pork"}
    spice = sum(c.points * c.copies for c in ingredients.cards if c.kind == "spice")
    sabotage = sum(c.points * c.copies for c in ingredients.cards if c.kind == "sabotage")
    assert (spice, sabotage) == (46, -38)


def test_recipes_read_as_the_engine_sees_them(repo_project):
    game = load_game(repo_project, GAME)
    rules = rules_for(game)
    special = rules.recipes["short-order-special"]
    assert special.slots == ("egg", "pork", "potato", "bread", "cheese", "any-meat")
    assert special.bonus == (("onion", 1), ("tomato", 1), ("butter", 1), ("milk", 1))
    assert special.max_points == 15
    assert sum(1 for r in rules.recipes.values() if r.any_meat) == 4
    assert len(rules.ingredient_cards) == 231 and len(rules.recipe_cards) == 22
    assert {p: len(path) - 1 for p, path in rules.tracks.items()} == {2: 18, 3: 17, 4: 16, 5: 15}
    assert rules.tracks[5][0] == "t4" and rules.tracks[5][-1] == "all-done"


def test_bonus_text_format():
    assert parse_bonus("egg +1") == ("egg", 1)
    assert parse_bonus("hot-sauce -2") == ("hot-sauce", -2)
    assert parse_bonus("egg") is None
    assert parse_bonus("egg 1") is None
