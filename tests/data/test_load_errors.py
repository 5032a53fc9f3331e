"""Bad input, tried as a new user would: one clear line with file:line, exit 1, no traceback."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.pipeline.gather import check_game
from tests.conftest import REPO, run_pnp

DEMO = REPO / "tests" / "fixtures" / "demo-project"


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    shutil.copytree(DEMO, tmp_path / "p")
    return Project(tmp_path / "p")


def edit(project: Project, name: str, old: str, new: str) -> None:
    path = project.cards_dir / "demo" / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems_of(project: Project) -> list[str]:
    with pytest.raises(InputError) as info:
        check_game(load_game(project, "demo"))
    return [str(p) for p in info.value.problems]


def test_demo_loads_and_checks(demo: Project):
    game = load_game(demo, "demo")
    report = check_game(game)
    assert report.cards == 7 and report.decks == 2 and report.card_types == 4
    assert [c.code for c in game.decks["orders"].cards] == ["DEM-ORD-01", "DEM-ORD-02"]
    assert game.decks["orders"].card("ann").toppings == {"olive": 2, "onion": 1}
    assert game.addresses()["21 Main Street"] == ("town", "a2")
    assert game.boards["town"].neighbours()["a1"] == ["a2", "home"]


def test_unknown_topping_names_file_line_and_known(demo: Project):
    edit(demo, "orders.yaml", "{olive: 2, onion: 1}", "{olivez: 2, onion: 1}")
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:12: topping 'olivez' is not defined (did you mean 'olive'?); known: olive, "
        "onion"
    ]


def test_negative_copies(demo: Project):
    edit(demo, "toppings.yaml", "copies: 2", "copies: -1")
    assert problems_of(demo) == [
        "cards/demo/toppings.yaml:14: copies is -1; expected a whole number from 1 to 1,000"
    ]


def test_duplicate_card_id(demo: Project):
    edit(demo, "orders.yaml", "id: bob", "id: ann")
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:15: duplicate card id 'ann' (first defined at line 9); expected unique ids"
    ]


def test_misspelt_key_suggests_the_closest(demo: Project):
    edit(demo, "toppings.yaml", "copies: 3", "copiez: 3")
    [found] = problems_of(demo)
    assert found.startswith(
        "cards/demo/toppings.yaml:10: unknown key 'copiez' (did you mean 'copies'?); expected one of: id, "
        "name, copies"
    )


def test_address_not_on_board(demo: Project):
    edit(demo, "orders.yaml", "21 Main Street", "99 Main Street")
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:19: address '99 Main Street' is not on the board (did you mean '21 Main "
        "Street'?); "
        "Main Street has house numbers 11, 21"
    ]
    edit(demo, "orders.yaml", "99 Main Street", "12 Main Street")
    assert "(did you mean '11 Main Street'?)" in problems_of(demo)[0]
    edit(demo, "orders.yaml", "12 Main Street", "21 Mian Street")
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:19: address '21 Mian Street' is not on the board (did you mean '21 Main "
        "Street'?); "
        "known: 11 Main Street, 21 Main Street"
    ]


def test_deck_total_mismatch(demo: Project):
    edit(demo, "toppings.yaml", "total: 5", "total: 6")
    assert problems_of(demo) == [
        "cards/demo/toppings.yaml:4: deck 'toppings' has 5 cards but `total` says 6; expected the copies to "
        "add up to 6"
    ]


def test_tab_indented_yaml(demo: Project):
    edit(demo, "orders.yaml", "    value: 2", "\tvalue: 2")
    [problem] = problems_of(demo)
    assert (
        problem.startswith("cards/demo/orders.yaml:20: ")
        and "expected spaces for indentation, not tabs" in problem
    )


def test_python_tag_is_refused_not_executed(demo: Project, tmp_path: Path):
    marker = tmp_path / "pwned"
    edit(demo, "orders.yaml", "value: 2", f"value: !!python/object/apply:os.system ['touch {marker}']")
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:20: Python tags are not allowed; expected plain YAML data (safe loading only)"
    ]
    assert not marker.exists()


def test_empty_file(demo: Project):
    (demo.cards_dir / "demo" / "orders.yaml").write_text("", encoding="utf-8")
    problems = problems_of(demo)
    assert (
        "cards/demo/orders.yaml:1: the file is empty; expected a YAML mapping of keys and values" in problems
    )


def test_missing_game_yaml(demo: Project):
    (demo.cards_dir / "demo" / "game.yaml").unlink()
    assert problems_of(demo) == [
        "cards/demo: no game.yaml in this game folder; expected game.yaml with title, code, players and decks"
    ]


def test_non_utf8_file(demo: Project):
    path = demo.cards_dir / "demo" / "orders.yaml"
    path.write_bytes(path.read_bytes().replace(b"name: Bob", b"name: B\xe9b"))
    assert problems_of(demo) == [
        "cards/demo/orders.yaml:16: byte 0xe9 is not valid UTF-8; expected a UTF-8 text file"
    ]


def test_problems_of_several_files_are_reported_together(demo: Project):
    edit(demo, "toppings.yaml", "copies: 2", "copies: 0")
    edit(demo, "orders.yaml", "value: 5", "value: five")
    found = problems_of(demo)
    assert [p.split(":")[0] + ":" + p.split(":")[1] for p in found] == [
        "cards/demo/orders.yaml:14", "cards/demo/toppings.yaml:14"]


def test_board_space_outside_and_street_without_colour(demo: Project):
    edit(demo, "board.yaml", "{id: a2, at: [2, 0]}", "{id: a2, at: [5, 0]}")
    assert problems_of(demo) == [
        "cards/demo/board.yaml:8: space 'a2' at (5, 0) is outside the 3 x 2 board; expected 0 <= col < 3 and "
        "0 <= row < 2"
    ]
    edit(demo, "board.yaml", '    color: "#3a86ff"\n', "")
    assert problems_of(demo) == [
        "cards/demo/board.yaml:10: missing key 'color'; expected 'color' here (streets.color)"
    ]


def test_unlisted_and_missing_decks(demo: Project):
    edit(demo, "game.yaml", "decks: [toppings, orders]", "decks: [toppings, order]")
    found = problems_of(demo)
    assert (
        "cards/demo/game.yaml:4: deck 'order' has no file (did you mean 'orders'?); expected a YAML file in "
        "cards/demo with `deck: order`"
        in found
    )
    assert (
        "cards/demo/orders.yaml:1: deck 'orders' is not listed in cards/demo/game.yaml `decks`; expected it "
        "there so it is printed"
        in found
    )


def test_cli_reports_without_traceback_and_exits_1(demo: Project):
    edit(demo, "orders.yaml", "{onion: 1}", "{onoin: 1}")
    result = run_pnp("validate", project=demo)
    assert result.exit_code == 1
    assert (
        "cards/demo/orders.yaml:18: topping 'onoin' is not defined (did you mean 'onion'?)" in result.output
    )
    assert "Traceback" not in result.output


def test_cli_unknown_game_lists_known_games(demo: Project):
    result = run_pnp("validate", "dmeo", project=demo)
    assert result.exit_code == 1
    assert "no game 'dmeo' (did you mean 'demo'?); known games: demo" in result.output


def test_cli_validate_ok_and_list(demo: Project):
    result = run_pnp("validate", project=demo)
    assert result.exit_code == 0, result.output
    assert "OK  demo: 7 cards in 2 decks (4 card types)" in result.output
    listing = run_pnp("list", project=demo)
    assert "5 x Toppings deck" in listing.output and "DEM-TOP-01    3 x Olive" in listing.output


def test_schema_written_with_declared_card_fields(demo: Project, tmp_path: Path):
    import json

    result = run_pnp("schema", "--out", str(tmp_path / "s"), project=demo)
    assert result.exit_code == 0, result.output
    deck = json.loads((tmp_path / "s" / "demo" / "orders.schema.json").read_text())
    card = deck["$defs"]["Card"]
    assert {"id", "name", "copies", "toppings", "address", "value"} <= set(card["properties"])
    assert card["additionalProperties"] is False
    assert json.loads((tmp_path / "s" / "game.schema.json").read_text())["additionalProperties"] is False


def test_schema_keeps_list_defaults_without_a_warning(repo_project: Project, tmp_path: Path):
    import json
    import warnings

    with warnings.catch_warnings():
        # pydantic warned "Default value [] is not JSON serializable" on stderr
        warnings.simplefilter("error")
        result = run_pnp("schema", "--out", str(tmp_path / "s"), project=repo_project)
    assert result.exit_code == 0, result.output
    recipes = json.loads((tmp_path / "s" / "short-order-hero" / "recipes.schema.json").read_text())
    assert recipes["$defs"]["Card"]["properties"]["bonus"]["default"] == []


def test_an_output_folder_that_cannot_be_made_is_one_line_not_a_traceback(
    tmp_project: Project, tmp_path: Path
):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for args in (["schema", "--out", str(blocker / "s")], ["preview", "demo", "--out", str(blocker / "p")],
                 ["export", "png", "demo", "--out", str(blocker / "x")]):
        result = run_pnp(*args, project=tmp_project)
        assert result.exit_code == 1, args
        assert "Traceback" not in result.output
        assert f"{blocker}" in result.output, result.output
        assert "Not a directory; expected a folder that can be created and written" in result.output, (
            result.output
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_garbage_gives_located_problems_never_a_traceback(demo: Project, garbage):
    path = demo.cards_dir / "demo" / "orders.yaml"
    if isinstance(garbage, bytes):
        path.write_bytes(garbage)
    else:
        path.write_text(garbage, encoding="utf-8")
    try:
        check_game(load_game(demo, "demo"))
    except InputError as exc:
        assert exc.problems and all(p.message for p in exc.problems)


def test_expand_gives_one_entry_per_copy(demo: Project):
    from generator.data.expand import expand_ids, physical_cards

    game = load_game(demo, "demo")
    assert expand_ids(game.decks["toppings"]) == ["olive"] * 3 + ["onion"] * 2
    assert {k: len(v) for k, v in physical_cards(game).items()} == {"toppings": 5, "orders": 2}


# Wrong shapes a new designer writes: each gives exactly one located line (and no "deck has no file" echo).
# (file, [(old, new), ...] or the whole new text, expected problem)
WRONG_SHAPES = {
    "cards-mapping": (
        "orders.yaml",
        [("  - id: ann", "  ann:\n    id: ann"), ("  - id: bob", "  bob:\n    id: bob")],
        "cards/demo/orders.yaml:8: 'cards' is a mapping; expected a list",
    ),
    "card-string": (
        "toppings.yaml",
        [("    kind: topping\n  - id: onion", "    kind: topping\n  - onion\n  - id: onion")],
        "cards/demo/toppings.yaml:12: 'cards' is 'onion'; expected a mapping of keys and values",
    ),
    "copies-word": (
        "toppings.yaml",
        [("copies: 3", 'copies: "three"')],
        "cards/demo/toppings.yaml:10: 'copies' is 'three'; expected a whole number",
    ),
    "players-number": (
        "game.yaml",
        [("players: {min: 2, max: 3}", "players: 4")],
        "cards/demo/game.yaml:3: 'players' is 4; expected a mapping of keys and values",
    ),
    "unknown-field-type": (
        "orders.yaml",
        [("value: {type: int, min: 1}", "value: {type: integer, min: 1}")],
        "cards/demo/orders.yaml:7: 'fields.value.type' is 'integer' (did you mean 'int'?); expected one of: "
        "text, int, number, bool, color, choice, ref, refs, counts, address, list, icon",
    ),
    "ref-to-nothing": (
        "orders.yaml",
        [
            (
                "  value: {type: int, min: 1}",
                "  value: {type: int, min: 1}\n  friend: {type: ref, to: nobody, required: false}",
            )
        ],
        "cards/demo/orders.yaml:8: field 'friend' points to 'nobody', which does not exist; "
        "expected one of: orders, toppings, town.spaces, town.streets",
    ),
    "at-one-value": (
        "board.yaml",
        [("{id: a1, at: [1, 0]}", "{id: a1, at: [1]}")],
        "cards/demo/board.yaml:7: 'spaces.at' has 1 value; expected 2 values",
    ),
    "top-level-list": (
        "toppings.yaml",
        "- deck: toppings\n- name: Toppings deck\n",
        "cards/demo/toppings.yaml:1: expected a mapping of keys and values, found a list",
    ),
}


@pytest.mark.parametrize("case", sorted(WRONG_SHAPES))
def test_wrong_shapes_give_one_located_line(demo: Project, case: str):
    name, change, expected = WRONG_SHAPES[case]
    if isinstance(change, str):
        (demo.cards_dir / "demo" / name).write_text(change, encoding="utf-8")
    else:
        for old, new in change:
            edit(demo, name, old, new)
    assert problems_of(demo) == [expected]
    result = run_pnp("validate", "--no-sim", project=demo)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert expected in result.output


def test_validate_finds_a_layout_typo(demo: Project):
    """Layouts are checked by `pnp validate`, not only by `pnp build`."""
    layout = demo.cards_dir / "demo" / "layouts" / "toppings.yaml"
    layout.write_text(
        layout.read_text(encoding="utf-8").replace("align: center", "allign: center"), encoding="utf-8"
    )
    result = run_pnp("validate", "--no-sim", project=demo)
    assert result.exit_code == 1
    assert "cards/demo/layouts/toppings.yaml:3: unknown key 'allign' (did you mean 'align'?)" in result.output
    assert "Traceback" not in result.output


def test_validate_finds_text_that_does_not_fit(demo: Project):
    """The card sheets are drawn once (nothing written), so an overflowing text fails validation naming card
    and box."""
    edit(demo, "orders.yaml", "name: Bob", "name: " + "Bartholomew " * 30)
    result = run_pnp("validate", "--no-sim", project=demo)
    assert result.exit_code == 1
    assert "DEM-ORD-02" in result.output and "'title'" in result.output
    assert "Traceback" not in result.output
    assert not demo.build_dir.exists()


def test_paths_are_kept_inside_the_project_with_links_resolved(tmp_path):
    from generator.data.project import Project

    project = Project(tmp_path / "proj")
    (project.root / "cards" / "g").mkdir(parents=True)
    (project.root / "cards" / "g" / "art.png").write_bytes(b"x")
    outside = tmp_path / "secret.yaml"
    outside.write_text("password: hunter2")
    (project.root / "cards" / "g" / "link.yaml").symlink_to(outside)
    game_dir = project.root / "cards" / "g"
    assert project.inside("art.png", game_dir) == (game_dir / "art.png").resolve()
    for bad in ("../../../secret.yaml", "link.yaml", str(outside)):
        with pytest.raises(InputError) as info:
            project.inside(bad, game_dir, file="cards/g/deck.yaml", line=7, what="image")
        message = str(info.value)
        assert message.startswith(f"cards/g/deck.yaml:7: image '{bad}' is outside the project folder")
        assert "hunter2" not in message


@pytest.mark.parametrize("game, file, old, new, line", [
    ("order-up-pizza", "orders.yaml", "id: big-bob\n", "id: pepperoni\n",
     "cards/order-up-pizza/orders.yaml:170: card id 'pepperoni' is also a card of deck 'toppings' "
     "(cards/order-up-pizza/toppings.yaml:14)"),
    ("order-up-trading", "ingredients.yaml", "id: burrito-rice\n", "id: burger\n",
     "cards/order-up-trading/ingredients.yaml:23: card id 'burger' is also a card of deck 'recipes' "
     "(cards/order-up-trading/recipes.yaml:19)"),
    ("short-order-hero", "recipes.yaml", "id: short-order-special\n", "id: garlic\n",
     "cards/short-order-hero/ingredients.yaml:51: card id 'garlic' is also a card of deck 'recipes' "
     "(cards/short-order-hero/recipes.yaml:166)"),
])
def test_a_card_id_used_by_two_decks_is_a_located_problem(tmp_project: Project, game, file, old, new, line):
    """Card ids are unique across a game's decks (a pizza order called like a topping used to pass, and the
    usage statistics then counted the two as one card)."""
    path = tmp_project.cards_dir / game / file
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    result = run_pnp("validate", game, "--no-sim", project=tmp_project)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    problems = [text for text in result.output.splitlines() if text.startswith("cards/")]
    assert len(problems) == 1 and problems[0].startswith(line + "; expected card ids unique in the game"), (
        result.output
    )
    assert result.output.rstrip().endswith("1 problem found.")
