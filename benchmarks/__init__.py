"""Benchmarks run by `make bench`: each bench_*.py module has `run() -> None` that prints its figures."""
