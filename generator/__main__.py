"""Allow `python -m generator` as well as the `pnp` console script."""

from generator.cli.main import main

main()
