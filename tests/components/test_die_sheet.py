"""A die's faces read from a spreadsheet (`cards_from:`), like a deck's cards: the same die as `faces:`, each
problem located at its cell."""

from __future__ import annotations

from pypdf import PdfReader

from generator.data.load import load_game
from tests.components.conftest import write_project
from tests.conftest import run_pnp

DIE = "component: dice\nkind: die\nname: Dice\nsize: 16mm\ncopies: 2\n"
WRITTEN = (DIE + "faces:\n" + "".join(f"  - {{pips: {n}}}\n" for n in range(1, 6))
           + "  - {text: 'X', color: '#d62828'}\n")
SHEET = "Pips,Text,Color\n" + "".join(f"{n},,\n" for n in range(1, 6)) + ",X,#d62828\n"


def test_a_die_from_a_sheet_is_the_die_its_faces_would_make(tmp_path):
    written = write_project(tmp_path / "a", {"dice.yaml": WRITTEN})
    sheet = write_project(tmp_path / "b", {"dice.yaml": DIE + "cards_from: dice.csv\n", "dice.csv": SHEET})
    one, other = (load_game(p, "chits").components["dice"] for p in (written, sheet))
    assert [f.model_dump() for f in other.model.faces] == [f.model_dump() for f in one.model.faces]
    assert [i.fields for i in other.items] == [i.fields for i in one.items]
    assert other.items[0].file == "cards/chits/dice.csv"  # the faces are located in the sheet
    for project in (written, sheet):
        assert run_pnp("build", "--paper", "a4", project=project).exit_code == 0
    pages = [PdfReader(p.build_dir / "chits" / "components-a4.pdf").pages[0].extract_text()
             for p in (written, sheet)]
    assert pages[0] == pages[1]


def test_a_wrong_cell_and_a_wrong_count_are_located(tmp_path):
    bad = write_project(tmp_path / "c", {"dice.yaml": DIE + "cards_from: dice.csv\n",
                                         "dice.csv": SHEET.replace("3,,", "seven,,")})
    result = run_pnp("build", "--paper", "a4", project=bad)
    assert result.exit_code == 1 and "cards/chits/dice.csv:4: " in result.output and "pips" in result.output
    short = write_project(tmp_path / "d", {"dice.yaml": DIE + "cards_from: dice.csv\n",
                                           "dice.csv": "\n".join(SHEET.splitlines()[:6]) + "\n"})
    result = run_pnp("build", "--paper", "a4", project=short)
    assert result.exit_code == 1 and "gives 5 faces" in result.output
    assert "expected exactly 6" in result.output
    both = write_project(tmp_path / "e", {"dice.yaml": WRITTEN + "cards_from: dice.csv\n", "dice.csv": SHEET})
    result = run_pnp("build", "--paper", "a4", project=both)
    assert result.exit_code == 1 and "both `faces:` and `cards_from:`" in result.output
