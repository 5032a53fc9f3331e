"""Balance figures from simulated games (reported, never failed) and the concise terminal summary."""

from __future__ import annotations

import json
import math
from collections import Counter

from generator.data.game import Game
from generator.engines.base import Engine
from generator.validator.score_tracks import card_influence, score_figures, telling_card, wilson
from generator.validator.simulate import BOT_MIX, SimSettings
from generator.validator.stopping import position_credit, reached, reached_line, turn_position


def _r(x: float) -> float:
    return round(float(x), 4)


def percentile(ordered: list[float], q: float) -> float:
    """The q-quantile (0..1) of sorted values, nearest-rank."""
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def distribution(values: list[float]) -> dict:
    """min, 10%, median, mean, 90%, max and a value -> count histogram."""
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}
    return {
        "n": len(ordered),
        "min": ordered[0],
        "p10": percentile(ordered, 0.1),
        "median": percentile(ordered, 0.5),
        "mean": _r(sum(ordered) / len(ordered)),
        "p90": percentile(ordered, 0.9),
        "max": ordered[-1],
        # pairs keep numeric order in JSON
        "histogram": [[k, v] for k, v in sorted(Counter(ordered).items())],
    }


def position_rates(games: list[dict], players: int) -> list[dict]:
    """Win rate by turn position (1 = the first player) with its 95% interval; a shared win counts 1/k to each
    of the k winners. Seat numbers mean nothing when the first player is chosen at random: the turn position
    does."""
    credit = position_credit(games, players)
    rows = []
    for position in range(players):
        low, high = wilson(credit[position], len(games))
        rate = credit[position] / len(games) if games else 0.0
        rows.append({"position": position + 1, "wins": _r(credit[position]), "rate": _r(rate), "low": _r(low),
                     "high": _r(high)})
    return rows


def role_rates(games: list[dict]) -> dict:
    """Where seats differ (`seat_roles` of the metrics, e.g. the restaurant a pizza player chose): per role,
    the games it was played in and its win rate with a 95% interval. {} when the engine names no roles."""
    seats: Counter = Counter()
    credit: Counter = Counter()
    for g in games:
        roles = g["metrics"].get("seat_roles")
        if not roles:
            continue
        for seat, role in enumerate(roles):
            seats[role] += 1
            if seat in g["winners"]:
                credit[role] += 1 / len(g["winners"])
    out = {}
    for role in sorted(seats):
        low, high = wilson(credit[role], seats[role])
        out[role] = {"games": seats[role], "wins": _r(credit[role]), "rate": _r(credit[role] / seats[role]),
                     "low": _r(low), "high": _r(high)}
    return out


def bot_strength(games: list[dict]) -> dict:
    """In mixed games: each bot's share of the seats and its share of the wins (equal shares = no
    stronger)."""
    seats = Counter()
    wins = Counter()
    for g in games:
        if len(set(g["bots"])) < 2:
            continue
        for seat, bot in enumerate(g["bots"]):
            seats[bot] += 1
            if seat in g["winners"]:
                wins[bot] += 1 / len(g["winners"])
    total_seats, total_wins = sum(seats.values()), sum(wins.values()) or 1
    return {bot: {"seat_share": _r(seats[bot] / total_seats), "win_share": _r(wins[bot] / total_wins)}
            for bot in sorted(seats)}


def _mean(values) -> float:
    values = list(values)
    return _r(sum(values) / len(values)) if values else 0.0


def _mean_of(metrics: list[dict], key: str, transform=lambda v: v) -> float | None:
    values = [transform(m[key]) for m in metrics if key in m]
    return _mean(values) if values else None


def _mean_scores_by_position(played: list[dict], players: int) -> list[float]:
    """Each turn position's mean score; every seat's position worked out once per game."""
    by_position: list[list] = [[] for _ in range(players)]
    for g in played:
        scores = g["scores"]
        for seat in range(players):
            position = turn_position(g, seat)
            if 0 <= position < players:
                by_position[position].append(scores[seat])
    return [_mean(values) for values in by_position]


def per_count(games: list[dict], players: int) -> dict:
    """Figures of one player count."""
    played = [g for g in games if not g["failure"]]
    metrics = [g["metrics"] for g in played]
    mirror = [g for g in played if len(set(g["bots"])) == 1]
    ended = Counter(m.get("ended_by") or "unknown" for m in metrics)
    extra_keys = sorted(
        {k for m in metrics for k, v in (m.get("extra") or {}).items() if isinstance(v, (int, float))}
    )
    return {
        "games": len(games),
        "failed": len(games) - len(played),
        "failures": dict(sorted(Counter(g["kind"] for g in games if g["failure"]).items())),
        "turns": distribution([m["turns"] for m in metrics if "turns" in m]),
        "rounds": distribution([m["rounds"] for m in metrics if "rounds" in m]),
        "decisions": distribution([g["decisions"] for g in played]),
        "position_wins_greedy_mirror": position_rates(mirror, players),
        "position_wins_all": position_rates(played, players),
        "role_wins": role_rates(played),
        "bot_strength": bot_strength(played),
        "ended_by": {k: {"games": v, "share": _r(v / len(played))} for k, v in sorted(ended.items())},
        # completions per deal at this player count (the fair share is 1 / players, so counts are not pooled)
        "win_rate_when_dealt": when_dealt(
            sorted({d for m in metrics for d in m.get("dealt_goals", [])}), played
        ),
        # None (not 0) when the engine does not count it, so the report does not claim what was never measured
        "hand_limit_discards_per_game": _mean_of(metrics, "hand_limit_discards"),
        "dead_hand_turns_per_game": _mean_of(metrics, "dead_hand_turns"),
        "games_with_dead_hands": _mean_of(metrics, "dead_hand_turns", lambda v: 1 if v else 0),
        "mean_scores_by_position": _mean_scores_by_position(played, players),
        "extra": {
            k: _mean(
                m["extra"][k] for m in metrics if isinstance((m.get("extra") or {}).get(k), (int, float))
            )
            for k in extra_keys
        },
        # beyond seat fairness, from the score tracks of the all-greedy games (players of equal strength: in
        # mixed games a random bot's low score would make every game look lopsided)
        "scores": score_figures(mirror),
        # what playtests are compared with
        "greedy_mirror_length": {key: distribution([g["metrics"][key] for g in mirror if key in g["metrics"]])
                                 for key in ("turns", "rounds")},
        "card_influence": card_influence(mirror, players),
    }


def card_labels(game: Game) -> dict[str, str]:
    """Card id -> the name a chart shows: the card's name and, for a name printed on several cards, what tells
    them apart (the recipe of an ingredient card: "Ground Beef (Burrito)"), else the card id."""
    cards = [card for deck in game.decks.values() for card in deck.cards]
    labels = {card.id: card.name for card in cards}
    records = {deck.id: {c.id: c.name for c in deck.cards} for deck in game.decks.values()}
    records |= {table.id: {r.id: r.name for r in table.rows} for table in game.tables.values()}
    same_name: dict[str, list] = {}
    for card in cards:
        same_name.setdefault(card.name, []).append(card)
    for name, group in same_name.items():
        if len(group) < 2:
            continue
        specs = game.decks[group[0].deck].field_specs if len({c.deck for c in group}) == 1 else {}
        for key, spec in specs.items():
            values = [card.fields.get(key) for card in group]
            if spec.type == "ref" and None not in values and len(set(values)) == len(values):
                for card, value in zip(group, values, strict=True):
                    labels[card.id] = f"{name} ({records.get(spec.to, {}).get(value, value)})"
                break
        else:
            for card in group:
                labels[card.id] = f"{name} ({card.id})"
    return labels


def card_usage(game: Game, played: list[dict]) -> dict:
    """Per card id: total uses and uses per game; every card of a deck that is used at all is listed."""
    totals = Counter()
    for g in played:
        totals.update(g["metrics"].get("card_usage") or {})
    ids = set(totals)
    for deck in game.decks.values():
        deck_ids = {c.id for c in deck.cards}
        if deck_ids & ids:
            ids |= deck_ids
    n = len(played) or 1
    names = card_labels(game)
    return {
        cid: {"name": names.get(cid, cid), "uses": totals[cid], "per_game": _r(totals[cid] / n)}
        for cid in sorted(ids)
    }


def _goal_counts(played: list[dict]) -> tuple[Counter, Counter]:
    """Deals and completions of every goal over `played`: one pass over the games (the figures of each goal
    used to walk every game twice)."""
    dealt, done = Counter(), Counter()
    for g in played:
        metrics = g["metrics"]
        dealt.update(metrics.get("dealt_goals", ()))
        done.update(metrics.get("completed_goals", ()))
    return dealt, done


def when_dealt(goals: list[str], played: list[dict]) -> dict:
    """Per goal: completions per deal (the share of the rounds it was dealt in that it won), None if never
    dealt."""
    dealt, done = _goal_counts(played)
    return {goal: _r(done[goal] / dealt[goal]) if dealt[goal] else None for goal in goals}


def goal_figures(game: Game, engine: Engine, played: list[dict]) -> dict:
    """Per goal: share of games it was completed in, completions per game and turns on display."""
    goals = list(engine.goals(game)) if engine.goals else []
    goals += sorted({k for g in played for k in g["metrics"].get("completed_goals", [])} - set(goals))
    n = len(played) or 1
    names = {c.id: c.name for deck in game.decks.values() for c in deck.cards}
    # one pass over the games: per goal its deals, completions, games completed in and turns on display (in
    # game order, as each goal's own walk over the games found them)
    dealt, done = _goal_counts(played)
    completed_games: Counter = Counter()
    dwells: dict[str, list] = {}
    for g in played:
        metrics = g["metrics"]
        completed_games.update(set(metrics.get("completed_goals", ())))
        for goal, shown in (metrics.get("dwell") or {}).items():
            dwells.setdefault(goal, []).extend(shown)
    out = {}
    for goal in goals:
        dwell = dwells.get(goal, [])
        out[goal] = {
            "win_rate_when_dealt": _r(done[goal] / dealt[goal]) if dealt[goal] else None,
            "name": names.get(goal, goal),
            "completed_games": _r(completed_games[goal] / n),
            "completions_per_game": _r(done[goal] / n),
            "times_shown": len(dwell),
            "dwell_mean": _mean(dwell),
            "dwell_max": max(dwell) if dwell else 0,
        }
    return dict(sorted(out.items()))


def summarize(game: Game, engine: Engine, settings: SimSettings, results: dict[int, list[dict]]) -> dict:
    """Every balance figure of one game (plain, JSON-ready, deterministic)."""
    played = [g for games in results.values() for g in games if not g["failure"]]
    figures = {
        "game": game.id,
        "title": game.title,
        "settings": {
            # the default run plays until its stopping rule is met: the games differ by player count
            "games_per_count": settings.games if settings.stopping is None else None,
            "seed": settings.seed,
            "player_counts": sorted(results),
            "bots": BOT_MIX,
            "turn_cap": engine.turn_cap,
        },
        "by_players": {str(p): per_count(games, p) for p, games in sorted(results.items())},
        "cards": card_usage(game, played),
        "goals": goal_figures(game, engine, played),
    }
    if settings.stopping is not None:
        figures["settings"]["stopping"] = reached(results, settings.stopping)
    return figures


def strength_figures(bot: str, games_per_count: int, results: dict[int, list[dict]], figures: dict) -> dict:
    """Seat fairness with `bot` in every seat (`validate --strength`), beside the greedy mirror's of
    `figures`: per player count, the games, the failed ones and the win rate by turn position with 95%
    intervals."""
    by_players = {}
    for players, games in sorted(results.items()):
        played = [g for g in games if not g["failure"]]
        greedy = figures["by_players"].get(str(players), {}).get("position_wins_greedy_mirror", [])
        by_players[str(players)] = {
            "games": len(games),
            "failed": len(games) - len(played),
            "position_wins": position_rates(played, players),
            "greedy_position_wins": greedy,
            "turns": distribution([g["metrics"]["turns"] for g in played if "turns" in g["metrics"]]),
        }
    return {"bot": bot, "games_per_count": games_per_count, "by_players": by_players}


def strength_lines(strength: dict | None) -> list[str]:
    """The terminal lines of `validate --strength`: wins by turn position with the stronger bot in every seat,
    beside the greedy figures."""
    if not strength:
        return []
    lines = [f"  seat fairness with {strength['bot']} in every seat ({strength['games_per_count']} games per "
             "player count; 95% intervals), greedy mirror beside:"]
    for p, f in strength["by_players"].items():
        if f["games"] == f["failed"]:
            lines.append(f"    {p} players: {f['games']} games, all failed")
            continue
        seats = ", ".join(f"{_pct(s['rate'])} ({100 * s['low']:.0f}-{_pct(s['high'])})"
                          for s in f["position_wins"])
        greedy = " ".join(_pct(s["rate"]) for s in f["greedy_position_wins"])
        failed = f", {f['failed']} failed" if f["failed"] else ""
        lines.append(f"    {p} players: wins by turn position (1st first) {seats}{failed}; greedy {greedy}")
    return lines


def to_json(report: dict) -> str:
    """The report as deterministic JSON (sorted keys)."""
    return json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _span(f: dict, fmt: str = "{:.1f}") -> str:
    if f["mean"] is None:
        return "-"
    if f["low"] is None:
        return fmt.format(f["mean"])
    return f"{fmt.format(f['mean'])} ({fmt.format(f['low'])} to {fmt.format(f['high'])})"


def _share_span(f: dict) -> str:
    if f["share"] is None:
        return "-"
    return f"{_pct(f['share'])} ({100 * f['low']:.0f}-{_pct(f['high'])})"


def _score_lines(f: dict, cards: dict) -> list[str]:
    """The score-track figures of one player count: a line, and one more for a card that goes with winning."""
    s = f.get("scores")
    if not s or not s["games"]:
        return []
    lines = [f"    margin {_span(s['margin'])}, lead changes {_span(s['lead_changes'])}/game, "
             f"winner at worst {_span(s['drama'])} behind, "
             f"half-time leader wins {_share_span(s['half_time_leader_wins'])}"]
    found = telling_card(f.get("card_influence") or {})
    if found:
        card, c = found
        name = cards.get(card, {}).get("name", card)
        if f["card_influence"]["basis"] == "seat":
            lines.append(f"    card that matters most: {name} ({card}): seats playing it win "
                         f"{_share_span(c['played'])}, others {_share_span(c['not_played'])}")
        else:
            lines.append(f"    card that matters most: {name} ({card}): margin {_span(c['played'])} in games "
                         f"it is played, {_span(c['not_played'])} in the others")
    return lines


def terminal_summary(figures: dict) -> list[str]:
    """A few lines per game: how sure the seat figures are (the default run), length, wins by turn position
    (and by seat where seats differ), endings, goals and unused cards."""
    stopped = figures.get("settings", {}).get("stopping")
    lines = [reached_line(stopped)] if stopped else []
    for p, f in figures["by_players"].items():
        turns = f["turns"] if f["turns"].get("n") else f["decisions"]
        if not turns.get("n"):
            lines.append(f"  {p} players: {f['games']} games, all failed")
            continue
        seats = " ".join(f"{_pct(s['rate'])}" for s in f["position_wins_greedy_mirror"])
        ends = ", ".join(f"{k} {_pct(v['share'])}" for k, v in f["ended_by"].items())
        what = "turns" if f["turns"].get("n") else "decisions"
        # a solo game has no turn positions to compare: its one figure is how often the player wins
        wins = f"won {seats}" if int(p) == 1 else f"wins by turn position (1st first) {seats}"
        counted_players = f"{p} player{'s' if int(p) != 1 else ''}"
        lines.append(
            f"  {counted_players}: {f['games']} games, {what} median {turns['median']:g} "
            f"(10-90%: {turns['p10']:g}-{turns['p90']:g}); {wins}; ended by {ends}"
        )
        if f.get("role_wins"):
            roles = ", ".join(f"{role} {_pct(r['rate'])}" for role, r in f["role_wins"].items())
            lines.append(f"    wins by seat: {roles}")
        if int(p) > 1:  # margins and leads compare players
            lines += _score_lines(f, figures["cards"])
        dealt = {gid: rate for gid, rate in (f.get("win_rate_when_dealt") or {}).items() if rate is not None}
        if dealt:
            rates = ", ".join(f"{gid} {_pct(rate)}" for gid, rate in sorted(dealt.items()))
            lines.append(f"    win rate when dealt (fair: {_pct(1 / int(p))}): {rates}")
    goals = figures["goals"]
    if goals:
        done = sum(1 for g in goals.values() if g["completed_games"] > 0)
        rarest = min(goals.items(), key=lambda kv: (kv[1]["completed_games"], kv[0]))
        lines.append(f"  goals: {done}/{len(goals)} completed at least once; rarest {rarest[0]} "
                     f"(in {_pct(rarest[1]['completed_games'])} of games)")
    unused = [cid for cid, c in figures["cards"].items() if c["uses"] == 0]
    if unused:
        lines.append(f"  cards never used: {', '.join(unused[:8])}{' ...' if len(unused) > 8 else ''}")
    return lines + playtest_lines(figures.get("playtests")) + strength_lines(figures.get("strength"))


def playtest_lines(found: dict | None) -> list[str]:
    """The playtests beside the simulation: how many at each player count, and what falls outside."""
    if not found:
        return []
    counts = ", ".join(f"{entry['plays']} at {p} players" for p, entry in found["by_players"].items())
    lines = [f"  playtests: {counts}"]
    findings = [f"    {line}" for line in found["findings"]]
    return lines + (findings or ["    every real game falls within the simulated ranges"])
