"""The engine of "Order Up", the recipe trading game, as the registry finds it: setup from the game, bots,
options and the static checks."""

from __future__ import annotations

from generator.engines.base import Engine

from .bots import greedy_bot, random_bot
from .checks import static_checks
from .data import RECIPES
from .odds import deck_odds
from .options import OPTIONS, RULE_OPTIONS
from .state import TradingState


def new_state(game, players: int, options: dict | None = None) -> TradingState:
    """A new game waiting for chance to pick the sets in play (or the first dealer when every set is used)."""
    return TradingState(game, players, options)


def recipe_goals(game) -> list[str]:
    """Every recipe id: a goal is completed by winning a round with it (a named function, so the engine
    pickles)."""
    return [card.id for card in game.decks[RECIPES].cards]


ENGINE = Engine(
    name="order-up-trading",
    new_state=new_state,
    player_counts=(3, 4, 5, 6),
    bots={"random": random_bot, "greedy": greedy_bot},
    options=dict(OPTIONS),
    rule_options=RULE_OPTIONS,
    turn_cap=200_000,  # decisions; a game is bounded by max_rounds x max_ticks x players anyway
    goals=recipe_goals,
    static_checks=static_checks,
    deck_odds=deck_odds,
)
