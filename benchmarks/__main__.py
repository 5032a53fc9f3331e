"""Run every benchmark module (benchmarks/bench_*.py) and print its figures; `python -m benchmarks [name ...]`."""

import importlib
import pkgutil
import sys
from pathlib import Path


def main(selected: list[str]) -> None:
    """Import each bench module in name order and call its run()."""
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    for name in names:
        if selected and name.removeprefix("bench_") not in selected and name not in selected:
            continue
        print(f"== {name}")
        importlib.import_module(f"benchmarks.{name}").run()


if __name__ == "__main__":
    main(sys.argv[1:])
