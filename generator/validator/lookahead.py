"""The lookahead bot: a stronger player for engines whose states can be copied and re-dealt.

At each decision with a choice, the bot imagines `budget` futures: a copy of the state in which every card
the deciding seat cannot see is dealt anew (`State.clone()` then `State.redeal(seat, rng)`, the two optional
methods of the engine API: determinization), and in each of those worlds it plays a few candidate actions and
then the rest of the game with the engine's greedy bot in every seat. It takes the action that won most of
its futures (a shared win counts 1/k; the score margin breaks ties; equal actions go to the greedy bot's
choice). The candidates, about the square root of the budget so that each gets several futures, are the
greedy bot's choice and the actions that leave the best score margin at once. Every action of one world meets
the same chance draws (the generator is rewound between them), so the actions are compared on equal luck.

Its name in `--bots` is `lookahead` or `lookahead:BUDGET` (futures per decision, 1 to MAX_BUDGET).
Randomness comes only from the generator the harness hands every bot, so a seed replays exactly, whatever the
number of workers.
"""

from __future__ import annotations

import math

from generator.engines.base import (
    CHANCE,
    LOOKAHEAD_METHODS,
    TERMINAL,
    Engine,
    State,
    missing_lookahead_methods,
    sample_chance,
)

LOOKAHEAD = "lookahead"
DEFAULT_BUDGET = 16  # futures per decision (docs/balancing.md: what it buys, what it costs)
MAX_BUDGET = 100_000  # beyond this a game takes days: a typing slip, refused
ROLLOUT_BOT = "greedy"  # the engine's bot that plays every seat of an imagined future
MARGIN_WEIGHT = 0.01  # how much the score margin counts beside a win (it only breaks ties)


class BotNameError(ValueError):
    """A bot name that is not a bot of the engine, or a lookahead budget out of range; the message says
    which."""


def lookahead_budget(name: str, where: str = "--bots") -> int | None:
    """The budget of a lookahead bot name (`lookahead`, `lookahead:200`), None for another name;
    BotNameError for a budget that is not a whole number from 1 to MAX_BUDGET (`where` names the option)."""
    kind, colon, budget = name.partition(":")
    if kind != LOOKAHEAD:
        return None
    if not colon:
        return DEFAULT_BUDGET
    return checked_budget(budget, f"{where} {name}")


def checked_budget(text, where: str) -> int:
    """A lookahead budget read from `text`; BotNameError naming `where` when it is not 1..MAX_BUDGET."""
    try:
        budget = int(str(text).strip())
    except ValueError:
        budget = None
    if budget is None or not 1 <= budget <= MAX_BUDGET:
        given = repr(str(text).strip()) if str(text).strip() else "nothing"
        raise BotNameError(f"{where}: a lookahead budget is the futures imagined per decision, a whole "
                           f"number from 1 to {MAX_BUDGET}, not {given}")
    return budget


def lookahead_name(budget: int) -> str:
    """The bot name of a lookahead bot with this budget."""
    return f"{LOOKAHEAD}:{budget}"


def known_bot(engine: Engine, name: str) -> bool:
    """Whether `name` is one of the engine's bots or a well-formed lookahead bot (BotNameError for a bad
    budget)."""
    return name in engine.bots or lookahead_budget(name) is not None


def missing_methods_line(engine: Engine, state: State) -> str | None:
    """The line that says why this engine cannot have a lookahead bot, or None when it can."""
    missing = missing_lookahead_methods(state)
    if ROLLOUT_BOT not in engine.bots:
        return f"engine {engine.name} has no '{ROLLOUT_BOT}' bot, which plays a lookahead bot's futures"
    if not missing:
        return None
    return (f"engine {engine.name} cannot have a lookahead bot: its State lacks {' and '.join(missing)}; "
            f"expected both optional methods {LOOKAHEAD_METHODS[0]}() and {LOOKAHEAD_METHODS[1]}(seat, rng) "
            "(docs/engine-api.md)")


def bots_problem(engine: Engine, names, new_state, where: str = "--bots") -> str | None:
    """What is wrong with these bot names for this engine (an unknown name, a bad lookahead budget, a
    lookahead bot for an engine without the two methods), or None. `new_state()` makes a state to look at,
    only when a lookahead bot is named."""
    lookahead = False
    for name in names:
        try:
            if name not in engine.bots:
                if lookahead_budget(name, where) is None:
                    known = ", ".join([*sorted(engine.bots), f"{LOOKAHEAD}[:BUDGET]"])
                    return f"{where}: unknown bot '{name}'; known: {known}"
                lookahead = True
        except BotNameError as exc:
            return str(exc)
    if lookahead:
        try:
            state = new_state()
        except Exception:  # noqa: BLE001 - a game that cannot set up says so when it is played
            return None
        missing = missing_methods_line(engine, state)
        return f"{where}: {missing}" if missing else None
    return None


def policy(engine: Engine, name: str):
    """The bot (state, rng) -> action of this name: one of the engine's own, or a lookahead bot."""
    bot = engine.bots.get(name)
    if bot is not None:
        return bot
    budget = lookahead_budget(name)
    if budget is None:
        raise BotNameError(f"unknown bot '{name}'")
    return LookaheadBot(engine, budget)


class LookaheadBot:
    """Determinized rollouts: `budget` imagined futures per decision, played out by the greedy bot."""

    def __init__(self, engine: Engine, budget: int):
        self.engine, self.budget = engine, budget
        self.greedy = engine.bots[ROLLOUT_BOT]
        self.cap = engine.turn_cap  # decisions of one future before it is scored as it stands

    def __call__(self, state: State, rng):
        actions = list(state.legal_actions())
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player()
        actions = self._candidates(state, seat, actions, rng)
        if len(actions) == 1:
            return actions[0]
        worlds = max(1, self.budget // len(actions))
        totals = [0.0] * len(actions)
        for _ in range(worlds):
            world = state.clone()
            world.redeal(seat, rng)
            luck = rng.getstate()
            for index, action in enumerate(actions):
                rng.setstate(luck)  # every action of this world meets the same draws
                future = world.clone() if index < len(actions) - 1 else world
                future.apply(action)
                totals[index] += self._play_out(future, seat, rng)
        best = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return actions[best]

    def _candidates(self, state: State, seat: int, actions: list, rng) -> list:
        """The actions worth imagining futures for, the greedy bot's choice first (it wins the ties): at most
        about the square root of the budget, so that each gets several futures (one future each ranks actions
        by the luck of one deal); the others that leave the best score margin at once."""
        favourite = self.greedy(state, rng)
        rest = [action for action in actions if action != favourite]
        room = max(1, math.isqrt(self.budget)) - (favourite in actions)
        if len(rest) > room:
            at_once = []
            for action in rest:
                after = state.clone()
                after.apply(action)
                at_once.append(worth(after, seat))
            ranked = sorted(range(len(rest)), key=lambda i: -at_once[i])  # stable: legal order among equals
            rest = [rest[i] for i in sorted(ranked[:room])]
        return ([favourite] if favourite in actions else []) + rest

    def _play_out(self, future: State, seat: int, rng) -> float:
        """Play the future to its end with the greedy bot in every seat; its worth to `seat`."""
        greedy, current_player, apply = self.greedy, future.current_player, future.apply
        decisions = 0
        while True:
            player = current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                apply(sample_chance(future.chance_request(), rng))
                continue
            decisions += 1
            if decisions > self.cap:
                break
            apply(greedy(future, rng))
        return worth(future, seat)


def worth(state: State, seat: int) -> float:
    """A finished (or cut-off) future's worth to `seat`: its share of the win, and a little for its score
    margin over the best other seat."""
    scores = list(state.scores())
    won = 0.0
    if state.is_terminal():
        winners = state.winners()
        won = 1 / len(winners) if seat in winners else 0.0
    others = [score for other, score in enumerate(scores) if other != seat]
    if not others:
        return won
    mine, best = scores[seat], max(others)
    return won + MARGIN_WEIGHT * (mine - best) / (1 + abs(mine) + abs(best))
