"""The rule options of the recipe trading game as `--option` and `--list-options` see them."""

from __future__ import annotations

from generator.engines.base import Option

RULE_OPTIONS = (
    Option("target", "int", "The game ends after the round in which someone reaches this score.", default=50,
           minimum=1),
    Option("max_ticks", "int", "Simulation only: trading ticks per round before a game is called stalled.",
           default=400, minimum=1),
    Option("max_rounds", "int", "Simulation only: rounds before a game tied at the top is called a shared win.",
           default=40, minimum=1),
    Option("bundle_policy", "text", "Bots: offer the largest group of unwanted cards of one colour, or a random "
           "one.", default="largest", setting=False, choices=("largest", "random")),
    Option("false_call_rate", "number", "Bots: chance per decision of a mistaken Order up! call.", default=0.0,
           setting=False, minimum=0, maximum=1),
)
