"""Incremental rebuilds as a designer runs them: `pnp build` as a whole process on a copy of the three games.

Prints the no-change build of all three games and, for Order Up, the rebuild after each kind of edit (a card's text, a
layout, the rules template, the board) with the outputs each one rewrote; each time is the median of 5 runs, printed
next to its target, with the CPU seconds the build process used (on a busy machine the wall time waits for a core,
the CPU time much less). The card whose text is edited, Grandma Rosa's order, is on the rules' cover, so the rules are
drawn again too; a second card text edit (Coach Carter, whom the rules neither picture nor name) shows the rebuild of
the card sheets alone. On a busy machine the times move together; the ratio to the full build of the same run is
printed beside each.
Targets (issue 38): no-change build < 0.3 s (as a whole process: Python's start-up and imports, with nothing patched
and nothing cached across runs but the files' digests, the checks that passed and the outputs); Order Up card text
< 0.5 s; rules template < 0.8 s and no card sheet rewritten; a layout edit rewrites no board.

Where the time of Order Up's card text edit goes (2026-12-02, the machine at load 5-10, so every figure is 2-4x a
quiet machine's; one process with --jobs 1, timed per phase): imports 33 % (some 640 modules: pydantic and the data
models, ReportLab, markdown-it, Jinja, click), loading 3 %, planning 11 % (every face resolved and its text fitted
again, the rules rendered), the game.yaml checks 3-5 %, drawing 43 % (both card sheets draw every face, not only the
edited one; the rules and booklets), the rest writing. The checks are now run only when the parts of the game they
read changed (build/.checks.json), and a job of a few pages forks no worker; the card text edit still runs the
costliest checks, which read the orders deck, and still draws every face: the targets are not met yet. Before and
after these changes, interleaved in one run at load 8-10 (Order Up alone, median of 3, CPU seconds of the build and
its workers; the wall times, 4-12 s, said more about the neighbours): card text 2.69 -> 2.44 s, unpictured card
text 1.93 -> 1.63 s, rules template 1.89 -> 1.43 s, no change 0.19 -> 0.19 s.

Since then (2026-12-02, interleaved with main in one run at load 14, median of 3, CPU seconds of the build and
its workers): the card sheets draw only the faces whose inputs changed (build/.cache/faces/: 98 of Order Up's
100 faces are found after a card text edit), the rules keep the layout their page balancing chose while what
their pages' geometry reads is the same (build/.cache/rules-layouts/: one layout laid out instead of four
after Grandma Rosa's edit), and an RGB build no longer imports the colour stage: card text 2.55 -> 1.63 s,
unpictured card text 1.61 -> 1.29 s, rules template 1.93 -> 2.21 s (no work removed from it: every layout is
tried again when the rules' text changed; a second run, 5 rounds at load 10, gave 1.78 -> 2.00 s, with
slightly fewer Python calls on this side under cProfile: not explained yet), no change 0.20 -> 0.17 s. What is
left on a card text edit: every face resolved and checked again (the planning), the rules rendered, laid out
and drawn once, the imports.

The builds run as a designer's `pnp` does, with Python's bytecode cache (a shell that sets PYTHONDONTWRITEBYTECODE,
as some sandboxes do, has every run compile pnp's own sources again: some 0.3 s more per build).
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GAME = "order-up-pizza"
EDITS = {  # what -> (file under the project, text, replacement)
    "card text": (f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie"),  # on the cover
    "unpictured card text": (f"cards/{GAME}/orders.yaml", "customer: Coach Carter", "customer: Coach Carver"),
    "layout": (f"cards/{GAME}/layouts/order.yaml", 'radius: 3mm, fill: "#fff8ec"', 'radius: 2.5mm, fill: "#fff8ec"'),
    "rules template": (f"templates/rules/{GAME}.md.j2", "The city board", "The city map"),
    "board": (f"cards/{GAME}/board.yaml", "label: Red restaurant", "label: Red pizzeria"),
}
TARGETS = {"card text": 0.5, "rules template": 0.8}  # seconds, whole process
NO_CHANGE_TARGET = 0.3  # seconds
ROUNDS = 5  # rebuilds per kind of edit (and no-change builds): the median is printed


CPU: list[float] = []  # the CPU seconds of each pnp_build, in order


def pnp_build(project: Path, *args: str) -> tuple[float, list[str]]:
    """(seconds, outputs written) of `pnp build` run as a whole process, with Python's bytecode cache; its CPU
    seconds (its workers' too) are appended to CPU."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "generator", "--project", str(project), "build", *args],
                          capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if done.returncode:
        raise RuntimeError(done.stdout + done.stderr)
    written = [line.split("wrote ", 1)[1] for line in done.stdout.splitlines() if line.strip().startswith("wrote ")]
    return elapsed, written


def run() -> None:
    """Print the no-change build and the rebuild after each kind of edit."""
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("PYTHONDONTWRITEBYTECODE is set here; the builds below run without it, as a designer's pnp does")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-rebuild-") as folder:
        project = Path(folder)
        for name in ("cards", "templates"):
            shutil.copytree(REPO / name, project / name)
        full, written = pnp_build(project)
        print(f"full build of the three games: {full:.2f} s ({len(written)} outputs)")
        still = statistics.median(pnp_build(project)[0] for _ in range(ROUNDS))
        cpu = statistics.median(CPU[-ROUNDS:])
        verdict = "ok" if still < NO_CHANGE_TARGET else "over"
        print(f"no-change build: {still:.2f} s against the target {NO_CHANGE_TARGET} s ({verdict}), median of "
              f"{ROUNDS}, {cpu:.2f} s CPU ({still / full:.1%} of the full build)")
        for what, (file, old, new) in EDITS.items():
            path = project / file
            text = path.read_text(encoding="utf-8")
            times, cpus = [], []
            for _ in range(ROUNDS):  # one whole process varies by +-30 % on this kind of machine: the median
                path.write_text(text.replace(old, new, 1), encoding="utf-8")
                seconds, written = pnp_build(project)
                times.append(seconds)
                cpus.append(CPU[-1])
                path.write_text(text, encoding="utf-8")
                pnp_build(project)  # back to the original
            elapsed = statistics.median(times)
            # paths inside the build folder: a translated game writes cards-a4.pdf once per language (cs/cards-a4.pdf)
            names = ", ".join(w.strip() for w in written) or "nothing"
            notes = [f"{statistics.median(cpus):.2f} s CPU"]
            if what == "rules template" and any(Path(w).name.startswith("cards-") for w in written):
                notes.append("rewrote a card sheet")
            if what == "layout" and any(Path(w).name.startswith("board") for w in written):
                notes.append("rewrote a board")
            runs = " / ".join(f"{s:.2f}" for s in times)
            target = (f" against the target {TARGETS[what]} s ({'ok' if elapsed < TARGETS[what] else 'over'})"
                      if what in TARGETS else "")
            print(f"{what} edit: {elapsed:.2f} s{target}, median of {runs} ({elapsed / full:.1%} of the full "
                  f"build; {'; '.join(notes)}); rewrote {names}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run()
