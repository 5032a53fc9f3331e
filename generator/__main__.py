"""Allow `python -m generator` as well as the `pnp` console script."""

from generator.cli import main

main()
