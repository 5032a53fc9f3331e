"""--set PATH=VALUE: data overrides applied to the YAML as read, never to the files, with located errors."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.overrides import describe, parse_overrides, read_value

PIZZA = "order-up-pizza"


def load(project, *sets):
    return load_game(project, PIZZA, parse_overrides(sets))


def error_of(project, *sets) -> str:
    with pytest.raises(InputError) as caught:
        load(project, *sets)
    return "\n".join(str(p) for p in caught.value.problems)


def test_values_are_read_as_yaml():
    assert read_value("14") == 14 and read_value("2.5") == 2.5 and read_value("true") is True
    assert read_value("immediate") == "immediate" and read_value("[1, 2]") == [1, 2]
    assert read_value("a: [") == "a: ["  # not YAML: kept as text
    assert read_value("") == ""


def test_overrides_change_the_loaded_game_and_never_the_files(repo_project):
    toppings = repo_project.cards_dir / PIZZA / "toppings.yaml"
    before = toppings.read_bytes()
    game = load(
        repo_project,
        "toppings.pepperoni.copies=14",
        "toppings.mushrooms.copies=9",
        "settings.hand_limit=8",
        "settings.game_over_depth.presets.long=25",
        "players.red.name=Crimson",
        "toppings.total=91",
    )
    assert game.decks["toppings"].card("pepperoni").copies == 14
    assert game.decks["toppings"].card("mushrooms").copies == 9
    assert game.decks["toppings"].copies == 91
    assert game.setting("hand_limit") == 8
    assert game.setting("game_over_depth")["presets"]["long"] == 25
    assert game.tables["players"].by_id()["red"].name == "Crimson"
    assert describe(list(game.overrides))[:3] == ["toppings.pepperoni.copies = 14 (was 12)",
                                                  "toppings.mushrooms.copies = 9 (was 11)",
                                                  "settings.hand_limit = 8 (was 10)"]
    assert toppings.read_bytes() == before
    assert load_game(repo_project, PIZZA).decks["toppings"].card("pepperoni").copies == 12


@pytest.mark.parametrize(
    "set_text, expected",
    [
        (
            "toppins.pepperoni.copies=1",
            "--set toppins.pepperoni.copies=1: 'toppins' is not `settings`, a deck or a "
            "table of this game (did you mean 'toppings'?); known: settings; decks: orders, "
            "reference, toppings; tables: players",
        ),
        (
            "toppings.peperoni.copies=1",
            "toppings.yaml:13: --set toppings.peperoni.copies=1: deck toppings has no card "
            "'peperoni' (did you mean 'pepperoni'?); known: anchovies,",
        ),
        (
            "toppings.pepperoni.copys=1",
            "toppings.yaml:14: --set toppings.pepperoni.copys=1: card pepperoni of deck "
            "toppings: no field 'copys' (did you mean 'copies'?); known: back, copies, effect",
        ),
        ("toppings.pepperoni.id=salami", "ids cannot be changed"),
        ("toppings.pepperoni=3", "'pepperoni' is a card; expected toppings.pepperoni.FIELD"),
        (
            "settings.hand_limt=3",
            "game.yaml:12: --set settings.hand_limt=3: settings has no 'hand_limt' (did you mean "
            "'hand_limit'?); known: dice,",
        ),
        ("settings.hand_limit.max=3", "settings.hand_limit is the value 10, not a mapping"),
        (
            "settings.game_over_depth.presets.huge=3",
            "settings.game_over_depth.presets has no 'huge'; known: long, max, short, standard",
        ),
        (
            "toppings.pepperoni.copies=many",
            "toppings.yaml:14: 'copies' is 'many'; expected a whole number (the value "
            "comes from --set toppings.pepperoni.copies=many)",
        ),
        ("settings", "--set settings: expected PATH=VALUE, e.g. toppings.pepperoni.copies=14"),
        ("toppings..copies=3", "--set toppings..copies=3: expected PATH=VALUE"),
    ],
)
def test_every_wrong_path_or_value_is_one_located_line(repo_project, set_text, expected):
    message = error_of(repo_project, set_text)
    assert expected in message
    assert "\n" not in message


def test_all_wrong_paths_are_reported_together(repo_project):
    message = error_of(repo_project, "toppings.peperoni.copies=1", "settings.dise=1")
    assert "peperoni" in message and "dise" in message


def test_cards_read_from_a_spreadsheet_take_overrides_too(tmp_path):
    from tests.fixtures import toy_engine as toy

    project = toy.make_toy_project(tmp_path)
    folder = project.cards_dir / "toy"
    (folder / "numbers.csv").write_text("id,name,copies,value\none,One,6,1\ntwo,Two,5,2\nthree,Three,4,3\n"
                                        "four,Four,2,4\n", encoding="utf-8")
    numbers = (folder / "numbers.yaml").read_text(encoding="utf-8")
    (folder / "numbers.yaml").write_text(
        numbers[: numbers.index("cards:")] + "cards_from: numbers.csv\n", encoding="utf-8"
    )
    game = load_game(project, "toy", parse_overrides(["numbers.two.copies=7", "numbers.total=19"]))
    assert game.decks["numbers"].card("two").copies == 7 and game.decks["numbers"].total == 19
    assert describe(list(game.overrides)) == [
        "numbers.total = 19 (was (not set))",
        "numbers.two.copies = 7 (was 5)",
    ]
    with pytest.raises(InputError) as caught:
        load_game(project, "toy", parse_overrides(["numbers.tow.copies=7"]))
    assert str(caught.value).startswith(
        "cards/toy/numbers.csv:1: --set numbers.tow.copies=7: deck numbers has no "
        "card 'tow' (did you mean 'two'?); known: four, one, three, two"
    )
    with pytest.raises(InputError) as caught:
        load_game(project, "toy", parse_overrides(["numbers.two.copies=lots"]))
    assert "cards/toy/numbers.csv:3" in str(caught.value) and "--set numbers.two.copies=lots" in str(
        caught.value
    )


def test_integer_keys_of_a_setting_are_reached_by_their_digits(repo_project):
    game = load_game(repo_project, "short-order-hero", parse_overrides(["settings.rounds_by_players.2=12"]))
    assert game.setting("rounds_by_players")[2] == 12  # the key stays the number YAML read
    assert game.setting("rounds_by_players")[3] == 17
    with pytest.raises(InputError) as caught:
        load_game(repo_project, "short-order-hero", parse_overrides(["settings.rounds_by_players.7=12"]))
    message = str(caught.value.problems[0])
    assert "game.yaml" in message and "has no '7'" in message and "known: 2, 3, 4, 5" in message
