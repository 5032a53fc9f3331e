"""The rule options of Order Up: the values a new state gets by default, what each is as `--option` and
`--list-options` see it, and the rule parameters of one game read from the settings and the options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.engines.base import Option
from generator.engines.common import check_known_options, option_or_setting

from .data import is_game_over

END_MODES = ("immediate", "finish_round")
# Rule options; None means "the value in game.yaml settings" (the harness passes every default explicitly).
OPTIONS: dict[str, Any] = {"game_over_depth": None, "dice": None, "end_mode": None, "hand_limit": None,
                           "faceup_orders": None, "start_hand": None}


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
    Option(
        "game_over_depth",
        "int",
        "Order cards between the face-up orders and the Game Over card at setup "
        "(deeper = longer game): a number or a preset of game.yaml settings.game_over_depth.",
        default=_default_depth,
        setting=False,
        choices=_preset_names,
        minimum=0,
        maximum=_deepest,
    ),
    Option(
        "end_mode",
        "text",
        "When Game Over is revealed: immediate ends the game at once; finish_round lets "
        "everyone after the player who revealed it take one more turn.",
        default="immediate",
        choices=END_MODES,
    ),
    Option(
        "hand_limit",
        "int",
        "Most cards a player may hold, action cards included; the excess is discarded at once.",
        default=10,
        minimum=1,
    ),
    Option(
        "dice",
        "int",
        "Six-sided dice rolled for movement (1 = the single-die variant).",
        default=2,
        minimum=1,
    ),
    Option("faceup_orders", "int", "Order Up cards on display.", default=3, minimum=1),
    Option("start_hand", "int", "Toppings dealt to each player at setup.", default=6, minimum=0),
)


@dataclass(frozen=True)
class Params:
    """Rule parameters of one game: game.yaml settings overridden by rule options."""

    start_hand: int
    hand_limit: int
    faceup_orders: int
    faceup_toppings: int
    dice: int
    energy_bonus: int
    plunder_take: int
    draw_min: int
    draw_max: int
    depth: int
    end_mode: str


def depth_presets(game) -> tuple[dict[str, int], Any]:
    """The game_over_depth presets and default from game.yaml (an int setting is its own default)."""
    setting = game.setting("game_over_depth", {})
    if isinstance(setting, dict):
        return dict(setting.get("presets") or {}), setting.get("default")
    return {}, setting


def resolve_params(game, options: dict | None, n_orders: int) -> Params:
    """Settings plus options, validated; ValueError with a readable reason for a bad option."""
    opts = {k: v for k, v in (options or {}).items() if v is not None}
    check_known_options(opts, OPTIONS)
    settings = game.config.settings

    def get(name: str, default):
        value = option_or_setting(opts, settings, name, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"option {name}={value!r}; expected a whole number >= 0")
        return value

    draw = game.setting("draw_at_restaurant", [1, 2])
    draw_min, draw_max = (draw, draw) if isinstance(draw, int) else (int(draw[0]), int(draw[-1]))
    faceup_orders = get("faceup_orders", 3)
    presets, default = depth_presets(game)
    depth = opts.get("game_over_depth", default)
    if isinstance(depth, str) and not depth.lstrip("-").isdigit():
        if depth not in presets:
            raise ValueError(
                f"game_over_depth '{depth}' is not a preset; known: {', '.join(presets) or 'none'}"
            )
        depth = presets[depth]
    depth = int(depth) if depth is not None else (n_orders - faceup_orders) // 2
    if not 0 <= depth <= n_orders - faceup_orders:
        raise ValueError(f"game_over_depth {depth} is out of range; expected 0..{n_orders - faceup_orders} "
                         f"({n_orders} orders - {faceup_orders} face up)")
    end_mode = option_or_setting(opts, settings, "end_mode", "immediate")
    if end_mode not in END_MODES:
        raise ValueError(f"end_mode '{end_mode}'; expected one of: {', '.join(END_MODES)}")
    params = Params(
        start_hand=get("start_hand", 6),
        hand_limit=get("hand_limit", 10),
        faceup_orders=faceup_orders,
        faceup_toppings=get("faceup_toppings", 3),
        dice=get("dice", 2),
        energy_bonus=get("energy_bonus", 3),
        plunder_take=get("plunder_take", 2),
        draw_min=draw_min,
        draw_max=draw_max,
        depth=depth,
        end_mode=end_mode,
    )
    if params.dice < 1 or params.faceup_orders < 1 or params.hand_limit < 1:
        raise ValueError("dice, faceup_orders and hand_limit must be at least 1")
    return params
