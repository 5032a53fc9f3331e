"""A rules file as an engine: the `Engine` the validator plays, and the checks derived from the description.

Everything the Engine holds is small and picklable (the rules text and its file name): worker processes and
Dask workers receive it by pickle and compile the text once per process (kept by its digest), then bind it to
each loaded game's decks once per game.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from generator.core.caching import per_game
from generator.core.errors import InputError, Problem
from generator.core.yamlio import read_text
from generator.data.expand import expand_deck
from generator.engines.base import CHANCE, TERMINAL, Engine, Option, sample_chance
from generator.rules.builtins import BUILT_INS, track_paths
from generator.rules.expressions import RulesFailure, RulesLimit
from generator.rules.language import Program, read_program
from generator.rules.runtime import Card, RulesState

_INFINITE = float("inf")
SAMPLE_GAMES = 20  # random games the static checks play to see which cards can be played at all
LOCATED = (RulesFailure, RulesLimit)


class CardTable:
    """A game's cards as the rules play them: per deck, each physical card's id and fields, in print order."""

    def __init__(self, game):
        self.kinds: dict[str, list[tuple[str, dict]]] = {}
        for deck_id, deck in game.decks.items():
            kinds = []
            for card in expand_deck(deck):
                fields = {
                    **card.fields,
                    "id": card.id,
                    "name": card.name,
                    "copies": card.copies,
                    "deck": deck_id,
                }
                kinds.append((card.id, fields))
            self.kinds[deck_id] = kinds

        self.settings = dict(game.config.settings)
        self._boards = game.boards
        self._tracks: dict[str, dict[int, tuple[str, ...]]] = {}

    def track(self, board_id: str, players: int) -> tuple[str, ...]:
        """The spaces of a round tracker from the start space for `players` to its end (builtins.track)."""
        paths = self._tracks.get(board_id)
        if paths is None:
            board = self._boards.get(board_id)
            paths = self._tracks[board_id] = track_paths(board) if board is not None else {}
        return paths.get(players, ())

    def new_cards(self, deck: str) -> list[Card]:
        """Fresh physical cards of `deck` for one game (cards laid under them are their own per game)."""
        return [Card(card_id, deck, fields) for card_id, fields in self.kinds[deck]]


card_table = per_game(CardTable)


def deck_fields(game) -> dict[str, frozenset]:
    """Deck id -> every field its cards have (declared or written)."""
    found = {}
    for deck_id, deck in game.decks.items():
        names = set(deck.field_specs)
        for card in deck.cards:
            names |= set(card.fields)
        found[deck_id] = frozenset(names)
    return found


_programs: dict[tuple, Program] = {}


def compiled(text: str, file: str, game) -> Program:
    """The rules text compiled against the game's decks, once per process for the same text and decks."""
    fields = deck_fields(game)
    settings = dict(game.config.settings)
    key = (
        hashlib.sha256(text.encode()).hexdigest(),
        file,
        tuple(sorted(fields.items())),
        repr(sorted(settings.items())),
    )
    program = _programs.get(key)
    if program is None:
        program = _programs[key] = read_program(text, file, fields, settings, BUILT_INS)
    return program


@dataclass(frozen=True)
class NewState:
    """Engine.new_state of a rules file: picklable (the text and its name), compiled on first use in a
    process."""

    text: str
    file: str

    def __call__(self, game, players: int, options: dict | None = None) -> RulesState:
        program = compiled(self.text, self.file, game)
        if players not in counts_of(program, game):
            raise ValueError(
                f"{self.file} plays {', '.join(map(str, counts_of(program, game)))} players, not {players}"
            )
        return RulesState(program, card_table(game), players, dict(options or {}))


@dataclass(frozen=True)
class Bot:
    """A bot of the rules file by name: random, or greedy (the legal action with the highest `prefer`)."""

    name: str

    def __call__(self, state: RulesState, rng):
        kind, prefer = state.p.bots[self.name]
        actions = state.legal_actions()
        if kind == "random" or len(actions) == 1:
            return rng.choice(actions) if kind == "random" else actions[0]
        best, best_value, best_at = actions[0], None, len(actions)
        state.me = state.cur
        bounds = getattr(prefer, "bounds", None)
        order = range(len(actions))
        if bounds:  # the actions that may prefer most first; the others are passed over once they cannot win
            order = sorted(order, key=[-bounds.get(a.name, _INFINITE) for a in actions].__getitem__)
        head = None
        table = getattr(prefer, "table", None)  # a prefer per action: its own expression read at once
        for at in order:
            action = actions[at]
            if head is not None:
                most = bounds.get(action.name)
                if most is not None and most < head:
                    continue
            if table is None:
                value = prefer(state, {**action.values, "action": action})
            else:
                read = table.get(action.name)
                value = None if read is None else read(state, {**action.values, "action": action})
            if value is None:  # an action the bot's preferences do not name: only when nothing else is legal
                continue
            try:
                # the highest value; among equals the first legal action, whatever order they are asked in
                if best_value is None or value > best_value or (value == best_value and at < best_at):
                    best, best_value, best_at = action, value, at
                    head = value[0] if bounds and type(value) is list and value and \
                        type(value[0]) in (int, float) else None
            except TypeError:
                raise RulesFailure(
                    f"bot '{self.name}' prefers values that do not compare ({best_value!r} and "
                    f"{value!r}); expected numbers, or lists of numbers, for every action"
                ) from None
        return best


@dataclass(frozen=True)
class Goals:
    """Engine.goals: the cards of the rules' goal deck (what the balance report expects to see completed)."""

    text: str
    file: str

    def __call__(self, game) -> list[str]:
        deck = compiled(self.text, self.file, game).goal_deck
        return [card.id for card in game.decks[deck].cards] if deck else []


@dataclass(frozen=True)
class StaticChecks:
    """Engine.static_checks: the problems derived from the description (see `derived_problems`)."""

    text: str
    file: str

    def __call__(self, game) -> list:
        return derived_problems(game, compiled(self.text, self.file, game), self)


def counts_of(program: Program, game) -> tuple[int, ...]:
    """The player counts the rules play: their `players:`, else game.yaml's."""
    if program.players:
        return program.players
    return tuple(range(game.config.players.min, game.config.players.max + 1))


def engine_from_text(text: str, file: str, game) -> Engine:
    """The Engine of a rules text (InputError with its located problems when it does not read)."""
    program = compiled(text, file, game)
    declared = tuple(
        Option(name, _option_kind(default), help or "(a rule option of the rules file)", default=default)
        for name, (default, help) in program.options.items()
    )
    return Engine(
        name=f"rules:{file}", new_state=NewState(text, file), player_counts=counts_of(program, game),
        bots={name: Bot(name) for name in program.bots}, turn_cap=program.turn_cap,
        options=dict.fromkeys(program.options), rule_options=declared,
        goals=Goals(text, file) if program.goal_deck else None, static_checks=StaticChecks(text, file))


def _option_kind(default) -> str:
    """The kind of a rule option, from its default (any YAML value when it has none)."""
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, float):
        return "number"
    return "any"


def rules_path(game, written: str, file: str = "", line: int = 0) -> Path:
    """The rules file game.yaml names (inside the project; a located error otherwise)."""
    path = game.project.inside(written, game.dir, file=file, line=line, what="rules file")
    if not path.is_file():
        raise InputError(
            Problem(
                file,
                line,
                f"rules file '{written}' does not exist in {game.show(game.dir)}/; "
                "expected a YAML file of the rules language (`pnp docs rules-language`)",
            )
        )
    return path


def engine_for_rules(game, written: str, file: str = "", line: int = 0) -> Engine:
    """The engine of the rules file `written` (relative to the game folder)."""
    path = rules_path(game, written, file, line)
    shown = game.show(path)
    return engine_from_text(read_text(path, shown), shown, game)


# ----- what the description itself gets wrong
# -----------------------------------------------------------------------
def _located(exc: Exception) -> Problem:
    text = str(exc)
    head, _, rest = text.partition(": ")
    file, _, line = head.rpartition(":")
    if file and line.isdigit():
        return Problem(file, int(line), rest)
    return Problem("", 0, text)


def _sample(
    program: Program, game, players: int, seed: int, seen: set, problems: list, ended: Counter
) -> None:
    """Play one random game, noting every card that was ever a legal action's card."""
    rng = random.Random(seed)
    try:
        state = RulesState(program, card_table(game), players, {})
        for _ in range(program.turn_cap):
            player = state.current_player()
            if player == TERMINAL:
                ended[(state.ended_by, state.rounds)] += 1
                return
            if player == CHANCE:
                state.apply(sample_chance(state.chance_request(), rng))
                continue
            actions = state.legal_actions()
            for action in actions:
                for name in action.spec.played:
                    card = action.values.get(name)
                    if card is not None:
                        seen.add(card.id)
            state.apply(rng.choice(actions))
    except LOCATED as exc:
        problem = _located(exc)
        # one line per step at fault
        if all((p.file, p.line) != (problem.file, problem.line) for p in problems):
            problems.append(problem)


def _uncompletable(game, program: Program) -> list[Problem]:
    """Goals (`goals: {deck, needs, wild}`) that need more copies of a card than the decks hold, wilds
    counted."""
    if program.goal_deck is None or program.goal_needs is None:
        return []
    state = RulesState(program, card_table(game), counts_of(program, game)[0], {})
    copies: Counter = Counter()
    wilds = 0
    for deck_id in program.decks:
        for card_id, fields in card_table(game).kinds[deck_id]:
            card = Card(card_id, deck_id, fields)
            if program.goal_wild is not None and program.goal_wild(state, {"card": card}):
                wilds += 1
            else:
                copies[card_id] += 1
    found = []
    for goal in game.decks[program.goal_deck].cards:
        needs = Counter(str(getattr(n, "id", n)) for n in program.goal_needs(state, {"card": goal}) or ())
        short = {card: count - copies[card] for card, count in needs.items() if count > copies[card]}
        if sum(short.values()) > wilds:
            missing = ", ".join(f"{count} {card} (the decks hold {copies[card]})" for card, count in
                                ((c, needs[c]) for c in short))
            found.append(
                Problem(
                    goal.file,
                    goal.line,
                    f"goal '{goal.id}' needs {missing} and only {wilds} wild "
                    f"card{'s' if wilds != 1 else ''} can stand in: it can never "
                    f"be completed ({program.file}:{program.goal_line})",
                )
            )
    return found


def derived_problems(game, program: Program, _checks=None) -> list:
    """(check name, problems): the setup fits the decks at every player count, every card of a deck the
    actions play can be played, a pile that ends the game when empty lasts a round; from random sample
    games."""
    problems: list[Problem] = []
    seen: set[str] = set()
    ended: Counter = Counter()
    counts = counts_of(program, game)
    for index in range(SAMPLE_GAMES):
        _sample(program, game, counts[index % len(counts)], 1000 + index, seen, problems, ended)
    unplayable = []
    # the decks whose cards actions take as parameters (every deck the zones start with, when any action does)
    played_decks = set(program.decks) if any(action.played for action in program.actions.values()) else set()
    if seen:
        for deck_id in sorted(played_decks):
            deck = game.decks[deck_id]
            for card in deck.cards:
                if card.id not in seen:
                    unplayable.append(
                        Problem(
                            card.file,
                            card.line,
                            f"card '{card.id}' is never playable: no action "
                            f"of {program.file} offered it in {SAMPLE_GAMES} "
                            "random games; expected an action that can play "
                            "it (or a rule that lets it be played)",
                        )
                    )
    early = []
    for zone in program.zones.values():
        if zone.when_empty != "end":
            continue
        short = sum(n for (why, rounds), n in ended.items() if why == f"{zone.name}-empty" and rounds == 0)
        if short:
            early.append(
                Problem(
                    program.file,
                    zone.line,
                    f"zone '{zone.name}' runs out before the first round is "
                    f"over in {short} of {SAMPLE_GAMES} random games, and its "
                    "`when_empty: end` then ends the game; expected a pile "
                    "that lasts (more cards, a smaller deal, or a reshuffle)",
                )
            )
    return [("the rules file plays: setup and every step carry out", problems),
            ("every goal can be completed with the copies that exist", _uncompletable(game, program)),
            ("every card of a deck the actions play can be played", unplayable),
            ("a pile whose emptiness ends the game lasts a round", early)]
