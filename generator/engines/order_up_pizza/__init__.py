"""Rules of "Order Up", the pizza delivery board game (games.md section A): static checks, engine and bots."""

from generator.engines.order_up_pizza.actions import Action
from generator.engines.order_up_pizza.checks import static_checks
from generator.engines.order_up_pizza.engine import ENGINE, new_state
from generator.engines.order_up_pizza.state import PizzaState

__all__ = ["ENGINE", "Action", "PizzaState", "new_state", "static_checks"]
