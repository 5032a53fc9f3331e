"""Every static check of the trading game fires on broken data, naming the file and line of the culprit."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAME = "order-up-trading"
ING, REC, GRP, RUL = (
    f"cards/{GAME}/{name}.yaml" for name in ("ingredients", "recipes", "food-groups", "rules")
)
GAME_YAML = f"cards/{GAME}/game.yaml"


def _path(project, shown: str):
    return project.root / shown


def line_of(project, shown: str, text: str, after: str | None = None) -> int:
    """1-based line of the first line containing `text` (after the first line containing `after`)."""
    lines = _path(project, shown).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i in range(start, len(lines)) if text in lines[i]) + 1


def edit(project, shown: str, old: str, new: str, after: str | None = None) -> int:
    """Replace `old` by `new` on its first line (after `after`); the line number edited."""
    path = _path(project, shown)
    lines = path.read_text(encoding="utf-8").splitlines()
    number = line_of(project, shown, old, after)
    lines[number - 1] = lines[number - 1].replace(old, new, 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number


def set_card(project, card_id: str, key: str, value: str) -> int:
    """Set one field of an ingredient card (block style); its line."""
    return edit_key(project, ING, f"- id: {card_id}", key, value)


def edit_key(project, shown: str, anchor: str, key: str, value: str) -> int:
    number = line_of(project, shown, f"{key}:", after=anchor)
    path = _path(project, shown)
    lines = path.read_text(encoding="utf-8").splitlines()
    indent = lines[number - 1][: len(lines[number - 1]) - len(lines[number - 1].lstrip())]
    lines[number - 1] = f"{indent}{key}: {value}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number


def check(project, name: str) -> str:
    """'<game.yaml>:<line>: check '<name>' failed' for a check declared in game.yaml."""
    return f"{GAME_YAML}:{line_of(project, GAME_YAML, f'- name: {name}')}: check '{name}' failed"


def row(project, shown: str, kind: str, row_id: str) -> str:
    """' for card 'x' (file:line)' or ' for food-groups row 'x' (file:line)'."""
    return f" for {kind} '{row_id}' ({shown}:{line_of(project, shown, f'id: {row_id}')})"


def problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        check_game(load_game(project, GAME), engines=True)
    return [str(p) for p in caught.value.problems]


def test_duplicate_recipe_icon_and_wrong_set_size(tmp_project):
    edit_key(tmp_project, REC, "- id: burger", "icon", "burrito")
    set_card(tmp_project, "pizza-tomato", "recipe", "burrito")
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'every recipe has an icon and a name of its own')}"
        f"{row(tmp_project, REC, 'card', 'burger')}: "
        "recipe 'burger' has icon 'burrito' and name 'Cheeseburger'; expected an icon (printed on its "
        "ingredient "
        "cards) and a name no other recipe has"
    ) in found
    assert (
        f"{check(tmp_project, 'each recipe icon is on hand-size ingredient cards')}"
        f"{row(tmp_project, REC, 'card', 'burrito')}: "
        "recipe 'burrito' has 8 ingredient cards with its icon (burrito-tortilla, burrito-rice, "
        "burrito-ground-beef, "
        "burrito-black-beans, burrito-sour-cream, burrito-lettuce, burrito-tomato, pizza-tomato); expected 7"
    ) in found


def test_plural_spelling_is_flagged(tmp_project):
    set_card(tmp_project, "pizza-tomato", "name", "Tomatoes")
    line = set_card(tmp_project, "pizza-tomato", "ingredient", "Tomatoes")
    found = problems(tmp_project)
    assert (
        f"{ING}:{line}: ingredient 'Tomatoes' (card pizza-tomato) looks like 'Tomato' (card burrito-tomato); "
        "expected one spelling per ingredient"
    ) in found


def test_case_and_spacing_variants_in_a_recipe_are_flagged(tmp_project):
    line = edit(tmp_project, REC, "Garlic Bread", "garlic  bread")
    found = problems(tmp_project)
    assert (
        f"{REC}:{line}: ingredient 'garlic  bread' (recipe spaghetti) looks like 'Garlic Bread' (card "
        "spaghetti-garlic-bread); "
        "expected one spelling per ingredient"
    ) in found


def test_printed_name_must_be_the_ingredient(tmp_project):
    line = set_card(tmp_project, "salad-egg", "name", "Boiled Egg")
    assert problems(tmp_project) == [
        f"{ING}:{line}: card salad-egg prints 'Boiled Egg' but its ingredient is 'Egg'; "
        "expected the printed name to be the ingredient name"
    ]


def test_duplicated_group_colour_and_a_fifth_group(tmp_project):
    edit(tmp_project, GRP, '"#2a72c1"', '"#7B3FA0"')
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'four food groups with distinct colours')}: 4 food groups (grains, protein, "
        "dairy, produce) "
        "with colours #b45c0c, #7b3fa0, #7B3FA0, #2b7c41; expected exactly 4 with 4 distinct colours"
    ]


def test_five_food_groups(tmp_project):
    path = _path(tmp_project, GRP)
    path.write_text(
        path.read_text()
        + '  - {id: sweets, name: Sweets, color: "#ff66cc", color_name: Pink, label: SWEETS, icon: sweets}\n'
    )
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'four food groups with distinct colours')}: 5 food groups (grains, protein, "
        "dairy, "
        "produce, sweets) with colours #b45c0c, #7b3fa0, #2a72c1, #2b7c41, #ff66cc; expected exactly 4 with "
        "4 distinct "
        "colours"
    ) in found


def test_a_name_in_two_food_groups(tmp_project):
    line = set_card(tmp_project, "pizza-tomato", "group", "dairy")
    found = problems(tmp_project)
    assert (
        f"{ING}:{line}: ingredient 'Tomato' (card pizza-tomato) is in food group 'dairy' but card "
        "burrito-tomato "
        "puts it in 'produce'; expected one food group per ingredient name"
    ) in found


def test_recipe_whose_ingredient_was_removed_breaks_set_selections_and_swaps(tmp_project):
    line = edit(tmp_project, REC, "Mushroom]", "Olives]")
    found = problems(tmp_project)
    burrito = line_of(tmp_project, REC, "ingredients:", after="- id: burrito")
    assert (f"{REC}:{line}: the pizza cards do not match recipe 'pizza' (missing Olives; extra Mushroom); "
            "expected the names on its icon cards to equal its ingredient list") in found
    assert (
        f"{REC}:{burrito}: with 3 players and sets burrito, burger, pizza in play the cards do not fit the "
        "recipes "
        "(missing Olives; extra Mushroom); expected every selection of sets to be completable by all players"
    ) in found
    assert (
        f"{REC}:{line}: with 3 players, after burrito's winning hand is swapped for the pizza set the cards "
        "in play "
        "do not fit the recipes (missing Olives; extra Mushroom); expected every swap to keep the game "
        "completable"
    ) in found


def test_recipe_shape_too_many_of_one_group_and_repeated_name(tmp_project):
    set_card(tmp_project, "burger-milkshake", "group", "produce")
    set_card(tmp_project, "burger-hamburger-bun", "group", "produce")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'each recipe spans at least 3 food groups, at most 4 ingredients from one')}"
        f"{row(tmp_project, REC, 'card', 'burger')}: recipe 'burger' has ingredients from dairy 1, produce "
        "5, protein 1; "
        "expected at least 3 food groups (no single bundle colour completes it) and at most 4 ingredients "
        "per group"
    ]


def test_recipe_listing_a_name_twice(tmp_project):
    edit(tmp_project, REC, "Pickles, French Fries", "Onion, French Fries")
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'each recipe lists hand-size distinct ingredients')}"
        f"{row(tmp_project, REC, 'card', 'burger')}: "
        "recipe 'burger' lists 7 ingredients (Onion twice); expected 7 distinct names"
    ) in found


def test_food_group_sizes(tmp_project):
    for card in ("burrito-tortilla", "burrito-rice", "burger-hamburger-bun"):
        set_card(tmp_project, card, "group", "produce")
    name = "every food group holds 7 to 14 of the ingredient cards"
    assert problems(tmp_project) == [
        f"{check(tmp_project, name)}{row(tmp_project, GRP, 'food-groups row', group)}: food group '{group}' "
        f"has {count} "
        "of the 42 ingredient cards; expected 7-14 so multi-card trades happen in every colour"
        for group, count in (("grains", 6), ("produce", 15))
    ]


def test_unequal_copy_sum_and_sharing(tmp_project):
    line = edit(tmp_project, REC, "Milk, Strawberries]", "Milk, Tomato]")
    set_card(tmp_project, "pancakes-strawberries", "name", "Tomato")
    set_card(tmp_project, "pancakes-strawberries", "ingredient", "Tomato")
    found = problems(tmp_project)
    assert (
        f"{REC}:{line}: recipe 'pancakes' has copy-sum 12 (Flour 2, Egg 2, Butter 2, Tomato 3); most recipes "
        "have 10; "
        "expected equal copy-sums so no recipe is harder to collect"
    ) in found
    assert (
        f"{REC}:{line}: recipe 'pancakes' shares ingredients with 4 recipes (burrito, pizza, salad, "
        "spaghetti); "
        "most share with 3; expected the same number for every recipe"
    ) in found


def test_deal_feasibility(tmp_project):
    edit(tmp_project, GAME_YAML, "players: {min: 3, max: 6}", "players: {min: 2, max: 6}")
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'from 3 players to one recipe set per player')}: players 2-6; expected 3-6: "
        "one recipe "
        "set per player and at least 3 players to trade"
    ) in found


def test_deal_with_a_hand_that_is_not_a_set(tmp_project):
    edit(tmp_project, GAME_YAML, "hand: 7 ", "hand: 8 ")
    players = line_of(tmp_project, GAME_YAML, "players:")
    found = problems(tmp_project)
    assert (
        f"{GAME_YAML}:{players}: with 3 players the sets burrito, burger, salad hold 21 cards; expected 24 = "
        "8 per player"
        in found
    )


def test_scoring_constants(tmp_project):
    edit(tmp_project, GAME_YAML, "max_rounds: 40", "max_rounds: 20")
    edit(tmp_project, GAME_YAML, "false_call: -5", "false_call: 5")
    found = problems(tmp_project)
    assert (
        f"{check(tmp_project, 'scoring settings have the right signs')} for 'false_call': setting false_call "
        "is 5; "
        "expected a whole number <= 0 (a penalty)"
    ) in found
    edit(tmp_project, GAME_YAML, "false_call: 5", "false_call: -5")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'the target is reached within the round cap')}: max_rounds 20 "
        "may end a game before anyone reaches 50 (up to 30 rounds with 6 players); expected "
        "at least 30"
    ]


def test_decks_need_one_back(tmp_project):
    edit(tmp_project, ING, "back: ingredient-back", "")
    assert problems(tmp_project) == [
        f"{check(tmp_project, 'recipe and ingredient cards have one back')} for 'ingredients': "
        "deck 'ingredients' declares no `back`; expected one back layout shared by all 42 "
        "cards, which are held face down"
    ]


def test_rule_card_numbers_follow_the_settings(tmp_project):
    edit(tmp_project, GAME_YAML, "target: 50", "target: 60")
    lines = line_of(tmp_project, RUL, "lines:", after="- id: how-to-play")
    assert problems(tmp_project) == [
        f"{RUL}:{lines}: rule card 'how-to-play' does not print the target 60 from game.yaml settings; "
        "expected the printed numbers to match the settings"
    ]
