"""Balance beyond seat fairness, from each game's score track: winning margin, lead changes, drama, whether
the half-time leader wins, and how playing a card goes with winning.

A score track (harness.GameRecord.score_track) is a list of (turns completed, every seat's score): the start,
each turn after which a score changed, and the end (whose turn count is the game's length in turns). The
leader after a turn is the one seat with the highest score; a tie for the top means nobody leads.
"""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959964
# the 97.5% quantile of Student's t for 1..30 degrees of freedom; beyond, a series in 1/df (error < 0.0002)
T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def _r(x: float) -> float:
    return round(float(x), 4)


def t975(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom."""
    if df <= len(T975):
        return T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_interval(values: list[float]) -> dict:
    """Mean with its 95% t interval (None bounds for fewer than two values: no spread to estimate)."""
    n = len(values)
    if not n:
        return {"n": 0, "mean": None, "low": None, "high": None}
    mean = sum(values) / n
    if n < 2:
        return {"n": 1, "mean": _r(mean), "low": None, "high": None}
    half = t975(n - 1) * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return {"n": n, "mean": _r(mean), "low": _r(mean - half), "high": _r(mean + half)}


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (fractional successes allowed for shared wins)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def proportion(count: float, n: int) -> dict:
    """A share with its 95% Wilson interval."""
    low, high = wilson(count, n)
    return {"n": n, "count": _r(count), "share": _r(count / n) if n else None, "low": _r(low),
            "high": _r(high)}


def leader(scores: tuple) -> int | None:
    """The seat with the highest score, None when several share it."""
    top = max(scores)
    return scores.index(top) if scores.count(top) == 1 else None


def margin(scores: list[float], winners: list[int]) -> float:
    """The winner's final score minus the best score of a seat that did not win (0 when every seat won)."""
    others = [s for seat, s in enumerate(scores) if seat not in winners]
    if not winners or not others:
        return 0.0
    return min(scores[w] for w in winners) - max(others)


def lead_changes(track: list[tuple[int, tuple]]) -> int:
    """How often the lead passed to another seat (a tie for the top ends no lead; the first leader is not a
    change)."""
    changes, current = 0, None
    for _, scores in track:
        now = leader(scores)
        if now is not None:
            changes += current is not None and now != current
            current = now
    return changes


def drama(track: list[tuple[int, tuple]], winners: list[int]) -> float:
    """How far behind the leading score the eventual winner fell, at worst (mean over shared winners)."""
    if not winners:
        return 0.0
    worst = [max(max(scores) - scores[w] for _, scores in track) for w in winners]
    return sum(worst) / len(worst)


def half_time_leader(track: list[tuple[int, tuple]]) -> int | None:
    """The leader after half the game's turns (rounded down), None on a tie."""
    half = track[-1][0] // 2
    at_half = [scores for turn, scores in track if turn <= half][-1]
    return leader(at_half)


def score_figures(played: list[dict]) -> dict:
    """Margin, lead changes, drama and half-time-leader wins of one player count's finished games, each with
    its 95% interval; games without a score track are skipped."""
    tracked = [g for g in played if g.get("score_track")]
    margins = [margin(g["scores"], g["winners"]) for g in tracked]
    changes = [lead_changes(g["score_track"]) for g in tracked]
    behind = [drama(g["score_track"], g["winners"]) for g in tracked]
    credit, led = 0.0, 0
    for g in tracked:
        first = half_time_leader(g["score_track"])
        if first is None or not g["winners"]:
            continue
        led += 1
        credit += (first in g["winners"]) / len(g["winners"])
    return {
        "games": len(tracked),
        "margin": {**mean_interval(margins), "histogram": _histogram(margins)},
        "lead_changes": {**mean_interval(changes), "histogram": _histogram(changes)},
        "drama": mean_interval(behind),
        "comebacks": proportion(sum(1 for b in behind if b > 0), len(tracked)),
        "half_time_leader_wins": proportion(credit, led),
    }


def _histogram(values: list[float]) -> list[list]:
    # pairs keep numeric order in JSON
    return [[_r(k), v] for k, v in sorted(Counter(values).items())]


def _win_rates(seats: Counter, credit: Counter, card: str) -> dict:
    return proportion(credit[card], seats[card])


def card_influence(played: list[dict], players: int) -> dict:
    """Per card: how playing it goes with winning, at one player count.

    With `seat_card_usage` in the metrics (per seat, card id -> uses; an optional key engines may report), the
    win rate of the seats that played the card at least once against that of the seats that did not (a shared
    win counts 1/k to each of the k winners). With only the per-game `card_usage`, which does not say who
    played a card, no seat can be credited: the figure is then the winning margin of the games the card was
    played in against the games it was not (does the card go with lopsided games?)."""
    per_seat = [g for g in played if g["metrics"].get("seat_card_usage")]
    if per_seat:
        return _seat_influence(per_seat, players)
    used = [g for g in played if g["metrics"].get("card_usage")]
    if not used:
        return {}
    cards = sorted({c for g in used for c in g["metrics"]["card_usage"]})
    margins = [margin(g["scores"], g["winners"]) for g in used]
    out = {}
    for card in cards:
        with_card = [m for g, m in zip(used, margins, strict=True) if g["metrics"]["card_usage"].get(card)]
        without = [m for g, m in zip(used, margins, strict=True) if not g["metrics"]["card_usage"].get(card)]
        out[card] = _compare(mean_interval(with_card), mean_interval(without), "mean")
    return {"basis": "game", "measure": "winning margin of the games it was played in, and of the others",
            "cards": out}


def _seat_influence(games: list[dict], players: int) -> dict:
    seats_with, credit_with, seats_without, credit_without = Counter(), Counter(), Counter(), Counter()
    cards = sorted({c for g in games for usage in g["metrics"]["seat_card_usage"] for c in usage})
    for g in games:
        usage = g["metrics"]["seat_card_usage"]
        for seat in range(players):
            won = (seat in g["winners"]) / len(g["winners"]) if g["winners"] else 0.0
            mine = usage[seat] if seat < len(usage) else {}
            for card in cards:
                played = bool(mine.get(card))
                seats, credit = (seats_with, credit_with) if played else (seats_without, credit_without)
                seats[card] += 1
                credit[card] += won
    out = {card: _compare(_win_rates(seats_with, credit_with, card),
                          _win_rates(seats_without, credit_without, card), "share") for card in cards}
    return {"basis": "seat", "measure": "win rate of the seats that played it, and of the others",
            "cards": out}


def _compare(with_card: dict, without: dict, key: str) -> dict:
    a, b = with_card[key], without[key]
    return {"played": with_card, "not_played": without,
            "difference": _r(a - b) if a is not None and b is not None else None}


def telling_card(influence: dict) -> tuple[str, dict] | None:
    """The card whose figure differs most between playing it and not, among those whose two intervals do not
    overlap (None when no card's do)."""
    clear = []
    for card, f in (influence.get("cards") or {}).items():
        a, b = f["played"], f["not_played"]
        if f["difference"] is None or None in (a["low"], b["low"]):
            continue
        if a["low"] > b["high"] or b["low"] > a["high"]:
            clear.append((-abs(f["difference"]), card, f))
    if not clear:
        return None
    _, card, f = min(clear)
    return card, f
