"""Rules templates: rendered from the game data, errors located in the template, and a sandbox that holds."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.booklet.text import render_rules
from generator.core.errors import InputError
from generator.data.load import load_game

GAMES = ("order-up-pizza", "order-up-trading", "short-order-hero")


def _with_template(project, game_id: str, text: str):
    path = Path(project.templates_dir) / "rules" / f"{game_id}.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return load_game(project, game_id)


def _problem(exc: pytest.ExceptionInfo) -> tuple[str, int, str]:
    problem = exc.value.problems[0]
    return problem.file, problem.line, problem.message


@pytest.mark.parametrize("game_id", GAMES)
def test_real_templates_render_numbers_from_the_data(repo_project, game_id):
    game = load_game(repo_project, game_id)
    text = render_rules(game)
    for deck in game.decks.values():
        assert f"| {deck.name} | {deck.copies} |" in text  # component table row, counted from the YAML
    for name, value in game.config.settings.items():
        if name in ("start_hand", "hand_limit", "hand", "target", "display") and isinstance(value, int):
            assert str(value) in text
    assert "{{" not in text and "{%" not in text


def test_undefined_variable_names_template_and_line(tmp_project):
    game = _with_template(
        tmp_project,
        "order-up-pizza",
        "# Title\n\nDeal {{ game.settings.start_hand }} cards.\n"
        "You may hold {{ game.settings.hand_limitt }} cards.\n",
    )
    with pytest.raises(InputError) as exc:
        render_rules(game)
    file, line, message = _problem(exc)
    assert file == "templates/rules/order-up-pizza.md.j2"
    assert line == 4
    assert "no field 'hand_limitt' here (did you mean 'hand_limit'?); known:" in message
    assert "View object" not in message  # not Jinja's name for the internal class


def test_syntax_error_names_template_and_line(tmp_project):
    game = _with_template(tmp_project, "order-up-pizza", "# Title\n\n{% for x in game.decks %}\n{{ x }\n")
    with pytest.raises(InputError) as exc:
        render_rules(game)
    file, line, message = _problem(exc)
    assert file == "templates/rules/order-up-pizza.md.j2" and line == 4
    assert "syntax" in message


@pytest.mark.parametrize("expression", [
    "''.__class__",
    "''.__class__.__mro__[1].__subclasses__()",
    "game.__class__",
    "cycler.__init__.__globals__",
])
def test_sandbox_blocks_python_internals(tmp_project, expression):
    game = _with_template(tmp_project, "order-up-pizza", f"# T\n\n{{{{ {expression} }}}}\n")
    with pytest.raises(InputError) as exc:
        render_rules(game)
    file, line, _ = _problem(exc)
    assert file == "templates/rules/order-up-pizza.md.j2" and line == 3


def test_template_sees_data_not_objects(tmp_project):
    """The game handed to a template is plain data: no paths, no project, nothing with file access."""
    game = _with_template(tmp_project, "order-up-pizza", "{{ game.dir }}\n")
    with pytest.raises(InputError):
        render_rules(game)


def test_unknown_icon_and_card_fail_at_their_line(tmp_project):
    game = _with_template(
        tmp_project, "order-up-pizza", "# T\n\n{{ icon('pepperoni') }}\n{{ icon('peperoni') }}\n"
    )
    with pytest.raises(InputError) as exc:
        render_rules(game)
    assert _problem(exc)[1] == 4 and "pepperoni" in _problem(exc)[2]
    game = _with_template(
        tmp_project, "order-up-pizza", "# T\n\n{{ figure('card', deck='orders', card='nobody') }}\n"
    )
    with pytest.raises(InputError) as exc:
        render_rules(game)
    assert _problem(exc)[1] == 3 and "nobody" in _problem(exc)[2]


def test_missing_template_is_reported(tmp_project):
    game = load_game(tmp_project, "order-up-pizza")
    (Path(tmp_project.templates_dir) / "rules" / "order-up-pizza.md.j2").unlink()
    with pytest.raises(InputError) as exc:
        render_rules(game)
    assert "templates/rules/order-up-pizza.md.j2" in str(exc.value)


def test_a_pipe_in_the_data_stays_in_its_table_cell(tmp_path):
    """A card named 'Draw | Two' used to split its row of the rules table and lose a column."""
    from reportlab.platypus import Table

    from generator.booklet.markdown import Converter
    from generator.data.project import Project
    from tests.conftest import run_pnp

    project = Project(tmp_path / "p")
    assert run_pnp("new", "demo", project=project).exit_code == 0
    deck = project.cards_dir / "demo" / "actions.yaml"
    deck.write_text(deck.read_text().replace("name: Draw Two", "name: Draw | Two"))
    markdown = render_rules(load_game(project, "demo"))
    assert "Draw \\| Two | 4 | 1 |" in markdown
    flows = Converter(width=300).convert(markdown)
    flows += [inner for f in flows for inner in getattr(f, "_content", [])]  # short tables are kept together
    [rows] = [rows for rows in ([[c.getPlainText() for c in row] for row in f._cellvalues] for f in flows
                                 if isinstance(f, Table)) if rows[0][0] == "Card"]
    assert {len(row) for row in rows} == {3} and rows[1][0].endswith("Draw | Two") and rows[1][1] == "4"
    assert run_pnp("build", "--paper", "a4", project=project).exit_code == 0
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(project.build_dir / "demo" / "rules.pdf").pages)
    assert "Draw | Two 4 1 Lucky Roll" in " ".join(text.split())  # the row keeps its three columns
