"""Cards that depend on the player count (issue 32): `players: 3+` or `2-4` on a card or a spreadsheet row;
the deal and the validator's simulations follow it (engines set up from the game for that many players), the
rules text can ask for a deck's cards at a count, and a range no count allows is located."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.templating import GameHelpers, game_view
from generator.validator.harness import play_game
from tests.fixtures import toy_engine as toy


@pytest.fixture
def project(tmp_path):
    project = toy.make_toy_project(tmp_path)
    numbers = project.cards_dir / "toy" / "numbers.yaml"
    numbers.write_text(numbers.read_text().replace(
        "  - {id: four, name: Four, copies: 2, value: 4}",
        "  - {id: four, name: Four, copies: 2, value: 4, players: 3+}\n"
        "  - {id: five, name: Five, copies: 1, value: 5, players: 2-3}"))
    return project


def test_a_card_range_and_the_game_for_a_player_count(project):
    game = load_game(project, "toy")
    four, five = game.decks["numbers"].card("four"), game.decks["numbers"].card("five")
    assert (four.players.label, five.players.label) == ("3+", "2-3")
    assert four.as_dict()["players"] == "3+" and game.decks["numbers"].card("one").players is None
    ids = {n: [c.id for c in game.for_players(n).decks["numbers"].cards] for n in (2, 3, 4)}
    assert ids == {2: ["one", "two", "three", "five"], 3: ["one", "two", "three", "four", "five"],
                   4: ["one", "two", "three", "four"]}
    assert len(game.decks["numbers"].cards) == 5  # every card is still printed


def test_the_simulated_deal_follows_the_ranges(project):
    game = load_game(project, "toy")
    for players, dealt in ((2, 16), (4, 17)):
        record = play_game(toy.ENGINE, game, players, 3, ["random"] * players)
        assert f"({dealt} in all)" in record.log[1], record.log[1]
        assert record.failure is None


def test_the_rules_text_helpers(project):
    game = load_game(project, "toy")
    helpers = GameHelpers(game, game_view(game)).functions()
    assert [card["id"] for card in helpers["in_play"]("numbers", 4)] == ["one", "two", "three", "four"]
    assert (helpers["copies_for"]("numbers", 2), helpers["copies_for"]("numbers", 3)) == (16, 18)


@pytest.mark.parametrize("written, message", [
    ("players: 3++", "players is '3++'; expected a player count such as '3+' (3 or more), '2-4' or 3"),
    ("players: 4-2", "players is '4-2', which no player count meets; expected a range from low to high, such "
                     "as '2-4'"),
    ("players: 5+", "players is '5+', but the game is for 2-4 players, so the card would never be in play; "
                    "expected a range that meets 2-4"),
])
def test_a_range_that_does_not_parse_or_meet_the_game_is_located(project, written, message):
    numbers = project.cards_dir / "toy" / "numbers.yaml"
    numbers.write_text(numbers.read_text().replace("players: 3+", written))
    with pytest.raises(InputError) as caught:
        load_game(project, "toy")
    assert [str(p) for p in caught.value.problems] == [f"cards/toy/numbers.yaml:10: {message}"]


def test_a_spreadsheet_row_gives_its_range_at_its_cell(project):
    folder = project.cards_dir / "toy"
    (folder / "numbers.csv").write_text("Name,Value,Qty,Players\nOne,1,6,\nTwo,2,5,\nThree,3,4,\nFour,4,2,"
                                        "3+\nFive,5,1,9\n", encoding="utf-8")
    numbers = folder / "numbers.yaml"
    head = numbers.read_text().split("cards:")[0]
    numbers.write_text(head + "cards_from: {file: numbers.csv, columns: {Qty: copies}}\n")
    with pytest.raises(InputError) as caught:
        load_game(project, "toy")
    assert [str(p) for p in caught.value.problems] == [
        "cards/toy/numbers.csv:6: players is '9', but the game is for 2-4 players, so the card would never "
        "be in play; expected a range that meets 2-4"]


def test_the_printed_mark(project, tmp_path):
    import pypdfium2 as pdfium

    from generator.faces.face import render_card_pdf

    game = load_game(project, "toy")
    texts = {}
    for card_id in ("one", "four", "five"):
        path = render_card_pdf(game, game.decks["numbers"].card(card_id), tmp_path / f"{card_id}.pdf")
        page = pdfium.PdfDocument(path)[0]
        texts[card_id] = page.get_textpage().get_text_range()
    assert "players" not in texts["one"]
    assert "3+ players" in texts["four"] and "2\u20133 players" in texts["five"]  # set with an en dash


def test_the_printed_mark_speaks_the_games_language(project, tmp_path):
    import pypdfium2 as pdfium

    from generator.faces.face import render_card_pdf

    config = project.cards_dir / "toy" / "game.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "languages: [de]\n", encoding="utf-8")
    game = load_game(project, "toy")
    path = render_card_pdf(game, game.decks["numbers"].card("four"), tmp_path / "four.pdf")
    text = pdfium.PdfDocument(path)[0].get_textpage().get_text_range()
    assert "3+ Spieler" in text and "players" not in text
