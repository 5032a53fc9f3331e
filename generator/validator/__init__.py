"""Layer 9, the validator that plays engines: the harness (which alone owns random.Random(seed)), scripted
games, seeded simulation through executors (local processes, a Dask cluster), reports and balance and sweep
charts."""
