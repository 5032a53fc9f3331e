"""The card sheets' faces drawn once per build: a face placed once is drawn into its page, one placed several
times is one form; both papers place the same drawing; a helper process changes no byte."""

from __future__ import annotations

from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from benchmarks.unique_deck import write_game
from generator.cards.sheets import APART_FACES, outputs
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
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


def _deck_with(tmp_path: Path, names: dict[str, str], body: str = "") -> Path:
    """The unique deck (more faces than a helper is started for), the cards named in `names` renamed, and
    `body` after each card's lines."""
    write_game(tmp_path, APART_FACES + 10)
    deck = tmp_path / "cards" / "unique" / "deck.yaml"
    lines = deck.read_text().splitlines()
    for at, line in enumerate(lines):
        for card, name in names.items():
            if f"{{id: {card}, name: " in line:
                start = line.index("name: ") + len("name: ")
                lines[at] = line[:start] + name + line[line.index(",", start):]
    deck.write_text("\n".join(lines) + "\n")
    if body:
        layout = tmp_path / "cards" / "unique" / "layouts" / "deck.yaml"
        layout.write_text(layout.read_text().replace("join('\\n') }}", "join('\\n') }}" + body))
    return tmp_path


def _checked(project: Path, jobs: int, monkeypatch) -> tuple[list[str], str, list[str], int]:
    """The problems of planning the card sheets (their messages), the faces' digest, the warnings, and how
    many faces this process checked itself."""
    checked = []
    check_face = CardRenderer._check_face  # noqa: SLF001 - counted, to tell the helper did its share

    def counted(self, side, deck, card, *rest):
        checked.append(card.id)
        return check_face(self, side, deck, card, *rest)

    monkeypatch.setattr(CardRenderer, "_check_face", counted)
    game = load_game(Project(project), "unique")
    try:
        outputs(game, BuildOptions(papers=("a4",), jobs=jobs))
        problems = []
    except InputError as exc:
        problems = [str(problem) for problem in exc.problems]
    renderer = renderer_for(game)
    digest = renderer.drawn_digest() if not problems else ""
    monkeypatch.undo()
    return problems, digest, list(renderer.warnings), len(checked)


def test_a_helper_process_checking_the_last_fronts_finds_the_same_problems(tmp_path, monkeypatch):
    # a mistake of many cards (one problem naming the first and how many more), on both sides of the split;
    # a script that needs shaping in a card of the helper's share
    project = _deck_with(tmp_path, {"c00290": "\u05d0bc"},
                         body="{% if card.index % 50 == 27 %}{{ card.nope.x }}{% endif %}")
    one, _, _, by_one = _checked(project, 1, monkeypatch)
    two, _, _, by_two = _checked(project, 2, monkeypatch)
    assert by_two < by_one * 0.7  # the helper checked the others
    assert two == one
    assert any("and 5 more cards" in problem for problem in one)
    assert any("Hebrew" in problem and "c00290" in problem for problem in one)


def test_a_helper_process_checking_the_last_fronts_gives_the_same_digest_warnings_and_bytes(tmp_path,
                                                                                            monkeypatch):
    # letters of the fallback face: warned about once per box, by the first card that has them (in this
    # process's share), again in the helper's share
    project = _deck_with(tmp_path, {"c00012": "\u0414om", "c00250": "\u0414a", "c00260": "\u0416e"})
    _, digest_one, warned_one, _ = _checked(project, 1, monkeypatch)
    _, digest_two, warned_two, _ = _checked(project, 2, monkeypatch)
    assert digest_two == digest_one and warned_two == warned_one
    assert any("c00012" in warning for warning in warned_one)
    assert not any("c00250" in warning for warning in warned_one)
    one = _build(load_game(Project(project), "unique"), tmp_path / "one", papers=("a4",), jobs=1)
    two = _build(load_game(Project(project), "unique"), tmp_path / "two", papers=("a4",), jobs=2)
    assert two["a4"].read_bytes() == one["a4"].read_bytes()


@pytest.mark.parametrize("stamp", ["true", "{side: front}"])
def test_a_helper_process_changes_no_byte_of_cards_that_print_their_revision(tmp_path, monkeypatch, stamp):
    # a front that reads its revision is checked again by this process, where the revisions are worked out
    project = _deck_with(tmp_path, {})
    game_file = project / "cards" / "unique" / "game.yaml"
    game_file.write_text(game_file.read_text() + f"stamp: {stamp}\n")
    _, digest_one, _, _ = _checked(project, 1, monkeypatch)
    _, digest_two, _, _ = _checked(project, 2, monkeypatch)
    assert digest_two == digest_one
    one = _build(load_game(Project(project), "unique"), tmp_path / "one", papers=("a4",), jobs=1)
    two = _build(load_game(Project(project), "unique"), tmp_path / "two", papers=("a4",), jobs=2)
    assert two["a4"].read_bytes() == one["a4"].read_bytes()
