"""Spreadsheet card sources: CSV, XLSX and ODS decks load like YAML decks, every problem names the line or
cell, and `pnp export csv` round-trips every bundled deck without losing anything."""

from __future__ import annotations

import datetime as dt
import re
import shutil

import pytest

from generator.core.errors import Cell, InputError
from generator.data.load import load_game
from generator.exports.cards_csv import deck_csv
from tests.conftest import REPO, run_pnp
from tests.fixtures.workbooks import EVENTS, write_ods, write_xlsx

GAME = "space-race"
EVENTS_FILE = f"cards/{GAME}/events.xlsx"


def problems(project, game: str = GAME) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_game(project, game)
    return [str(p) for p in caught.value.problems]


def game_dir(project, game: str = GAME):
    return project.cards_dir / game


def test_csv_and_xlsx_cards_load_with_their_cells(designer_project):
    game = load_game(designer_project, GAME)
    crew, events = game.decks["crew"], game.decks["events"]
    captain = crew.card("captain")
    assert captain.file == f"cards/{GAME}/crew.csv" and captain.line == 5
    assert captain.back == "captain-back" and crew.card("pilot").back is None
    assert captain.skills == ["velení", "Command; Control"]  # '\;' keeps a ';' inside an item
    assert crew.card("medic").skills is None  # an empty cell is "not given"
    assert crew.card("engineer").name == "Инженер Петров" and crew.card("engineer").power == 3
    meteor = events.card("meteor")
    assert meteor.cost == {"metal": 2, "oxygen": 1}
    assert isinstance(meteor.line_of("cost"), Cell) and meteor.line_of("cost").cell == "Events!D3"
    assert events.card("supply-drop").copies == 2  # a formula: its stored result is used
    assert events.source == EVENTS_FILE and events.file == f"cards/{GAME}/events.yaml"


def test_a_problem_in_a_workbook_names_sheet_and_cell(designer_project):
    rows = [list(row) for row in EVENTS]
    rows[2][3] = "metal: 2; oxygn: 1"
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows, cached={"C4": "2"})
    from generator.pipeline.gather import check_game

    with pytest.raises(InputError) as caught:
        check_game(load_game(designer_project, GAME))
    assert [str(p) for p in caught.value.problems] == [
        f"{EVENTS_FILE}:Events!D3: resource 'oxygn' is not defined (did you mean 'oxygen'?); known: fuel, "
        "metal, oxygen"
    ]


def _move_to_csv(project, game_id: str, deck_id: str) -> str:
    """Export a bundled deck to CSV and point the deck file at it; the CSV's path as messages show it."""
    game = load_game(project, game_id)
    deck = game.decks[deck_id]
    (game_dir(project, game_id) / f"{deck_id}.csv").write_text(deck_csv(deck), encoding="utf-8")
    path = project.root / deck.file
    head = path.read_text(encoding="utf-8").split("\ncards:")[0]
    path.write_text(head + f"\ncards_from: {deck_id}.csv\n", encoding="utf-8")
    return f"cards/{game_id}/{deck_id}.csv"


def test_a_problem_in_a_csv_names_the_line_header_being_line_one(tmp_project):
    shown = _move_to_csv(tmp_project, "order-up-pizza", "orders")
    path = tmp_project.root / shown
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[13].startswith("nurse-nadia,")  # line 14 of the file
    lines[13] = lines[13].replace("black-olives: 2", "black-olivs: 2")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    from generator.pipeline.gather import check_game

    with pytest.raises(InputError) as caught:
        check_game(load_game(tmp_project, "order-up-pizza"))
    assert str(caught.value.problems[0]).startswith(
        f"{shown}:14: topping 'black-olivs' is not defined (did you mean 'black-olives'?)"
    ), caught.value


def test_lines_count_the_lines_of_a_quoted_cell(designer_project):
    path = game_dir(designer_project) / "crew.csv"
    text = path.read_text(encoding="utf-8").replace("Heal one crew member.", '"Heal one\ncrew member."')
    path.write_text(text.replace(",captain,5,", ",captain,50,"), encoding="utf-8")
    assert problems(designer_project) == [
        f"cards/{GAME}/crew.csv:6: 'power' is 50: input should be less than or equal to 9"
    ]


def test_an_id_with_accents_says_so_and_blanks_around_a_cell_are_stripped(designer_project):
    rows = [list(row) for row in EVENTS]
    rows[1][0], rows[2][0] = "szczęśliwy-rzut", "gwiazda "
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows, cached={"C4": "2"})
    rule = "a lower-case id (a-z without accents, digits, '-' and '_', starting with a letter or digit)"
    assert problems(designer_project) == [
        f"{EVENTS_FILE}:Events!A2: 'id' is 'szczęśliwy-rzut'; expected {rule}, such as 'szczesliwy-rzut'"]
    rows[1][0] = " solar-flare"  # issue 32: designers' sheets have trailing blanks; a cell is read stripped
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows, cached={"C4": "2"})
    assert [card.id for card in load_game(designer_project, GAME).decks["events"].cards] == [
        "solar-flare", "gwiazda", "supply-drop"]


@pytest.mark.parametrize("game_id", ["order-up-pizza", "order-up-trading", "short-order-hero"])
def test_every_bundled_deck_survives_the_trip_to_csv_and_back(tmp_project, game_id):
    before = load_game(tmp_project, game_id)
    for deck_id in before.decks:
        _move_to_csv(tmp_project, game_id, deck_id)
    after = load_game(tmp_project, game_id)
    for deck_id, deck in before.decks.items():
        moved = after.decks[deck_id]
        assert moved.source == f"cards/{game_id}/{deck_id}.csv"
        assert [card.as_dict() for card in moved.cards] == [card.as_dict() for card in deck.cards]
        assert deck_csv(moved) == deck_csv(deck)


def test_pnp_export_csv_writes_every_deck(tmp_project):
    result = run_pnp("export", "csv", "short-order-hero", project=tmp_project)
    assert result.exit_code == 0, result.output
    folder = tmp_project.build_dir / "short-order-hero" / "csv"
    assert sorted(p.name for p in folder.iterdir()) == ["ingredients.csv", "recipes.csv"]
    data = (folder / "recipes.csv").read_bytes()
    assert data.startswith("\ufeff".encode()) and b"id,name,copies" in data


def test_an_ods_deck_loads(designer_project):
    write_ods(game_dir(designer_project) / "events.ods", [row if row[2] != "=1+1" else [*row[:2], 2, *row[3:]]
                                                          for row in EVENTS])
    deck_file = game_dir(designer_project) / "events.yaml"
    deck_file.write_text(deck_file.read_text().replace("events.xlsx", "events.ods"))
    game = load_game(designer_project, GAME)
    assert [card.copies for card in game.decks["events"].cards] == [2, 3, 2]
    assert game.decks["events"].card("meteor").name == "Метеоритный дождь"


def _header(rows, **changes):
    rows = [list(row) for row in rows]
    for column, name in changes.items():
        rows[0]["ABCDEFG".index(column)] = name
    return rows


XLSX_CASES = {
    "missing header": (
        lambda: [list(row) for row in EVENTS[1:]],
        {"cached": {"C3": "2"}},
        "Events!A1: row 1 does not name the columns (it holds 'solar-flare', 'Sluneční erupce', "
        "'2', 'fuel: 1', 'Každý hráč odhodí 1 kartu.'); expected a header row naming them, such as: "
        "id, name, copies, cost, effect",
    ),
    "duplicate header": (
        lambda: [row + [row[1] if i == 0 else "x"] for i, row in enumerate(EVENTS)],
        {},
        "Events!F1: column 'name' appears twice (B1 and F1); expected each column once",
    ),
    "unknown column": (
        lambda: _header(EVENTS, E="efect"),
        {},
        "Events!E1: unknown column 'efect' (did you mean 'effect'?); expected one of: id, name, "
        "copies, layout, back, icon, image, players, cost, effect",
    ),
    "merged cells": (
        lambda: EVENTS,
        {"merge": "A3:B3"},
        "Events!A3: cells A3:B3 are merged, so only the first holds a value; expected one value per "
        "cell (unmerge them and fill each cell)",
    ),
    "formula without a result": (
        lambda: EVENTS,
        {},
        "Events!C4: the formula =1+1 has no computed value (the file was never recalculated); "
        "expected the workbook saved by a spreadsheet program, which stores each formula's result",
    ),
    "formula with an error": (
        lambda: EVENTS,
        {"errors": {"C4": "#DIV/0!"}},
        "Events!C4: the cell shows the error #DIV/0!; expected a value (fix the formula)",
    ),
    "wrong type": (
        lambda: [row if row[0] != "meteor" else [*row[:2], "three", *row[3:]] for row in EVENTS],
        {"cached": {"C4": "2"}},
        "Events!C3: copies: 'three' is not a number; expected a whole number",
    ),
    "a date in a whole-number column": (
        lambda: [row if row[0] != "meteor" else [*row[:2], dt.date(2024, 1, 5), *row[3:]] for row in EVENTS],
        {"cached": {"C4": "2"}},
        "Events!C3: copies: the cell holds a date or time (2024-01-05); expected a whole "
        "number (format the cell as a number)",
    ),
    "a date in a counts column": (
        lambda: [row if row[0] != "meteor" else [*row[:3], dt.date(2024, 1, 5), row[4]] for row in EVENTS],
        {"cached": {"C4": "2"}},
        "Events!D3: cost: the cell holds a date or time (2024-01-05); expected 'id: count' "
        "pairs such as 'mushrooms: 2; onions: 1' (format the cell as text)",
    ),
    "broken counts": (
        lambda: [row if row[0] != "meteor" else [*row[:3], "metal 2", row[4]] for row in EVENTS],
        {"cached": {"C4": "2"}},
        "Events!D3: cost: 'metal 2' has no count; expected 'id: count' pairs such as 'mushrooms: 2; onions: "
        "1'",
    ),
    "empty sheet": (
        lambda: [],
        {},
        "Events!A1: sheet 'Events' is empty; expected a header row naming the columns "
        "(id, name, copies, cost, effect, ...) and one row per card",
    ),
}


@pytest.mark.parametrize("case", list(XLSX_CASES))
def test_each_bad_workbook_is_one_located_line(designer_project, case):
    rows, options, message = XLSX_CASES[case]
    if "cached" not in options and "errors" not in options and case != "formula without a result":
        options = {**options, "cached": {"C4": "2"}}
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows(), **options)
    assert problems(designer_project) == [f"{EVENTS_FILE}:{message}"]


def test_an_empty_required_cell_is_named_at_its_cell(designer_project):
    rows = [list(row) for row in EVENTS]
    rows[1][1], rows[2][4] = "", None  # the name of solar-flare, the effect of meteor
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows, cached={"C4": "2"})
    assert problems(designer_project) == [
        f"{EVENTS_FILE}:Events!B2: no name in this cell; expected the card's name (every card needs it)",
        f"{EVENTS_FILE}:Events!E3: no effect in this cell; expected the card's effect (every card needs it)"]


def test_merged_cells_of_an_ods_sheet(designer_project):
    write_ods(game_dir(designer_project) / "events.ods", EVENTS, merge_row=2)
    deck_file = game_dir(designer_project) / "events.yaml"
    deck_file.write_text(deck_file.read_text().replace("events.xlsx", "events.ods"))
    assert problems(designer_project) == [
        f"cards/{GAME}/events.ods:Events!A3: cells A3:B3 are merged, so only the first holds a value; "
        "expected one "
        "value per cell (unmerge them and fill each cell)"
    ]


@pytest.mark.parametrize("name, write, message", [
    ("events.ods", lambda path: write_ods(path, EVENTS, encrypted=True),
     "the workbook is password-protected; expected a workbook saved without a password"),
    ("events.xlsx", lambda path: path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024)),
     "the workbook is password-protected (encrypted); expected a workbook saved without a password"),
    ("events.xlsx", lambda path: path.write_bytes(b"PK\x03\x04 this is not a workbook"),
     "cannot read the workbook (invalid Zip archive: Could not find EOCD); expected an undamaged .xlsx file"),
])
def test_protected_and_corrupt_workbooks(designer_project, name, write, message):
    write(game_dir(designer_project) / name)
    deck_file = game_dir(designer_project) / "events.yaml"
    deck_file.write_text(deck_file.read_text().replace("events.xlsx", name))
    assert problems(designer_project) == [f"cards/{GAME}/{name}: {message}"]


def test_an_unknown_sheet_is_named_at_the_deck_file(designer_project):
    deck_file = game_dir(designer_project) / "events.yaml"
    deck_file.write_text(deck_file.read_text().replace("sheet: Events", "sheet: Event"))
    assert problems(designer_project) == [
        f"cards/{GAME}/events.yaml:6: no sheet 'Event' in {EVENTS_FILE} (did you mean 'Events'?); known: "
        "Events"
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "",
            "crew.csv:1: the file is empty; expected a header row naming the columns (id, name, copies, "
            "role, power, "
            "color, text, ...) and one row per card",
        ),
        (
            "id,name,copies,role,power,color,text\n",
            "crew.csv:1: the header row is there but no card follows; expected one row per card below it",
        ),
        (
            "id,name,copies,role,power,color\npilot,Pilot,1,pilot,2,#1f5fbf\n",
            "crew.csv:1: no column 'text'; expected a column named 'text' in row 1 (every card needs it)",
        ),
        (
            "id,name,copies,role,power,color,text,,\npilot,Pilot,1,pilot,2,#1f5fbf,Go.,,stray\n",
            "crew.csv:2: column I has no name in row 1 but holds 'stray'; expected a column name in I1 (one "
            "of: id, name, "
            "copies, layout, back, icon, image, players, role, power, color, text, skills)",
        ),
        (
            "id;name;copies;role;power;color;text\npilot;Pilot;one;pilot;2;#1f5fbf;Go.\n",
            "crew.csv:2: copies: 'one' is not a number; expected a whole number",
        ),
        (
            "id,name,copies,role,power,color,text\npilot,Pilot,1,pilot,2,#1f5fbf,\n",
            "crew.csv:2: no text in column G of this row; expected the card's text (every card needs it)",
        ),
    ],
)
def test_bad_csv_files(designer_project, text, message):
    (game_dir(designer_project) / "crew.csv").write_text(text, encoding="utf-8")
    assert problems(designer_project) == [f"cards/{GAME}/{message}"]


@pytest.mark.parametrize("deck, written, wrong, hint", [
    ("crew", "cards_from: crew.csv", "cards_from: crw.csv", " (did you mean 'crew.csv'?)"),
    ("events", "file: events.xlsx", "file: evnets.xlsx", " (did you mean 'events.xlsx'?)"),
    ("events", "file: events.xlsx", "file: tables/zzz.ods", ""),
])
def test_a_missing_spreadsheet_is_named_at_the_deck_file(designer_project, deck, written, wrong, hint):
    deck_file = game_dir(designer_project) / f"{deck}.yaml"
    deck_file.write_text(deck_file.read_text().replace(written, wrong))
    name = wrong.split(": ")[1]
    assert problems(designer_project) == [
        f"cards/{GAME}/{deck}.yaml:6: spreadsheet '{name}' not found{hint}; expected a .csv, .xlsx or .ods "
        "file with "
        f"one row per card (a path relative to cards/{GAME}/)"
    ]


def test_a_spreadsheet_outside_the_game_folder_is_refused(designer_project):
    shutil.copy(game_dir(designer_project) / "crew.csv", designer_project.root / "crew.csv")
    deck_file = game_dir(designer_project) / "crew.yaml"
    deck_file.write_text(deck_file.read_text().replace("cards_from: crew.csv", "cards_from: ../../crew.csv"))
    assert problems(designer_project) == [
        f"cards/{GAME}/crew.yaml:6: spreadsheet '../../crew.csv' is outside the "
        f"game folder; expected a path inside cards/{GAME}/ or templates/"
    ]


def test_a_deck_with_both_cards_and_cards_from(designer_project):
    deck_file = game_dir(designer_project) / "crew.yaml"
    deck_file.write_text(deck_file.read_text() + "cards:\n  - {id: x, name: X, copies: 1}\n")
    found = problems(designer_project)
    assert found == [
        f"cards/{GAME}/crew.yaml:6: deck 'crew' has both `cards:` and `cards_from:`; expected either "
        "`cards:` (a list of cards) or `cards_from:` (a .csv, .xlsx or .ods file)"
    ]


def test_a_broken_workbook_fails_the_build_and_keeps_the_last_good_pdfs(designer_project):
    assert run_pnp("build", "--paper", "letter", project=designer_project).exit_code == 0
    built = designer_project.build_dir / GAME / "cards-letter.pdf"
    before = built.read_bytes()
    (game_dir(designer_project) / "events.xlsx").write_bytes(b"not a workbook")
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(rf"^{EVENTS_FILE}: cannot read the workbook .*; expected an undamaged .xlsx file$",
                     result.output, re.M), result.output
    assert built.read_bytes() == before
    result = run_pnp("validate", "--no-sim", project=designer_project)
    assert result.exit_code == 1 and f"{EVENTS_FILE}: cannot read the workbook" in result.output


def _events_with(project, column: str, values: dict[str, str]) -> None:
    """events.xlsx with one more column, filled for the named cards."""
    rows = [EVENTS[0] + [column]] + [row + [values.get(row[0], "")] for row in EVENTS[1:]]
    write_xlsx(game_dir(project) / "events.xlsx", rows, sheet="Events", cached={"C4": "2"})


def test_a_missing_icon_typed_in_a_cell_is_named_at_the_cell_with_the_games_icons_first(designer_project):
    icons = game_dir(designer_project) / "icons"
    icons.mkdir()
    shutil.copy(REPO / "generator" / "assets" / "icons" / "star.svg", icons / "comet.svg")
    layout = game_dir(designer_project) / "layouts" / "event.yaml"
    layout.write_text(layout.read_text(encoding="utf-8")
                      + '  picture: {x: 27mm, y: 14.5mm, width: 9mm, height: 9mm, icon: "{{ card.icon }}"}\n',
                      encoding="utf-8")
    _events_with(
        designer_project, "icon", {"solar-flare": "comet", "meteor": "turtle", "supply-drop": "bell"}
    )
    result = run_pnp("validate", GAME, "--no-sim", project=designer_project)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(
        f"{EVENTS_FILE}:Events!F3: card SPR-EVT-02 (meteor) icon: icon 'turtle' does not exist; "
        "known: comet (this game's), then the built-in anchovies, "
    ), lines
    assert lines[0].endswith(f"(drawn by box 'picture' of cards/{GAME}/layouts/event.yaml:13)"), lines[0]
    assert lines[-1] == "1 problem found."


def test_a_wrong_back_typed_in_a_cell_is_named_at_the_cell(designer_project):
    _events_with(designer_project, "back", {"supply-drop": "event-bak"})
    result = run_pnp("validate", GAME, "--no-sim", project=designer_project)
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"{EVENTS_FILE}:Events!F4: layout 'event-bak' not found (did you mean "
                                    "'event-back'?)"), result.output


def test_a_text_too_long_for_its_box_names_the_cell_it_comes_from(designer_project):
    rows = [list(row) for row in EVENTS]
    rows[1][4] = "Každý hráč odhodí 1 kartu. " * 40
    write_xlsx(game_dir(designer_project) / "events.xlsx", rows, cached={"C4": "2"})
    result = run_pnp("validate", GAME, "--no-sim", project=designer_project)
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert lines[0].startswith(
        f"cards/{GAME}/layouts/event.yaml:4: card SPR-EVT-01 (solar-flare): box 'effect': "
        f"text from {EVENTS_FILE}:Events!E2 does not fit even at 7 pt ("
    ), lines
    assert lines[-1] == "1 problem found."
