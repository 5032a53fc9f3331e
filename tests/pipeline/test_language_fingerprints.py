"""Card sheets are fingerprinted per language from the faces as that language draws them: an edit a
translation's faces do not show leaves that language's sheets alone, an edit they show redraws them (read back
from the PDFs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline.build import build
from tests.fixtures.built import built_game, pdf_text
from tests.fixtures.languages import demo_in_german

GAME = "order-up-pizza"
OPTIONS = BuildOptions(papers=("a4",), languages=("en", "cs"))
RULES = {f"{GAME}/rules.pdf", f"{GAME}/rules-booklet-a4.pdf"}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Project:
    """Order Up built in English and Czech (A4)."""
    return Project(built_game(tmp_path_factory.mktemp("order-up-cs"), GAME, OPTIONS))


def _edit(project: Project, old: str, new: str) -> set[str]:
    """Edit the orders, build, return what was written; every other output is untouched on disk."""
    path = project.cards_dir / GAME / "orders.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    folder = project.build_dir
    before = {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.pdf")}
    written = {entry["path"] for entry in build(project, [GAME], OPTIONS).written}
    after = {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.pdf")}
    assert {name for name in before if after[name] != before[name]} == written
    return written


def test_a_text_the_translation_replaces_redraws_only_the_source_languages_sheets(project):
    cs_sheet, en_sheet = (
        project.build_dir / GAME / "cs" / "cards-a4.pdf",
        project.build_dir / GAME / "cards-a4.pdf",
    )
    # the Czech orders name their customers in Czech: Grandma Rosa's new spelling shows in English only
    written = _edit(project, "customer: Grandma Rosa", "customer: Grandma Rosie")
    assert written == {f"{GAME}/cards-a4.pdf"} | RULES  # the English cover pictures her card
    assert "Grandma Rosie" in pdf_text(en_sheet)
    czech = pdf_text(cs_sheet)
    assert "Babička Róza" in czech and "Rosie" not in czech


DEMO_OPTIONS = BuildOptions(papers=("a4",), languages=("en", "de"))
SHEETS = {"demo/cards-a4.pdf", "demo/de/cards-a4.pdf"}


@pytest.fixture
def demo(tmp_path: Path) -> Project:
    """The demo game in English and German (the German translation names Ann 'Anna'), built once."""
    root = demo_in_german(tmp_path, "orders:\n  ann: {name: Anna}\n  bob: {name: Bernd}\n")
    project = Project(root)
    build(project, ["demo"], DEMO_OPTIONS)
    return project


def _demo_edit(project: Project, old: str, new: str) -> set[str]:
    path = project.cards_dir / "demo" / "orders.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return {
        entry["path"] for entry in build(project, ["demo"], DEMO_OPTIONS).written if "cards" in entry["path"]
    }


def test_a_text_every_language_prints_redraws_every_languages_sheets(demo):
    assert _demo_edit(demo, "name: Ann\n", "name: Annie\n") == {"demo/cards-a4.pdf"}  # German: still Anna
    assert "Anna" in pdf_text(demo.build_dir / "demo" / "de" / "cards-a4.pdf")
    assert _demo_edit(demo, "value: 5", "value: 7") == SHEETS  # Ann's value, printed in both languages
    for sheet in SHEETS:
        assert "$7" in pdf_text(demo.build_dir / sheet)


def test_copies_and_a_cards_own_layout_redraw_the_sheets_of_every_language(demo):
    sheets = {name: demo.build_dir / name for name in SHEETS}
    fronts = {
        name: pdf_text(path).count("Bob") + pdf_text(path).count("Bernd") for name, path in sheets.items()
    }
    assert _demo_edit(demo, "name: Bob\n    copies: 1", "name: Bob\n    copies: 2") == SHEETS
    for name, path in sheets.items():
        assert pdf_text(path).count("Bob") + pdf_text(path).count("Bernd") > fronts[name]
    # the same texts drawn on another card's layout (a card's own `layout:`)
    assert (
        _demo_edit(demo, "name: Bob\n    copies: 2", "name: Bob\n    layout: base\n    copies: 2") == SHEETS
    )
