"""Build and validate from the studio: `pnp build GAME` or `pnp validate GAME` run as the command line runs
them (a process of their own, so the studio keeps answering and the files are those the terminal would
write), their output streamed to every open page line by line, their located problems sent as the banner when
they end.

One job runs at a time; asking for another while it runs is refused (the page says so).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

KINDS = {  # what a button asks for -> the command's words after `pnp`
    "build": ("build",),
    "validate": ("validate",),
}
LOCATED = re.compile(r"^(?:cards|templates)/\S+?:(?:\d+|[^:\s]+![A-Z]+\d+): ")  # 'cards/g/x.yaml:3: ...'
MOST_LINES = 2000  # of a job's output kept for a page that opens while it runs


@dataclass
class Job:
    """One run of a command for one game: its output so far and, once ended, how it went."""

    number: int
    kind: str
    game: str
    lines: list[str] = field(default_factory=list)
    ended: bool = False
    ok: bool | None = None
    problems: list[str] = field(default_factory=list)

    def as_event(self) -> dict:
        """The job as the page shows it (without its output, which comes line by line)."""
        return {"type": "job", "job": self.number, "kind": self.kind, "game": self.game, "ended": self.ended,
                "ok": self.ok, "problems": self.problems}


class Jobs:
    """The studio's jobs: at most one running; every line and the end published as events."""

    def __init__(self, root: Path, publish: Callable[[dict], None]):
        self.root = root
        self.publish = publish
        self.last: Job | None = None
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._count = 0

    @property
    def running(self) -> bool:
        return self.last is not None and not self.last.ended

    def start(self, kind: str, game: str) -> Job | None:
        """Start `kind` ('build' or 'validate') for a game; None while another job runs."""
        with self._lock:
            if self.running:
                return None
            self._count += 1
            job = self.last = Job(self._count, kind, game)
            command = [sys.executable, "-m", "generator", "--project", str(self.root), *KINDS[kind], game]
            # plain text: no colour codes and no progress bar (not a terminal), every file named
            env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
            self._process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL, text=True, encoding="utf-8",
                                             errors="replace", env=env, cwd=self.root)
        self.publish(job.as_event())
        threading.Thread(target=self._follow, args=(job, self._process), daemon=True,
                         name=f"studio-{kind}").start()
        return job

    def _follow(self, job: Job, process: subprocess.Popen) -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            line = raw.rstrip("\n")
            if len(job.lines) < MOST_LINES:
                job.lines.append(line)
            if LOCATED.match(line):
                job.problems.append(line)
            self.publish({"type": "job-line", "job": job.number, "line": line})
        code = process.wait()
        job.ok, job.ended = code == 0, True
        self.publish(job.as_event())

    def close(self) -> None:
        """Stop a running job (the studio is stopping)."""
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
