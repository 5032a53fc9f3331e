"""Rules of Short Order Hero (games.md section C): static composition checks, the engine and its bots."""

from __future__ import annotations

from generator.engines.short_order_hero.actions import Action, cook_options, parse_action
from generator.engines.short_order_hero.checks import static_checks
from generator.engines.short_order_hero.data import rules_for
from generator.engines.short_order_hero.engine import ENGINE, new_state
from generator.engines.short_order_hero.state import SOHState

__all__ = [
    "ENGINE",
    "Action",
    "SOHState",
    "cook_options",
    "new_state",
    "parse_action",
    "rules_for",
    "static_checks",
]
