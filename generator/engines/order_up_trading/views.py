"""What a trading game shows: a seat's observation, the script snapshot and the balance-report metrics."""

from __future__ import annotations

from typing import Any


class StateViews:
    """Read-only views of a TradingState (mixed into it)."""

    def observation(self, seat: int) -> dict[str, Any]:
        """What the seat may know: its own cards and recipe, the scores and only the sizes of others' offers."""
        return {"hand": list(self.hands[seat]), "recipe": self.recipe_of[seat], "scores": list(self.score),
                "offer": self.offers[seat], "offer_sizes": [len(o) if o is not None else 0 for o in self.offers],
                "split": self.split[1] if self.split and self.split[0] == seat else None}

    def snapshot(self) -> dict[str, Any]:
        snap = {
            "current_player": self.current_player(), "terminal": self.phase == "over", "scores": list(self.score),
            "phase": self.phase, "round": self.round, "tick": self.tick, "dealer": self.dealer,
            "in_play": list(self.in_play), "side": list(self.side),
            "side_sets": {r: list(self.canonical(c)) for r, c in self.side.items()},
            "players": [{"hand": list(self.canonical(self.hands[p])), "recipe": self.recipe_of[p], "score": self.score[p],
                         "offer": list(self.offers[p]) if self.offers[p] is not None else None,
                         "false_calls": self.round_false[p], "complete": self.complete(p)} for p in range(self.k)],
            "trades": [{"seats": [a, b], "gave": [list(give_a), list(give_b)]} for a, b, give_a, give_b in self.last_trades], "split": list(self.split) if self.split else None,
            "history": [dict(h) for h in self.history], "ended_by": self.ended_by, "tie_rounds": self.tie_rounds,
        }
        if self.phase == "over":
            snap["winners"] = self.winners()
        return snap

    def metrics(self) -> dict[str, Any]:
        return {
            "rounds": len(self.history), "turns": self.total_ticks, "ended_by": self.ended_by,
            "completed_goals": [h["recipe"] for h in self.history], "card_usage": dict(self.card_usage),
            "dealt_goals": [r for h in self.history for r in h["in_play"]],
            # turns of a tick go round from the left of the dealer; the first dealer is drawn at random
            "turn_order": [(self.history[0]["dealer"] + 1 + i) % self.k for i in range(self.k)] if self.history
            else list(range(self.k)),
            "extra": {
                "trades_per_round": [h["trades"] for h in self.history],
                "ticks_per_round": [h["ticks"] for h in self.history],
                "false_calls": sum(sum(h["false_calls"]) for h in self.history),
                "winner_recipe": [h["recipe"] for h in self.history],
                "winner_seat": [h["winner"] for h in self.history],
                "dealer": [h["dealer"] for h in self.history],
                "winner_was_dealer": sum(1 for h in self.history if h["winner"] == h["dealer"]),
                "recipes_in_play": [h["in_play"] for h in self.history],
                "tie_rounds": self.tie_rounds,
            },
        }
