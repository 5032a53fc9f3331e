"""Incremental rebuilds: a no-change rebuild of every game and a one-card edit in each game.

Works on a copy of cards/ and templates/ in a temporary folder (build/ of the repository is not touched).
Targets: no-change rebuild < 0.5 s; one-card edit < 1.5 s. The edit rebuilds every output of the edited game
(its hash covers the whole game folder), so the per-output times are printed to show where the time goes.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from generator.core.contract import BuildOptions
from generator.data.project import Project
from generator.pipeline.build import build
from generator.pipeline.gather import gather
from generator.pipeline.producers import plan

REPO = Path(__file__).resolve().parents[1]
EDITS = {  # game -> (file, text, replacement): one card's name
    "order-up-pizza": ("orders.yaml", "name: Grandma Rosa", "name: Grandma Rosie"),
    "order-up-trading": ("recipes.yaml", "name: Burrito", "name: Burritos"),
    "short-order-hero": ("recipes.yaml", "name: Buttered Toast", "name: Buttered Toasts"),
}


def _timed_build(project: Project, names: list[str], options: BuildOptions):
    times: list[tuple[str, float]] = []
    last = [time.perf_counter()]

    def progress(output) -> None:
        now = time.perf_counter()
        times.append((str(output.path), now - last[0]))
        last[0] = now

    started = time.perf_counter()
    result = build(project, names, options, progress=progress)
    return time.perf_counter() - started, result, times


def run() -> None:
    """Print the time of a no-change rebuild and of a one-card edit per game (both papers, as `pnp build`)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name in ("cards", "templates"):
            shutil.copytree(REPO / name, root / name)
        project = Project(root)
        names = project.game_ids()
        options = BuildOptions()
        full, result, _ = _timed_build(project, names, options)
        print(f"full build of {len(names)} games: {full:.2f} s ({len(result.written)} outputs)")
        best = min(_timed_build(project, names, options)[0] for _ in range(5))
        _, result, _ = _timed_build(project, names, options)
        print(f"no-change rebuild: {best * 1000:.0f} ms, best of 5 (target < 500 ms); "
              f"{len(result.written)} written, {len(result.skipped)} skipped")
        for game, (file, old, new) in EDITS.items():
            path = project.cards_dir / game / file
            text = path.read_text(encoding="utf-8")
            if old not in text:
                print(f"one-card edit of {game}: card '{old}' not found, skipped")
                continue
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
            elapsed, result, times = _timed_build(project, names, options)
            verdict = "ok" if elapsed < 1.5 else "over the 1.5 s target"
            print(f"one-card edit of {game}: {elapsed:.2f} s ({verdict}); {len(result.written)} written, "
                  f"{len(result.skipped)} skipped")
            started = time.perf_counter()
            plan(gather(project, [game])[0], options)  # what the build spends before drawing, measured again
            load = time.perf_counter() - started
            if times:  # the first output's interval also holds the loading
                times[0] = (times[0][0], max(0.0, times[0][1] - load))
            print(f"    hashing, load, check and plan ~{load:.2f} s; drawing: " +
                  ", ".join(f"{Path(p).name} {t:.2f} s" for p, t in sorted(times, key=lambda x: -x[1])))
            path.write_text(text, encoding="utf-8")
            _timed_build(project, names, options)


if __name__ == "__main__":
    run()
