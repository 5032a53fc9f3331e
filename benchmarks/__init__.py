"""Benchmarks run by `make bench`: each bench_*.py module has `run() -> None` that prints its figures.

`make bench-quick` (`python -m benchmarks --quick`) runs each one smaller, for a look while working; the targets are
judged on the full run only.
"""

import os


def quick() -> bool:
    """True in a quick run (`python -m benchmarks --quick` or PNP_BENCH_QUICK=1)."""
    return os.environ.get("PNP_BENCH_QUICK") == "1"
