"""A bug of pnp (not of the project) is one line with the hint to run with --debug; --debug shows the
traceback. `pnp watch` outlives any error, its own bugs included."""

from __future__ import annotations

import traceback

from click.testing import CliRunner

from generator.cli.main import cli
from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline import build as build_module
from generator.pipeline.watch import build_once
from tests.conftest import run_pnp


def _broken_reading_pdf(_game, _markdown):
    return {"nope": 1}["missing"]  # a KeyError deep inside a producer: a bug of ours


def test_a_bug_is_one_line_and_debug_shows_the_traceback(tmp_path, monkeypatch):
    project = Project(tmp_path / "p")
    assert run_pnp("new", "demo", project=project).exit_code == 0
    monkeypatch.setattr("generator.booklet.pdf.render_reading", _broken_reading_pdf)
    plain = CliRunner().invoke(cli, ["--project", str(project.root), "build", "--paper", "a4"])
    assert plain.exit_code == 1
    assert plain.output.strip().splitlines() == [
        "pnp: internal error while drawing demo/rules.pdf: KeyError: 'missing' (a bug in pnp, not in your "
        "files; "
        "run with --debug for the traceback)"
    ]
    assert not (project.build_dir / "demo" / "cards-a4.pdf").exists()  # nothing half-built is left behind
    assert not list(project.root.rglob("*.tmp"))
    debug = CliRunner().invoke(cli, ["--project", str(project.root), "--debug", "build", "--paper", "a4"])
    assert isinstance(debug.exception, KeyError)
    assert "_broken_reading_pdf" in "".join(traceback.format_exception(*debug.exc_info))


class Report:
    def __init__(self):
        self.events = []

    def wrote(self, output):
        pass

    def built(self, result, seconds):  # noqa: ARG002 - the reporter protocol
        self.events.append(("built", len(result.written)))

    def failed(self, problems):
        self.events.append(("failed", [str(p) for p in problems]))


def test_watch_builds_outlive_bad_data_and_bugs(tmp_path, monkeypatch):
    project = Project(tmp_path / "p")
    assert run_pnp("new", "demo", project=project).exit_code == 0
    options, report = BuildOptions(papers=("a4",)), Report()
    game_yaml = project.cards_dir / "demo" / "game.yaml"
    good = game_yaml.read_text()
    game_yaml.write_text(good + "deep: " + "[" * 500 + "]" * 500 + "\n")  # was a RecursionError
    assert build_once(project, ["demo"], options, report) is False
    game_yaml.write_text(good)
    real_build = build_module.build
    monkeypatch.setattr("generator.pipeline.watch.build", lambda *a, **k: 1 / 0)
    assert build_once(project, ["demo"], options, report) is False
    monkeypatch.setattr("generator.pipeline.watch.build", real_build)
    assert build_once(project, ["demo"], options, report) is True
    (bad_data, located), (bug, internal), built = report.events
    deep = len(good.splitlines()) + 1  # the line added to the scaffold's game.yaml
    assert bad_data == "failed" and located == [
        f"cards/demo/game.yaml:{deep}: the data is nested more than 64 levels deep; "
        "expected at most 64 levels of mappings and lists"
    ]
    assert bug == "failed" and internal[0].startswith("pnp: internal error: ZeroDivisionError")
    assert "run with --debug for the traceback" in internal[0]
    assert built == ("built", 3)
