"""Rules of "Order Up", the pizza delivery board game (games.md section A): static checks, engine and bots."""

from generator.engines.base import Engine
from generator.engines.order_up_pizza.actions import Action
from generator.engines.order_up_pizza.bots import greedy_bot, random_bot
from generator.engines.order_up_pizza.checks import static_checks
from generator.engines.order_up_pizza.data import OPTIONS, is_game_over
from generator.engines.order_up_pizza.options import RULE_OPTIONS
from generator.engines.order_up_pizza.state import PizzaState, new_state


def order_goals(game) -> list[str]:
    """Ids of the Order Up cards (every order that should get delivered in some games)."""
    return [card.id for card in game.decks["orders"].cards if not is_game_over(card)]


ENGINE = Engine(
    name="order-up-pizza",
    new_state=new_state,
    player_counts=(2, 3, 4),
    bots={"random": random_bot, "greedy": greedy_bot},
    options=dict(OPTIONS),
    rule_options=RULE_OPTIONS,
    turn_cap=20000,
    goals=order_goals,
    static_checks=static_checks,
)

__all__ = ["ENGINE", "Action", "PizzaState", "new_state", "static_checks"]
