"""The rule options of Order Up as `--option` and `--list-options` see them (the values are read in data.py)."""

from __future__ import annotations

from generator.engines.base import Option
from generator.engines.order_up_pizza.data import END_MODES, depth_presets, is_game_over


def _deepest(game) -> int:
    """Order cards that can lie between the face-up orders and Game Over with the game.yaml display size."""
    orders = sum(card.copies for card in game.decks["orders"].cards if not is_game_over(card))
    return orders - int(game.setting("faceup_orders", 3))


def _preset_names(game) -> list[str]:
    return list(depth_presets(game)[0])


def _default_depth(game):
    return depth_presets(game)[1]


# Named functions, not lambdas: the engine travels to worker processes and cluster workers by pickle.
RULE_OPTIONS = (
    Option("game_over_depth", "int", "Order cards between the face-up orders and the Game Over card at setup "
           "(deeper = longer game): a number or a preset of game.yaml settings.game_over_depth.",
           default=_default_depth, setting=False, choices=_preset_names, minimum=0, maximum=_deepest),
    Option("end_mode", "text", "When Game Over is revealed: immediate ends the game at once; finish_round lets "
           "everyone after the player who revealed it take one more turn.", default="immediate", choices=END_MODES),
    Option("hand_limit", "int", "Most cards a player may hold, action cards included; the excess is discarded at "
           "once.", default=10, minimum=1),
    Option("dice", "int", "Six-sided dice rolled for movement (1 = the single-die variant).", default=2, minimum=1),
    Option("faceup_orders", "int", "Order Up cards on display.", default=3, minimum=1),
    Option("start_hand", "int", "Toppings dealt to each player at setup.", default=6, minimum=0),
)
