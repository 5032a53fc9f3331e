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
        ("fireball", "Fireball", 3, 2), ("ice-wall", "Ice Wall", 2, 1), ("healing-light", "Healing Light", 1, 3)]
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
    assert dragon.file == f"cards/{GAME}/sheets/campaign.xlsx" and dragon.line_of("text").cell == "Expansion!C3"


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
