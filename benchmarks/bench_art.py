"""Art-filled cards against the floor: `pnp build --paper a4` of a deck of unique cards, each with its own
full-bleed picture (1500 x 2100 px), a title and two lines, against a tuned bare ReportLab script
(benchmarks/art_deck.py: the C accelerator, no ASCII85, the same pictures placed at card size on the same
sheets) and protograf when it is installed.

protograf (PyMuPDF, its own dependencies) is best kept out of pnp's environment: install it into a venv of its
own and name that interpreter in PNP_BENCH_PROTOGRAF, e.g.
`python3 -m venv /work/protograf-venv && /work/protograf-venv/bin/pip install protograf`, then
`PNP_BENCH_PROTOGRAF=/work/protograf-venv/bin/python python -m benchmarks art`. Without the variable,
protograf is looked for in this interpreter. The protograf script is ours (art_deck.PROTOGRAF), timed as a whole process
like the other two, interleaved with them; its target: pnp at least 3x faster.

Whole processes, interleaved in one run (a burst of load hits both sides alike), median of 3 (1 for the PNG
variant, whose floor compresses every picture); the ratios are what hold on a busy machine. Peak RSS is the
largest resident set of the build's processes (wait4). The pnp builds are `--force` builds after a first one
(its time printed as "first"): they draw everything again, with the build folder's picture cache as a designer's
rebuild has it.
Targets: the 300-card JPEG deck within 2x of the floor's time and its PDF within 5 % of the floor's size; the
PNG variant (90 cards, the size the issue measured) within 3x of the floor. A quick run (`make bench-quick`)
draws 27 cards of each, once; `python -m benchmarks.bench_art jpg` runs one variant.

Measured 2026-12-02 on the shared 2-core machine under heavy load (load average 12-21, so wall times are
inflated and noisy; CPU is user+sys of the whole process tree): 300 JPEG cards 8.07 s against the floor's
3.67 s (2.20x), CPU 2.53 s against 0.95 s (2.67x; about 1 s of it is pnp's start-up, imports and checks, which
the floor does not have), PDF 154.6 MB against 154.4 MB (1.001x), peak RSS 205 MB against 481 MB; before this
work pnp took 45x the floor with a PDF 1.25x its size. 90 PNG cards (opaque RGB, embedded as their own rows)
34 s against 649 s (CPU 2.75 s against 56 s: the floor decodes and compresses every picture), PDF 0.43x the
floor's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import quick
from benchmarks.art_deck import write_floor, write_game, write_pictures, write_protograf
from generator.core.fonts import font_files

JPEG_CARDS, PNG_CARDS, REPEATS = 300, 90, 3
PROTOGRAF_TARGET = 3.0  # pnp at least this many times faster than protograf (by wall)
QUICK_CARDS, QUICK_REPEATS = 27, 1


def timed(command: list[str], env: dict) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS MiB) of a whole process and the processes it waited for."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    error = process.stderr.read().decode() if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    if os.waitstatus_to_exitcode(status):
        raise RuntimeError(f"{' '.join(command)} failed:\n{error}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KiB on Linux


def _variant(root: Path, suffix: str, n: int) -> tuple[list[str], list[str], Path, Path, Path]:
    """(pnp command, floor command, pnp's PDF, the floor's PDF, the floor's data file) for the deck of n cards
    with `suffix` art."""
    started = time.perf_counter()
    pictures = write_pictures(root / f"pictures-{suffix}", n, suffix)
    size = sum(p.stat().st_size for p in pictures) / 1e6
    print(f"{n} {suffix.upper()} pictures written ({size:.0f} MB) in {time.perf_counter() - started:.0f} s")
    project = root / f"pnp-{suffix}"
    write_game(project, pictures, n)
    floor_dir = root / f"floor-{suffix}"
    script, data = write_floor(floor_dir, pictures, n)
    fonts = json.dumps({name: str(path) for name, path in font_files().items()})
    pnp = [sys.executable, "-m", "generator", "--project", str(project), "build", "--paper", "a4", "--force",
           "--out", str(project / "build")]
    floor = [sys.executable, str(script), str(data), str(floor_dir / "cards.pdf"), fonts]
    return pnp, floor, project / "build" / "art" / "cards-a4.pdf", floor_dir / "cards.pdf", data


def protograf_python() -> tuple[str | None, str]:
    """(the interpreter that has protograf, or None; what the run says of it): PNP_BENCH_PROTOGRAF names one
    (a venv of its own), else this interpreter when protograf is installed in it."""
    named = os.environ.get("PNP_BENCH_PROTOGRAF", "")
    if named:
        found = subprocess.run([named, "-c", "import protograf; print(protograf.__version__)"],
                               capture_output=True, text=True, check=False)
        if found.returncode:
            return None, (f"protograf: PNP_BENCH_PROTOGRAF={named} cannot import it, so not compared "
                          f"({(found.stderr.strip().splitlines() or ['no message'])[-1]})")
        return named, f"protograf {found.stdout.strip()}: {named}"
    if importlib.util.find_spec("protograf") is None:
        return None, ("protograf: not installed here, so not compared (install it into a venv of its own and "
                      "set PNP_BENCH_PROTOGRAF to that venv's python, see this module's docstring)")
    import protograf  # noqa: PLC0415 - only to say which version is compared

    return sys.executable, f"protograf {protograf.__version__}: {sys.executable}"


def _median(runs: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """(median wall, median CPU, largest peak RSS) of a side's runs."""
    return (statistics.median(t for t, _, _ in runs), statistics.median(c for _, c, _ in runs),
            max(m for _, _, m in runs))


def run(kinds: tuple[str, ...] = ("jpg", "png")) -> None:
    """Print, per variant (`kinds`: jpg, png), the median times, peak RSS and PDF sizes of pnp and the floor,
    and their ratios; protograf's beside them when it is found (protograf_python)."""
    small = quick()
    repeats = QUICK_REPEATS if small else REPEATS
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    protograf, said = protograf_python()
    print(said)
    with tempfile.TemporaryDirectory(prefix="pnp-bench-art-") as folder:
        root = Path(folder)
        # both sides with their bytecode cached, as on a designer's machine (this one may be told not to write it)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(root / "pycache")
        variants = {"jpg": QUICK_CARDS if small else JPEG_CARDS, "png": QUICK_CARDS if small else PNG_CARDS}
        variants = {kind: n for kind, n in variants.items() if kind in kinds}
        print(f"{'deck':>9} {'pnp':>8} {'floor':>8} {'ratio':>6} {'pnp RSS':>8} {'floor RSS':>9} {'pnp PDF':>9} "
              f"{'floor PDF':>9} {'ratio':>6}  target")
        for suffix, n in variants.items():
            pnp, floor, pnp_pdf, floor_pdf, data = _variant(root, suffix, n)
            sides = {"pnp": (pnp, env), "floor": (floor, env)}
            if protograf is not None:
                script, told = write_protograf(root / f"protograf-{suffix}", data)
                sides["protograf"] = ([protograf, str(script)], {**env, **told})
            first = timed(pnp, env)  # fills the build folder's picture cache (and the bytecode cache)
            for name in [name for name in sides if name != "pnp"]:
                timed(*sides[name])  # the others' bytecode cached too
            times: dict[str, list[tuple[float, float, float]]] = {side: [] for side in sides}
            for _ in range(1 if suffix == "png" else repeats):
                for name in ("floor", "pnp", "protograf"):
                    if name in sides:
                        times[name].append(timed(*sides[name]))
            (pnp_s, pnp_cpu, pnp_rss), (floor_s, floor_cpu, floor_rss) = _median(times["pnp"]), _median(
                times["floor"])
            pnp_rss = max(pnp_rss, first[2])
            pnp_mb, floor_mb = pnp_pdf.stat().st_size / 1e6, floor_pdf.stat().st_size / 1e6
            within = 2.0 if suffix == "jpg" else 3.0
            met = pnp_s / floor_s <= within and (suffix != "jpg" or pnp_mb / floor_mb <= 1.05)
            target = f"{within:g}x" + (", PDF 1.05x" if suffix == "jpg" else "")
            print(f"{n:>4} {suffix.upper():>4} {pnp_s:>7.2f}s {floor_s:>7.2f}s {pnp_s / floor_s:>5.2f}x "
                  f"{pnp_rss:>5.0f} MB {floor_rss:>6.0f} MB {pnp_mb:>6.1f} MB {floor_mb:>6.1f} MB "
                  f"{pnp_mb / floor_mb:>5.3f}x  {target}: {'ok' if met else 'over'}")
            print(f"{'':>9} CPU {pnp_cpu:.2f} s against {floor_cpu:.2f} s ({pnp_cpu / floor_cpu:.2f}x); the first "
                  f"pnp build (picture cache empty) {first[0]:.2f} s wall, {first[1]:.2f} s CPU")
            if protograf is not None:
                pg_s, pg_cpu, pg_rss = _median(times["protograf"])
                pg_mb = (root / f"protograf-{suffix}" / "cards.pdf").stat().st_size / 1e6
                faster = pg_s / pnp_s
                print(f"{'':>9} protograf {pg_s:.2f} s wall, {pg_cpu:.2f} s CPU, {pg_rss:.0f} MB, "
                      f"PDF {pg_mb:.1f} MB: pnp {faster:.2f}x faster by wall ({pg_cpu / pnp_cpu:.2f}x by CPU); target "
                      f"{PROTOGRAF_TARGET:g}x: {'ok' if faster >= PROTOGRAF_TARGET else 'not met'}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run(tuple(sys.argv[1:]) or ("jpg", "png"))
