"""Unique cards against the floor: `pnp build` of a deck of N different cards against a bare ReportLab script.

Both are whole processes (imports, reading the data, drawing, saving), run interleaved in one run, median of 3; the
ratio is what holds on a busy machine, so it is printed first. Peak RSS is the largest resident set of the build's
processes (wait4 of each process; the build's worker processes are included).
Targets: 9,000 unique cards within 2.0x of the floor, peak RSS under 150 MB, 9,000 cards within 11x the time of
900 (linear); 10,000 unique cards under 150 MB. A quick run (`make bench-quick`) draws 300 and 900 cards once each.

Measured 2026-12-01 on the shared 2-core machine (load average 3-5, so wall times were noisy): 9,000 cards 1.2x
the floor by wall time, and by CPU time (user+sys of each process, interleaved, median of 3) 8.7-9.2 s against
5.7 s, 1.5-1.6x, where the build before plain lines were drawn without a Paragraph, shapes were replayed and the
face digest was put together from parts measured 2.0-2.45x the same way; peak RSS 130 MB for 9,000 (was 135),
138 MB for 10,000; 9,000 take 4.2x the time of 900.
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


def timed(command: list[str], env: dict | None = None) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of a whole process; raises when it fails."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode()
    process.stderr.close()
    if process.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{error}")
    return elapsed, usage.ru_maxrss / 1024  # KiB on Linux


def commands(root: Path, n: int) -> tuple[list[str], list[str]]:
    """(pnp build command, bare ReportLab command) for a deck of n unique cards under root."""
    project = root / f"pnp-{n}"
    write_game(project, n)
    bare_dir = root / f"bare-{n}"
    bare_dir.mkdir()
    script, data = write_bare(bare_dir, n)
    fonts = json.dumps({name: str(path) for name, path in font_files().items()})
    pnp = [sys.executable, "-m", "generator", "--project", str(project), "build", "--paper", "a4", "--force",
           "--out", str(project / "build")]
    bare = [sys.executable, str(script), str(data), str(bare_dir / "cards.pdf"), fonts]
    return pnp, bare


def run(sizes: tuple[int, ...] | None = None, repeats: int | None = None) -> None:
    """Print, per deck size, the median times, their ratio, cards/s and peak RSS."""
    sizes = sizes or (QUICK_SIZES if quick() else SIZES)
    repeats = repeats or (QUICK_REPEATS if quick() else REPEATS)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-unique-") as folder:
        root = Path(folder)
        runs = {n: commands(root, n) for n in sizes}
        times: dict[tuple[int, str], list[tuple[float, float]]] = {}
        for _ in range(repeats):  # interleaved: a burst of load on the machine hits both sides alike
            for n, (pnp, bare) in runs.items():
                times.setdefault((n, "bare"), []).append(timed(bare))
                times.setdefault((n, "pnp"), []).append(timed(pnp))
        print(f"{'cards':>6} {'pnp build':>10} {'bare RL':>8} {'ratio':>6} {'pnp cards/s':>12} {'pnp peak RSS':>13} "
              f"{'bare RSS':>9}")
        medians = {}
        for n in sizes:
            pnp_s = statistics.median(t for t, _ in times[(n, "pnp")])
            bare_s = statistics.median(t for t, _ in times[(n, "bare")])
            pnp_rss = max(m for _, m in times[(n, "pnp")])
            bare_rss = max(m for _, m in times[(n, "bare")])
            medians[n] = pnp_s
            verdict = "" if n != 9_000 else ("  ok" if pnp_s / bare_s <= 2.0 and pnp_rss < 150 else "  over target")
            print(f"{n:>6} {pnp_s:>9.2f}s {bare_s:>7.2f}s {pnp_s / bare_s:>5.1f}x {n / pnp_s:>12,.0f} "
                  f"{pnp_rss:>10.0f} MB {bare_rss:>6.0f} MB{verdict}")
        if len(sizes) > 1:
            small, large = sizes[0], sizes[-1]
            growth = medians[large] / medians[small]
            target = "; target within 11x" if (small, large) == SIZES else ""
            print(f"{large:,} cards take {growth:.1f}x the time of {small:,} (linear: {large / small:.0f}x{target})")
        if sizes == SIZES:
            seconds, peak = timed(commands(root, MEMORY_SIZE)[0])
            print(f"{MEMORY_SIZE:,} unique cards: {seconds:.2f} s, peak RSS {peak:.0f} MB "
                  f"({'ok' if peak < 150 else 'over'} the 150 MB target)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run(tuple(int(a) for a in sys.argv[1:]) or None)
