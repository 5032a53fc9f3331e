"""Rules of "Order Up", the pizza delivery board game (games.md section A): static checks, engine and bots."""

from .actions import Action
from .checks import static_checks
from .engine import ENGINE, new_state
from .state import PizzaState

__all__ = ["ENGINE", "Action", "PizzaState", "new_state", "static_checks"]
