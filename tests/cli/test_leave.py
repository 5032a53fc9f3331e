"""`pnp` ends without Python's teardown of every object (generator.cli.main.leave), yet exactly as sys.exit would:
the same status, everything written reaches the reader, the exit handlers run, and a running thread is waited for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60,
                          check=False)


@pytest.mark.parametrize(("code", "status", "stderr"), [("None", 0, ""), ("0", 0, ""), ("3", 3, ""),
                                                         ("'stopped: why'", 1, "stopped: why\n")])
def test_the_status_output_and_exit_handlers_are_those_of_sys_exit(code, status, stderr):
    run = _python("import atexit, sys\n"
                  "from generator.cli.main import leave\n"
                  "atexit.register(lambda: print('handler ran'))\n"
                  "sys.stdout.write('x' * 100000)\n"  # buffered: must be flushed before the process ends
                  f"leave({code})\n"
                  "print('not reached')\n")
    assert run.returncode == status
    assert run.stdout == "x" * 100000 + "handler ran\n"
    assert run.stderr == stderr


def test_a_thread_still_running_is_waited_for():
    run = _python("import threading, time\n"
                  "from generator.cli.main import leave\n"
                  "def late():\n"
                  "    time.sleep(0.3)\n"
                  "    print('thread finished', flush=True)\n"
                  "threading.Thread(target=late).start()\n"
                  "leave(4)\n")
    assert (run.returncode, run.stdout) == (4, "thread finished\n")


def test_a_whole_pnp_command_keeps_its_status_and_its_output():
    ok = subprocess.run([sys.executable, "-m", "generator", "--project", str(REPO), "list"], capture_output=True,
                        text=True, timeout=120, check=False)
    assert ok.returncode == 0 and "order-up-pizza" in ok.stdout and ok.stdout.endswith("\n")
    usage = subprocess.run([sys.executable, "-m", "generator", "no-such-command"], capture_output=True, text=True,
                           timeout=120, check=False)
    assert usage.returncode == 2 and "No such command" in usage.stderr
