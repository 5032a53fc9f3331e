"""The rules' balancing choice kept between builds (generator.booklet.pdf.keep_layouts_in, build/.cache/
rules-layouts/): a rebuild whose pages' geometry reads the same inputs (LAYOUT_PARTS) lays the rules out once,
in the layout chosen before, and writes the bytes a --force build of the same data writes in another folder; a
change to what the geometry reads (the rules' text, a pictured card's smallest text) chooses again, and so do
--force and a kept file that is not one a build wrote."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generator.booklet import pdf
from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline.build import RULES_LAYOUTS, build
from tests.fixtures.built import edit, forced_build, game_project

GAME = "order-up-pizza"
OPTIONS = BuildOptions(papers=("a4",), languages=("en",), jobs=1)  # drawn in this process: counted
RULES = ("rules.pdf", "rules-booklet-a4.pdf")


@pytest.fixture
def layouts(monkeypatch) -> list:
    """Every layout the rules are laid out in, in order: each one the balancing measures, and one drawn
    without being measured first (the layout kept)."""
    laid: list = []
    measured, laid_out = pdf._measured, pdf._laid_out

    def measuring(game, markdown, layout):
        laid.append(layout)
        return measured(game, markdown, layout)

    def counting(game, markdown, layout, contents=None, story=None):
        if story is None:
            laid.append(layout)
        return laid_out(game, markdown, layout, contents, story)

    monkeypatch.setattr(pdf, "_measured", measuring)
    monkeypatch.setattr(pdf, "_laid_out", counting)
    return laid


def _rules(project: Project) -> list[bytes]:
    return [(project.build_dir / GAME / name).read_bytes() for name in RULES]


def test_a_pictured_cards_wording_lays_the_rules_out_once_in_the_layout_chosen_before(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    chosen = json.loads((project.build_dir / RULES_LAYOUTS / f"{GAME}.en.json").read_text(encoding="utf-8"))
    assert len(layouts) > 1  # the balancing tried a few (Order Up's rules break before a heading)
    # Grandma Rosa's order is on the cover: the rules are drawn again, her card's texts as small as before
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    layouts.clear()
    result = build(project, [GAME], OPTIONS)
    assert {f"{GAME}/{name}" for name in RULES} <= {str(w["path"]) for w in result.written}
    assert len(layouts) == 1
    assert (layouts[0].body_size, layouts[0].figure_scale, sorted(layouts[0].breaks)) \
        == (chosen["body_size"], chosen["figure_scale"], chosen["breaks"])
    assert _rules(project) == _rules(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_what_the_geometry_reads_chooses_again(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    first = len(layouts)
    edit(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map")  # the rules' text
    layouts.clear()
    build(project, [GAME], OPTIONS)
    assert len(layouts) == first
    assert _rules(project) == _rules(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_a_pictured_cards_smallest_text_chooses_again(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    first = len(layouts)
    kept = project.build_dir / RULES_LAYOUTS / f"{GAME}.en.json"
    key = json.loads(kept.read_text(encoding="utf-8"))["key"]
    # the orders' "ORDER UP!" drawn smaller than any of their texts: the cover's cards are drawn larger
    edit(project, f"cards/{GAME}/layouts/order.yaml", 'size: 8pt\n    color: "#d62828"',
          'size: 6pt\n    color: "#d62828"')
    layouts.clear()
    build(project, [GAME], OPTIONS)
    assert json.loads(kept.read_text(encoding="utf-8"))["key"] != key
    assert len(layouts) > 1 and first > 1
    assert _rules(project) == _rules(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_force_chooses_again(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    first, want = len(layouts), _rules(project)
    layouts.clear()
    build(project, [GAME], replace(OPTIONS, force=True))
    assert len(layouts) == first
    assert _rules(project) == want
    assert pdf._layouts.folder is None  # the build's hashes are not used once it ended


@pytest.mark.parametrize("text", ["{not json", '{"format": 1}', "[]", '{"format": 0, "key": "%s"}'])
def test_a_kept_file_no_build_wrote_is_not_read(tmp_path, layouts, text):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    first = len(layouts)
    kept = project.build_dir / RULES_LAYOUTS / f"{GAME}.en.json"
    key = json.loads(kept.read_text(encoding="utf-8"))["key"]
    kept.write_text(text.replace("%s", key), encoding="utf-8")
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    layouts.clear()
    build(project, [GAME], OPTIONS)
    assert len(layouts) == first
    assert json.loads(kept.read_text(encoding="utf-8"))["key"] == key  # chosen again, and kept
    assert _rules(project) == _rules(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_an_old_format_kept_file_is_not_read(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    first = len(layouts)
    kept = project.build_dir / RULES_LAYOUTS / f"{GAME}.en.json"
    old = json.loads(kept.read_text(encoding="utf-8"))
    del old["contents"]
    kept.write_text(json.dumps({**old, "format": 1}), encoding="utf-8")  # as format 1 wrote it
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    layouts.clear()
    build(project, [GAME], OPTIONS)
    assert len(layouts) == first
    assert json.loads(kept.read_text(encoding="utf-8"))["format"] == pdf.LAYOUT_FORMAT


def test_kept_contents_that_do_not_settle_are_laid_out_afresh(tmp_path, layouts):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    kept = project.build_dir / RULES_LAYOUTS / f"{GAME}.en.json"
    chosen = json.loads(kept.read_text(encoding="utf-8"))
    assert chosen["contents"]  # Order Up's rules have a contents page
    # every page number one off: the drawn pass finds other pages, so the contents are laid out again
    wrong = [[level, text, page + 1, *rest] for level, text, page, *rest in chosen["contents"]]
    kept.write_text(json.dumps({**chosen, "contents": wrong}), encoding="utf-8")
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    layouts.clear()
    build(project, [GAME], OPTIONS)
    assert len(layouts) == 1  # the layout kept, not the balancing
    assert json.loads(kept.read_text(encoding="utf-8"))["contents"] == chosen["contents"]
    assert _rules(project) == _rules(forced_build(project, tmp_path / "cold", GAME, OPTIONS))
