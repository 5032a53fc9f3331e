"""Registers the stage commands on the `pnp` group (one import per command module)."""

from generator.cli import cli
from generator.cmd_build import build_cmd
from generator.cmd_validate import validate_cmd

cli.add_command(validate_cmd)
cli.add_command(build_cmd)
from generator.cmd_replay import replay_cmd  # noqa: E402

cli.add_command(replay_cmd)
from generator.cmd_export import export_cmd  # noqa: E402
from generator.cmd_preview import preview_cmd  # noqa: E402

cli.add_command(export_cmd)
cli.add_command(preview_cmd)
from generator.cmd_new import new_cmd  # noqa: E402
from generator.cmd_watch import watch_cmd  # noqa: E402

cli.add_command(new_cmd)
cli.add_command(watch_cmd)
