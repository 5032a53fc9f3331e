"""The help reads as sentences: `pnp --help` lists each command with a whole one-line summary, and every
command's help ends with examples that parse as real command lines."""

from __future__ import annotations

import shlex

import click
import pytest

from generator.cli.main import COMMANDS, HELP, cli
from tests.conftest import run_pnp


def test_every_command_has_a_summary_and_examples():
    assert set(HELP) == set(COMMANDS)
    for name, (summary, examples) in HELP.items():
        assert summary.endswith(".") and summary[0].isupper() and summary.count(". ") == 0, name
        assert examples and all(line.startswith(f"pnp {name}") for line in examples), name


def test_the_command_list_shows_whole_sentences():
    listed = " ".join(run_pnp("--help").output.split())  # click wraps long summaries onto a second line
    for name, (summary, _) in HELP.items():
        assert f"{name} {summary}" in listed, name
    commands = run_pnp("--help").output.split("Commands:")[1]
    assert "..." not in commands
    export = " ".join(run_pnp("export", "--help").output.split())
    assert "..." not in export.split("Commands:")[1] and "Tabletop Simulator deck sheets" in export


@pytest.mark.parametrize("name", sorted(HELP))
def test_each_example_is_a_command_line_pnp_accepts(name):
    shown = run_pnp(name, "--help").output
    assert "Examples:" in shown
    for line in HELP[name][1]:
        assert line in shown
        tokens = shlex.split(line)[1:]
        command: click.Command = cli
        context = click.Context(cli, info_name="pnp")
        while isinstance(command, click.Group):  # the examples give no group option: a command name first
            sub_name, *tokens = tokens
            command = command.get_command(context, sub_name)
            assert command is not None, line
            context = click.Context(command, info_name=sub_name, parent=context)
        # parsing checks every option and argument the example gives (click raises UsageError otherwise)
        parsed = command.make_context(context.info_name, list(tokens), parent=context.parent)
        assert not parsed.args, (line, parsed.args)


def _invoke(args: list[str], env: dict[str, str], project) -> str:
    from click.testing import CliRunner

    # color=True: the runner stands in for a terminal that shows colour
    return CliRunner().invoke(cli, ["--project", str(project), *args], color=True, env=env).output


def test_marks_are_coloured_on_a_terminal_unless_no_color(tmp_path):
    assert run_pnp("new", "demo", project=tmp_path).exit_code == 0
    shown = _invoke(["validate", "--no-sim"], {"NO_COLOR": ""}, tmp_path)
    assert "\x1b[32m\x1b[1mOK \x1b[0m demo:" in shown
    plain = _invoke(["validate", "--no-sim"], {"NO_COLOR": "1"}, tmp_path)
    assert "\x1b[" not in plain and "OK  demo:" in plain
    deck = tmp_path / "cards" / "demo" / "actions.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("copies: 4", "copies: four", 1),
                    encoding="utf-8")
    failed = _invoke(["build"], {"NO_COLOR": ""}, tmp_path)
    assert "\x1b[31m\x1b[1mcards/demo/actions.yaml:" in failed  # the place of each problem, in red
    assert "\x1b[" not in _invoke(["build"], {"NO_COLOR": "1"}, tmp_path)


def test_quiet_leaves_only_problems_and_verbose_names_every_file(tmp_path):
    assert run_pnp("--quiet", "new", "demo", project=tmp_path).stdout == ""
    quiet = run_pnp("-q", "build", "--paper", "a4", project=tmp_path)
    assert quiet.exit_code == 0 and quiet.stdout == ""
    assert (tmp_path / "build" / "demo" / "cards-a4.pdf").is_file()
    verbose = run_pnp("-v", "build", "--paper", "a4", project=tmp_path)
    assert "  skipped demo/cards-a4.pdf (up to date)" in verbose.stdout
    assert run_pnp("-q", "validate", "--no-sim", project=tmp_path).stdout.splitlines() == [
        "OK: 1 game validated, no problems"]
    deck = tmp_path / "cards" / "demo" / "actions.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("copies: 4", "copies: four", 1),
                    encoding="utf-8")
    failed = run_pnp("-q", "build", project=tmp_path)
    assert failed.exit_code == 1 and failed.stdout == "" and "cards/demo/actions.yaml:" in failed.stderr
    both = run_pnp("-q", "-v", "build", project=tmp_path)
    assert both.exit_code == 2 and "opposite" in both.output
