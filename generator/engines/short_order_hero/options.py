"""The rule options of Short Order Hero as `--option` and `--list-options` see them (read in state.py)."""

from __future__ import annotations

from generator.engines.base import Option

RULE_OPTIONS = (
    Option("hand_limit", "int", "Most ingredient cards a cook may keep at the end of a turn; none for no limit.",
           default="none", choices=("none",), minimum=1),
    Option("floor_mode", "text", "end: a recipe never scores below the sabotage floor when scored; clamp: the "
           "floor applies when a sabotage is played.", default="end", choices=("end", "clamp")),
    Option("fifth_recipe_trigger", "int", "Completing this many recipes ends the game after the round.", default=5,
           minimum=1),
    Option("use_tracker", "bool", "The round tracker ends the game at All Done.", default=True),
)
