"""A new game made only from the docs (tests/fixtures/designer-project): a CSV deck, an XLSX deck, a declared
TTF, Czech and Russian text, a card with its own back and `checks:` rules. It builds and validates; breaking
each part gives its located line through the command line, with no traceback."""

from __future__ import annotations

from tests.conftest import run_pnp
from tests.fixtures.workbooks import EVENTS, write_xlsx

GAME = "space-race"
DIR = f"cards/{GAME}"


def edit(project, name: str, old: str, new: str) -> None:
    path = project.cards_dir / GAME / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def lines(result) -> list[str]:
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.output.splitlines()


def test_the_game_builds_and_validates(designer_project):
    built = run_pnp("build", "--paper", "a4", project=designer_project)
    assert built.exit_code == 0, built.output
    assert {p.name for p in (designer_project.build_dir / GAME).glob("*.pdf")} >= {
        "cards-a4.pdf",
        "rules.pdf",
    }
    checked = run_pnp("validate", "--no-sim", project=designer_project)
    assert checked.exit_code == 0, checked.output
    assert "nine crew cards, one captain" in checked.output
    assert "deck totals" in checked.output and "board geometry" not in checked.output  # it has no board


def test_breaking_the_spreadsheets_and_the_font_names_their_places(designer_project):
    edit(designer_project, "crew.csv", "medic,Medic Ana,2,,medic,", "medic,Medic Ana,two,,medic,")
    rows = [list(row) for row in EVENTS]
    rows[2][3] = "metal: 2; oxygn: 1"
    write_xlsx(designer_project.cards_dir / GAME / "events.xlsx", rows, cached={"C4": "2"})
    edit(designer_project, "game.yaml", "fonts/NotoSerif-Bold-subset.ttf", "fonts/NotoSerif.ttf")
    found = lines(run_pnp("validate", "--no-sim", project=designer_project))
    assert f"{DIR}/crew.csv:4: copies: 'two' is not a number; expected a whole number" in found
    assert any(
        line.startswith(f"{DIR}/game.yaml:") and "file 'fonts/NotoSerif.ttf' not found" in line
        for line in found
    )
    edit(designer_project, "crew.csv", "medic,Medic Ana,two,,medic,", "medic,Medic Ana,2,,medic,")
    edit(designer_project, "game.yaml", "fonts/NotoSerif.ttf", "fonts/NotoSerif-Bold-subset.ttf")
    found = lines(run_pnp("validate", "--no-sim", project=designer_project))
    assert (
        f"{DIR}/events.xlsx:Events!D3: resource 'oxygn' is not defined (did you mean 'oxygen'?); known: "
        "fuel, "
        "metal, oxygen"
    ) in found


def test_breaking_the_text_the_back_and_a_check_names_their_places(designer_project):
    edit(designer_project, "crew.csv", "Инженер Петров", "Инженер 中")
    edit(designer_project, "crew.csv", "captain-back", "captian-back")
    found = lines(run_pnp("validate", "--no-sim", project=designer_project))
    assert (
        f"{DIR}/crew.csv:3: card 'engineer' name has '中' (U+4E2D), which font 'title' (Fredoka SemiBold, "
        "then Noto "
        "Sans Bold) cannot draw; expected a font that covers it (declare one under fonts: in game.yaml and "
        "name it "
        "in the box, or as a fallback)"
    ) in found
    assert any(
        line.startswith(f"{DIR}/crew.csv:5: layout 'captian-back' not found (did you mean 'captain-back'?)")
        for line in found
    )
    edit(designer_project, "game.yaml", "decks.crew.copies == 9", "decks.crew.copies == 8")
    found = lines(run_pnp("validate", "--no-sim", project=designer_project))  # the data's checks come first
    check = next(
        n
        for n, text in enumerate(
            (designer_project.cards_dir / GAME / "game.yaml").read_text().splitlines(), start=1
        )
        if "- name: nine crew cards" in text
    )
    assert (
        f"{DIR}/game.yaml:{check}: check 'nine crew cards, one captain' failed: the crew deck has 9 cards "
        "and 1 "
        "captains; expected 9 cards and 1 captain"
    ) in found
