"""The CI examples of docs/ci.md work as written: the workflow's `pnp` steps and the pre-commit hook run on a
real game."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml

from tests.cli.test_ci_formats import GAME, _break_data, project  # noqa: F401 - the fixture
from tests.conftest import REPO, run_pnp

WORKFLOW = REPO / "docs" / "examples" / "github-workflow.yml"


def _pnp_steps() -> list[list[str]]:
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["validate-and-build"]["steps"]
    runs = [shlex.split(step["run"], comments=True) for step in steps if "run" in step]
    assert any(r[:1] == ["pip"] for r in runs)  # the install step is the runner's business
    return [r[1:] for r in runs if r[:1] == ["pnp"]]


def test_the_workflows_pnp_steps_pass_on_a_game_and_annotate_a_broken_one(project, monkeypatch):  # noqa: F811
    monkeypatch.chdir(project)  # a workflow runs at the repository's root: the paths in it are relative
    steps = _pnp_steps()
    assert [s[0] for s in steps] == ["validate", "validate", "build"]
    for step in steps:
        args = [*step, "--games", "10"] if step[0] == "validate" and "--no-sim" not in step else step
        result = run_pnp(*args, project=project)
        assert result.exit_code == 0, (step, result.output)
    assert (project / "build" / "validation-report.json").is_file()
    assert (project / "build" / "validation-junit.xml").is_file()
    assert (project / "build" / GAME / "cards-letter.pdf").is_file()
    line = _break_data(project)
    result = run_pnp(*steps[0], project=project)
    assert result.exit_code == 1
    assert f"::error file=cards/{GAME}/cards.yaml,line={line}," in result.stdout


@pytest.mark.skipif(shutil.which("git") is None or os.name != "posix",
                    reason="pre-commit needs git; the pnp shim is a POSIX shell script")
def test_the_pre_commit_hook_stops_a_commit_that_breaks_a_game(project, tmp_path):  # noqa: F811
    pytest.importorskip("pre_commit")
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    check = next(h for h in hooks if h["id"] == "pnp-check")
    # the documented local form of the hook: the same entry and files, run by the pnp installed here
    local = {"repos": [{"repo": "local", "hooks": [
        {k: check[k] for k in ("id", "name", "entry", "pass_filenames", "files")} | {"language": "system"}]}]}
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(local), encoding="utf-8")
    # `pnp` on PATH is this checkout's (as `pip install` would make it)
    shims = tmp_path / "bin"
    shims.mkdir()
    (shims / "pnp").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m generator "$@"\n', encoding="utf-8")
    (shims / "pnp").chmod(0o755)
    env = {**os.environ, "PATH": f"{shims}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(REPO),
           "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.invalid"}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(args, cwd=project, env=env, capture_output=True, text=True, timeout=600)

    assert run("git", "init", "-q").returncode == 0
    run("git", "add", "-A")
    passed = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    line = _break_data(project)
    run("git", "add", "-A")
    failed = run(sys.executable, "-m", "pre_commit", "run", "--all-files")
    assert failed.returncode == 1
    assert f"cards/{GAME}/cards.yaml:{line}:" in failed.stdout + failed.stderr
