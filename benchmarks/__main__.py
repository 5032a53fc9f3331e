"""Run every benchmark module (benchmarks/bench_*.py) and print its figures; `python -m benchmarks [--quick] [name ...]`."""

import os
import pkgutil
import subprocess
import sys
from pathlib import Path


def main(arguments: list[str]) -> None:
    """Run each bench module's run() in name order, each in its own process; --quick makes every run smaller."""
    if "--quick" in arguments:
        os.environ["PNP_BENCH_QUICK"] = "1"  # read by benchmarks.quick(), here and in any process a bench starts
    selected = [a for a in arguments if a != "--quick"]
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    # the machine is shared: say how busy it was, since every time below depends on it
    print(f"machine: {os.cpu_count()} cores; {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    for name in names:
        if selected and name.removeprefix("bench_") not in selected and name not in selected:
            continue
        print(f"== {name}", flush=True)
        # Each in a fresh process started from this small one: Linux carries a process's peak RSS over fork and
        # exec, so a build started from a large parent (after the studio's benchmark, say) would report the
        # parent's peak as its own.
        subprocess.run([sys.executable, "-c", f"from benchmarks.{name} import run; run()"], cwd=here.parent, check=False)


if __name__ == "__main__":
    main(sys.argv[1:])
