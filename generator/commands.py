"""Registers the stage commands on the `pnp` group (one import per command module)."""

from generator.cli import cli
from generator.cmd_build import build_cmd
from generator.cmd_validate import validate_cmd

cli.add_command(validate_cmd)
cli.add_command(build_cmd)
