"""`pnp validate --format github|junit|sarif|json`, `--quiet`, and the machine-readable files a failing run
still writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from generator.core.errors import Problem
from generator.pipeline.ci_report import Findings, github
from tests.conftest import REPO, run_pnp

GAME = "crazy-eights"  # the quickest bundled game to validate (rules as data, one script)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project holding only Crazy Eights, safe to break."""
    shutil.copytree(REPO / "cards" / GAME, tmp_path / "cards" / GAME)
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    return tmp_path


def _break_data(project: Path) -> int:
    """A misspelt key on the deck's first card; returns its line."""
    deck = project / "cards" / GAME / "cards.yaml"
    lines = deck.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if "id: a-clubs" in line)
    lines[first] = lines[first].replace("copies: 1", "coppies: 1")
    deck.write_text("".join(lines), encoding="utf-8")
    return first + 1


def _break_script(project: Path) -> None:
    script = next((project / "cards" / GAME / "scripts").glob("*.yaml"))
    script.write_text(script.read_text(encoding="utf-8").replace("stock_size: 37", "stock_size: 36"),
                      encoding="utf-8")


def test_github_annotations_locate_a_data_problem_and_the_report_is_still_written(project):
    line = _break_data(project)
    report = project / "report.json"
    result = run_pnp("validate", GAME, "--format", "github", "--report", str(report), project=project)
    assert result.exit_code == 1
    annotations = [x for x in result.stdout.splitlines() if x.startswith("::error ")]
    assert annotations, result.output
    assert any(f"file=cards/{GAME}/cards.yaml,line={line},title=pnp validate::" in x and "coppies" in x
               for x in annotations), annotations
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["ok"] is False and written["loaded"] is False
    assert any(p["file"] == f"cards/{GAME}/cards.yaml" and p["line"] == line for p in written["problems"])
    record = json.loads((project / "build" / GAME / "validation.json").read_text(encoding="utf-8"))
    assert record["loaded"] is False and any("coppies" in p for p in record["problems"])


def test_junit_report_of_a_failing_script_names_the_game_and_the_failure(project):
    _break_script(project)
    out = project / "junit.xml"
    result = run_pnp("validate", GAME, "--games", "10", "--format", "junit", "--output", str(out),
                     project=project)
    assert result.exit_code == 1
    root = ElementTree.parse(out).getroot()
    suite = root.find(f"testsuite[@name='{GAME}']")
    assert suite is not None and suite.get("failures") == "1"
    failed = [c for c in suite if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["scripts: 1 scripted games"]
    assert "stock_size" in failed[0].find("failure").text
    assert root.get("tests") == suite.get("tests") == "3"


def test_sarif_and_json_on_stdout_replace_the_summary(project):
    line = _break_data(project)
    result = run_pnp("validate", GAME, "--format", "sarif", project=project)
    assert result.exit_code == 1
    log = json.loads(result.stdout)  # nothing but the document on stdout
    assert log["version"] == "2.1.0"
    found = log["runs"][0]["results"]
    assert found and found[0]["level"] == "error"
    location = found[0]["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": f"cards/{GAME}/cards.yaml"},
                        "region": {"startLine": line}}
    result = run_pnp("validate", GAME, "--format", "json", project=project)
    document = json.loads(result.stdout)
    assert document["ok"] is False and document["problems"][0]["line"] == line


def test_a_passing_run_quiet_prints_one_line_and_the_json_says_ok(project):
    result = run_pnp("validate", GAME, "--games", "10", "--quiet", project=project)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["OK: 1 game validated, no problems"]
    result = run_pnp("validate", GAME, "--games", "10", "--format", "json", "--quiet", project=project)
    document = json.loads(result.stdout)
    assert document["ok"] is True and document["games"][GAME]["scripts"] == 1
    assert document["games"][GAME]["simulated"] is True


def test_annotation_text_is_escaped_as_the_runner_reads_it():
    problem = Problem("cards/a,b/x:y.yaml", 3, "50% of\nthe deck")
    assert github(Findings(problems=[problem])) == (
        "::error file=cards/a%2Cb/x%3Ay.yaml,line=3,title=pnp validate::50%25 of%0Athe deck\n")
    cell = Problem("cards/g/deck.xlsx", 14, "not a number", cell="Orders!C14")
    assert github(Findings(warnings=[cell])) == (
        "::warning file=cards/g/deck.xlsx,title=pnp validate::Orders!C14: not a number\n")


def test_build_in_an_empty_folder_points_at_pnp_new(tmp_path):
    result = run_pnp("build", project=tmp_path)
    assert result.exit_code == 1
    assert "no cards/ folder" in result.output and "`pnp new NAME`" in result.output
