"""The engine of Short Order Hero as the registry finds it: setup from the game, bots, options and the static
checks."""

from __future__ import annotations

from generator.engines.base import Engine

from .bots import BOTS
from .checks import static_checks
from .data import rules_for
from .odds import deck_odds
from .options import OPTIONS, RULE_OPTIONS
from .state import SOHState


def new_state(game, players: int, options: dict | None = None) -> SOHState:
    """A new game waiting for its setup shuffles ('recipe-deck', 'ingredients-deck', then 'first-player')."""
    if not 2 <= players <= 5:
        raise ValueError(f"Short Order Hero is for 2-5 players, not {players}")
    return SOHState(rules_for(game), players, dict(options or {}))


def recipe_goals(game) -> list[str]:
    """Every recipe id, the goals the balance report expects to see cooked."""
    return [card.id for card in game.decks["recipes"].cards]


ENGINE = Engine(
    name="short-order-hero",
    new_state=new_state,
    player_counts=(2, 3, 4, 5),
    bots=BOTS,
    options=dict(OPTIONS),
    rule_options=RULE_OPTIONS,
    turn_cap=5000,
    goals=recipe_goals,
    static_checks=static_checks,
    deck_odds=deck_odds,
)
