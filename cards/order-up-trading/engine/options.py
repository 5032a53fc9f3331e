"""The rule options of the recipe trading game: the values a new state gets by default, and what each is as
`--option` and `--list-options` see it."""

from __future__ import annotations

from generator.engines.base import Option

RULE_OPTIONS = (
    Option(
        "target",
        "int",
        "The game ends after the round in which someone reaches this score.",
        default=50,
        minimum=1,
    ),
    Option(
        "max_ticks",
        "int",
        "Simulation only: trading ticks per round before a game is called stalled.",
        default=400,
        minimum=1,
    ),
    Option(
        "max_rounds",
        "int",
        "Simulation only: rounds before a game tied at the top is called a shared win.",
        default=40,
        minimum=1,
    ),
    Option(
        "bundle_policy",
        "text",
        "Bots: offer the largest group of unwanted cards of one colour, or a random one.",
        default="largest",
        setting=False,
        choices=("largest", "random"),
    ),
    Option(
        "false_call_rate",
        "number",
        "Bots: chance per decision of a mistaken Order up! call.",
        default=0.0,
        setting=False,
        minimum=0,
        maximum=1,
    ),
)

OPTIONS = {
    "bundle_policy": "largest",  # bots: offer the largest unwanted colour group, or a random one ("random")
    "false_call_rate": 0.0,  # bots: chance per decision of a mistaken Order up! call
    # None: game.yaml settings max_ticks (ticks per round before the game counts as stalled)
    "max_ticks": None,
    "target": None,  # None: settings target (50)
    "max_rounds": None,  # None: settings max_rounds (cap on tie-break rounds)
}
