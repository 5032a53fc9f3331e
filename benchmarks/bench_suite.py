"""The test suite's wall time, as a newcomer runs it (`make test`: pytest on both cores), alone and while the
machine runs another build (a `pnp build --force` loop of the bundled games in a copy of the project).

Target: under 10 minutes on 2 cores, under load too. A quick run (`make bench-quick`) times only the core and
data packages' tests, alone and under load, so that the comparison still shows.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import quick

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 600  # `make test` on 2 cores, also while another build runs
QUICK_PACKAGES = ("tests/core", "tests/data")


def _suite(load: bool) -> tuple[float, int, str]:
    """Run the suite once (with a build loop beside it when `load`): wall seconds, exit code, last line."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2"]
    if quick():
        command += list(QUICK_PACKAGES)
    with tempfile.TemporaryDirectory() as scratch:
        loader = None
        if load:
            for name in ("cards", "templates"):
                shutil.copytree(ROOT / name, Path(scratch) / name)
            # a shell loop: one build after another for as long as the suite runs
            build = f"{sys.executable} -m generator --project {scratch} build --force"
            loop = f"while true; do {build} > /dev/null 2>&1; done"
            loader = subprocess.Popen(["bash", "-c", loop], cwd=ROOT)
        try:
            started = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
            elapsed = time.perf_counter() - started
        finally:
            if loader is not None:
                loader.kill()
                loader.wait()
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return elapsed, done.returncode, lines[-1] if lines else ""


def run() -> None:
    """Time the suite alone, then beside a build loop; print both against the target."""
    what = "the core and data tests" if quick() else "the whole suite"
    for load in (False, True):
        elapsed, code, last = _suite(load)
        beside = "beside a build loop" if load else "alone"
        verdict = "" if quick() else ("  (target under 600 s: met)" if elapsed < TARGET_S and code == 0
                                      else "  (target under 600 s: NOT met)")
        print(f"pytest -n 2, {what}, {beside}: {elapsed:6.1f} s wall, exit {code}: {last}{verdict}")
