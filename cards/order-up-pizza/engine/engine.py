"""The engine of "Order Up", the pizza delivery board game, as the registry finds it: setup from the game,
bots, options and the static checks."""

from __future__ import annotations

from generator.engines.base import Engine

from .bots import greedy_bot, random_bot
from .checks import static_checks
from .data import is_game_over
from .odds import deck_odds
from .options import OPTIONS, RULE_OPTIONS
from .state import PizzaState


def new_state(game, players: int, options: dict | None = None) -> PizzaState:
    """A fresh game: the players choose their colours, then the setup shuffles (ENGINE.new_state)."""
    return PizzaState(game, players, options)


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
    deck_odds=deck_odds,
)
