"""Exact deck odds from what an engine declares (Engine.deck_odds: its goals and its deals), for `pnp odds`,
the validate report, balance.pdf and the studio.

Per goal and player count: the chance that an opening hand holds what the goal needs, that the hand and the
next N cards drawn hold it, and the expected draws until they do; per card, the chance to see it in the
opening hand. All by counting, no simulation: a seat's hand and its first N draws are, for the seat, a
uniformly random set of hand + N cards of the deck it is dealt from (the other hands are as random), so the
count is multivariate hypergeometric. The cards a goal needs are grouped into slots that accept the same
cards (separate slots are counted independently, slots sharing cards such as "any meat" beside "beef"
together, by Hall's condition), wilds fill what is missing, and a polynomial in the number of relevant cards
held carries the counts, so one pass gives every hand size. Counts are exact integers; figures are exact
fractions (reported as floats, the opening hand also as a fraction when its denominator is small).

Expected draws count every card after the hand in a random order (discards come back by reshuffles), so they
do not depend on the player count; the "within N draws" figures are given while N cards are left to draw.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from itertools import combinations, product
from math import comb
from operator import mul

from generator.core.errors import InputError, Problem
from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals

DRAWS = (1, 3, 5, 10, 15, 20)  # the "within N draws" columns by default
SMALL_DENOMINATOR = 10**12  # an exact figure is also written as a fraction below this denominator
TAIL = 1e-13  # expected draws stop adding once the chance still to miss the goal is below this
DECLARE = ("declare Engine(deck_odds=...) in the engine module, a function (game, options) -> "
           "generator.engines.base.GoalsAndDeals (`pnp docs engine-api`, section 'Deck odds')")


def no_goals_line(game_id: str, engine) -> str:
    """The one line for an engine that declares no goals and deals."""
    if engine is None:
        return f"{game_id}: no `engine:` in game.yaml, so no goals are declared: name one there and {DECLARE}"
    return f"{game_id}: engine {engine.name} declares no goals: {DECLARE}"


Poly = list[int]  # coefficient t = the ways to hold exactly t of the cards counted so far


def _times(a: Poly, b: Poly, top: int) -> Poly:
    """a * b, cut after degree `top`."""
    out = [0] * min(len(a) + len(b) - 1, top + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: top + 1 - i]):
                out[i + j] += x * y
    return out


def _plus(a: Poly, b: Poly) -> Poly:
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, y in enumerate(b):
        out[i] += y
    return out


def _pieces(copies: int, cap: int) -> list[Poly]:
    """The ways to hold j of `copies` cards, j < cap, and (last) cap or more, as polynomials."""
    cap = min(cap, copies)
    pieces = [[0] * j + [comb(copies, j)] for j in range(cap)]
    pieces.append([0] * cap + [comb(copies, k) for k in range(cap, copies + 1)])
    return pieces


def _combine(a: dict[int, Poly], b: dict[int, Poly], most: int, top: int) -> dict[int, Poly]:
    """Two independent groups of cards: their shortfalls add (shortfalls above `most` are dropped: no wild
    count can make them up)."""
    out: dict[int, Poly] = {}
    for da, pa in a.items():
        for db, pb in b.items():
            if da + db <= most:
                out[da + db] = _plus(out.get(da + db, []), _times(pa, pb, top))
    return out


def _shortfall(slots: list[tuple[frozenset[str], int]], held: dict[str, int]) -> int:
    """The slots no held card can fill (Hall: the worst set of slots, its need minus the cards it accepts)."""
    worst = 0
    for size in range(1, len(slots) + 1):
        for chosen in combinations(slots, size):
            need = sum(count for _, count in chosen)
            accepted = frozenset().union(*(cards for cards, _ in chosen))
            worst = max(worst, need - sum(held[card] for card in accepted))
    return worst


def _groups(slots: list[tuple[frozenset[str], int]]) -> list[list[tuple[frozenset[str], int]]]:
    """The slots in groups that share no card."""
    groups: list[list[tuple[frozenset[str], int]]] = []
    for slot in slots:
        joined = [g for g in groups if any(slot[0] & cards for cards, _ in g)]
        for g in joined:
            groups.remove(g)
        groups.append([s for g in joined for s in g] + [slot])
    return groups


def _group_counts(group, deck: dict[str, int], most: int, top: int) -> dict[int, Poly]:
    """Shortfall -> the ways to hold t of the group's cards with that shortfall."""
    if len(group) == 1:
        cards, need = group[0]
        copies = sum(deck[card] for card in cards)
        out: dict[int, Poly] = {}
        for j, piece in enumerate(_pieces(copies, need)):
            if need - j <= most:
                out[need - j] = piece
        return out
    cards = sorted(frozenset().union(*(c for c, _ in group)))
    caps = [sum(count for accepted, count in group if card in accepted) for card in cards]
    options = [_pieces(deck[card], cap) for card, cap in zip(cards, caps, strict=True)]
    out = {}
    for held in product(*(range(len(o)) for o in options)):
        short = _shortfall(group, dict(zip(cards, held, strict=True)))
        if short > most:
            continue
        poly: Poly = [1]
        for o, j in zip(options, held, strict=True):
            poly = _times(poly, o[j], top)
        out[short] = _plus(out.get(short, []), poly)
    return out


def holding_counts(goal: GoalNeeds, deck: dict[str, int], top: int) -> list[int]:
    """ways[m] = how many sets of m of the deck's cards hold what the goal needs, for m = 0..top."""
    wilds = {card: n for card, n in deck.items() if card in goal.wilds and n}
    merged: dict[frozenset[str], int] = {}
    for cards, count in goal.slots:
        present = frozenset(c for c in cards if deck.get(c) and c not in wilds)
        if count > 0:
            merged[present] = merged.get(present, 0) + count
    most = sum(wilds.values())
    short: dict[int, Poly] = {0: [1]}
    for group in _groups([(cards, n) for cards, n in merged.items() if cards]):
        short = _combine(short, _group_counts(group, deck, most, top), most, top)
    unfillable = sum(n for cards, n in merged.items() if not cards)
    short = {d + unfillable: p for d, p in short.items() if d + unfillable <= most}
    w = sum(wilds.values())
    held = [0]
    for d, poly in short.items():  # with k wilds, a shortfall up to k is made up
        held = _plus(held, _times(poly, [0] * d + [comb(w, k) for k in range(d, w + 1)], top))
    counted = sum(deck[c] for c in frozenset().union(*merged)) + w
    others = sum(deck.values()) - counted
    rest = [comb(others, j) for j in range(min(others, top) + 1)]
    ways = []
    for m in range(top + 1):  # sum over t of held[t] * rest[m - t], the t that both lists have
        low, high = max(0, m - others), min(m, len(held) - 1)
        ways.append(sum(map(mul, held[low:high + 1], reversed(rest[m - high:m - low + 1]))) if low <= high
                    else 0)
    return ways


class _Curve:
    """One goal in one deal: the chance that the first m cards hold it, for every m (exact on asking)."""

    def __init__(self, ways: list[int], size: int):
        self.ways, self.size = ways, size

    def __len__(self) -> int:
        return len(self.ways)

    def __getitem__(self, m: int) -> Fraction:
        return Fraction(self.ways[m], comb(self.size, m))

    def miss(self, m: int) -> float:
        """1 - the chance at m, as a float (correctly rounded integer division)."""
        total = comb(self.size, m)
        return (total - self.ways[m]) / total


def _chances(goal: GoalNeeds, deal: Deal, memo: dict) -> _Curve:
    key = (goal, deal.deck)
    if key not in memo:
        deck = dict(deal.deck)
        size = sum(deck.values())
        memo[key] = _Curve(holding_counts(goal, deck, size), size)
    return memo[key]


def _mixed(parts: list[tuple[Fraction, Fraction]]) -> Fraction:
    """The weighted mean of (weight, chance) pairs."""
    total = sum(w for w, _ in parts)
    return sum(w * p for w, p in parts) / total if total else Fraction(0)


def _pile(deal: Deal) -> int:
    return sum(n for _, n in deal.deck) - deal.players * deal.hand if deal.draws else 0


def _expected_draws(chances: _Curve, hand: int) -> float | None:
    """Draws after a hand of `hand` until the cards hold the goal, over the whole deck; None if never."""
    if chances.ways[-1] == 0:
        return None
    total = 0.0
    for m in range(hand, len(chances)):
        miss = chances.miss(m)
        if miss < TAIL:
            break
        total += miss
    return total


def _exact(p: Fraction) -> str | None:
    return f"{p.numerator}/{p.denominator}" if p.denominator < SMALL_DENOMINATOR else None


def _count_figures(declared: GoalsAndDeals, players: int, draws: tuple[int, ...], memo: dict,
                   names: dict[str, str]) -> dict:
    """Every figure at one player count."""
    deals = [d for d in declared.deals if d.players == players]
    piles = [_pile(d) for d in deals]
    pile = min(piles)
    shown = [n for n in draws if n <= pile] if all(d.draws for d in deals) else []
    goals = {}
    for goal in declared.goals:
        mine = [d for d in deals if d.goals is None or goal.id in d.goals]
        curves = [(Fraction(d.weight), _chances(goal, d, memo), d) for d in mine]
        opening = _mixed([(w, c[d.hand]) for w, c, d in curves])
        within = {str(n): float(_mixed([(w, c[min(d.hand + n, len(c) - 1)]) for w, c, d in curves]))
                  for n in shown}
        best = _mixed([(w, c[min(d.hand + p, len(c) - 1)]) for (w, c, d), p in
                       zip(curves, [_pile(d) for d in mine], strict=True)])
        expected = None
        if curves and all(d.draws for _, _, d in curves):
            each = [(float(w), _expected_draws(c, d.hand)) for w, c, d in curves]
            known = [(w, e) for w, e in each if e is not None]
            if len(known) == len(each):
                expected = round(sum(w * e for w, e in known) / sum(w for w, _ in known), 2)
        goals[goal.id] = {"name": goal.name or names.get(goal.id, goal.id), "opening": float(opening),
                          "opening_exact": _exact(opening), "within": within,
                          "expected_draws": expected, "ever": float(best)}
    cards: dict[str, Fraction] = {}
    weights = sum(Fraction(d.weight) for d in deals)
    for d in deals:
        size = sum(n for _, n in d.deck)
        for card, copies in d.deck:
            seen = 1 - Fraction(comb(size - copies, d.hand), comb(size, d.hand))
            cards[card] = cards.get(card, Fraction(0)) + Fraction(d.weight) * seen / weights
    hand = deals[0].hand
    return {
        "deck": sum(n for _, n in deals[0].deck) if len(deals) == 1 else None,
        "setups": len(deals), "hand": hand, "draws": all(d.draws for d in deals), "pile": pile,
        "within_draws": shown,
        "goals": goals,
        "cards": {card: {"name": names.get(card, card), "opening": float(p)}
                  for card, p in sorted(cards.items())},
    }


def _signature(declared: GoalsAndDeals, players: int) -> tuple:
    return tuple(sorted(((d.deck, d.hand, d.draws, d.weight, tuple(sorted(d.goals or ()))))
                        for d in declared.deals if d.players == players))


def deck_odds(declared: GoalsAndDeals, players: Iterable[int] = (), draws: Iterable[int] = DRAWS,
              names: dict[str, str] | None = None) -> dict:
    """Every figure (plain, JSON-ready) at each declared player count (or those of `players`), with the player
    counts whose deals are the same grouped."""
    names = names or {}
    counts = sorted({d.players for d in declared.deals})
    wanted = [p for p in counts if not players or p in set(players)]
    draws = tuple(sorted(set(draws)))
    memo: dict = {}
    by_players = {str(p): _count_figures(declared, p, draws, memo, names) for p in wanted}
    groups: list[list[int]] = []
    for p in wanted:
        if groups and _signature(declared, groups[-1][0]) == _signature(declared, p):
            groups[-1].append(p)
        else:
            groups.append([p])
    return {"draws": list(draws), "player_counts": wanted, "declared_player_counts": counts, "groups": groups,
            "by_players": by_players}


def _short_text(goal: GoalNeeds, deal: Deal) -> str:
    """What the deal's deck lacks for the goal: the slots its copies cannot fill, and its wilds."""
    deck = dict(deal.deck)
    short = []
    for cards, count in goal.slots:
        have = sum(deck.get(card, 0) for card in cards if card not in goal.wilds)
        if have < count:
            what = " or ".join(sorted(cards)) or "a card that is not in the game"
            short.append(f"{count} x {what} (the deck has {have})")
    wilds = sum(deck.get(card, 0) for card in goal.wilds)
    if not short:
        return "its slots compete for the same cards"
    return f"it needs {', '.join(short)}{f' and {wilds} wilds can stand in' if wilds else ''}"


def impossible_goals(declared: GoalsAndDeals, figures: dict) -> list[Problem]:
    """A goal that can never be completed (with every card left to draw) at some player count: located at the
    goal's card."""
    out = []
    for goal in declared.goals:
        never = [p for p, f in figures["by_players"].items() if f["goals"][goal.id]["ever"] == 0]
        if not never:
            continue
        first = figures["by_players"][never[0]]
        deals = [d for d in declared.deals if d.players == int(never[0])
                 and (d.goals is None or goal.id in d.goals)]
        need = sum(n for _, n in goal.slots)
        if not deals:
            why = "no deal at that count can hold it"
        elif not first["draws"] and first["hand"] < need:
            why = f"a hand of {first['hand']} with no draws holds fewer cards than its {need}"
        else:
            why = _short_text(goal, deals[0])
        out.append(Problem(goal.file, goal.line,
                           f"goal '{goal.id}' can never be completed at {', '.join(never)} players: {why}; "
                           "expected enough copies of what it needs in the deck (its chance is 0)"))
    return out


def percent(p: float | None) -> str:
    """A chance as a readable percentage ('-' for none; '1 in N' below 0.1 %)."""
    if p is None:
        return "-"
    if p == 0:
        return "0"
    if p < 0.001:
        return f"1 in {round(1 / p):,}"
    if p > 0.9995 and p < 1:
        return ">99.9%"
    return f"{100 * p:.1f}%"


def count_text(players: list[int]) -> str:
    """'2-5 players', '3 players', '2, 4 players'."""
    if len(players) > 2 and players == list(range(players[0], players[-1] + 1)):
        return f"{players[0]}-{players[-1]} players"
    return f"{', '.join(map(str, players))} players"


def _name(entry: dict, key: str) -> str:
    return f"{entry['name']} ({key})" if entry["name"] != key else key


def goal_table(figures: dict, group: list[int]) -> tuple[list[str], list[list[str]]]:
    """The head and rows of one group of player counts' goal table, where seats draw (hardest goal first)."""
    f = figures["by_players"][str(group[0])]
    shown = [n for n in f["within_draws"]
             if all(n in figures["by_players"][str(p)]["within_draws"] for p in group)]
    head = ["goal", "opening hand", *[f"{n} draw{'s' if n != 1 else ''}" for n in shown], "expected draws"]
    rows = []
    for gid, g in sorted(f["goals"].items(), key=lambda kv: (kv[1]["opening"], kv[0])):
        expected = "never" if g["expected_draws"] is None else f"{g['expected_draws']:.1f}"
        rows.append([_name(g, gid), percent(g["opening"]), *[percent(g["within"][str(n)]) for n in shown],
                     expected])
    return head, rows


def dealt_table(figures: dict, groups: list[list[int]]) -> tuple[list[str], list[list[str]]]:
    """Groups where nobody draws: one table, the chance of a hand dealt complete in a column per group."""
    firsts = [figures["by_players"][str(g[0])] for g in groups]
    head = ["goal", *[count_text(g) for g in groups]]
    ids = sorted(firsts[0]["goals"], key=lambda k: (firsts[0]["goals"][k]["opening"], k))
    return head, [[_name(firsts[0]["goals"][gid], gid),
                   *[percent(f["goals"][gid]["opening"]) for f in firsts]] for gid in ids]


def card_table(figures: dict) -> tuple[list[str], list[list[str]]]:
    """Per card, the chance to see it in the opening hand, a column per group of player counts (most often
    seen first)."""
    groups = figures["groups"]
    firsts = [figures["by_players"][str(g[0])]["cards"] for g in groups]
    head = ["card", *[count_text(g) for g in groups]]
    ids = sorted({cid for cards in firsts for cid in cards},
                 key=lambda k: (-max(c[k]["opening"] if k in c else 0 for c in firsts), k))
    names = {cid: c[cid] for c in firsts for cid in c}
    return head, [[_name(names[cid], cid), *[percent(c[cid]["opening"] if cid in c else 0) for c in firsts]]
                  for cid in ids]


def deal_text(figures: dict, group: list[int]) -> str:
    """What one group's deal is, in words."""
    f = figures["by_players"][str(group[0])]
    dealt = f"{f['deck']} cards" if f["deck"] is not None else f"one of {f['setups']} setups"
    pile = min(figures["by_players"][str(p)]["pile"] for p in group)
    drawn = f"then drawing from at least {pile} left" if f["draws"] else "no draws"
    return f"{count_text(group)}: a hand of {f['hand']} dealt from {dealt}, {drawn}"


def table_lines(head: list[str], rows: list[list[str]]) -> list[str]:
    """A plain text table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    out = []
    for r in [head, *rows]:
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        out.append("  ".join(cells).rstrip())
    return out


def odds_tables(figures: dict) -> list[dict]:
    """Every table of the figures as {title, head, rows}: per group of player counts where seats draw, its
    goals; one table of the hands dealt complete where nobody draws; the cards."""
    tables = []
    drawing = [g for g in figures["groups"] if figures["by_players"][str(g[0])]["draws"]]
    dealt = [g for g in figures["groups"] if g not in drawing]
    for group in drawing:
        head, rows = goal_table(figures, group)
        tables.append({"title": deal_text(figures, group), "head": head, "rows": rows})
    if dealt:
        head, rows = dealt_table(figures, dealt)
        firsts = [figures["by_players"][str(g[0])] for g in dealt]
        if len({f["hand"] for f in firsts}) == 1:
            setups = ", ".join(str(f["setups"]) for f in firsts)
            title = (f"{count_text([p for g in dealt for p in g])}: a hand of {firsts[0]['hand']} dealt from "
                     f"one of {setups} setups, no draws")
        else:
            title = "; ".join(deal_text(figures, group) for group in dealt)
        tables.append({"title": f"{title}; the chance of a hand dealt complete:", "head": head, "rows": rows})
    head, rows = card_table(figures)
    tables.append({"title": "The chance to see each card in the opening hand:", "head": head, "rows": rows})
    return tables


def odds_lines(figures: dict) -> list[str]:
    """`pnp odds`: every table of odds_tables as text."""
    lines: list[str] = []
    for table in odds_tables(figures):
        if lines:
            lines.append("")
        lines.append(table["title"])
        lines += ["  " + line for line in table_lines(table["head"], table["rows"])]
    return lines


def summary_lines(figures: dict) -> list[str]:
    """A line or two for the validate summary: the easiest and the hardest goal where seats draw, the range
    of a hand dealt complete where nobody draws."""
    lines, dealt = [], []
    for group in figures["groups"]:
        f = figures["by_players"][str(group[0])]
        if not f["goals"]:
            continue
        order = sorted(f["goals"].items(), key=lambda kv: (kv[1]["opening"], kv[0]))
        (hard, h), (easy, e) = order[0], order[-1]
        if not f["draws"]:
            span = percent(e["opening"]) if h["opening"] == e["opening"] else \
                f"{percent(h['opening'])} to {percent(e['opening'])}"
            dealt.append(f"{span} ({count_text(group)})")
            continue
        more = f", {h['expected_draws']:.1f} draws expected" if h["expected_draws"] is not None else ""
        lines.append(f"  deck odds ({count_text(group)}): the opening hand holds {easy} "
                     f"{percent(e['opening'])} ... {hard} {percent(h['opening'])}{more}")
    if dealt:
        lines.append(f"  deck odds: a hand dealt complete {', '.join(dealt)}")
    return lines


def to_json(figures: dict) -> str:
    """The figures as deterministic JSON (sorted keys)."""
    return json.dumps(figures, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def card_names(game) -> dict[str, str]:
    """Card id -> its printed name, over every deck of the game."""
    return {card.id: card.name for deck in game.decks.values() for card in deck.cards}


def game_odds(game, engine, options: dict | None = None, players: Iterable[int] = (),
              draws: Iterable[int] = DRAWS) -> tuple[dict | None, list[Problem]]:
    """(figures, goals that can never be completed) of a loaded game from its engine's declaration; (None, [])
    when the engine declares no goals and deals."""
    if engine is None or engine.deck_odds is None:
        return None, []
    try:
        declared = engine.deck_odds(game, dict(options or {}))
    except Exception as exc:  # noqa: BLE001 - the engine's own code (a refused option, a slip): one line
        raise InputError(Problem("", 0, f"{game.id}: engine {engine.name}: deck_odds raised "
                                        f"{type(exc).__name__}: {exc}; expected a GoalsAndDeals")) from None
    if not isinstance(declared, GoalsAndDeals):
        raise InputError(Problem("", 0, f"{game.id}: engine {engine.name}: deck_odds returned a "
                                        f"{type(declared).__name__}; expected a GoalsAndDeals"))
    figures = deck_odds(declared, players, draws, card_names(game))
    problems = impossible_goals(declared, figures)
    figures["problems"] = [str(p) for p in problems]
    return figures, problems
