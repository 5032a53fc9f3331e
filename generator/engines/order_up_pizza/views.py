"""What an Order Up state shows: the snapshot scripts look into and the metrics of the balance report.

Snapshot keys: current_player, terminal, scores, winners (once terminal), phase (setup-toppings | setup-orders | roll |
move | draw | discard | plunder | reshuffle | end), turn, round, roll, steps_left, picks, players (list per seat: colour,
restaurant, position, hand (sorted), hand_size, delivered, deliveries, money), orders_faceup (slot list; None for
an empty slot, 'game-over' once revealed), order_deck (count), toppings_faceup, topping_deck (count), discard
(list, oldest first), discard_size, game_over_revealed, ended_by, plunder ({victim, left} while plundering).
"""

from __future__ import annotations

from typing import Any


def snapshot(state) -> dict[str, Any]:
    """The visible state as plain data, for script expectations (see the module docstring for the keys)."""
    snap: dict[str, Any] = {
        "current_player": state.current_player(), "terminal": state.phase == "end", "scores": state.scores(),
        "phase": state.phase, "turn": state.turns, "round": state.rounds(), "roll": list(state.roll),
        "steps_left": state.steps_left, "picks": state.picks,
        "players": [{
            "colour": state.colours[s], "restaurant": state.homes[s], "position": state.pos[s],
            "hand": sorted(state.hands[s]), "hand_size": len(state.hands[s]), "delivered": list(state.delivered[s]),
            "deliveries": len(state.delivered[s]), "money": state.money[s],
        } for s in range(state.n)],
        "orders_faceup": list(state.ofaceup), "order_deck": len(state.odeck),
        "toppings_faceup": list(state.tfaceup), "topping_deck": len(state.tdeck),
        "discard": list(state.tdiscard), "discard_size": len(state.tdiscard),
        "game_over_revealed": state.data.game_over in state.ofaceup, "ended_by": state.ended_by,
        "plunder": {"victim": state.victim, "left": state.plunder_left} if state.phase == "plunder" else None,
    }
    if state.phase == "end":
        snap["winners"] = state.winners()
    return snap


def metrics(state) -> dict[str, Any]:
    """The standard balance-report figures of base.py plus Order Up extras."""
    dwell = {k: list(v) for k, v in state.dwell.items()}
    for order, since in state.shown_at.items():  # still on display at the end
        dwell.setdefault(order, []).append(state.turns - since)
    return {
        "turns": state.turns, "rounds": state.rounds(), "ended_by": state.ended_by or "unfinished",
        "completed_goals": list(state.completed), "dwell": dwell, "card_usage": dict(state.usage),
        "hand_limit_discards": state.limit_discards, "dead_hand_turns": state.dead_turns,
        "turn_order": list(range(state.n)),  # the youngest (seat 0) starts
        "seat_roles": list(state.colours),  # the restaurant each seat chose
        "extra": {
            "deliveries_per_seat": [len(d) for d in state.delivered], "money_per_seat": list(state.money),
            "reshuffles": state.reshuffles, "unclaimed_at_end": sorted(state.shown_at),
        },
    }
