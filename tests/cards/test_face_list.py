"""The card sheets' faces drawn once per build: a face placed once is drawn into its page, one placed several
times is one form; both papers place the same drawing; a helper process changes no byte."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
from pypdf import PdfReader

from benchmarks.unique_deck import write_game
from generator.cards.sheets import APART_FACES, outputs
from generator.core.contract import BuildOptions
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import CardRenderer, renderer_for
from tests.fixtures.demo_game import demo_game

CHECK = 2  # pages of the print check


def _forms(path: Path) -> set[str]:
    """The names of every Form XObject the pages of a PDF place."""
    names = set()
    for page in PdfReader(path).pages:
        for name, made in (page["/Resources"].get("/XObject") or {}).items():
            if made.get_object()["/Subtype"] == "/Form":
                names.add(name.removeprefix("/FormXob."))
    return names


def _build(game, folder: Path, **options) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    built = {}
    for output in outputs(game, BuildOptions(**options)):
        path = folder / output.path.name
        output.render(path)
        built[path.stem.removeprefix("cards-")] = path
    return built


def _counting(monkeypatch) -> list[str]:
    """Every face drawn from its layout in this process, by form name (a face placed from the list is not)."""
    drawn: list[str] = []
    draw = CardRenderer.draw_layout

    def counted(self, canvas, layout, deck, card, back=False, ink="normal"):
        drawn.append(self.form_name(deck, card, back, ink))
        return draw(self, canvas, layout, deck, card, back, ink)

    monkeypatch.setattr(CardRenderer, "draw_layout", counted)
    return drawn


def test_a_face_placed_once_is_drawn_into_its_page_and_one_placed_often_is_one_form(tmp_path):
    game = demo_game(tmp_path)
    things = tmp_path / "cards" / "demo" / "things.yaml"
    things.write_text(things.read_text() + "  - {id: delta, name: Delta, copies: 1, icon: mushrooms}\n")
    game = load_game(Project(tmp_path), "demo")
    renderer = renderer_for(game)
    deck = game.decks["things"]
    alpha, delta = (next(c for c in deck.cards if c.id == name) for name in ("alpha", "delta"))
    path = _build(game, tmp_path / "out", papers=("a4",))["a4"]
    forms = _forms(path)
    assert renderer.form_name(deck, alpha) in forms  # seven copies: one form
    assert renderer.form_name(deck, delta) not in forms  # one copy: no form of its own
    pdf = pypdfium2.PdfDocument(str(path))
    text = "".join(pdf[i].get_textpage().get_text_range() for i in range(CHECK, len(pdf)))
    assert "Delta" in text and "DEM-THG-03" in text  # yet its name and code are printed


def test_both_papers_place_one_drawing_of_each_face(tmp_path, monkeypatch):
    drawn = _counting(monkeypatch)
    one = _build(demo_game(tmp_path / "one"), tmp_path / "one-out", papers=("a4",))
    alone = list(drawn)
    drawn.clear()
    game = load_game(Project(tmp_path / "one"), "demo")
    both = _build(game, tmp_path / "both-out", papers=("letter", "a4"))
    assert sorted(drawn) == sorted(alone) and len(set(drawn)) == len(drawn)  # each face drawn once for both
    assert both["a4"].read_bytes() == one["a4"].read_bytes()  # a paper's file whatever other paper is built
    assert len(PdfReader(both["letter"]).pages) > CHECK


def test_a_helper_process_drawing_half_the_faces_changes_no_byte(tmp_path, monkeypatch):
    write_game(tmp_path, APART_FACES + 10)  # more different faces than a helper is started for
    drawn = _counting(monkeypatch)
    one = _build(load_game(Project(tmp_path), "unique"), tmp_path / "one", papers=("letter", "a4"), jobs=1)
    by_one = len(drawn)
    drawn.clear()
    two = _build(load_game(Project(tmp_path), "unique"), tmp_path / "two", papers=("letter", "a4"), jobs=2)
    assert len(drawn) < by_one * 0.7  # the helper drew the others
    for paper in ("letter", "a4"):
        assert two[paper].read_bytes() == one[paper].read_bytes()
