"""Spreadsheets as designers keep them (issue 32): five sheets in the header styles of real games (Squib's
`Name, Cost, Qty`, a German `Übersetzung` sheet under a title row, a wargame's counters with no name column, a
Portuguese solo game that lists its 16 backs among the cards and repeats a name, one workbook of several
sheets), unchanged, build and validate with only deck-file settings."""

from __future__ import annotations

import shutil

import pypdfium2 as pdfium
import pytest

from generator.data.load import load_game
from generator.data.project import Project
from tests.conftest import REPO, run_pnp
from tests.fixtures.workbooks import write_sheet_styles

GAME = "sheet-styles"
SHEETS = REPO / "tests" / "fixtures" / "sheets-project"


@pytest.fixture
def sheets_project(tmp_path) -> Project:
    """A copy of tests/fixtures/sheets-project with its campaign.xlsx written; safe to break."""
    shutil.copytree(SHEETS, tmp_path / "sheets")
    write_sheet_styles(tmp_path / "sheets" / "cards" / GAME)
    return Project(tmp_path / "sheets")


def test_five_header_styles_load_with_deck_file_settings_only(sheets_project):
    decks = load_game(sheets_project, GAME).decks
    squib = decks["squib"]
    assert [(c.id, c.name, c.cost, c.copies) for c in squib.cards] == [
        ("fireball", "Fireball", 3, 2), ("ice-wall", "Ice Wall", 2, 1),
        ("healing-light", "Healing Light", 1, 3)]
    assert squib.card("ice-wall").line_of("cost") == 3
    karten = decks["karten"]
    assert [(c.id, c.translation, c.copies) for c in karten.cards] == [
        ("raumschiff", "Spaceship", 2), ("schwarzes-loch", "Black hole", 1), ("wurmloch", "Wormhole", 1),
        ("ausserer-ring", "Outer ring", 3)]
    counters = decks["counters"]
    assert [(c.id, c.name, c.strength, c.move, c.copies) for c in counters.cards][:3] == [
        ("1-5-inf", "1/5 INF", 4, 3, 1), ("2-5-inf", "2/5 INF", 4, 3, 1), ("3-7-arm", "3/7 ARM", 6, 5, 1)]
    solo = decks["solo"]
    assert [c.id for c in solo.cards] == ["tempestade-2", "farol-4", "tempestade-6", "naufrago-8"]
    assert solo.card("tempestade-6").text == "Descarte uma carta." and solo.card("naufrago-8").copies == 3
    assert [c.name for c in decks["base"].cards] == ["Knight", "Goblin", "Potion"]
    assert [c.name for c in decks["expansion"].cards] == ["Wizard", "Dragon"]
    dragon = decks["expansion"].card("dragon")
    assert dragon.file == f"cards/{GAME}/sheets/campaign.xlsx"
    assert dragon.line_of("text").cell == "Expansion!C3"


def test_they_build_and_validate(sheets_project):
    result = run_pnp("validate", GAME, "--no-sim", project=sheets_project)
    assert result.exit_code == 0, result.output
    result = run_pnp("build", GAME, "--paper", "a4", project=sheets_project)
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(sheets_project.build_dir / GAME / "cards-a4.pdf")
    text = "".join(pdf[index].get_textpage().get_text_range() for index in range(len(pdf)))
    for name in ("Fireball", "Äußerer Ring", "1/5 INF", "Náufrago", "Dragon"):
        assert name in text
    assert "Verso" not in text  # the back rows are filtered out


def _problems(project) -> list[str]:
    result = run_pnp("validate", GAME, "--no-sim", project=project)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.output.strip().splitlines()[:-1]


def _edit(project, deck: str, old: str, new: str) -> None:
    path = project.cards_dir / GAME / f"{deck}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


SOLO, SQUIB = f"cards/{GAME}/solo.yaml", f"cards/{GAME}/squib.yaml"
BAD_SETTINGS = {
    "a column map naming no column": (
        "solo", "Texto: text", "Textos: text",
        [f"{SOLO}:8: `columns:` names 'Textos', which is no column of cards/{GAME}/sheets/solo.csv (did you "
         "mean 'Texto'?); expected one of the headers in row 1: Nome, Quantidade, Texto, Tipo"]),
    "a column map naming no key": (
        "solo", "Texto: text", "Texto: txt",
        [f"{SOLO}:8: `columns:` maps 'Texto' to 'txt', which is no key of this deck (did you mean 'text'?); "
         "expected one of: id, name, copies, layout, back, icon, image, players, tipo, text (or null to "
         "leave the column out)"]),
    "two columns mapped to one key": (
        "solo", "Texto: text", "Texto: text, Tipo: text",
        [f"{SOLO}:8: `columns:` maps both 'Texto' and 'Tipo' to 'text'; expected one column per key"]),
    "ids that clash once made from names": (
        "solo", '  id: "{{ name }}-{{ row }}"', "",
        [f"cards/{GAME}/sheets/solo.csv:6: the id 'tempestade' made from the name 'Tempestade' is also made "
         "from 'Tempestade' (line 2); expected unique ids (add an id column, or an `id:` template under "
         "`cards_from:` such as \"{{ name }}-{{ row }}\")"]),
    "a header row past the end": (
        "squib", "  columns: {Qty: copies}", "  columns: {Qty: copies}\n  header_row: 9",
        [f"{SQUIB}:9: header_row: 9, but cards/{GAME}/sheets/squib.csv has 4 rows; expected the row that "
         "names the columns"]),
    "a filter that does not parse": (
        "solo", "where: Tipo != 'verso'", "where: Tipo !=",
        [f"{SOLO}:9: where: syntax error: unexpected 'end of template'; expected an expression over the "
         "row's columns, such as Type != 'back'"]),
    "a filter naming no column": (
        "solo", "where: Tipo != 'verso'", "where: Typ != 'verso'",
        [f"cards/{GAME}/sheets/solo.csv:2: where: 'Typ' is undefined; expected an expression over the row's "
         "columns, such as Type != 'back' (this row has: Nome, Quantidade, Texto, Tipo, cells, copies, name, "
         "row, text, tipo)"]),
    "the title row read as the header": (
        "karten", "  header_row: 2                       # row 1 is the sheet's title\n", "",
        [f"cards/{GAME}/karten.yaml:8: `columns:` names '{header}', which is no column of "
         f"cards/{GAME}/sheets/karten.csv; expected one of the headers in row 1: Kartenliste Sternenfahrt – "
         "Stand März 2024 (row 2 does: write `header_row: 2` under `cards_from:`)" for header in ("Anzahl",
                                                                                                   "Übersetzung")]),
}


@pytest.mark.parametrize("case", list(BAD_SETTINGS))
def test_each_bad_setting_is_one_located_line(sheets_project, case):
    deck, old, new, expected = BAD_SETTINGS[case]
    _edit(sheets_project, deck, old, new)
    assert _problems(sheets_project) == expected


def _write(project, name: str, text: str) -> None:
    (project.cards_dir / GAME / "sheets" / name).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("text, expected", [
    ("Name, Cost, Qty, copies_\nFireball, 3, 2, 1\n",
     "squib.csv:1: unknown column 'copies_' (did you mean 'copies'?)"),
    ("Name, Cost, Qty\nFireball, 3, 1_0\n",
     "squib.csv:2: copies: '1_0' is not a number; expected a whole number"),
    ("Name, Cost, Qty\nFire Ball, 3, 1\nFire-Ball!, 2, 1\n",
     "squib.csv:3: the id 'fire-ball' made from the name 'Fire-Ball!' is also made from 'Fire Ball' "
     "(line 2)"),
    ("Title, Cost, Qty\nFireball, 3, 2\n", "squib.csv:1: unknown column 'Title' (did you mean 'name'?)"),
    ("Name, Cost, Quantity\nFireball, 3, 2\n",
     "squib.yaml:8: `columns:` names 'Qty', which is no column of cards/sheet-styles/sheets/squib.csv"),
])
def test_header_typos_and_cells_of_a_csv(sheets_project, text, expected):
    _write(sheets_project, "squib.csv", text)
    found = _problems(sheets_project)
    starts = (f"cards/{GAME}/sheets/{expected}", f"cards/{GAME}/{expected}")
    assert any(line.startswith(starts) for line in found), found


def test_tokens_and_a_table_read_a_sheet_like_a_deck(sheets_project):
    game = load_game(sheets_project, GAME)
    chits = game.components["chits"]
    assert [(item.id, item.name, item.strength, item.copies) for item in chits.items][:2] == [
        ("1-5-inf", "1/5 INF", 4, 1), ("2-5-inf", "2/5 INF", 4, 1)]
    assert chits.items[0].file == f"cards/{GAME}/sheets/counters.csv" and chits.items[0].line_of("move") == 2
    terrain = game.tables["terrain"]
    assert [(row.id, row.name, row.move_cost) for row in terrain.rows] == [
        ("clear", "Clear", 1), ("forest", "Forest", 2), ("mountain", "Mountain", 3)]
    result = run_pnp("build", GAME, "--paper", "a4", project=sheets_project)
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(sheets_project.build_dir / GAME / "components-a4.pdf")
    text = "".join(pdf[index].get_textpage().get_text_range() for index in range(len(pdf)))
    assert "3/7 ARM" in text and "6\u20135" in text  # typeset with an en dash


@pytest.mark.parametrize("file, text, expected", [
    ("counters.csv", "ID,Strength,Move\n1/5 INF,four,3\n",
     "cards/sheet-styles/sheets/counters.csv:2: strength: 'four' is not a number; expected a whole number"),
    ("terrain.csv", "Terrain,Move Cost\nClear,1\nClear,2\n",
     "cards/sheet-styles/sheets/terrain.csv:3: the id 'clear' made from the name 'Clear' is also made from "
     "'Clear' (line 2)"),
    ("terrain.csv", "Terrain,Move Costs\nClear,1\n",
     "cards/sheet-styles/sheets/terrain.csv:1: unknown column 'Move Costs' (did you mean 'move_cost'?)"),
])
def test_a_bad_cell_of_a_component_or_table_sheet_is_located(sheets_project, file, text, expected):
    _write(sheets_project, file, text)
    found = _problems(sheets_project)
    assert any(line.startswith(expected) for line in found), found


def test_a_table_with_both_rows_and_a_sheet(sheets_project):
    path = sheets_project.cards_dir / GAME / "terrain.yaml"
    path.write_text(path.read_text() + "rows:\n  - {id: x, name: X, move_cost: 1}\n")
    assert _problems(sheets_project) == [
        f"cards/{GAME}/terrain.yaml:3: table 'terrain' has both `rows:` and `cards_from:`; expected either "
        "`rows:` (a list) or `cards_from:` (a .csv, .xlsx or .ods file)"]


def test_one_changed_cell_changes_only_the_fingerprints_of_its_faces(sheets_project):
    from generator.studio import faces as facemod

    before = facemod.fingerprints(load_game(sheets_project, GAME))
    path = sheets_project.cards_dir / GAME / "sheets" / "solo.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("Compre uma carta.", "Compre duas cartas."),
                    encoding="utf-8")
    after = facemod.fingerprints(load_game(sheets_project, GAME))
    assert sorted(key for key in before if after[key] != before[key]) == ["solo/farol-4"]
