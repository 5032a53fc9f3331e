"""Playtests as data: cards/<game>/playtests/*.yaml, one file per game played by people, checked and compared
with the simulated games.

A playtest file says when the game was played (`date`), which build or data version (`version`), who sat
where in turn order with their final score (`seats`), who won (`winner`: seat numbers, 1 = the first to play),
how long it lasted (`length`: `rounds` and/or `turns`) and what the players said about single cards (`notes`:
card id -> text). Every slip is one located problem; the comparison says where real plays fall outside what
the simulation found: game length, winning margin and the share of wins by turn position, each against the
all-greedy games (simulated players of equal strength, as the people at a table roughly are).
"""

from __future__ import annotations

import datetime
import difflib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.core.yamlio import YDict, YList, load_yaml
from generator.data.game import Game
from generator.validator.score_tracks import margin, wilson

FOLDER = "playtests"
REQUIRED = {
    "date": "the day it was played (YYYY-MM-DD)",
    "version": "the build or data version played (a commit, a tag, a print date)",
    "seats": "the players in turn order, each {player: NAME, score: NUMBER}",
    "winner": "the seat number of the winner (1 = the first to play), or a list of them for a shared win",
    "length": "how long the game lasted: {rounds: N} and/or {turns: N}",
}
OPTIONAL = {"notes": "card id -> what the players said about that card", "remarks": "anything else"}
SEAT_KEYS = {"player": "the player's name", "score": "the final score (a number)",
             "role": "what sets the seat apart, e.g. a restaurant colour"}
LENGTH_KEYS = ("rounds", "turns")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Playtest:
    """One real game, as its file records it (seats in turn order, winners as 0-based seats)."""

    file: str
    date: str
    version: str
    players: tuple[str, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    rounds: int | None = None
    turns: int | None = None
    roles: tuple[str | None, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)
    card_names: dict[str, str] = field(default_factory=dict)  # the name of each card the notes are about

    @property
    def seats(self) -> int:
        return len(self.players)


def playtest_files(game: Game) -> list[Path]:
    """The game's playtest files, in name order (none when it has no playtests/ folder)."""
    folder = game.dir / FOLDER
    if not folder.is_dir():
        return []
    return sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")])


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class _Reader:
    """Checks one file's mapping, collecting located problems."""

    def __init__(self, game: Game, shown: str, data: YDict):
        self.game, self.shown, self.data = game, shown, data
        self.problems: list[Problem] = []
        self.card_ids = {card.id: card.name for deck in game.decks.values() for card in deck.cards}

    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.shown, line, message))

    def read(self) -> Playtest | None:
        data = self.data
        for key in data:
            if key not in REQUIRED and key not in OPTIONAL:
                close = difflib.get_close_matches(str(key), [*REQUIRED, *OPTIONAL], n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                self.problem(data.line_of(key), f"unknown key '{key}'{hint}; expected "
                             f"{', '.join([*REQUIRED, *OPTIONAL])}")
        for key, what in REQUIRED.items():
            if key not in data:
                self.problem(data.line, f"missing field '{key}': expected {what}")
        date = self._date()
        version = data.get("version")
        if "version" in data and (version is None or isinstance(version, (dict, list)) or str(version) == ""):
            self.problem(data.line_of("version"), f"version is {version!r}; expected {REQUIRED['version']}")
        players, scores, roles = self._seats()
        winners = self._winners(len(players)) if players is not None else None
        rounds, turns = self._length()
        notes = self._notes()
        if self.problems or players is None or winners is None:
            return None
        return Playtest(self.shown, date, str(version), players, scores, winners, rounds, turns, roles, notes,
                        {card: self.card_ids[card] for card in notes})

    def _date(self) -> str:
        value = self.data.get("date")
        if isinstance(value, datetime.date):
            return value.isoformat()
        if "date" in self.data and not (isinstance(value, str) and DATE.match(value)):
            self.problem(self.data.line_of("date"), f"date is {value!r}; expected {REQUIRED['date']}")
        return str(value)

    def _seats(self):
        seats = self.data.get("seats")
        if "seats" not in self.data:
            return None, (), ()
        line = self.data.line_of("seats")
        if not isinstance(seats, YList) or not seats:
            self.problem(line, f"seats is {seats!r}; expected a list of {REQUIRED['seats']}")
            return None, (), ()
        low, high = self.game.config.players.min, self.game.config.players.max
        if not low <= len(seats) <= high:
            self.problem(line, f"{len(seats)} seats, but {self.game.title} is played by {low} to {high} "
                         f"players; expected {low} to {high} seats")
        players, scores, roles = [], [], []
        for index, seat in enumerate(seats):
            at = seats.line_of(index)
            if not isinstance(seat, YDict):
                self.problem(at, f"seat {index + 1} is {seat!r}; expected {{player: NAME, score: NUMBER}}")
                continue
            for key in seat:
                if key not in SEAT_KEYS:
                    self.problem(seat.line_of(key), f"seat {index + 1}: unknown key '{key}'; expected "
                                 f"{', '.join(SEAT_KEYS)}")
            player, score, role = seat.get("player"), seat.get("score"), seat.get("role")
            if not isinstance(player, str) or not player.strip():
                self.problem(seat.line_of("player"), f"seat {index + 1}: player is {player!r}; expected "
                             f"{SEAT_KEYS['player']}")
            if not _number(score):
                self.problem(seat.line_of("score"), f"seat {index + 1}: score is {score!r}, not a number; "
                             f"expected {SEAT_KEYS['score']}")
            if role is not None and not isinstance(role, str):
                self.problem(seat.line_of("role"), f"seat {index + 1}: role is {role!r}; expected a name")
            players.append(str(player))
            scores.append(score if _number(score) else 0)
            roles.append(role)
        return tuple(players), tuple(scores), tuple(roles)

    def _winners(self, seats: int) -> tuple[int, ...] | None:
        if "winner" not in self.data:
            return None
        value = self.data["winner"]
        line = self.data.line_of("winner")
        listed = list(value) if isinstance(value, list) else [value]
        if not listed or not all(isinstance(v, int) and not isinstance(v, bool) for v in listed):
            self.problem(line, f"winner is {value!r}; expected {REQUIRED['winner']}")
            return None
        wrong = [v for v in listed if not 1 <= v <= seats]
        for v in wrong:
            self.problem(line, f"winner {v}: there is no seat {v}; expected a seat number from 1 to {seats}")
        if len(set(listed)) != len(listed):
            self.problem(line, f"winner {value!r} names a seat twice; expected each winner once")
        return None if wrong else tuple(sorted(v - 1 for v in listed))

    def _length(self) -> tuple[int | None, int | None]:
        value = self.data.get("length")
        if "length" not in self.data:
            return None, None
        line = self.data.line_of("length")
        if not isinstance(value, YDict) or not any(k in value for k in LENGTH_KEYS):
            self.problem(line, f"length is {value!r}; expected {REQUIRED['length']}")
            return None, None
        for key in value:
            if key not in LENGTH_KEYS:
                self.problem(value.line_of(key), f"length: unknown key '{key}'; expected rounds or turns")
        found = []
        for key in LENGTH_KEYS:
            n = value.get(key)
            if key in value and not _count(n):
                self.problem(value.line_of(key), f"length: {key} is {n!r}; expected a whole number above 0")
                n = None
            found.append(n)
        return found[0], found[1]

    def _notes(self) -> dict[str, str]:
        notes = self.data.get("notes")
        if notes is None:
            return {}
        if not isinstance(notes, YDict):
            self.problem(self.data.line_of("notes"), f"notes is {notes!r}; expected {OPTIONAL['notes']}")
            return {}
        out = {}
        for card, text in notes.items():
            if str(card) not in self.card_ids:
                close = difflib.get_close_matches(str(card), list(self.card_ids), n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                decks = ", ".join(self.game.decks)
                self.problem(notes.line_of(card), f"notes: unknown card id '{card}'{hint}; expected the id "
                             f"of a card of {decks}")
            elif not isinstance(text, str):
                self.problem(notes.line_of(card), f"notes: the note on '{card}' is {text!r}; expected a text")
            else:
                out[str(card)] = text
        return out


def load_playtests(game: Game) -> tuple[list[Playtest], list[Problem]]:
    """Every playtest of the game that checks, and a located problem for each slip of the others."""
    plays, problems = [], []
    for path in playtest_files(game):
        shown = game.show(path)
        try:
            data = load_yaml(path, shown)
        except InputError as exc:
            problems += exc.problems
            continue
        reader = _Reader(game, shown, data)
        play = reader.read()
        problems += reader.problems
        if play is not None:
            plays.append(play)
    return plays, problems


def _r(x: float) -> float:
    return round(float(x), 4)


def _quantile(histogram: list[list], q: float) -> float | None:
    """The q-quantile (nearest rank) of a value -> count histogram."""
    total = sum(n for _, n in histogram)
    if not total:
        return None
    rank, seen = max(1, math.ceil(q * total)), 0
    for value, n in histogram:
        seen += n
        if seen >= rank:
            return value
    return histogram[-1][0]


def _band(values: list[float], mean: float | None, low: float | None, high: float | None) -> dict:
    """Real values against a simulated mean and 10-90% range: how far the real mean is off, plays outside."""
    real = sum(values) / len(values)
    out = {"plays": len(values), "real_mean": _r(real), "simulated_mean": mean, "simulated_p10": low,
           "simulated_p90": high, "below": sum(1 for v in values if low is not None and v < low),
           "above": sum(1 for v in values if high is not None and v > high)}
    out["relative"] = _r(real / mean - 1) if mean else None
    out["outside"] = low is not None and high is not None and not low <= real <= high
    return out


def _length(plays: list[Playtest], f: dict) -> dict | None:
    for unit in ("rounds", "turns"):
        sim = f.get("greedy_mirror_length", {}).get(unit) or {}
        values = [getattr(p, unit) for p in plays]
        if sim.get("n") and all(v is not None for v in values):
            return {"unit": unit, **_band(values, sim["mean"], sim["p10"], sim["p90"])}
    return None


def _margin(plays: list[Playtest], f: dict) -> dict | None:
    sim = (f.get("scores") or {}).get("margin")
    if not sim or not sim.get("n"):
        return None
    values = [margin(list(p.scores), list(p.winners)) for p in plays]
    hist = sim["histogram"]
    return _band(values, sim["mean"], _quantile(hist, 0.1), _quantile(hist, 0.9))


def _positions(plays: list[Playtest], f: dict, players: int) -> list[dict]:
    credit = [0.0] * players
    for p in plays:
        for seat in p.winners:
            credit[seat] += 1 / len(p.winners)
    rows = []
    for position, sim in enumerate(f.get("position_wins_greedy_mirror") or []):
        low, high = wilson(credit[position], len(plays))
        rows.append({"position": position + 1, "real_wins": _r(credit[position]), "plays": len(plays),
                     "real_low": _r(low), "real_high": _r(high), "simulated": sim["rate"],
                     "outside": not low <= sim["rate"] <= high})
    return rows


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _findings(players: str, c: dict) -> list[str]:
    """The sentences for what falls outside the simulation at one player count."""
    lines = []
    length = c.get("length")
    if length and length["outside"] and length["relative"] is not None:
        how = "shorter" if length["relative"] < 0 else "longer"
        lines.append(
            f"real games are {abs(100 * length['relative']):.0f}% {how} than simulated at {players} players: "
            f"{length['real_mean']:.1f} {length['unit']} on average in {length['plays']} "
            f"play{'s' if length['plays'] != 1 else ''} against {length['simulated_mean']:.1f} "
            f"(simulated 10-90%: {length['simulated_p10']:g}-{length['simulated_p90']:g})")
    close = c.get("margin")
    if close and close["outside"]:
        how = "closer" if close["real_mean"] < close["simulated_p10"] else "more lopsided"
        lines.append(
            f"real games are {how} than simulated at {players} players: winning margin "
            f"{close['real_mean']:.1f} on average against {close['simulated_mean']:.1f} "
            f"(simulated 10-90%: {close['simulated_p10']:g}-{close['simulated_p90']:g})")
    for row in c.get("positions", []):
        if row["outside"]:
            lines.append(
                f"the {_ordinal(row['position'])} to play won {row['real_wins']:g} of {row['plays']} real "
                f"games at {players} players ({100 * row['real_low']:.0f}-{100 * row['real_high']:.0f}%), "
                f"against {100 * row['simulated']:.0f}% of the simulated games")
    return lines


def compare(plays: list[Playtest], figures: dict) -> dict:
    """The playtests beside the simulated figures of the same player count (JSON-ready): per count the real
    and simulated length, winning margin and wins by turn position, and a sentence for each that falls
    outside the simulation (length and margin: the real mean outside the simulated 10-90% range; wins by turn
    position: the simulated share outside the real 95% interval)."""
    out = {"plays": len(plays), "files": [p.file for p in plays], "by_players": {}, "findings": []}
    by_count: dict[int, list[Playtest]] = {}
    for play in plays:
        by_count.setdefault(play.seats, []).append(play)
    for players, group in sorted(by_count.items()):
        f = figures["by_players"].get(str(players))
        entry: dict = {"plays": len(group)}
        if f is None:
            entry["simulated"] = False
            out["findings"].append(f"{len(group)} real game{'s' if len(group) != 1 else ''} at {players} "
                                   f"players, which were not simulated")
        else:
            entry |= {"simulated": True, "length": _length(group, f), "margin": _margin(group, f),
                      "positions": _positions(group, f, players)}
            out["findings"] += _findings(str(players), entry)
        out["by_players"][str(players)] = entry
    names = {card: name for p in plays for card, name in p.card_names.items()}
    out["notes"] = {card: {"name": names.get(card, card),
                           "said": [f"{p.date}: {p.notes[card]}" for p in plays if card in p.notes]}
                    for card in sorted({c for p in plays for c in p.notes})}
    out["games"] = [{"file": p.file, "date": p.date, "version": p.version, "players": list(p.players),
                     "roles": list(p.roles), "scores": list(p.scores), "winners": [w + 1 for w in p.winners],
                     "rounds": p.rounds, "turns": p.turns} for p in plays]
    return out
