"""Rules of Short Order Hero (games.md section C): static composition checks, the engine and its bots."""

from __future__ import annotations

from .actions import Action, cook_options, parse_action
from .checks import static_checks
from .data import rules_for
from .engine import ENGINE, new_state
from .state import SOHState

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
