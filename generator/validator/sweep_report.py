"""The figures of a parameter sweep: per variant and player count, each metric with its 95% confidence
interval.

Seat win rates (all-greedy games), game length, how games end and goal completion: the four things a designer
compares between variants. Plain, JSON-ready and deterministic (nothing about where or how fast games ran).
"""

from __future__ import annotations

import math
from collections import Counter

from generator.validator.report import distribution, turn_position
from generator.validator.score_tracks import Z95, score_figures, wilson


def _r(x: float) -> float:
    return round(float(x), 4)


def mean_interval(values: list[float]) -> dict:
    """Mean with a 95% interval (normal approximation; a single game has no spread to estimate)."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "low": None, "high": None}
    mean = sum(values) / n
    half = Z95 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else 0.0
    return {"n": n, "mean": _r(mean), "low": _r(mean - half), "high": _r(mean + half)}


def share(count: float, n: int) -> dict:
    """A proportion with its 95% Wilson interval."""
    low, high = wilson(count, n)
    return {"count": _r(count), "share": _r(count / n) if n else 0.0, "low": _r(low), "high": _r(high)}


def seat_wins(games: list[dict], players: int) -> list[dict]:
    """Win share by turn position in all-greedy games: "seat" 0 is whoever played first in each game (a shared
    win counts 1/k to each of the k winners). Seat numbers mean nothing where the first player is drawn at
    random."""
    mirror = [g for g in games if len(set(g["bots"])) == 1]
    credit = [0.0] * players
    for g in mirror:
        for seat in g["winners"]:
            credit[turn_position(g, seat)] += 1 / len(g["winners"])
    return [{"seat": seat, **share(credit[seat], len(mirror))} for seat in range(players)]


def length_of(played: list[dict]) -> dict:
    """Game length in turns (decisions when the engine does not count turns): mean with interval, and
    quantiles."""
    metrics = [g["metrics"] for g in played]
    unit = "turns" if metrics and all("turns" in m for m in metrics) else "decisions"
    values = [m["turns"] for m in metrics] if unit == "turns" else [g["decisions"] for g in played]
    spread = distribution(values)
    return {"unit": unit, **mean_interval(values),
            **{k: spread[k] for k in ("median", "p10", "p90") if k in spread}}


def endings(played: list[dict]) -> dict:
    """Share of the finished games that ended each way."""
    counts = Counter(g["metrics"].get("ended_by") or "unknown" for g in played)
    return {reason: share(count, len(played)) for reason, count in sorted(counts.items())}


def goal_completion(played: list[dict], goals: list[str]) -> dict:
    """Goals completed per game (mean with interval), how many goals were ever completed and the rarest
    one."""
    per_game = [len(g["metrics"].get("completed_goals", [])) for g in played]
    in_games = Counter(goal for g in played for goal in set(g["metrics"].get("completed_goals", [])))
    known = goals or sorted(in_games)
    rarest = min(known, key=lambda goal: (in_games[goal], goal)) if known else None
    return {
        "per_game": mean_interval(per_game),
        "goals": len(known), "ever_completed": sum(1 for goal in known if in_games[goal]),
        "never_completed": [goal for goal in known if not in_games[goal]],
        "rarest": {"goal": rarest, **share(in_games[rarest], len(played))} if rarest else None,
    }


def variant_figures(results: dict[int, list[dict]], goals: list[str]) -> dict:
    """Every sweep metric of one variant, per player count."""
    out = {}
    for players, games in sorted(results.items()):
        played = [g for g in games if not g["failure"]]
        out[str(players)] = {
            "games": len(games), "failed": len(games) - len(played),
            "failures": dict(sorted(Counter(g["kind"] for g in games if g["failure"]).items())),
            "seat_wins": seat_wins(played, players),
            "length": length_of(played),
            "ended_by": endings(played),
            "goal_completion": goal_completion(played, goals),
            # margin, lead changes, drama, half-time leader of the all-greedy games, as report.py has them
            "scores": score_figures([g for g in played if len(set(g["bots"])) == 1]),
        }
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def table(report: dict) -> list[str]:
    """The sweep as an aligned terminal table: one row per variant and player count."""
    head = [
        "variant",
        "players",
        "failed",
        "length (95% CI)",
        "seat wins (greedy mirror)",
        "ended by",
        "goals/game",
        "margin",
        "half-time leader wins",
    ]
    rows = []
    for variant in report["variants"]:
        if variant["status"] != "simulated":
            rows.append([variant["label"], "-", "-", variant["status"], "", "", "", "", ""])
            continue
        for players, f in variant["by_players"].items():
            length = f["length"]
            span = (f"{length['mean']:.1f} ({length['low']:.1f}-{length['high']:.1f}) {length['unit']}"
                    if length["mean"] is not None else "-")
            seats = " ".join(_pct(s["share"]) for s in f["seat_wins"])
            ends = ", ".join(f"{k} {_pct(v['share'])}" for k, v in f["ended_by"].items())
            goals = f["goal_completion"]["per_game"]
            scores = f["scores"]
            margin = scores["margin"]
            leader = scores["half_time_leader_wins"]
            rows.append([variant["label"], players, f"{f['failed']}/{f['games']}", span, seats, ends,
                         f"{goals['mean']:.2f}" if goals["mean"] is not None else "-",
                         f"{margin['mean']:.1f}" if margin["mean"] is not None else "-",
                         _pct(leader["share"])])
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    lines = [
        "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in [head, *rows]
    ]
    return [lines[0], "  ".join("-" * w for w in widths), *lines[1:]]
