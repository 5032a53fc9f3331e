"""When the default `pnp validate` has played enough: every seat figure of a player count known to within a
half-width, or a cap.

The seat figure of a player count is the win rate of each turn position (1 = the first to play) over every
game of that count that did not fail, a shared win counting 1/k to each of its k winners; its interval is the
95% Wilson score interval (score_tracks.wilson), whose half-width is (high - low) / 2. The games of one player
count are played in batches, in index order, and after each batch the rule looks at all of them: done when
every position's half-width is at most `half_width` (or `cap` games are played, or every game failed); else
the next batch brings the count to what the widest position needs at its current rate (z^2 p(1-p) / h^2,
rounded up to a multiple of `step`, at least one step more). Each decision depends only on the games of
that count, which depend only on their seeds, so the same seed stops at the same number of games whatever
the number of workers. Every player count of every game plays its batch in the same round, so the workers
stay busy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.validator.score_tracks import Z95, wilson

INTERVAL = "95% Wilson score interval of each turn position's win rate over every game that did not fail"


@dataclass(frozen=True)
class Stopping:
    """The rule: a 95% half-width to reach on every seat figure, at most `cap` games per player count, batches
    in multiples of `step` games (even, so every batch holds as many all-greedy games as mixed ones)."""

    half_width: float = 0.03
    cap: int = 2000
    step: int = 10

    def __post_init__(self) -> None:
        if not 0 < self.half_width < 0.5 or self.step < 2 or self.step % 2 or self.cap < self.step:
            raise ValueError(f"not a stopping rule: {self}")


def turn_position(game: dict, seat: int) -> int:
    """0 for the seat that took the first turn, 1 for the next, ... (`turn_order` of the metrics; seat order
    when the engine does not say, i.e. seat 0 always starts)."""
    order = game["metrics"].get("turn_order") or list(range(len(game["scores"])))
    return order.index(seat)


def position_credit(games: list[dict], players: int) -> list[float]:
    """The wins of each turn position in these games; a shared win counts 1/k to each of the k winners."""
    credit = [0.0] * players
    for g in games:
        for seat in g["winners"]:
            credit[turn_position(g, seat)] += 1 / len(g["winners"])
    return credit


def seat_half_width(games: list[dict], players: int) -> float:
    """The widest 95% Wilson half-width of the win rates by turn position over the games that did not fail
    (1.0 when none did: nothing is known)."""
    played = [g for g in games if not g["failure"]]
    if not played:
        return 1.0
    widths = []
    for wins in position_credit(played, players):
        low, high = wilson(wins, len(played))
        widths.append((high - low) / 2)
    return max(widths)


def _steps(games: float, rule: Stopping) -> int:
    """`games` rounded up to a multiple of the rule's step, within step..cap."""
    return min(rule.cap, max(rule.step, rule.step * math.ceil(games / rule.step)))


def first_batch(players: int, rule: Stopping) -> int:
    """The games of the first batch: what equal win rates (1 / players each) would need, less a fifth (a game
    whose positions differ needs more, which the next batch adds)."""
    fair = 1 / players
    return _steps(0.8 * Z95**2 * fair * (1 - fair) / rule.half_width**2, rule)


def next_total(games: list[dict], players: int, rule: Stopping) -> int | None:
    """After playing `games` (all of one player count, in index order): None when the rule is met or the cap
    reached, else how many games the count should have after the next batch."""
    played = len(games)
    done = [g for g in games if not g["failure"]]
    # a count whose every game failed stops at once: the failures fail the run, more of them tell nothing
    if played >= rule.cap or not done or seat_half_width(done, players) <= rule.half_width:
        return None
    # the rate closest to one half needs the most games; failed games count for nothing, so more are played
    spread = max((w / len(done)) * (1 - w / len(done)) for w in position_credit(done, players))
    need = Z95**2 * max(spread, 1e-4) / rule.half_width**2 * played / len(done)
    return max(_steps(need, rule), min(rule.cap, played + rule.step))


def reached(results: dict[int, list[dict]], rule: Stopping) -> dict:
    """What the rule reached at each player count (JSON-ready): the games played, the widest half-width of
    the seat figure over every game and over the all-greedy half alone (the share the terminal prints)."""
    by_players = {}
    for players, games in sorted(results.items()):
        width = seat_half_width(games, players)
        mirror = seat_half_width([g for g in games if len(set(g["bots"])) == 1], players)
        by_players[str(players)] = {"games": len(games), "half_width": round(width, 4),
                                    "greedy_mirror_half_width": round(mirror, 4),
                                    "met": width <= rule.half_width}
    return {"interval": INTERVAL, "half_width": rule.half_width, "cap": rule.cap, "step": rule.step,
            "by_players": by_players}


def reached_line(stopped: dict) -> str:
    """One line for the terminal: 'seat wins ±2.9 pp at 95 % after 1150 games at 2 players, ±2.8 pp after 900
    at 3, ...'."""
    parts = []
    for players, r in stopped["by_players"].items():
        capped = "" if r["met"] else f" (the cap: ±{100 * stopped['half_width']:g} pp not reached)"
        parts.append(f"±{100 * r['half_width']:.1f} pp{' at 95 %' if not parts else ''} after {r['games']}"
                     f"{' games' if not parts else ''} at {players}{' players' if not parts else ''}{capped}")
    mirror = max(r["greedy_mirror_half_width"] for r in stopped["by_players"].values())
    return (f"  seat wins {', '.join(parts)} (Wilson, every game; the all-greedy games alone: "
            f"±{100 * mirror:.1f} pp)")
