"""The card sheets' faces kept between builds (generator.faces.facecache, build/.cache/faces/): a rebuild
draws only the faces whose inputs or fonts changed, and writes the bytes a --force build of the same data
writes in another folder; an edit that gives a character its first code, a layout, a font or --force draws
again."""

from __future__ import annotations

from dataclasses import replace

import pytest

from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.faces.face import CardRenderer
from generator.pipeline.build import FACES, build
from tests.fixtures.built import edit, forced_build, game_project

GAME = "order-up-pizza"
OPTIONS = BuildOptions(papers=("a4", "letter"), languages=("en",), jobs=1)  # drawn in this process: counted
SHEETS = ("cards-a4.pdf", "cards-letter.pdf")


@pytest.fixture
def drawn(monkeypatch) -> list[str]:
    """The form name of every face the list of faces draws, in order."""
    names: list[str] = []
    operators = CardRenderer.face_operators

    def counting(self, canvas, deck, card, back=False, ink="normal", apart=False):
        names.append(self.form_name(deck, card, back))
        return operators(self, canvas, deck, card, back, ink, apart)

    monkeypatch.setattr(CardRenderer, "face_operators", counting)
    return names


def _sheets(project: Project) -> list[bytes]:
    return [(project.build_dir / GAME / name).read_bytes() for name in SHEETS]


def test_a_cards_text_draws_that_face_alone(tmp_path, drawn):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    every = len(drawn)
    assert every > 50 and (project.build_dir / FACES / f"{GAME}.en.normal.json").is_file()
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Coach Carter", "customer: Coach Carver")
    drawn.clear()
    build(project, [GAME], OPTIONS)
    # Coach Carter's front and his order's back (which names him), no other
    assert drawn == ["card_OUP_ORD_F002", "card_OUP_ORD_B002"]
    assert _sheets(project) == _sheets(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_a_character_drawn_first_draws_the_faces_after_it_again(tmp_path, drawn):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    every = len(drawn)
    # a letter no face drew before gets the next code: every later face's codes may move
    edit(project, f"cards/{GAME}/orders.yaml", "customer: Coach Carter", "customer: Coach Çarter")
    drawn.clear()
    build(project, [GAME], OPTIONS)
    assert 1 < len(drawn) < every
    assert _sheets(project) == _sheets(forced_build(project, tmp_path / "cold", GAME, OPTIONS))
    drawn.clear()
    build(project, [GAME], replace(OPTIONS, force=True))  # and kept: the next build (forced) draws them all
    assert len(drawn) == every


@pytest.mark.parametrize(("file", "old", "new"), [
    (f"cards/{GAME}/layouts/order.yaml", 'radius: 3mm, fill: "#fff8ec"', 'radius: 2.5mm, fill: "#fff8ec"'),
    (f"cards/{GAME}/game.yaml", "subtitle: The pizza delivery game", "subtitle: The pizza game"),
])
def test_what_every_face_may_read_draws_them_all(tmp_path, drawn, file, old, new):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    every = len(drawn)
    edit(project, file, old, new)
    drawn.clear()
    build(project, [GAME], OPTIONS)
    assert len(drawn) == every
    assert _sheets(project) == _sheets(forced_build(project, tmp_path / "cold", GAME, OPTIONS))


def test_a_kept_file_no_build_wrote_is_not_read(tmp_path, drawn):
    project = game_project(tmp_path / "project", GAME)
    build(project, [GAME], OPTIONS)
    every = len(drawn)
    kept = project.build_dir / FACES / f"{GAME}.en.normal.json"
    for text in ("{not json", "[]", '{"format": 1, "salt": "other", "faces": {}}'):
        kept.write_text(text, encoding="utf-8")
        edit(project, f"cards/{GAME}/orders.yaml", "customer: Coach Car", "customer: Coach Carr")
        drawn.clear()
        build(project, [GAME], OPTIONS)
        assert len(drawn) == every
    assert _sheets(project) == _sheets(forced_build(project, tmp_path / "cold", GAME, OPTIONS))
