"""Rules of "Order Up", the simultaneous recipe trading game (games.md section B): static checks and engine."""

from generator.engines.base import Engine
from generator.engines.order_up_trading.bots import greedy_bot, random_bot
from generator.engines.order_up_trading.cards import RECIPES, Action
from generator.engines.order_up_trading.checks import normalise_name, static_checks
from generator.engines.order_up_trading.engine import OPTIONS, TradingState


def _new_state(game, players: int, options: dict | None = None) -> TradingState:
    return TradingState(game, players, options)


ENGINE = Engine(
    name="order-up-trading",
    new_state=_new_state,
    player_counts=(3, 4, 5, 6),
    bots={"random": random_bot, "greedy": greedy_bot},
    options=dict(OPTIONS),
    turn_cap=200_000,  # decisions; a game is bounded by max_rounds x max_ticks x players anyway
    goals=lambda game: [card.id for card in game.decks[RECIPES].cards],  # a goal is completed by winning a round with it
    static_checks=static_checks,
)

__all__ = ["ENGINE", "OPTIONS", "Action", "TradingState", "normalise_name", "static_checks"]
