"""`pnp` ends as any Python program does, through SystemExit (click's sys.exit): the status is the command's,
everything written reaches the reader, the exit handlers run, and a running thread is waited for."""

from __future__ import annotations

import subprocess
import sys

import pytest

from generator import __version__
from tests.conftest import REPO

ENDING = "SystemExit {status}\nexit handler ran\n"


def _pnp(*args: str, before: str = "") -> subprocess.CompletedProcess:
    """`pnp ARGS` through generator.cli.main.main, in a process of its own with an exit handler registered."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('exit handler ran'))\n"
            f"{before}"
            f"sys.argv = ['pnp', *{list(args)!r}]\n"
            "from generator.cli.main import main\n"
            "try:\n"
            "    main()\n"
            "except SystemExit as done:\n"
            "    print('SystemExit', done.code)\n"
            "    raise\n"
            "print('not reached')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          check=False)


def test_the_version_ends_through_system_exit_and_the_exit_handlers():
    run = _pnp("--version")
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == f"pnp, version {__version__}\n" + ENDING.format(status=0)


@pytest.mark.parametrize(("args", "status", "stderr"), [
    (("no-such-command",), 2, "No such command"),
    (("--project", str(REPO), "build", "no-such-game"), 1, "no game 'no-such-game'; known games:"),
])
def test_a_failing_command_keeps_its_status_through_system_exit(args, status, stderr):
    run = _pnp(*args)
    assert run.returncode == status
    assert run.stdout.endswith(ENDING.format(status=status))
    assert stderr in run.stderr


def test_a_whole_listing_reaches_the_reader_before_the_exit_handlers():
    run = _pnp("--project", str(REPO), "list")
    assert run.returncode == 0
    listing, ending = run.stdout.split("SystemExit", 1)
    assert "order-up-pizza" in listing and "short-order-hero" in listing and listing.endswith("\n")
    assert "SystemExit" + ending == ENDING.format(status=0)


def test_a_thread_still_running_is_waited_for():
    # the thread finishes only once the main thread has ended (a condition, not a fixed time): its line can
    # come only after main's, and before the exit handlers only if the interpreter waits for it
    run = _pnp("--version", before=("import threading, time\n"
                                    "def late():\n"
                                    "    while threading.main_thread().is_alive():\n"
                                    "        time.sleep(0.01)\n"
                                    "    print('thread finished', flush=True)\n"
                                    "threading.Thread(target=late).start()\n"))
    assert run.returncode == 0
    assert run.stdout.endswith("SystemExit 0\nthread finished\nexit handler ran\n")


def test_a_whole_pnp_command_keeps_its_status_and_its_output():
    ok = subprocess.run(
        [sys.executable, "-m", "generator", "--project", str(REPO), "list"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ok.returncode == 0 and "order-up-pizza" in ok.stdout and ok.stdout.endswith("\n")
    usage = subprocess.run(
        [sys.executable, "-m", "generator", "no-such-command"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert usage.returncode == 2 and "No such command" in usage.stderr
