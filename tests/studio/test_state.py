"""The studio's model: which games and faces an edit re-draws, and what stays when the data breaks."""

from __future__ import annotations

import shutil
import time

import pytest

from generator.data.load import load_game
from generator.studio import faces as facemod
from generator.studio import views
from generator.studio.state import Studio
from tests.conftest import run_pnp
from tests.patience import PATIENCE_S


class Recorder:
    """Collects what the studio reports."""

    def __init__(self):
        self.updates: list[tuple[str, int]] = []
        self.failures: list[tuple[str, list]] = []

    def changed(self, paths) -> None:
        pass

    def updated(self, game, faces, seconds) -> None:  # noqa: ARG002 - the listener protocol
        self.updates.append((game, faces))

    def failed(self, game, problems) -> None:
        self.failures.append((game, list(problems)))


def _idle(studio: Studio, seconds: float = PATIENCE_S) -> None:
    deadline = time.monotonic() + seconds
    while not (studio.games and studio.idle()):
        assert time.monotonic() < deadline, "the studio did not finish"
        time.sleep(0.05)


@pytest.fixture
def two_games(tmp_project):
    """A project with two small games made by `pnp new`."""
    for name in ("alpha", "beta"):
        assert run_pnp("new", name, project=tmp_project).exit_code == 0
    for name in tmp_project.game_ids():
        if name not in ("alpha", "beta"):
            shutil.rmtree(tmp_project.cards_dir / name)
    return tmp_project


def test_fingerprints_follow_what_is_printed(tmp_project):
    recipes = tmp_project.cards_dir / "order-up-trading" / "recipes.yaml"
    before = facemod.fingerprints(load_game(tmp_project, "order-up-trading"))
    recipes.write_text("# a comment changes nothing printed\n" + recipes.read_text())
    assert facemod.fingerprints(load_game(tmp_project, "order-up-trading")) == before
    recipes.write_text(recipes.read_text().replace("name: Pizza", "name: Flatbread"))
    after = facemod.fingerprints(load_game(tmp_project, "order-up-trading"))
    changed = sorted(key for key in before if after[key] != before[key])
    game = load_game(tmp_project, "order-up-trading")
    assert changed == sorted(
        ["recipes/pizza"]
        + [f"ingredients/{c.id}" for c in game.decks["ingredients"].cards if c.recipe == "pizza"]
    )


def test_an_edit_reloads_only_its_game_and_redraws_only_its_faces(two_games):
    report = Recorder()
    studio = Studio(two_games, report=report)
    try:
        studio.start()
        _idle(studio)
        drawn = dict(report.updates)
        assert drawn == {"alpha": 5, "beta": 5}  # 4 card types and the back of each
        alpha_version = studio.games["alpha"].version
        deck = two_games.cards_dir / "beta" / "actions.yaml"
        deck.write_text(deck.read_text().replace("name: Draw Two", "name: Draw Three"))
        report.updates.clear()
        studio.request_refresh()
        _idle(studio)
        assert report.updates == [("beta", 1)]
        assert studio.games["alpha"].version == alpha_version  # not even reloaded
        names = [f.ref.card.name for f in studio.games["beta"].faces.values() if f.ref.card]
        assert "Draw Three" in names
    finally:
        studio.stop()


def test_broken_data_keeps_the_last_good_images_and_a_face_that_fails_keeps_its_own(two_games):
    report = Recorder()
    studio = Studio(two_games, ["beta"], report=report)
    try:
        studio.start()
        _idle(studio)
        good = {key: face.image for key, face in studio.games["beta"].faces.items()}
        card = load_game(two_games, "beta").decks["actions"].cards[0]
        deck = two_games.cards_dir / "beta" / "actions.yaml"
        text = deck.read_text()
        deck.write_text(text.replace("copies: 4", "copies: zero"))
        studio.request_refresh()
        _idle(studio)
        state = studio.games["beta"]
        assert [str(p) for p in state.problems] and all(
            "cards/beta/actions.yaml:" in str(p) for p in state.problems
        )
        assert {key: face.image for key, face in state.faces.items()} == good
        # a name too long for its box fails only when drawn: that face keeps its last good image
        deck.write_text(text.replace(f"name: {card.name}", "name: " + "Very long name " * 30))
        studio.request_refresh()
        _idle(studio)
        state = studio.games["beta"]
        assert len(state.problems) == 1 and "does not fit" in state.problems[0].message
        assert card.code in state.problems[0].message
        key = f"actions/{card.id}"
        assert state.faces[key].image == good[key] and not state.faces[key].current
        tiles = {
            t.key: t for deck in views.deck_views(state, views.Links(two_games.root)) for t in deck.tiles
        }
        assert tiles[key].problems and not any(t.problems for k, t in tiles.items() if k != key)
        deck.write_text(text)
        studio.request_refresh()
        _idle(studio)
        assert studio.games["beta"].problems == []
    finally:
        studio.stop()


def test_a_card_with_its_own_back_gets_its_own_back_tile(two_games):
    layouts = two_games.cards_dir / "beta" / "layouts"
    (layouts / "answer-back.yaml").write_text(
        "boxes:\n  background: {shape: rect, fill: '#eeeeee'}\n"
        "  answer: {x: 5mm, y: 30mm, width: 53.5mm, height: 20mm, text: 'Answer: {{ card.name }}', align: "
        "center}\n"
    )
    deck = two_games.cards_dir / "beta" / "actions.yaml"
    deck.write_text(deck.read_text().replace("    copies: 4\n", "    copies: 4\n    back: answer-back\n", 1))
    studio = Studio(two_games, ["beta"])
    try:
        studio.start()
        _idle(studio)
        state = studio.games["beta"]
        tiles = [t for view in views.deck_views(state, views.Links(two_games.root)) for t in view.tiles]
        backs = [(t.key, t.code, t.copies, t.shared) for t in tiles if t.back]
        total = load_game(two_games, "beta").decks["actions"].copies
        assert backs == [("actions/@back-b001", "back BET-ACT-01", 4, False),  # Draw Two's own back, 4 copies
                         ("actions/@back", "back", total - 4, True)]           # the usual back of the others
        assert all(t.image_url for t in tiles) and len(tiles) == 4 + 2
        detail = views.card_detail(state, views.Links(two_games.root), "actions", "@back-b001")
        assert detail.layout_name == "answer-back"
        assert ("on the back of", "BET-ACT-01", None) in detail.fields
    finally:
        studio.stop()


def test_the_faces_of_the_saved_file_are_shown_first(tmp_project):
    for name in tmp_project.game_ids():
        if name != "order-up-trading":
            shutil.rmtree(tmp_project.cards_dir / name)
    studio = Studio(tmp_project)
    try:
        studio.start()
        _idle(studio)
        seen: list[list[str]] = []  # per update: the faces whose image is not yet of their inputs
        studio.listen(lambda event: event["type"] == "game" and seen.append(
            sorted(k for k, f in studio.games["order-up-trading"].faces.items() if not f.current)))
        recipes = tmp_project.cards_dir / "order-up-trading" / "recipes.yaml"
        recipes.write_text(recipes.read_text().replace("name: Burrito", "name: Wrap Star"))
        studio.request_refresh(["cards/order-up-trading/recipes.yaml"])
        _idle(studio)
        game = load_game(tmp_project, "order-up-trading")
        others = sorted(
            f"ingredients/{c.id}" for c in game.decks["ingredients"].cards if c.recipe == "burrito"
        )
        # first the edited recipe card, then the ingredients that print its name
        assert seen[:2] == [others, []]
    finally:
        studio.stop()


def test_a_rules_template_problem_is_reported_once_as_the_faces_problems_are(two_games):
    """The terminal of `pnp serve` hears of a broken rules template (it printed only '0 faces drawn')."""
    report = Recorder()
    studio = Studio(two_games, ["beta"], report=report)
    try:
        studio.start()
        _idle(studio)
        template = two_games.templates_dir / "rules" / "beta.md.j2"
        good = template.read_text()
        template.write_text(good + "\n{{ game.nosuch.thing }}\n")
        studio.request_refresh()
        _idle(studio)
        page_failures = [problems for game, problems in report.failures if game == "beta"]
        assert len(page_failures) == 1 and "templates/rules/beta.md.j2" in str(page_failures[0][0])
        assert studio.games["beta"].problems == page_failures[0]
        template.write_text(good)
        studio.request_refresh()
        _idle(studio)
        assert studio.games["beta"].problems == [] and len(report.failures) == 1
    finally:
        studio.stop()


def test_a_banner_problem_in_a_workbook_links_to_its_cell():
    from pathlib import Path

    from generator.core.errors import Cell, Problem

    problem = Problem("cards/g/akcje.xlsx", Cell(3, "Karty!C3"), "copies: 'many' is not a number")
    view = views.problem_views([problem], views.Links(Path("/project")))[0]
    assert view.where.shown == "cards/g/akcje.xlsx:Karty!C3"
    assert view.where.view == "/src/cards/g/akcje.xlsx?sheet=Karty#Karty!C3" == view.where.editor


def test_a_translation_files_problem_is_in_the_banner_and_the_source_faces_stay(two_games):
    """A designer editing cs.yaml hears of a key that translates nothing (the studio said nothing before),
    while the source language's faces are drawn as ever."""
    game_file = two_games.cards_dir / "beta" / "game.yaml"
    game_file.write_text(game_file.read_text() + "languages: [en, pl]\n")
    translation = two_games.cards_dir / "beta" / "i18n" / "pl.yaml"
    translation.parent.mkdir()
    translation.write_text("actions:\n  no-such-card:\n    name: Coś\n")
    report = Recorder()
    studio = Studio(two_games, ["beta"], report=report)
    try:
        studio.start()
        _idle(studio)
        state = studio.games["beta"]
        assert [str(p).split(": ", 1)[0] for p in state.problems] == ["cards/beta/i18n/pl.yaml:2"]
        assert "Polish (pl)" in state.problems[0].message and "no-such-card" in state.problems[0].message
        # the source faces are shown
        assert state.rendered and all(face.image for face in state.faces.values())
        assert report.failures and report.failures[-1][1] == state.problems
        translation.write_text("actions: {}\n")
        studio.request_refresh()
        _idle(studio)
        assert studio.games["beta"].problems == []
    finally:
        studio.stop()
