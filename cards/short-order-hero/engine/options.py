"""The rule options of Short Order Hero: the values a new state gets by default, their built-in values and
what each is as `--option` and `--list-options` see it (read in state.py)."""

from __future__ import annotations

from generator.engines.base import Option

RULE_OPTIONS = (
    Option(
        "hand_limit",
        "int",
        "Most ingredient cards a cook may keep at the end of a turn; none for no limit.",
        default="none",
        choices=("none",),
        minimum=1,
    ),
    Option(
        "floor_mode",
        "text",
        "end: a recipe never scores below the sabotage floor when scored; clamp: the "
        "floor applies when a sabotage is played.",
        default="end",
        choices=("end", "clamp"),
    ),
    Option(
        "fifth_recipe_trigger",
        "int",
        "Completing this many recipes ends the game after the round.",
        default=5,
        minimum=1,
    ),
    Option("use_tracker", "bool", "The round tracker ends the game at All Done.", default=True),
)

# Rule options; None means "the value in game.yaml settings", else these built-in defaults.
OPTIONS = {"hand_limit": None, "floor_mode": None, "fifth_recipe_trigger": None, "use_tracker": None}
BUILT_IN = {"hand_limit": None, "floor_mode": "end", "fifth_recipe_trigger": 5, "use_tracker": True}


def hand_limit_of(value) -> int | None:
    """None for no limit ('none', null, 0), else the limit as an int."""
    if value in (None, False, 0) or str(value).lower() == "none":
        return None
    return int(value)
