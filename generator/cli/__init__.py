"""Layer 13, the `pnp` command line: click only; each command parses options, calls one library function and
prints."""
