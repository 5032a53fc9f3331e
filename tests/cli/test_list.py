"""`pnp list` on the shipped games: the component counts the design brief publishes."""

from tests.conftest import REPO, run_pnp


def test_list_counts_match_the_published_component_lists():
    result = run_pnp("list", project=REPO)
    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    for expected in [
        "91 x Toppings deck (13 card types)",
        "33 x Order Up deck (33 card types)",
        "4 x Pizza Toppings reference cards (4 card types)",
        "2 x Dice (printed die, 16 mm cube)",
        "4 x Delivery cars (standees, 22 x 17 mm: Red car, Yellow car, Blue car, Green car)",
        "1 x Toppings tuck box (for the Toppings deck; 91 cards)",
        "1 x Orders tuck box (for the Order Up deck and Pizza Toppings reference cards; 37 cards)",
        "1 x Tuck box (for the Recipe cards, Ingredient cards and Rule cards; 54 cards)",
        "4 x Score pad (printed sheet, 95 x 125 mm)",
        "1 x Bell (any bell; the printed tap card can stand in for it)",
        "1 x Round marker (token, 20.0 mm circle: Round marker)",
        "3 x Ingredients tuck box (for the Ingredients deck; 77 cards each)",
        "6 x Recipe cards (6 card types)",
        "42 x Ingredient cards (42 card types)",
        "6 x Rule cards (1 card type)",
        "22 x Recipe deck (22 card types)",
        "231 x Ingredients deck (24 card types)",
        "1 x Round tracker (19 spaces)",
    ]:
        assert expected in lines, expected


def test_validate_without_simulation_prints_ok_per_game():
    result = run_pnp("validate", "--no-sim", project=REPO)
    assert result.exit_code == 0, result.output
    for game in ("order-up-pizza", "order-up-trading", "short-order-hero"):
        assert f"OK  {game}:" in result.output
