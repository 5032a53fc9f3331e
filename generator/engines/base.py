"""The engine API every game's rules module implements (in the spirit of OpenSpiel's game modules).

A game's rules module (beside its cards, or an installed package) exposes `ENGINE: Engine` (described
below); game.yaml names it with `engine:` and `generator.engines.registry` finds it.
`Engine.static_checks(game)` returns named composition checks that need no simulation: a list of (check name,
problems found; [] = passed).

A game is a `State` with `legal_actions()` and `apply(action)`. Chance is explicit: when
`current_player() == CHANCE` the state asks for a `ChanceRequest` and the harness (which alone owns
`random.Random(seed)`) or a script supplies the outcome with `apply(ChanceOutcome(...))`. Engines never
create their own random generators.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsIndex

CHANCE = -1
TERMINAL = -2


class IllegalAction(Exception):
    """Raised by State.apply for an action that the rules do not allow now; the message is the reason."""


@dataclass(frozen=True)
class ChanceRequest:
    """What chance must decide next.

    kind 'shuffle': a permutation of `items` (a list of card ids) is wanted;
    kind 'dice': `count` values in 1..`sides`;
    kind 'pick': `count` distinct indices in range(`n`) (e.g. random sets, a random first player).
    `label` names the event in logs and scripts (e.g. 'toppings-deck', 'roll', 'first-player').
    """

    kind: str
    label: str
    items: tuple = ()
    count: int = 0
    sides: int = 6
    n: int = 0


@dataclass(frozen=True)
class ChanceOutcome:
    """The outcome of a ChanceRequest: the shuffled items, the dice values or the picked indices."""

    label: str
    values: tuple


# Outcomes with a few values (dice, picks, the pairing of a few seats) recur thousands of times in a
# simulation: each
# is made once and shared (they are frozen). Bounded: long shuffles are never kept, and at most this many
# outcomes.
SHARED_OUTCOME_VALUES, SHARED_OUTCOMES = 8, 4096
_shared_outcomes: dict[tuple, ChanceOutcome] = {}


def _outcome(label: str, values: tuple) -> ChanceOutcome:
    if len(values) > SHARED_OUTCOME_VALUES:
        return ChanceOutcome(label, values)
    key = (label, values)
    outcome = _shared_outcomes.get(key)
    if outcome is None:
        outcome = ChanceOutcome(label, values)
        if len(_shared_outcomes) < SHARED_OUTCOMES:
            _shared_outcomes[key] = outcome
    return outcome


def roll_dice(rng, count: int, sides: int) -> tuple:
    """`count` values of rng.randint(1, sides), the same draws (randint's own rejection sampling on
    getrandbits, without its three Python-level calls per die: a game of Order Up rolls at every turn)."""
    # exactly the stdlib generator (a subclass may draw otherwise)
    if type(rng) is not random.Random or type(sides) is not int or sides < 1:
        return tuple(rng.randint(1, sides) for _ in range(count))
    getrandbits, bits = rng.getrandbits, sides.bit_length()
    values = []
    for _ in range(count):
        value = getrandbits(bits)
        while value >= sides:
            value = getrandbits(bits)
        values.append(value + 1)
    return tuple(values)


def sample_chance(request: ChanceRequest, rng) -> ChanceOutcome:
    """Draw a chance outcome with the harness's random.Random."""
    kind = request.kind
    if kind == "dice":
        return _outcome(request.label, roll_dice(rng, request.count, request.sides))
    if kind == "shuffle":
        items = list(request.items)
        rng.shuffle(items)
        return _outcome(request.label, tuple(items))
    if kind == "pick":
        return _outcome(request.label, tuple(rng.sample(range(request.n), request.count)))
    raise ValueError(f"unknown chance kind {request.kind!r}")


class GameLog(list):
    """A state's log, a list of lines. An engine appends a finished line, or a tuple (formatter, *values) for
    a line that costs time to make: a simulated game's log is never read, so such a line is made only when the
    log is read (every reading method makes the pending lines first, once). The values must not change
    afterwards."""

    __slots__ = ("_made",)  # lines before this index are text

    def __init__(self, lines=()):
        super().__init__(lines)
        self._made = 0

    def make_lines(self) -> GameLog:
        """Turn every pending (formatter, *values) entry into its line; the log itself."""
        for index in range(min(self._made, len(self)), len(self)):
            line = list.__getitem__(self, index)
            if type(line) is tuple:
                list.__setitem__(self, index, line[0](*line[1:]))
        self._made = len(self)
        return self

    def pop(self, index: SupportsIndex = -1):
        line = list.pop(self, index)
        self._made = min(self._made, len(self))
        return line[0](*line[1:]) if type(line) is tuple else line

    def __eq__(self, other) -> bool:
        if isinstance(other, GameLog):
            other.make_lines()
        return list.__eq__(self.make_lines(), other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None


def _reading(name: str):
    read = getattr(list, name)

    def method(self, *args):
        return read(self.make_lines(), *args)

    method.__name__ = name
    return method


for _name in (
    "__getitem__",
    "__iter__",
    "__reversed__",
    "__contains__",
    "__repr__",
    "__add__",
    "__mul__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "copy",
    "index",
    "count",
    "__reduce_ex__",
):
    setattr(GameLog, _name, _reading(_name))


class State(ABC):
    """A game in progress. Actions are hashable values whose str() is how scripts write them."""

    log: list[str]  # a GameLog, or a plain list of lines

    @abstractmethod
    def current_player(self) -> int:
        """Seat to act (0-based), CHANCE when chance decides next, TERMINAL when the game is over."""

    @abstractmethod
    def chance_request(self) -> ChanceRequest:
        """What chance must decide (only when current_player() == CHANCE)."""

    @abstractmethod
    def legal_actions(self) -> list[Hashable]:
        """Every action the current player may take now, in a deterministic order."""

    @abstractmethod
    def apply(self, action) -> None:
        """Apply an action or a ChanceOutcome; raise IllegalAction(reason) when not allowed."""

    @abstractmethod
    def parse_action(self, text: str):
        """The action a script writes as `text` (inverse of str(action)); IllegalAction if unknown."""

    def is_terminal(self) -> bool:
        """True once the game has ended."""
        return self.current_player() == TERMINAL

    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score (final once terminal)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that won (several on a shared win); only meaningful once terminal."""

    @abstractmethod
    def card_count(self) -> dict[str, int]:
        """Physical cards per deck summed over every zone; must never change during a game."""

    def invariant_problems(self) -> list[str]:
        """Broken invariants beyond card conservation (hand limits, ...); [] when all hold."""
        return []

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A plain dict of the visible state (hands, positions, display, scores, ...) for script
        expectations."""

    def metrics(self) -> dict[str, Any]:
        """Per-game figures for the balance report (length, ending, per-card usage, ...)."""
        return {}

    # The two optional methods a lookahead bot plays with (LOOKAHEAD_METHODS): an engine that has both lets
    # the validator simulate futures from a copy in which the hidden cards are dealt anew.
    def clone(self) -> State:
        """Optional: a deep, independent copy (applying to it never changes this state); cheap, as a
        lookahead bot copies the state for every rollout. Shared read-only data (the rules) may stay
        shared."""
        raise NotImplementedError(f"{type(self).__name__} has no clone()")

    def redeal(self, seat: int, rng) -> None:
        """Optional: deal anew, in place and with `rng` (the harness's generator), every card `seat` cannot
        see (other hands, face-down deck orders), keeping what it sees: its hand, the public zones, every
        hand size and card_count()."""
        raise NotImplementedError(f"{type(self).__name__} has no redeal()")


LOOKAHEAD_METHODS = ("clone", "redeal")  # the optional State methods a lookahead bot needs


def missing_lookahead_methods(state: State) -> list[str]:
    """The optional methods of LOOKAHEAD_METHODS the state's class does not implement ([] when it has
    both)."""
    return [name for name in LOOKAHEAD_METHODS if getattr(type(state), name) is getattr(State, name)]


Bot = Callable[[State, Any], Any]  # (state, rng) -> action; bots may use the harness rng for tie-breaks

OPTION_KINDS = ("int", "number", "bool", "text", "any")


@dataclass(frozen=True)
class Option:
    """A rule option as an engine declares it: what `--option NAME=VALUE` accepts and `--list-options` shows.

    kind: 'int', 'number', 'bool', 'text' (one of `choices`) or 'any' (a YAML value the engine checks itself).
    For 'int' and 'number', `choices` are words accepted besides numbers (presets such as 'long', or 'none').
    `choices`, `default` and `maximum` may be functions of the loaded game when the game's data decides them.
    With `setting`, game.yaml `settings.<name>` is the default and `default` is used only when it is not
    written.
    """

    name: str
    kind: str
    help: str
    default: Any = None
    setting: bool = True
    choices: tuple | Callable[[Any], Sequence[str]] = ()
    minimum: float | None = None
    maximum: float | Callable[[Any], float] | None = None

    def __post_init__(self):
        if self.kind not in OPTION_KINDS:
            raise ValueError(
                f"option {self.name}: kind {self.kind!r}; expected one of {', '.join(OPTION_KINDS)}"
            )

    def words(self, game) -> list[str]:
        """The allowed words (text choices, or presets beside numbers) for this game."""
        return [str(w) for w in (self.choices(game) if callable(self.choices) else self.choices)]

    def highest(self, game) -> float | None:
        """The largest allowed number for this game, or None."""
        return self.maximum(game) if callable(self.maximum) else self.maximum

    def default_for(self, game) -> Any:
        """The value a game plays with when the option is not given: its game.yaml setting, else the built-in
        default."""
        if self.setting and self.name in game.config.settings:
            return game.config.settings[self.name]
        return self.default(game) if callable(self.default) else self.default


@dataclass(frozen=True)
class GoalNeeds:
    """One goal (a recipe, an order, a set) as the cards it needs, for exact deck odds (`pnp odds`).

    `slots`: (the card ids any one of which fills a slot, how many such slots), e.g. ((frozenset({'egg'}),
    2), (frozenset({'beef', 'chicken', 'pork'}), 1)) for two eggs and "any meat"; `wilds`: card ids that fill
    any one slot. `file`/`line` locate the goal's card (a goal that can never be completed is reported there).
    """

    id: str
    slots: tuple[tuple[frozenset[str], int], ...]
    wilds: frozenset[str] = frozenset()
    name: str = ""
    file: str = ""
    line: int = 0


@dataclass(frozen=True)
class Deal:
    """The deck one seat is dealt from at a player count: card id -> copies, the opening hand, and whether
    the seat goes on drawing from what is left (`draws`; False where cards change hands otherwise).

    Where setups differ (a random choice of the sets in play), one Deal per setup, each with its `weight`
    (relative to the others of its player count) and the `goals` a seat may hold in it (None: every goal).
    """

    players: int
    deck: tuple[tuple[str, int], ...]
    hand: int
    draws: bool = True
    weight: float = 1.0
    goals: frozenset[str] | None = None


@dataclass(frozen=True)
class GoalsAndDeals:
    """What an engine declares for exact deck odds: its goals and its deals (one or more per player
    count)."""

    goals: tuple[GoalNeeds, ...]
    deals: tuple[Deal, ...]


@dataclass
class Engine:
    """How the harness creates and plays one game."""

    name: str
    new_state: Callable[..., State]  # new_state(game, players: int, options: dict) -> State
    player_counts: Sequence[int]
    bots: dict[str, Bot]
    # named rule options with the values new_state gets by default
    options: dict[str, Any] = field(default_factory=dict)
    turn_cap: int = 5000  # decisions per game before it is called stalled
    # goals(game) -> ids of orders/recipes that must get completed
    goals: Callable[..., list[str]] | None = None
    # static_checks(game) -> [(check name, [Problem, ...]), ...]
    static_checks: Callable[..., list] | None = None
    # deck_odds(game, options) -> GoalsAndDeals: each goal's needs and the deals, for `pnp odds` (optional)
    deck_odds: Callable[..., GoalsAndDeals] | None = None
    # what each option is (type, allowed values, help); one per name in `options`
    rule_options: Sequence[Option] = ()

    def __post_init__(self):
        declared = [o.name for o in self.rule_options]
        if self.rule_options and sorted(declared) != sorted(self.options):
            raise ValueError(f"engine {self.name}: rule_options declare {sorted(declared)} but options are "
                             f"{sorted(self.options)}; expected one declaration per option")

    def declared_options(self) -> dict[str, Option]:
        """Every rule option by name; an option the engine does not describe takes any YAML value."""
        described = {o.name: o for o in self.rule_options}
        undescribed = {
            name: Option(name, "any", "(not described by the engine)", default=value, setting=value is None)
            for name, value in self.options.items()
            if name not in described
        }
        return described | undescribed


# Standard keys of State.metrics() read by the balance report (engines fill what applies):
#   turns, rounds: int                  game length
#   ended_by: str                       e.g. "game-over", "fifth-recipe", "all-done", "target-score"
#   completed_goals: list[str]          ids of orders/recipes completed in this game (multiset)
#   dealt_goals: list[str]              ids of goals dealt to a player, once per deal (win rate when dealt)
#   dwell: dict[str, list[int]]         goal id -> turns it stayed on display each time it was shown
#   card_usage: dict[str, int]          card id -> times played/spent
#   hand_limit_discards: int            cards discarded to a hand limit
#   dead_hand_turns: int                turns a player held nothing useful for any displayed goal
# turn_order: list[int]               seats in the order they play, the first player first (default: seat
# order);
#                                       the report gives win rates by turn position from it
#   seat_roles: list[str]               what makes each seat different where seats differ (a pizza restaurant)
#   extra: dict                         anything game-specific worth reporting
