"""`pnp new NAME`: a scaffolded game builds and validates out of the box; names are checked; nothing is
overwritten."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from tests.conftest import run_pnp


def test_new_game_builds_and_validates(tmp_project):
    result = run_pnp("new", "demo", project=tmp_project)
    assert result.exit_code == 0, result.output
    game_dir = tmp_project.cards_dir / "demo"
    assert {p.relative_to(game_dir).as_posix() for p in game_dir.rglob("*") if p.is_file()} == {
        "game.yaml", "actions.yaml", "layouts/actions.yaml", "layouts/actions-back.yaml"}
    assert (tmp_project.templates_dir / "rules" / "demo.md.j2").is_file()
    assert "code: DEM" in (game_dir / "game.yaml").read_text()

    validated = run_pnp("validate", "demo", project=tmp_project)
    assert validated.exit_code == 0, validated.output
    assert "OK  demo: 10 cards in 1 deck (4 card types)" in validated.output

    built = run_pnp("build", "demo", "--paper", "a4", project=tmp_project)
    assert built.exit_code == 0, built.output
    cards = PdfReader(tmp_project.build_dir / "demo" / "cards-a4.pdf")
    text = "\n".join(page.extract_text() for page in cards.pages)
    assert "DEM-ACT-01" in text and "Draw Two" in text
    assert (tmp_project.build_dir / "demo" / "rules.pdf").is_file()


def test_new_refuses_an_existing_game_and_bad_names(tmp_project):
    game_yaml = tmp_project.cards_dir / "order-up-trading" / "game.yaml"
    before = game_yaml.read_bytes()
    result = run_pnp("new", "order-up-trading", project=tmp_project)
    assert result.exit_code == 1 and "already exists" in result.output
    assert game_yaml.read_bytes() == before
    for bad in ("Demo", "_demo", "my game", "../escape"):
        result = run_pnp("new", bad, project=tmp_project)
        assert result.exit_code == 1 and "not a valid game id" in result.output, bad
    assert not (tmp_project.root / "escape").exists()


@pytest.mark.parametrize(
    "name, expected",
    [
        (
            "żółw",
            "a lower-case id (a-z without accents, digits, '-' and '_', starting with a letter or digit), "
            "such as "
            "'zolw'",
        ),
        ("smok ", "'smok', without the space at its end"),
    ],
)
def test_new_says_what_is_wrong_with_a_name(tmp_project, name, expected):
    result = run_pnp("new", name, project=tmp_project)
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == f"'{name}' is not a valid game id; expected {expected}", (
        result.output
    )
    assert not (tmp_project.cards_dir / name).exists() and not (tmp_project.cards_dir / name.strip()).exists()


def test_new_game_takes_title_and_code(tmp_project):
    result = run_pnp("new", "space-race", "--title", "Space Race!", "--code", "SPR", project=tmp_project)
    assert result.exit_code == 0, result.output
    text = (tmp_project.cards_dir / "space-race" / "game.yaml").read_text()
    assert "title: Space Race!" in text and "code: SPR" in text
    bad = run_pnp("new", "other", "--code", "x", project=tmp_project)
    assert bad.exit_code == 1 and "card code 'x' is not valid" in bad.output


def test_a_new_games_rules_explain_its_components(tmp_path):
    # an empty project: `pnp new` writes the shared "Making the pieces" the new rules include
    from generator.data.project import Project
    from tests.conftest import REPO

    project = Project(tmp_path)
    result = run_pnp("new", "demo", project=project)
    assert result.exit_code == 0, result.output
    pieces = project.templates_dir / "rules" / "_making-the-pieces.md.j2"
    assert pieces.read_text() == (REPO / "templates" / "rules" / "_making-the-pieces.md.j2").read_text()
    assert (
        '{% include "_making-the-pieces.md.j2" %}'
        in (project.templates_dir / "rules" / "demo.md.j2").read_text()
    )
    (project.cards_dir / "demo" / "box.yaml").write_text(
        "component: box\nkind: tuckbox\nname: Action tuck box\ndeck: actions\ncolor: \"#243b55\"\n")
    built = run_pnp("build", "demo", "--paper", "letter", "--jobs", "1", project=project)
    assert built.exit_code == 0, built.output
    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(project.build_dir / "demo" / "rules.pdf").pages)
    assert "Making the pieces" in text and "Action tuck box: as printed, and made up" in text
    again = run_pnp("new", "other", project=project)  # a second game keeps the project's copy as it is
    assert again.exit_code == 0 and "_making-the-pieces" not in again.output


TITLES = ["A: B", "Captain's #1 Game", "x\ncode: EVIL\nengine: os", 'She said "go" \\ then #} {{ 7*7 }}',
          "__CODE__ and __NAME__", "- [not, a, list]", "Tab\there\r\nand é\u2028line", '"""; import os; """']


@pytest.mark.parametrize("title", TITLES)
def test_any_title_round_trips_exactly_and_never_adds_a_key(tmp_project, title):
    """`pnp new` writes the title as a YAML scalar and one plain line in comments: it loads back as given,
    the file has exactly the keys of a default game.yaml, and the engine and rules text still compile."""
    import ast

    import yaml
    from jinja2 import Environment

    from generator.data.load import load_game

    result = run_pnp("new", "demo", "--title", title, "--engine", project=tmp_project)
    assert result.exit_code == 0, result.output
    assert run_pnp("new", "plain", "--engine", project=tmp_project).exit_code == 0
    (tmp_project.cards_dir.parent / "plain-engine.py").write_bytes(
        (tmp_project.cards_dir / "plain" / "engine.py").read_bytes())
    game_dir = tmp_project.cards_dir / "demo"
    loaded = yaml.safe_load((game_dir / "game.yaml").read_text(encoding="utf-8"))
    plain = yaml.safe_load((tmp_project.cards_dir / "plain" / "game.yaml").read_text(encoding="utf-8"))
    assert loaded["title"] == title
    assert set(loaded) == set(plain) and loaded["code"] == "DEM"
    assert load_game(tmp_project, "demo").title == title  # pnp's own reader agrees
    script = "scripts/01-play-a-card.yaml"
    assert yaml.safe_load((game_dir / script).read_text(encoding="utf-8")) == yaml.safe_load(
        (tmp_project.cards_dir / "plain" / script).read_text(encoding="utf-8"))
    engine = ast.parse((game_dir / "engine.py").read_text(encoding="utf-8"))  # still Python, nothing added
    one_line = " ".join(title.replace("\u2028", " ").split()).replace("#}", "# }")
    assert ast.get_docstring(engine).startswith(f"The rules engine of {one_line}, made by")
    assert [type(node) for node in engine.body] == [type(node) for node in ast.parse(
        (tmp_project.cards_dir.parent / "plain-engine.py").read_text(encoding="utf-8")).body]
    rules = (tmp_project.templates_dir / "rules" / "demo.md.j2").read_text(encoding="utf-8")
    Environment().parse(rules)  # the rules template still parses: the title cannot end its comment
    assert "49" not in Environment().from_string(rules.split("\n")[0]).render()
