"""Rules of "Order Up", the simultaneous recipe trading game (games.md section B): static checks and engine."""

from generator.engines.base import Engine
from generator.engines.order_up_trading.bots import greedy_bot, random_bot
from generator.engines.order_up_trading.cards import RECIPES, Action
from generator.engines.order_up_trading.checks import normalise_name, static_checks
from generator.engines.order_up_trading.engine import OPTIONS, TradingState
from generator.engines.order_up_trading.options import RULE_OPTIONS


def _new_state(game, players: int, options: dict | None = None) -> TradingState:
    return TradingState(game, players, options)


def recipe_goals(game) -> list[str]:
    """Every recipe id: a goal is completed by winning a round with it (a named function, so the engine pickles)."""
    return [card.id for card in game.decks[RECIPES].cards]


ENGINE = Engine(
    name="order-up-trading",
    new_state=_new_state,
    player_counts=(3, 4, 5, 6),
    bots={"random": random_bot, "greedy": greedy_bot},
    options=dict(OPTIONS),
    rule_options=RULE_OPTIONS,
    turn_cap=200_000,  # decisions; a game is bounded by max_rounds x max_ticks x players anyway
    goals=recipe_goals,
    static_checks=static_checks,
)

__all__ = ["ENGINE", "OPTIONS", "Action", "TradingState", "normalise_name", "static_checks"]
