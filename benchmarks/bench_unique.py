"""Unique cards against the floor: `pnp build` of a deck of N different cards against a bare ReportLab script.

Both are whole processes (imports, reading the data, drawing, saving), run interleaved in one run, median of 3; the
ratio is what holds on a busy machine, so it is printed first, by wall time and by CPU time (user+sys of the
process and the processes it waited for: the build's workers and helper). pnp runs with `--jobs 1` and `--jobs 2`
(a helper process checks and draws half of a long list of faces) on A4, then with both papers (the default)
and `--jobs 2`: the second paper places the faces drawn for the first. Peak RSS is the largest resident set of
the build's processes (wait4 of each process). PDF sizes: pnp's against the bare script's, which draws the
same things.
Targets: 9,000 unique cards with `--jobs 2` within 1.5x of the floor, peak RSS under 150 MB, 9,000 cards within
11x the time of 900 (linear); both papers within 1.3x of one; the PDF within 1.3x of the floor's; 10,000 unique
cards under 150 MB. A quick run (`make bench-quick`) draws 300 and 900 cards once each.

Measured 2026-12-02 on the shared 2-core machine under a load average of 15-18 (one run, one repeat): 9,000
cards `--jobs 1` 106 s wall / 12.3 s CPU, `--jobs 2` 52 s / 12.6 s, both papers 59 s / 13.5 s (1.13x one paper
by wall, 1.07x by CPU), the bare script 70 s / 5.5 s (so 0.74x by wall with `--jobs 2`, 2.3x by CPU: on that
machine the wall clock says more about the neighbours); peak RSS 116 MB (10,000 cards: 122 MB); the PDF 2.56 MB
against the floor's 4.85 MB (it was 9.5 MB with every face a form); 9,000 cards 4.3x the CPU time of 900.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import quick
from benchmarks.unique_deck import write_bare, write_game
from generator.core.fonts import font_files

SIZES = (900, 9_000)
REPEATS = 3
QUICK_SIZES, QUICK_REPEATS = (300, 900), 1
MEMORY_SIZE = 10_000  # one more build, for the memory target


def timed(command: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of a whole process; raises when it fails."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{error}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KiB on Linux


def commands(root: Path, n: int) -> dict[str, list[str]]:
    """The commands for a deck of n unique cards under root: the bare ReportLab script, pnp on A4 with one and
    two processes, pnp on both papers with two."""
    project = root / f"pnp-{n}"
    write_game(project, n)
    bare_dir = root / f"bare-{n}"
    bare_dir.mkdir()
    script, data = write_bare(bare_dir, n)
    fonts = json.dumps({name: str(path) for name, path in font_files().items()})
    pnp = [sys.executable, "-m", "generator", "--project", str(project), "build", "--force"]
    return {
        "bare": [sys.executable, str(script), str(data), str(bare_dir / "cards.pdf"), fonts],
        "jobs 1": [*pnp, "--paper", "a4", "--jobs", "1", "--out", str(project / "build1")],
        "jobs 2": [*pnp, "--paper", "a4", "--jobs", "2", "--out", str(project / "build2")],
        "both papers": [*pnp, "--jobs", "2", "--out", str(project / "both")],
    }


def run(sizes: tuple[int, ...] | None = None, repeats: int | None = None) -> None:
    """Print, per deck size, the median times against the floor's, cards/s, peak RSS and PDF sizes."""
    sizes = sizes or (QUICK_SIZES if quick() else SIZES)
    repeats = repeats or (QUICK_REPEATS if quick() else REPEATS)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-unique-") as folder:
        root = Path(folder)
        runs = {n: commands(root, n) for n in sizes}
        times: dict[tuple[int, str], list[tuple[float, float, float]]] = {}
        for _ in range(repeats):  # interleaved: a burst of load on the machine hits every side alike
            for n, named in runs.items():
                for name, command in named.items():
                    times.setdefault((n, name), []).append(timed(command))
        print(f"{'cards':>6} {'run':>12} {'wall':>8} {'ratio':>6} {'CPU':>8} {'ratio':>6} {'cards/s':>8} "
              f"{'peak RSS':>9}")
        medians: dict[tuple[int, str], tuple[float, float]] = {}
        for n in sizes:
            for name in runs[n]:
                wall = statistics.median(t for t, _, _ in times[(n, name)])
                cpu = statistics.median(c for _, c, _ in times[(n, name)])
                rss = max(m for _, _, m in times[(n, name)])
                medians[(n, name)] = (wall, cpu)
                bare_wall, bare_cpu = medians[(n, "bare")]
                print(f"{n:>6} {name:>12} {wall:>7.2f}s {wall / bare_wall:>5.2f}x {cpu:>7.2f}s "
                      f"{cpu / bare_cpu:>5.2f}x {n / wall:>8,.0f} {rss:>6.0f} MB")
            folder_of = Path(runs[n]["jobs 1"][-1])
            pnp_pdf = (folder_of / "unique" / "cards-a4.pdf").stat().st_size
            bare_pdf = (root / f"bare-{n}" / "cards.pdf").stat().st_size
            one, both = medians[(n, "jobs 2")], medians[(n, "both papers")]
            print(f"{n:>6} PDF {pnp_pdf / 1e6:.2f} MB against the floor's {bare_pdf / 1e6:.2f} MB "
                  f"({pnp_pdf / bare_pdf:.2f}x); both papers {both[0] / one[0]:.2f}x one by wall, "
                  f"{both[1] / one[1]:.2f}x by CPU")
        target = sizes[-1]
        if target == 9_000:
            wall, _cpu = medians[(target, "jobs 2")]
            ratio = wall / medians[(target, "bare")][0]
            rss = max(m for _, _, m in times[(target, "jobs 2")])
            print(f"9,000 cards with --jobs 2: {ratio:.2f}x the floor ({'ok' if ratio <= 1.5 else 'over'} the "
                  f"1.5x target), peak RSS {rss:.0f} MB ({'ok' if rss < 150 else 'over'} the 150 MB target)")
        if len(sizes) > 1:
            small, large = sizes[0], sizes[-1]
            growth = medians[(large, "jobs 1")][1] / medians[(small, "jobs 1")][1]
            extra = "; target within 11x" if (small, large) == SIZES else ""
            print(f"{large:,} cards take {growth:.1f}x the CPU time of {small:,} (linear: {large / small:.0f}x"
                  f"{extra})")
        if sizes == SIZES:
            seconds, cpu, peak = timed(commands(root, MEMORY_SIZE)["jobs 2"])
            print(f"{MEMORY_SIZE:,} unique cards: {seconds:.2f} s ({cpu:.2f} s CPU), peak RSS {peak:.0f} MB "
                  f"({'ok' if peak < 150 else 'over'} the 150 MB target)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run(tuple(int(a) for a in sys.argv[1:]) or None)
