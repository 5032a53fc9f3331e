"""Planning only what changed: a unit (a game in one language, one producer) whose inputs did not change is
not planned at all, and a game whose checked inputs did not change is not checked again. Each test also reads
back what the build wrote, so skipping never keeps an output that should have changed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.data.project import Project
from generator.pipeline import gather, producers
from generator.pipeline.build import build
from tests.fixtures.built import built_game, copy_of, pdf_text
from tests.fixtures.languages import demo_in_german

GAME = "order-up-pizza"
OPTIONS = BuildOptions(papers=("a4",), languages=("en", "cs"))
RULES = {f"{GAME}/rules.pdf", f"{GAME}/rules-booklet-a4.pdf"}
ALL = {"boards", "rule booklets", "card sheets", "component sheets"}


@pytest.fixture
def planned(monkeypatch) -> list[tuple[str, str]]:
    """(producer, language) of every unit a build plans (a producer's `outputs` called)."""
    calls: list[tuple[str, str]] = []

    def recording(producer):
        def outputs(game, options):
            calls.append((producer.name, game.language))
            return producer.outputs(game, options)
        return dataclasses.replace(producer, outputs=outputs)  # what it plans from and makes as before

    monkeypatch.setattr(producers, "PRODUCERS", tuple(recording(p) for p in producers.PRODUCERS))
    return calls


@pytest.fixture
def checked(monkeypatch) -> list[str]:
    """The games a build checks (generator.pipeline.gather: every check from the data to the composition
    checks)."""
    calls: list[str] = []
    first, second = gather.check_references, gather.check_composition

    def references(game):
        calls.append(game.id)
        return first(game)

    def composition(game, names, engines=False, passed=None):
        assert game.id in calls  # checked whole, never the composition checks alone
        return second(game, names, engines, passed)

    monkeypatch.setattr(gather, "check_references", references)
    monkeypatch.setattr(gather, "check_composition", composition)
    return calls


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Order Up built in English and Czech (A4), once."""
    return built_game(tmp_path_factory.mktemp("order-up-units"), GAME, OPTIONS)


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Project:
    """A copy of the built project, to edit."""
    return copy_of(built, tmp_path)


def _edit(project: Project, file: str, old: str, new: str, options: BuildOptions = OPTIONS) -> set[str]:
    """Edit a file, build, return what the build wrote; every other output is untouched on disk."""
    path = project.root / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    folder = project.build_dir
    before = {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.pdf")}
    written = {
        entry["path"] for entry in build(project, [GAME if "demo" not in file else "demo"], options).written
    }
    after = {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*.pdf")}
    assert {name for name in before if after[name] != before[name]} == written
    return written


def test_a_rules_template_edit_plans_and_draws_only_those_rules_and_checks_nothing(project, planned, checked):
    written = _edit(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map")
    assert written == RULES
    assert planned == [("rule booklets", "en")]  # no card face fitted, no Czech unit planned
    assert checked == []  # the data the checks read did not change
    assert "The city map" in pdf_text(project.build_dir / GAME / "rules.pdf")


def test_a_translated_rules_template_edit_plans_only_that_language(project, planned, checked):
    written = _edit(project, f"templates/rules/{GAME}.cs.md.j2", "## Jízda", "## Cesta")
    assert written == {f"{GAME}/cs/rules.pdf", f"{GAME}/cs/rules-booklet-a4.pdf"}
    assert planned == [("rule booklets", "cs")]
    assert checked == []
    assert "Cesta" in pdf_text(project.build_dir / GAME / "cs" / "rules.pdf")


def test_a_text_the_translation_replaces_plans_nothing_of_that_language(project, planned, checked):
    written = _edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    assert written == {f"{GAME}/cards-a4.pdf"} | RULES  # the English cover pictures her card
    # Czech names her Babička Róza: nothing changed there
    assert {language for _, language in planned} == {"en"}
    assert {name for name, _ in planned} == ALL - {"boards"}  # the board is not drawn from the orders
    assert checked == [GAME]  # the data changed: every check runs again
    assert "Grandma Rosie" in pdf_text(project.build_dir / GAME / "cards-a4.pdf")
    assert "Grandma Rosie" in pdf_text(project.build_dir / GAME / "rules.pdf")
    czech = pdf_text(project.build_dir / GAME / "cs" / "cards-a4.pdf")
    assert "Babička Róza" in czech and "Rosie" not in czech


def test_a_layout_edit_plans_and_draws_every_language(project, planned):
    written = _edit(project, f"cards/{GAME}/layouts/order.yaml", 'radius: 3mm, fill: "#fff8ec"',
                    'radius: 2.5mm, fill: "#fff8ec"')
    assert {f"{GAME}/cards-a4.pdf", f"{GAME}/cs/cards-a4.pdf"} | RULES <= written
    assert not any("board" in path for path in written)
    assert {language for _, language in planned} == {"en", "cs"}
    assert ("boards", "en") not in planned and ("boards", "cs") not in planned


def test_a_translation_edit_plans_only_that_language(project, planned, checked):
    written = _edit(
        project, f"cards/{GAME}/i18n/cs.yaml", 'customer: "Babička Róza"', 'customer: "Babička Růžena"'
    )
    assert f"{GAME}/cs/cards-a4.pdf" in written and not any("/cs/" not in path for path in written)
    assert {language for _, language in planned} == {"cs"}
    assert checked == []  # a translation is checked as a translation, not by the game's checks
    assert "Babička Růžena" in pdf_text(project.build_dir / GAME / "cs" / "cards-a4.pdf")


def test_a_data_edit_after_a_rules_edit_is_checked_again(project, checked):
    _edit(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map")
    assert checked == []
    path = project.cards_dir / GAME / "toppings.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("copies: 12", "copies: 13", 1), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        build(project, [GAME], OPTIONS)
    assert [str(p) for p in caught.value.problems] == [
        f"cards/{GAME}/toppings.yaml:6: deck 'toppings' has 92 cards but `total` says 91; expected the "
        "copies to add "
        "up to 91"
    ]
    assert checked == [GAME]


def test_a_state_from_before_units_plans_everything_and_redraws_nothing(project, planned):
    state = project.build_dir / ".state.json"
    data = json.loads(state.read_text(encoding="utf-8"))
    del data["units"]
    state.write_text(json.dumps(data), encoding="utf-8")
    # the game is loaded, no output changes
    script = sorted((project.cards_dir / GAME / "scripts").iterdir())[0]
    script.write_text(script.read_text(encoding="utf-8") + "\n# a note\n", encoding="utf-8")
    assert build(project, [GAME], OPTIONS).written == []
    assert {name for name, _ in planned} == ALL and {language for _, language in planned} == {"en", "cs"}
    planned.clear()
    assert build(project, [GAME], OPTIONS).written == [] and planned == []


def test_a_deleted_output_of_an_unplanned_unit_is_drawn_again(project, planned):
    board = project.build_dir / GAME / "cs" / "board-a4.pdf"
    board.unlink()
    rules = project.templates_dir / "rules" / f"{GAME}.md.j2"
    rules.write_text(
        rules.read_text(encoding="utf-8").replace("The city board", "The city map"), encoding="utf-8"
    )
    written = {entry["path"] for entry in build(project, [GAME], OPTIONS).written}
    assert written == RULES | {f"{GAME}/cs/board-a4.pdf"}
    assert board.is_file()
    assert set(planned) == {("rule booklets", "en"), ("boards", "cs")}


def test_a_force_build_plans_everything(project, planned, checked):
    build(project, [GAME], BuildOptions(papers=("a4",), languages=("en", "cs"), force=True))
    assert {name for name, _ in planned} == ALL and {language for _, language in planned} == {"en", "cs"}
    assert checked == [GAME]


def test_a_text_every_language_prints_plans_and_draws_every_language(tmp_path, planned):
    # demo in German naming Ann 'Anna': her order's value is printed in both languages
    project = Project(demo_in_german(tmp_path, "orders:\n  ann: {name: Anna}\n"))
    options = BuildOptions(papers=("a4",), languages=("en", "de"))
    build(project, ["demo"], options)
    planned.clear()
    assert _edit(project, "cards/demo/orders.yaml", "name: Ann\n", "name: Annie\n", options) == {
        "demo/cards-a4.pdf"
    }
    assert {language for _, language in planned} == {"en"}
    planned.clear()
    written = _edit(project, "cards/demo/orders.yaml", "value: 5", "value: 7", options)
    assert written == {"demo/cards-a4.pdf", "demo/de/cards-a4.pdf"}
    assert ("card sheets", "de") in planned
    for sheet in written:
        assert "$7" in pdf_text(project.build_dir / sheet)
