"""Per-output fingerprints: an edit rewrites exactly the outputs drawn from what changed (read from what the
build wrote and from the files on disk, never from timings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline.build import build
from tests.conftest import REPO
from tests.fixtures.built import built_game, copy_of

GAME = "order-up-pizza"
# the source language (translations: test_translations)
OPTIONS = BuildOptions(papers=("a4",), languages=("en",))
RULES = {"rules.pdf", "rules-booklet-a4.pdf"}
BOARD = {"board-full.pdf", "board-a4.pdf"}
COMPONENTS = {"components-a4.pdf", "tuckboxes-full.pdf"}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Order Up built once (A4) in a folder of its own."""
    return built_game(tmp_path_factory.mktemp("order-up"), GAME, OPTIONS)


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Project:
    """A copy of the built project, to edit."""
    return copy_of(built, tmp_path)


def _outputs(project: Project) -> dict[str, tuple[int, bytes]]:
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in (project.build_dir / GAME).iterdir()}


def rewritten(project: Project, file: str, old: str, new: str) -> set[str]:
    """Edit one file, build, and return the names of the outputs the build wrote; the others are untouched."""
    path = project.root / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    before = _outputs(project)
    result = build(project, [GAME], OPTIONS)
    written = {Path(entry["path"]).name for entry in result.written}
    after = _outputs(project)
    assert {name for name in before if after[name] != before[name]} == written
    assert set(before) == set(after)
    return written


def test_a_rules_template_edit_rewrites_only_the_booklets(project):
    assert rewritten(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map") == RULES


def test_a_layout_edit_rewrites_the_card_sheets_and_the_rules_that_picture_them(project):
    changed = rewritten(project, f"cards/{GAME}/layouts/order.yaml", 'radius: 3mm, fill: "#fff8ec"',
                        'radius: 2.5mm, fill: "#fff8ec"')
    assert changed == {"cards-a4.pdf"} | RULES


def test_a_board_edit_rewrites_the_board_and_its_pictures(project):
    changed = rewritten(project, f"cards/{GAME}/board.yaml", "label: Red restaurant", "label: Red pizzeria")
    assert changed == BOARD | RULES


def test_a_board_edit_a_card_shows_rewrites_those_card_sheets_too(project):
    # an order card's border is the colour of its street (a template reads the board)
    changed = rewritten(project, f"cards/{GAME}/board.yaml", 'color: "#f77f00"\n    color_name: Orange',
                        'color: "#f78f00"\n    color_name: Orange')
    assert changed == {"cards-a4.pdf"} | BOARD | RULES


def test_a_card_text_edit_rewrites_the_card_sheets_and_not_rules_that_do_not_show_it(project):
    # Coach Carter is neither pictured in the text nor on the cover (Grandma Rosa, the first order, is)
    changed = rewritten(
        project, f"cards/{GAME}/orders.yaml", "customer: Coach Carter", "customer: Coach Carver"
    )
    assert changed == {"cards-a4.pdf"}
    changed = rewritten(
        project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie"
    )
    assert changed == {"cards-a4.pdf"} | RULES


def test_the_card_the_rules_picture_rewrites_the_rules_too(project):
    # the rules picture The Nguyen Twins' order card and name them in an example
    changed = rewritten(
        project, f"cards/{GAME}/orders.yaml", "customer: The Nguyen Twins", "customer: The Ngo Twins"
    )
    assert changed == {"cards-a4.pdf"} | RULES


def test_another_games_rules_template_is_no_input(project):
    other = project.templates_dir / "rules" / "short-order-hero.md.j2"
    other.write_text(other.read_text(encoding="utf-8") + "\nOne more rule.\n", encoding="utf-8")
    assert build(project, [GAME], OPTIONS).written == []


def test_a_deck_name_reaches_the_tuck_boxes(project):
    changed = rewritten(project, f"cards/{GAME}/orders.yaml", "name: Order Up deck", "name: Orders deck")
    assert changed == {"cards-a4.pdf"} | COMPONENTS | RULES


def test_a_script_edit_rewrites_nothing(project):
    script = sorted((project.cards_dir / GAME / "scripts").iterdir())[0]
    text = script.read_text(encoding="utf-8")
    assert rewritten(project, str(script.relative_to(project.root)), text, text + "\n# a note\n") == set()


def test_a_back_layout_edit_rewrites_the_tuck_boxes_that_print_it(project):
    # the Toppings tuck box prints the toppings' back on its front and back panels, and the rules picture the
    # box
    changed = rewritten(
        project, f"cards/{GAME}/layouts/topping-back.yaml", 'fill: "#f4c430"', 'fill: "#f4c431"'
    )
    assert changed == {"cards-a4.pdf"} | COMPONENTS | RULES


def test_the_card_on_the_rules_cover_rewrites_the_rules(project):
    # the cover shows the first topping (Pepperoni); the text pictures no topping card
    changed = rewritten(project, f"cards/{GAME}/layouts/topping.yaml", 'fill: "#fde6bd", stroke: "#f4a259"',
                        'fill: "#fde6be", stroke: "#f4a259"')
    assert changed == {"cards-a4.pdf"} | RULES


def test_a_font_file_in_templates_rewrites_everything_set_in_it(project):
    # the title font declared from templates/fonts/: the cards, the board labels, the tuck boxes and the rules
    # use it
    # a small face (437 glyphs, so its synthesised styles are made in a fraction of a second), then the same
    # face with one letter wider: a new file whose text sets differently
    from fontTools.ttLib import TTFont

    small = REPO / "generator" / "assets" / "fonts" / "fredoka" / "Fredoka-SemiBold.ttf"
    shared = project.templates_dir / "fonts" / "title.ttf"
    shared.parent.mkdir(parents=True, exist_ok=True)
    shared.write_bytes(small.read_bytes())
    game_yaml = project.cards_dir / GAME / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8")
                         + "fonts:\n  title: ../../templates/fonts/title.ttf\n", encoding="utf-8")
    build(project, [GAME], OPTIONS)
    before = _outputs(project)
    wider = TTFont(str(small))
    advance, left = wider["hmtx"]["e"]
    wider["hmtx"]["e"] = (advance + 40, left)
    wider.save(str(shared))
    written = {Path(entry["path"]).name for entry in build(project, [GAME], OPTIONS).written}
    after = _outputs(project)
    assert {"cards-a4.pdf"} | BOARD | COMPONENTS | RULES <= written
    assert {name for name in before if after[name] != before[name]} == written
