"""Errors the operating system reports get their own honest line, never "could not write a folder" for all of
them: a reader that closed the pipe (`pnp validate | head -1`), a full disk under the output, a path that is
not a folder. Each is exit 1, one line on stderr, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_pnp

BROKEN_PIPE = (
    "pnp: stopped: the program reading pnp's output closed it before the end (broken pipe); the command "
    "did not finish"
)


def _pnp(*args: str, stdout) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "--project", str(REPO), *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, check=False, timeout=120)


@pytest.mark.parametrize("args", [("list",), ("validate", "order-up-pizza", "--no-sim")])
def test_a_reader_that_left_is_a_broken_pipe_not_a_folder(args):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before pnp writes its first line (`| head -0`, `| true`)
    try:
        run = _pnp(*args, stdout=write)
    finally:
        os.close(write)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [BROKEN_PIPE], run.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device that is always full)")
def test_output_to_a_full_disk_says_so():
    with open("/dev/full", "w") as full:
        run = _pnp("list", stdout=full)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "pnp: could not write to its output: No space left on device; the command did not finish"], run.stderr


def test_an_output_folder_inside_a_file_names_the_path(tmp_project, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    result = run_pnp(
        "build",
        "order-up-pizza",
        "--paper",
        "a4",
        "--jobs",
        "1",
        "--out",
        str(tmp_path / "file" / "x"),
        project=tmp_project,
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    # the project is tmp_path, so the path is shown from the project folder
    assert (
        lines[-1]
        == "file/x/order-up-pizza: Not a directory; expected a file or folder pnp may read and write"
    ), result.output
