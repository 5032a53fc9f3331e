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
