"""Every Short Order Hero composition check catches broken data with file:line and a clear message: the rules
in game.yaml `checks:` at the check's line naming the card, the engine's checks at the card's own line."""

from __future__ import annotations

import pytest
from pnp_engine_short_order_hero import static_checks
from pnp_engine_short_order_hero.checks import CHECKS

from generator.core.errors import InputError, Problems
from generator.data.game_checks import run_checks
from generator.data.load import load_game
from generator.pipeline.gather import check_game

GAME = "short-order-hero"
NAMES = {fn.__name__: name for name, fn in CHECKS}
REC, ING, TRACK, GAME_YAML = (
    f"cards/{GAME}/{f}" for f in ("recipes.yaml", "ingredients.yaml", "tracker.yaml", "game.yaml")
)


def edit(project, name: str, old: str, new: str) -> None:
    """Replace the first `old` in cards/short-order-hero/<name> (which must contain it)."""
    path = project.cards_dir / GAME / name
    text = path.read_text()
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1))


def line(project, name: str, needle: str, after: str | None = None) -> int:
    """1-based line of the first line containing `needle` (at or after the line containing `after`)."""
    lines = (project.cards_dir / GAME / name).read_text().splitlines()
    start = next(i for i, text in enumerate(lines) if after in text) if after else 0
    return next(i for i, text in enumerate(lines[start:], start) if needle in text) + 1


def found(project, check: str) -> list[str]:
    """The problems the named check (function name) reports for the edited game."""
    game = load_game(project, GAME)
    return [str(p) for p in dict(static_checks(game))[NAMES[check]]]


def data_found(project, name: str) -> list[str]:
    """The problems the game.yaml check called `name` reports for the edited game."""
    problems = Problems()
    run_checks(load_game(project, GAME), problems)
    return [str(p) for p in problems if f"check '{name}' " in p.message]


def failed(project, name: str, card_id: str | None = None, file: str = ING) -> str:
    """'<game.yaml>:<line>: check '<name>' failed[ for card 'x' (<file>:<line>)]'."""
    where = f"{GAME_YAML}:{line(project, 'game.yaml', f'- name: {name}')}: check '{name}' failed"
    if card_id is not None:
        where += f" for card '{card_id}' ({file}:{line(project, file.rsplit('/', 1)[1], f'id: {card_id}')})"
    return where


def test_intact_data_passes_every_check(tmp_project):
    assert all(problems == [] for _, problems in static_checks(load_game(tmp_project, GAME)))


# C.3-1
# ----------------------------------------------------------------------------------------------------
def test_counts_missing_recipe(tmp_project):
    edit(
        tmp_project,
        "recipes.yaml",
        "  - id: fries\n    name: French Fries\n    copies: 1\n    icon: fries\n"
        "    required: [potato, potato]\n    value: 3\n    bonus: [cheese +1, onion +1]\n",
        "",
    )
    assert data_found(tmp_project, "the recipe deck matches the box") == [
        f"{failed(tmp_project, 'the recipe deck matches the box')}: the recipe deck has 21 cards; expected "
        "22 (the "
        "published count)"
    ]
    with pytest.raises(InputError) as err:
        check_game(load_game(tmp_project, GAME), engines=True)
    assert "has 21 cards but `total` says 22" in str(err.value)


def test_counts_type_merged_and_category(tmp_project):
    edit(
        tmp_project,
        "ingredients.yaml",
        "  - {id: pickle, name: Pickle, copies: 8, icon: pickle, kind: ingredient}\n",
        "",
    )
    edit(
        tmp_project,
        "ingredients.yaml",
        "{id: onion, name: Onion, copies: 12,",
        "{id: onion, name: Onion, copies: 20,",
    )
    edit(
        tmp_project,
        "ingredients.yaml",
        "    kind: spice\n    points: 1\n",
        "    kind: spice\n    meat: true\n    points: 1\n",
    )
    assert data_found(tmp_project, "the ingredients deck has 24 kinds of card") == [
        f"{failed(tmp_project, 'the ingredients deck has 24 kinds of card')}: the ingredients deck has 23 "
        "card types; "
        "expected 24 (the published '24 unique')"
    ]
    assert data_found(tmp_project, "only ingredient cards count as meat") == [
        f"{failed(tmp_project, 'only ingredient cards count as meat', 'salt')}: card 'salt' is a spice but "
        "has "
        "`meat: true`; expected the meat flag only on ingredient cards"
    ]


def test_counts_acquire_needs_one_parameter(tmp_project):
    edit(tmp_project, "ingredients.yaml", "    kind: acquire\n    draw: 2\n", "    kind: acquire\n")
    assert data_found(tmp_project, "acquire cards draw or steal, nothing else does") == [
        f"{failed(tmp_project, 'acquire cards draw or steal, nothing else does', 'fresh-delivery')}: acquire "
        "card "
        "'fresh-delivery' has 0 of draw and steal; expected exactly one of `draw: N` or `steal: N` on "
        "acquire cards "
        "and neither on other cards"
    ]


# C.3-2
# ----------------------------------------------------------------------------------------------------
def test_recipe_needs_an_ingredient_missing_from_the_deck(tmp_project):
    edit(
        tmp_project,
        "ingredients.yaml",
        "  - {id: chicken, name: Chicken, copies: 9, icon: chicken, kind: ingredient, "
        "meat: true, effect: Counts as Any Meat}\n",
        "",
    )
    required = line(tmp_project, "recipes.yaml", "required:", after="id: chicken-sandwich")
    assert (
        f"{REC}:{required}: recipe 'chicken-sandwich' needs chicken, which is not in the ingredients deck; "
        f"expected every required ingredient in {ING}"
    ) in found(tmp_project, "check_cookable")
    cards = line(tmp_project, "ingredients.yaml", "cards:")
    assert (
        f"{ING}:{cards}: meat 'chicken' is not in the ingredients deck; expected beef, chicken, pork in the "
        "deck, "
        f"flagged `meat: true` (they count as Any Meat)"
    ) in found(tmp_project, "check_any_meat")
    with pytest.raises(InputError) as err:  # the loader's reference check reports it first
        check_game(load_game(tmp_project, GAME), engines=True)
    assert f"{REC}:{required}: required ingredient 'chicken' is not defined" in str(err.value)


def test_too_few_copies_for_required_and_for_the_bonus_chain(tmp_project):
    edit(
        tmp_project, "ingredients.yaml", "{id: egg, name: Egg, copies: 16,", "{id: egg, name: Egg, copies: 1,"
    )
    edit(
        tmp_project,
        "ingredients.yaml",
        "{id: cheese, name: Cheese, copies: 14,",
        "{id: cheese, name: Cheese, copies: 1,",
    )
    problems = found(tmp_project, "check_cookable")
    eggs = line(tmp_project, "recipes.yaml", "required:", after="id: scrambled-eggs")
    bonus = line(tmp_project, "recipes.yaml", "bonus:", after="id: chili-cheese-fries")
    assert (
        f"{REC}:{eggs}: recipe 'scrambled-eggs' needs 2 egg but the deck has only 1; expected copies >= "
        "required"
        in problems
    )
    assert (
        f"{REC}:{bonus}: recipe 'chili-cheese-fries' uses 2 cheese with its full bonus chain but the deck "
        "has only 1; "
        f"expected required + bonus <= copies"
    ) in problems


# C.3-3
# ----------------------------------------------------------------------------------------------------
def test_any_meat_in_bonus_and_meat_flags(tmp_project):
    edit(tmp_project, "recipes.yaml", "bonus: [pickle +1, onion +1]", "bonus: [any-meat +1, onion +1]")
    edit(tmp_project, "ingredients.yaml", "copies: 11, icon: pork, kind: ingredient, meat: true,",
         "copies: 11, icon: pork, kind: ingredient, meat: false,")
    edit(tmp_project, "ingredients.yaml", "{id: egg, name: Egg, copies: 16, icon: egg, kind: ingredient}",
         "{id: egg, name: Egg, copies: 16, icon: egg, kind: ingredient, meat: true}")
    sliders = line(tmp_project, "recipes.yaml", "bonus:", after="id: sliders")
    pork, egg = (
        line(tmp_project, "ingredients.yaml", "id: pork"),
        line(tmp_project, "ingredients.yaml", "id: egg"),
    )
    assert found(tmp_project, "check_any_meat") == [
        f"{ING}:{pork}: 'pork' is not flagged as meat; expected `meat: true` (it counts as Any Meat)",
        f"{ING}:{egg}: 'egg' is flagged as meat; expected only beef, chicken, pork (game.yaml any_meat) to "
        "count as Any Meat",
        f"{REC}:{sliders}: recipe 'sliders' has Any Meat in its bonus chain; expected Any Meat only among "
        "the required ingredients",
    ]


def test_any_meat_needs_enough_meat_cards(tmp_project):
    edit(tmp_project, "recipes.yaml", "    any_meat: 1\n    value: 7\n", "    any_meat: 31\n    value: 7\n")
    any_meat = line(tmp_project, "recipes.yaml", "any_meat:", after="id: omelette")
    assert found(tmp_project, "check_any_meat") == [
        f"{REC}:{any_meat}: recipe 'omelette' needs 31 meat cards (Any Meat plus named meats) but the deck "
        "has only 30; "
        f"expected enough beef, chicken, pork"
    ]


# C.3-4
# ----------------------------------------------------------------------------------------------------
def test_bonus_chain_entries(tmp_project):
    edit(tmp_project, "recipes.yaml", "bonus: [egg +1]", "bonus: [egg 1]")
    edit(tmp_project, "recipes.yaml", "bonus: [tomato +1, pork +2]", "bonus: [tomatoe +1, pork +0]")
    toast = line(tmp_project, "recipes.yaml", "bonus:", after="id: buttered-toast")
    grilled = line(tmp_project, "recipes.yaml", "bonus:", after="id: grilled-cheese")
    problems = found(tmp_project, "check_bonus_chains")
    assert (
        problems[0]
        == f"{REC}:{toast}: recipe 'buttered-toast' bonus 'egg 1' is not 'ingredient +points'; expected e.g. "
           "'egg +1'"
    )
    assert problems[1].startswith(
        f"{REC}:{grilled}: recipe 'grilled-cheese' has bonus ingredient 'tomatoe', which is not "
        f"in the ingredients deck (did you mean 'tomato'?); known: beef, black-hair, bread"
    )
    assert problems[2] == (f"{REC}:{grilled}: recipe 'grilled-cheese' bonus 'pork' is worth 0; "
                           f"expected every bonus ingredient worth more than 0")
    assert len(problems) == 3


# C.3-5
# ----------------------------------------------------------------------------------------------------
def test_value_range_and_maximum(tmp_project):
    edit(tmp_project, "recipes.yaml", "    required: [bread, pork, lettuce, tomato]\n    value: 7\n",
         "    required: [bread, pork, lettuce, tomato]\n    value: 12\n")
    edit(tmp_project, "recipes.yaml", "bonus: [onion +1, tomato +1, butter +1, milk +1]",
         "bonus: [onion +1, tomato +1, butter +1, milk +2]")
    name = "recipe values lie between n and 2n + 1 for n required ingredients"
    assert data_found(tmp_project, name) == [
        f"{failed(tmp_project, name, 'blt', REC)}: recipe 'blt' has value 12 for 4 required ingredients; "
        "expected "
        "4 <= value <= 9"
    ]
    special = line(tmp_project, "recipes.yaml", "bonus:", after="id: short-order-special")
    assert found(tmp_project, "check_values") == [
        f"{REC}:{special}: recipe 'short-order-special' is worth 16 with every bonus ingredient; expected at "
        "most 15 (max_recipe_points)",
    ]


# C.3-6
# ----------------------------------------------------------------------------------------------------
def test_modifier_signs_and_floor_settings(tmp_project):
    edit(
        tmp_project,
        "ingredients.yaml",
        "    kind: spice\n    points: 1\n",
        "    kind: spice\n    points: -1\n",
    )
    edit(tmp_project, "ingredients.yaml", "    points: -4\n", "    points: 4\n")
    edit(tmp_project, "game.yaml", "  sabotage_floor: 0 ", "  sabotage_floor: -1 ")
    edit(tmp_project, "game.yaml", "  floor_mode: end ", "  floor_mode: never ")
    signs = "spices are worth more than 0, sabotage less"
    assert data_found(tmp_project, signs) == [
        f"{failed(tmp_project, signs, 'cockroach')}: sabotage 'cockroach' has points 4; expected sabotage "
        "worth less than 0",
        f"{failed(tmp_project, signs, 'salt')}: spice 'salt' has points -1; expected spices and seasonings "
        "worth more than 0",
    ]
    floor = "sabotage cannot make a recipe go below zero"
    assert data_found(tmp_project, floor) == [
        f"{failed(tmp_project, floor)}: sabotage_floor is -1; expected 0 (sabotage cannot make a recipe go "
        "below zero)"
    ]
    assert data_found(tmp_project, "the floor mode is known") == [
        f"{failed(tmp_project, 'the floor mode is known')}: floor_mode is 'never'; expected end (floor each "
        "recipe when "
        "scoring) or clamp (at each sabotage)"
    ]


# C.3-7
# ----------------------------------------------------------------------------------------------------
def test_wild_scope(tmp_project):
    edit(tmp_project, "ingredients.yaml", "    kind: wild\n", "    kind: wild\n    points: 1\n")
    edit(tmp_project, "recipes.yaml", "required: [bread, butter]", "required: [bread, salt]")
    wild = "a wild card stands in for one ingredient only"
    assert data_found(tmp_project, wild) == [
        f"{failed(tmp_project, wild, 'secret-ingredient')}: wild card 'secret-ingredient' has `points`; "
        "expected a wild "
        "to carry no points: it stands in for one ingredient or bonus ingredient only"
    ]
    required = "recipes require ingredient cards only"
    assert data_found(tmp_project, required) == [
        f"{failed(tmp_project, required, 'buttered-toast', REC)}: recipe 'buttered-toast' lists salt (a "
        "spice card) as "
        "an ingredient; expected only ingredient cards in recipes (a wild stands in for ingredients, never "
        "for spices, "
        "sabotage or draws)"
    ]
    edit(tmp_project, "recipes.yaml", "bonus: [egg +1]", "bonus: [salt +1]")
    bonus = line(tmp_project, "recipes.yaml", "bonus:", after="id: buttered-toast")
    assert found(tmp_project, "check_wild_scope") == [
        f"{REC}:{bonus}: recipe 'buttered-toast' lists salt (a spice card) as an ingredient; expected only "
        "ingredient "
        "cards in recipes (a wild stands in for ingredients, never for spices, sabotage or draws)"
    ]


# C.3-8
# ----------------------------------------------------------------------------------------------------
def test_tracker_without_a_start_for_five_players(tmp_project):
    edit(tmp_project, "tracker.yaml", ', start_for: [5]}', "}")
    spaces = line(tmp_project, "tracker.yaml", "spaces:")
    assert found(tmp_project, "check_tracker") == [
        f"{TRACK}:{spaces}: no start space for 5 players; expected a space with 5 in `start_for` for every "
        "player count 2-5 "
        f"(game.yaml players)"
    ]


def test_tracker_rounds_must_not_grow_and_must_match_the_rules(tmp_project):
    edit(tmp_project, "tracker.yaml", 'label: "4", start_for: [5]}', 'label: "4", start_for: [4]}')
    edit(tmp_project, "tracker.yaml", 'label: "3", start_for: [4]}', 'label: "3", start_for: [5]}')
    t3, t4 = line(tmp_project, "tracker.yaml", "id: t3,"), line(tmp_project, "tracker.yaml", "id: t4,")
    assert found(tmp_project, "check_tracker") == [
        f"{TRACK}:{t4}: the start for 4 players ('t4') is 15 spaces from All Done, so the game lasts 15 "
        "rounds, "
        f"but game.yaml rounds_by_players says 16; expected them to agree",
        f"{TRACK}:{t3}: the start for 5 players ('t3') is 16 spaces from All Done, so the game lasts 16 "
        "rounds, "
        f"but game.yaml rounds_by_players says 15; expected them to agree",
        f"{TRACK}:{t3}: 5 players get 16 rounds but 4 players get 15; expected rounds not to increase with "
        "more players",
    ]


def test_tracker_start_on_all_done_and_a_branch(tmp_project):
    edit(tmp_project, "tracker.yaml", ', start_for: [5]}', "}")
    edit(
        tmp_project,
        "tracker.yaml",
        "kind: end, label: All Done}",
        "kind: end, label: All Done, start_for: [5]}",
    )
    edit(tmp_project, "tracker.yaml", "edges:\n", "edges:\n  - [t5, t12]\n")
    done, t5 = line(tmp_project, "tracker.yaml", "id: all-done"), line(tmp_project, "tracker.yaml", "id: t5,")
    t12 = line(tmp_project, "tracker.yaml", "id: t12,")
    problems = found(tmp_project, "check_tracker")
    assert (
        f"{TRACK}:{done}: the start for 5 players is All Done itself; expected every start before All Done"
        in problems
    )
    assert (
        f"{TRACK}:{t5}: space 't5' joins 3 spaces; expected the tracker to be one path ending at All Done"
        in problems
    )
    assert (
        f"{TRACK}:{t12}: space 't12' joins 3 spaces; expected the tracker to be one path ending at All Done"
        in problems
    )


# C.3-9
# ----------------------------------------------------------------------------------------------------
def test_setup_feasibility(tmp_project):
    edit(tmp_project, "game.yaml", "  start_hand: 7 ", "  start_hand: 50 ")
    edit(tmp_project, "game.yaml", "  display: 5 ", "  display: 30 ")
    edit(tmp_project, "game.yaml", "  hand_limit: none ", "  hand_limit: 8 ")
    deal, display, limit = ("the deal fits the ingredients deck", "the display fits the recipe deck",
                            "the hand limit leaves room for the starting hand")
    assert data_found(tmp_project, deal) + data_found(tmp_project, display) + data_found(
        tmp_project, limit
    ) == [
        f"{failed(tmp_project, deal)}: dealing 50 cards to 5 players needs 250 cards but the ingredients "
        "deck has 231; "
        "expected enough cards for the deal",
        f"{failed(tmp_project, display)}: the display shows 30 recipes but the recipe deck has only 22; "
        "expected "
        "display <= recipes",
        f"{failed(tmp_project, limit)}: hand_limit is 8; expected none or a whole number >= the starting "
        "hand (50)",
    ]


# C.3-10
# ------------------------------------------------------------------------------------------------------------
def test_per_ingredient_floor(tmp_project):
    edit(
        tmp_project,
        "ingredients.yaml",
        "{id: pickle, name: Pickle, copies: 8,",
        "{id: pickle, name: Pickle, copies: 5,",
    )
    name = "every ingredient has enough copies"
    assert data_found(tmp_project, name) == [
        f"{failed(tmp_project, name, 'pickle')}: ingredient 'pickle' has 5 copies; expected at least 6 "
        "(ingredient_floor in game.yaml)"]


# C.3-11
# ------------------------------------------------------------------------------------------------------------
def test_card_texts_match_parameters(tmp_project):
    edit(tmp_project, "ingredients.yaml", "    effect: Draw 2 cards\n", "    effect: Draw 3 cards\n")
    edit(tmp_project, "ingredients.yaml", "    steal: 1\n", "    steal: 2\n")
    edit(tmp_project, "ingredients.yaml", 'effect: "+3 - add', 'effect: "+2 - add')
    edit(tmp_project, "ingredients.yaml", "kind: ingredient, meat: true, effect: Counts as Any Meat}",
         "kind: ingredient, meat: true}")
    beef = line(tmp_project, "ingredients.yaml", "id: beef")
    sauce = line(tmp_project, "ingredients.yaml", "effect:", after="id: hot-sauce")
    fresh = line(tmp_project, "ingredients.yaml", "effect:", after="id: fresh-delivery")
    five = line(tmp_project, "ingredients.yaml", "effect:", after="id: five-finger-discount")
    assert found(tmp_project, "check_texts") == [
        f"{ING}:{beef}: 'beef' counts as Any Meat but its text says ''; expected 'Counts as Any Meat'",
        f"{ING}:{sauce}: spice 'hot-sauce' is worth +3 but its text says '+2 - add to one of your completed "
        "recipes'; "
        f"expected the text to start with '+3'",
        f"{ING}:{fresh}: 'fresh-delivery' draws 2 but its text says 'Draw 3 cards'; expected 'Draw 2 cards'",
        f"{ING}:{five}: 'five-finger-discount' takes 2 but its text says 'Take 1 card at random from an "
        "opponent's hand'; "
        f"expected 'Take 2 cards at random from an opponent's hand'",
    ]


def test_check_game_reports_static_check_problems(tmp_project):
    edit(
        tmp_project,
        "ingredients.yaml",
        "{id: pickle, name: Pickle, copies: 8,",
        "{id: pickle, name: Pickle, copies: 5,",
    )
    edit(
        tmp_project,
        "ingredients.yaml",
        "{id: onion, name: Onion, copies: 12,",
        "{id: onion, name: Onion, copies: 15,",
    )
    with pytest.raises(InputError) as err:
        check_game(load_game(tmp_project, GAME), engines=True)
    assert [str(p) for p in err.value.problems] == [
        f"{failed(tmp_project, 'every ingredient has enough copies', 'pickle')}: ingredient 'pickle' has 5 "
        "copies; "
        "expected at least 6 (ingredient_floor in game.yaml)"
    ]
