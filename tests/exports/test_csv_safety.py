"""Every CSV pnp writes is data, not a program: a cell a spreadsheet would run as a formula is written after
an apostrophe, the export says so once, and reading the file back gives the cards exactly, blanks included."""

from __future__ import annotations

import csv

from generator.core.csvsafe import FORMULA_STARTS, guarded, restored, runs_as_formula
from generator.data.load import load_game
from tests.conftest import run_pnp

HOSTILE = {  # card id -> (name, text)
    "draw-two": ("=2+5", "=HYPERLINK(\"http://evil.example\",\"x\")"),
    "lucky-roll": ("+cmd|' /C calc'!A0", ""),
    "star-chef": ("@SUM(A1:A9)", "  "),
    "head-cook": ("-2+3", "'=already quoted"),
}


def _hostile_deck(project) -> None:
    deck = project.cards_dir / "demo" / "actions.yaml"
    text = deck.read_text(encoding="utf-8")
    for card, (name, body) in HOSTILE.items():
        head, _, rest = text.partition(f"  - id: {card}\n")
        lines = rest.split("\n")
        lines = [f"    name: {csv_yaml(name)}" if line.startswith("    name:") and n < 2 else
                 f"    text: {csv_yaml(body)}" if line.startswith("    text:") and n < 7 else line
                 for n, line in enumerate(lines)]
        text = head + f"  - id: {card}\n" + "\n".join(lines)
    deck.write_text(text, encoding="utf-8")


def csv_yaml(value: str) -> str:
    import json

    return json.dumps(value)  # a JSON string is a YAML string


def test_every_cell_a_spreadsheet_would_run_is_written_as_text_and_reads_back_exactly(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    _hostile_deck(tmp_project)
    before = load_game(tmp_project, "demo").decks["actions"]
    assert [(c.name, c.fields["text"]) for c in before.cards] == list(HOSTILE.values())
    result = run_pnp("export", "csv", "demo", project=tmp_project)
    assert result.exit_code == 0, result.output
    # said once, with the count: the 4 names ('-2+3' is a formula, not a number) and 2 texts
    assert result.output.count("written after an apostrophe") == 1
    assert "6 CSV cells beginning with = + - @, tab or CR" in result.output
    written = tmp_project.build_dir / "demo" / "csv" / "actions.csv"
    rows = list(csv.reader(written.open(encoding="utf-8-sig", newline="")))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in FORMULA_STARTS and not cell.lstrip("+-").isdigit()]
    assert "'=2+5" in cells and "'-2+3" in cells and "''=already quoted" in cells
    # read back as the deck's own cards: the same names and texts, the blank texts still given
    (tmp_project.cards_dir / "demo" / "actions.csv").write_bytes(written.read_bytes())
    deck_file = tmp_project.cards_dir / "demo" / "actions.yaml"
    head = deck_file.read_text(encoding="utf-8").split("\ncards:")[0]
    deck_file.write_text(head + "\ncards_from: actions.csv\n", encoding="utf-8")
    after = load_game(tmp_project, "demo").decks["actions"]
    assert [card.as_dict() for card in after.cards] == [card.as_dict() for card in before.cards]


def test_the_print_shop_listing_guards_its_cells_too(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    _hostile_deck(tmp_project)
    result = run_pnp("export", "pod", "--shop", "gamecrafter", "demo", project=tmp_project)
    assert result.exit_code == 0, result.output
    listing = next((tmp_project.build_dir / "demo" / "pod").rglob("cards.csv"))
    names = [row["name"] for row in csv.DictReader(listing.open(encoding="utf-8", newline=""))]
    assert names[:4] == ["'=2+5", "'+cmd|' /C calc'!A0", "'@SUM(A1:A9)", "'-2+3"]
    assert "written after an apostrophe" in result.output


def test_the_guard_leaves_numbers_and_plain_text_alone_and_undoes_itself():
    for text in ("-3", "+2.5", "1e-3", "Draw Two", "", "'Tis the season", "a=b"):
        assert guarded(text) == text and restored(text) == text
    for text in ("=1", "+1+1", "-x", "@x", "\tx", "\rx", "'=x", "''-x", "-", "=", "+"):
        assert runs_as_formula(text) and guarded(text) == "'" + text and restored(guarded(text)) == text
