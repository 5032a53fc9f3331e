"""The simulation harness: plays one seeded game with bots and checks the rules after every action.

The harness alone owns `random.Random(seed)`: it answers every ChanceRequest with `sample_chance` and hands
the same generator to the bots for their tie-breaks, so a (seed, players, bots, options) tuple replays
exactly.

It also keeps each game's score track: every seat's score (`state.scores()`) at the end of every turn. A turn
is a run of decisions by one seat; it ends when another seat decides next (chance events do not end it) or the
game ends. Scores are read once per turn, not per action (cheap: a fraction of a microsecond to a few per read
on the bundled engines), and the track keeps only the turns after which some score changed.
"""

from __future__ import annotations

import random
import traceback
from dataclasses import dataclass, field
from typing import Any

from generator.engines.base import CHANCE, TERMINAL, Engine, IllegalAction, State, sample_chance
from generator.validator.lookahead import LOOKAHEAD, known_bot, missing_methods_line, policy

# Failure kinds, in the order the validator reports them.
SETUP, STALLED, ILLEGAL, CONSERVATION, INVARIANT, CRASH = (
    "setup",
    "stalled",
    "illegal",
    "conservation",
    "invariant",
    "crash",
)
# a game may roll dice or shuffle this often per decision before it counts as stuck
CHANCE_STEPS_PER_DECISION = 20


@dataclass
class GameRecord:
    """Everything one simulated game produced: its identity, its log, the result and any failure."""

    seed: int
    players: int
    bots: list[str]
    log: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None
    failure_kind: str | None = None
    decisions: int = 0
    # (turns completed, every seat's score) at the start, after each turn that changed a score, and at the end
    score_track: list[tuple[int, tuple]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failure is None


def replay_command(game_id: str, seed: int, players: int, bots: list[str], changes: str = "") -> str:
    """The `pnp replay` command line that prints the log of this game (`changes`: its --option/--set
    arguments)."""
    return f"pnp replay {game_id} --seed {seed} --players {players} --bots {','.join(bots)}" + (
        f" {changes}" if changes else ""
    )


def short(values, limit: int = 12) -> str:
    """A chance outcome for the log, cut after `limit` items."""
    items = [str(v) for v in values]
    return " ".join(items[:limit]) + (f" ... ({len(items)} in all)" if len(items) > limit else "")


def count_change(before: dict[str, int], after: dict[str, int]) -> str:
    """Which decks gained or lost cards: 'toppings 40 -> 39'."""
    keys = sorted(set(before) | set(after))
    return ", ".join(
        f"{k} {before.get(k, 0)} -> {after.get(k, 0)}" for k in keys if before.get(k, 0) != after.get(k, 0)
    )


def check_state(state: State, start_counts: dict[str, int], after) -> tuple[str, str] | None:
    """(kind, message) when card conservation or another invariant is broken after `after` (a step as
    `describe_step` takes it, formatted only for a failure), else None."""
    counts = state.card_count()
    if counts != start_counts:
        return (
            CONSERVATION,
            f"card conservation broken after {describe_step(after)}: {count_change(start_counts, counts)}",
        )
    problems = state.invariant_problems()
    if problems:
        return (
            INVARIANT,
            f"invariant broken after {describe_step(after)}: {'; '.join(str(p) for p in problems)}",
        )
    return None


def _crash(exc: BaseException, during: str) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" ({frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})" if frame else ""
    return f"the engine raised {type(exc).__name__}: {exc}{where} during {during}"


def describe_step(step) -> str:
    """The step a failure happened after, as messages name it: 'setup', "chance event 'roll'" or
    "'take 3' by seat 1 (decision 7)". The loop keeps the step as a tuple and formats it only for a
    failure."""
    if isinstance(step, str):
        return step
    if len(step) == 1:
        return f"chance event '{step[0]}'"
    action, player, decision = step
    return f"'{action}' by seat {player} (decision {decision})"


def play_game(engine: Engine, game, players: int, seed: int, bots: list[str],
              options: dict[str, Any] | None = None, *, log: bool = True) -> GameRecord:
    """Play one game from `seed` with one bot name per seat; never raises for a rules failure."""
    record = GameRecord(seed=seed, players=players, bots=list(bots))
    rng = random.Random(seed)
    opts = {**engine.options, **(options or {})}
    if log:
        record.log.append(f"# seed {seed}, {players} players, bots {','.join(bots)}")
    play = _Play(record, log)
    unknown = [b for b in bots if not known_bot(engine, b)]
    if len(bots) != players or unknown:
        raise ValueError(f"need {players} bot names from {sorted(engine.bots)} (or {LOOKAHEAD}), got {bots}")
    try:
        # cards' `players:` ranges (an engine played without game data, as in tests of the harness, gets None)
        state = engine.new_state(game.for_players(players) if game is not None else None, players, opts)
        start_counts = state.card_count()
    except Exception as exc:  # noqa: BLE001 - a setup failure is a finding, not a crash of the validator
        return play.fail(0, SETUP, f"setup failed with {players} players: {type(exc).__name__}: {exc}")
    if any(b not in engine.bots for b in bots):  # a lookahead bot: the callers check this first
        missing = missing_methods_line(engine, state)
        if missing:
            raise ValueError(missing)
    failed = _play_out(play, engine, state, rng, start_counts)
    if failed is not None:
        return failed
    if log:
        record.log.append(f"# end: scores {record.scores}, winners {record.winners}")
    return record


class _Play:
    """One game being played: its record and, unless `log` is False, its log, with the engine's own log lines
    copied in as they come."""

    def __init__(self, record: GameRecord, log: bool):
        self.record, self.log = record, log
        self.seen = 0  # how much of state.log is already copied

    def fail(self, decision: int, kind: str, message: str) -> GameRecord:
        """The record of a game that failed at `decision`."""
        record = self.record
        record.failure_kind, record.failure = kind, message
        record.decisions = decision
        if self.log:
            record.log.append(f"# FAILED ({kind}): {message}")
        return record

    def copy_log(self, state) -> None:
        """Copy the engine's new log lines into the record's log."""
        if self.log and len(state.log) > self.seen:
            self.record.log.extend(state.log[self.seen:])
            self.seen = len(state.log)


def _turn_over(track: list, scores, turns: int, last_actor: int | None) -> int:
    """Another seat acts: the turn of `last_actor` is over (none before the first); its scores join the track
    when they changed. Returns the turns played."""
    if last_actor is None:
        return turns
    now = tuple(scores())
    if now != track[-1][1]:
        track.append((turns + 1, now))
    return turns + 1


def _play_out(play: _Play, engine: Engine, state, rng: random.Random, start_counts) -> GameRecord | None:
    """Play the set-up game to its end, filling in the record: None, or the record of the failure."""
    record, log, fail, copy_log = play.record, play.log, play.fail, play.copy_log
    events, seed, players, bots = record.log, record.seed, record.players, record.bots
    decision = 0
    # this loop runs once per action and chance event of every simulated game: bound methods in locals, and
    # the step a failure message names kept as a tuple, formatted only when something fails
    policies = [policy(engine, b) for b in bots]
    current_player, chance_request, legal_actions, apply = (state.current_player, state.chance_request,
                                                            state.legal_actions, state.apply)
    card_count, invariant_problems = state.card_count, state.invariant_problems
    chance_steps = 0
    turn_cap = engine.turn_cap
    chance_cap = turn_cap * CHANCE_STEPS_PER_DECISION
    step: str | tuple = "setup"
    scores, track = state.scores, record.score_track
    turns, last_actor = 0, None
    try:
        track.append((0, tuple(scores())))
        while True:
            if log:
                copy_log(state)
            player = current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                chance_steps += 1
                if chance_steps > chance_cap:
                    return fail(
                        decision,
                        STALLED,
                        f"the game did not end: {chance_cap} chance events without finishing "
                        f"(seed {seed}, {players} players)",
                    )
                request = chance_request()
                outcome = sample_chance(request, rng)
                if log:
                    events.append(f"# chance {outcome.label}: {short(outcome.values)}")
                step = (request.label,)
                apply(outcome)
            else:
                if decision >= turn_cap:
                    return fail(decision, STALLED, f"the game did not end within the turn cap of {turn_cap} "
                                                   f"decisions (seed {seed}, {players} players)")
                decision += 1
                if player != last_actor:  # once a turn, not once a decision
                    turns = _turn_over(track, scores, turns, last_actor)
                    last_actor = player
                action = policies[player](state, rng)
                step = (action, player, decision)
                if log:
                    events.append(f"# seat {player} ({bots[player]}): {action}")
                if action not in legal_actions():
                    return fail(decision, ILLEGAL, f"bot '{bots[player]}' chose {describe_step(step)}, "
                                                   "which is not in legal_actions()")
                try:
                    apply(action)
                except IllegalAction as exc:
                    return fail(decision, ILLEGAL,
                                f"{describe_step(step)} is in legal_actions() but apply() rejected it: {exc}")
            # check_state(), inline: an engine may hand back the same counts while no card moved
            counts = card_count()
            if (counts is not start_counts and counts != start_counts) or invariant_problems():
                # the message, worked out once something is wrong
                broken = check_state(state, start_counts, step)
                if broken:
                    copy_log(state)
                    return fail(decision, *broken)
        record.decisions = decision
        record.scores = list(state.scores())
        track.append((turns + (last_actor is not None), tuple(record.scores)))
        record.winners = list(state.winners())
        record.metrics = state.metrics() or {}
    except Exception as exc:  # noqa: BLE001 - report the engine bug with its seed instead of dying
        copy_log(state)
        return fail(decision, CRASH, _crash(exc, describe_step(step)))
    return None
