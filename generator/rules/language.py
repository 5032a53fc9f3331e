"""Reading a rules file: every key checked, every expression compiled, every problem one located line.

The result is a `Program`: the zones, counters and tables of the game, its setup, turn and actions as compiled
steps, its end conditions, scores and bots. The cards come from the game's decks (the files that print them):
the rules name decks and fields, never copy cards.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

from jinja2 import nodes as jinja_nodes

from generator.core.errors import InputError, Problem, did_you_mean, known_list
from generator.core.yamlio import YDict, YList, parse_yaml
from generator.rules import steps as st
from generator.rules.builtins import Payment
from generator.rules.expressions import (
    ACTION,
    ANY,
    BOOL,
    CARD,
    FUNCTIONS,
    LIST,
    NUMBER,
    SEAT,
    SETTINGS,
    TEXT,
    ZONE,
    Compiler,
    ExpressionError,
    Name,
    RulesFailure,
    RulesLimit,
    Scope,
    compile_expression,
    compile_tree,
    conjuncts,
    names_in,
    parse,
)
from generator.rules.runtime import Act, Card, Zone

TOP_KEYS = ("players", "options", "tables", "values", "counters", "zones", "setup", "turn", "after_turn",
            "skip_turn", "actions", "end", "score", "tie_breaks", "winner", "bots", "goals", "turn_cap",
            "snapshot")
DATA_FILE_KEYS = ("deck", "table", "board", "component")  # the top-level keys of the game's data files
ZONE_KEYS = ("deck", "owner", "face", "seen_by", "limit", "when_empty", "label", "places")
COUNTER_KEYS = ("owner", "start")
ACTION_KEYS = ("for", "if", "do", "text", "once_per_turn", "help", "refuse")
REFUSAL_KEYS = ("if", "say", "why")
END_KEYS = ("when", "at", "ended_by")
BOT_KINDS = ("random", "greedy")
STEP_VERBS = {  # verb -> the keys of its mapping (a scalar verb value is its first key)
    "shuffle": ("zone", "label"),
    "deal": ("from", "to", "count"),
    "draw": ("from", "to", "count"),
    "move": ("card", "where", "from", "to"),
    "give": ("card", "to", "zone"),
    "steal": ("from", "count", "zone", "to", "label"),
    "swap": ("zone", "with"),
    "refill": ("zone", "from", "size"),
    "attach": ("card", "from", "to"),
    "lay_sets": ("from", "to", "by", "size"),
    "set": (),
    "add": (),
    "choose": (),
    "repeat": ("do", "until", "max"),
    "end_turn": (),
    "end_game": (),
    "trigger": (),
    "complete": (),
    "first_player": (),
    "then": (),
}
STEP_MODIFIERS = ("if", "else", "seat", "if_none", "label", "refuse")
WHERE = {"once": "end_now", "round": "end_round", "round_end": "end_after_round"}


@dataclass
class ZoneSpec:
    """What a zone is: shared or one per player, its starting deck, who sees it, its limit, an empty pile's
    rule."""

    name: str
    per_player: bool
    deck: str | None
    face: str
    seen_by: str
    limit: int | None
    when_empty: str  # reshuffle, end or nothing
    reshuffle_from: str = ""
    reshuffle_keep: int = 0
    reshuffle_label: str = ""
    line: int = 0
    label: str = ""  # the name its shuffles go by (the zone's name unless `label:` says otherwise)
    places: bool = False  # a row of places: a card taken leaves its place empty (runtime.Row)


@dataclass
class CounterSpec:
    name: str
    per_player: bool
    start: Any


@dataclass
class EndCondition:
    when: Any
    reason: str
    line: int


class ActionSpec:
    """An action of the rules: its parameters (each over a zone or list), its condition, its effects, its
    text."""

    def __init__(self, name: str, line: int):
        self.name, self.line = name, line
        self.params: list[tuple[str, Any, bool]] = []  # (name, domain, over cards)
        self.condition = None
        self.checks: list[list] | None = None  # the condition in parts, per parameter (see Reader._staged)
        self.do: list = []
        self.text = ""
        self.once_per_turn = False
        self.played: list[str] = []  # the card parameters (counted as played in the balance report)
        self.kinds: dict[str, str] = {}  # parameter -> the kind of its values (card, seat, ...)
        self.parts: list[tuple[frozenset, Any]] = []  # the condition's `and` parts, with the names each reads
        self.refusals: list[tuple[str, Any, str]] = []  # (if or why, expression, say): see runtime.refusal
        self.pattern: Any = None  # the regular expression its written form matches, parameters as groups
        self.texts: dict[tuple, str] = {}  # parameter values -> the action's text (see _text)
        self.card_texts: dict[str, str] = {}  # the card id of its one parameter -> the action's text
        self.texts_by_id: dict[tuple, str] = {}  # parameter values, cards by id -> the action's text
        # the condition (one parameter), or per parameter the checks, that read only that card and the
        # game's steady names: worked out once per card and game (a card's kind is asked once, not each turn)
        self.by_card = False
        self.card_checks: list[list] = []
        self.bare: Act | None = None  # the action itself when it has no parameters (see collect)

    def collect(self, s, b: dict, out: list) -> None:
        """Append every legal action of this kind now to `out`, in a fixed order: the first call writes the
        action's own collector (`collector`) and keeps it on the action in place of this method."""
        self.collect = collector(self)
        self.collect(s, b, out)

    def _text(self, values: dict) -> str:
        # the same cards, seats and payments are written again and again: their texts kept (by identity)
        try:
            key = tuple(values.values())
            found = self.texts.get(key)
        except TypeError:  # a value that is no key (a list)
            return self._written(values)
        if found is None:
            if len(self.texts) > 20_000:
                self.texts.clear()
            found = self.texts[key] = self._written(values)
        return found

    def _kept_text(self, key: tuple, values: dict) -> str:
        """The text of the action of these values, kept by `key` (see _Collector.levels)."""
        if len(self.texts_by_id) > 20_000:
            self.texts_by_id.clear()
        found = self.texts_by_id[key] = self._written(values)
        return found

    def _written(self, values: dict) -> str:
        if self.text:
            text = self.text.format_map({k: str(v) for k, v in values.items()})
            # written with single spaces already (ids, seats, payments): split and joined only when not
            if "  " in text or "\n" in text or "\t" in text or text[-1:] == " ":
                text = " ".join(text.split())
            return text
        return " ".join([self.name, *map(str, values.values())])


def collector(action: ActionSpec):
    """The function `collect(s, b, out)` of one action, written as Python source once: the loops over its
    parameters, its checks in order, its texts; the same actions in the same order as walking its parameters
    level by level, with no call per level or per list of checks. Only names of its own namespace appear in
    it: the action, the runtime's Act and Card, and the action's compiled (located) ranges and checks."""
    return _Collector(action).function()


class _Collector:
    """Writes an action's `collect` (see collector)."""

    def __init__(self, action: ActionSpec):
        self.action = action
        self.space: dict[str, Any] = {"spec": action, "Act": Act, "Card": Card, "_choices": _choices,
                                      "by_id": action.card_texts, "texts": action.texts_by_id}
        self.lines = ["def collect(s, b, out):"]

    def ref(self, prefix: str, value) -> str:
        """A name of the function's namespace holding `value`."""
        name = f"{prefix}{len(self.space)}"
        self.space[name] = value
        return name

    def add(self, pad: int, *lines: str) -> None:
        self.lines += ["    " * pad + line for line in lines]

    def function(self):
        action = self.action
        if action.once_per_turn:
            self.add(1, f"if {action.name!r} in s.taken:", "    return")
        if not action.params:
            self.bare()
        elif len(action.params) == 1:
            self.one()
        else:
            self.levels()
        source = "\n".join(self.lines) + "\n"
        exec(compile(source, f"<rules action {action.name}:{action.line}>", "exec"), self.space)  # noqa: S102
        function = self.space["collect"]
        function.source = source  # for a look while debugging a rules file
        return function

    def bare(self) -> None:
        """draw, end: the one action of no parameters, made once."""
        action = self.action
        action.bare = action.bare or Act(action, {}, action._text({}))
        if action.condition is not None:
            self.add(1, f"if not {self.ref('_w', action.condition)}(s, b):", "    return")
        self.add(1, "out.append(spec.bare)")

    def verdict(self, pad: int, value: str, verdicts: str, test: str, plain: str) -> None:
        """`held`: a card's verdict kept by its type's fields (shared by its copies), else `plain`."""
        self.add(pad, f"if type({value}) is Card and not {value}.under:",
                 f"    held = {verdicts}.get(id({value}.fields))", "    if held is None:",
                 f"        held = {verdicts}[id({value}.fields)] = {test}", "else:", f"    held = {plain}",
                 "if not held:", "    continue")

    def one(self) -> None:
        """Most actions: one parameter, one loop."""
        action = self.action
        name, domain, _cards = action.params[0]
        self.add(1, "bound = dict(b)")
        if action.condition is not None and action.by_card:
            self.add(1, "verdicts = s.steady.get(spec)", "if verdicts is None:",
                     "    verdicts = s.steady[spec] = {}")
        self.add(1, f"for v0 in _choices({self.ref('_d', domain)}(s, bound), s):",
                 f"    bound[{name!r}] = v0")
        if action.condition is not None:
            test = f"{self.ref('_w', action.condition)}(s, bound)"
            if action.by_card:
                self.verdict(2, "v0", "verdicts", f"bool({test})", test)
            else:
                self.add(2, f"if not {test}:", "    continue")
        self.add(2, f"values = {{{name!r}: v0}}", "if type(v0) is Card:",  # a card's text: kept by its id
                 "    text = by_id.get(v0.id)", "    if text is None:",
                 "        text = by_id[v0.id] = spec._written(values)",
                 "    out.append(Act(spec, values, text))", "else:",
                 "    out.append(Act(spec, values, spec._text(values)))")

    def held(self, checks: list) -> str:
        return " and ".join(f"{self.ref('_c', check)}(s, bound)" for check in checks)

    def levels(self) -> None:
        """A loop per parameter, each level's checks as soon as its parameter is chosen."""
        action, params = self.action, self.action.params
        staged = action.checks is not None
        self.add(1, "bound = dict(b)")
        for index in range(len(params)):
            if action.card_checks and action.card_checks[index]:
                self.add(1, f"verdicts{index} = s.steady.get((spec, {index}))",
                         f"if verdicts{index} is None:",
                         f"    verdicts{index} = s.steady[(spec, {index})] = {{}}")
        for index, (name, domain, _cards) in enumerate(params):
            value = f"v{index}"
            self.add(index + 1, f"items = {self.ref('_d', domain)}(s, bound)",
                     "if type(items) is not list or items and type(items[0]) is Card:  # else as _choices",
                     "    items = _choices(items, s)", f"for {value} in items:",
                     f"    bound[{name!r}] = {value}")
            card_checks = action.card_checks[index] if action.card_checks else ()
            if card_checks:
                test = f"bool({self.held(card_checks)})"
                self.verdict(index + 2, value, f"verdicts{index}", test, test)
            checks = action.checks[index] if staged else ()
            if checks:
                self.add(index + 2, f"if not ({self.held(checks)}):", "    continue")
        pad = len(params) + 1
        if not staged and action.condition is not None:
            self.add(pad, f"if not {self.ref('_w', action.condition)}(s, bound):", "    continue")
        names = ", ".join(f"{name!r}: v{index}" for index, (name, *_rest) in enumerate(params))
        # the text kept by the parameters' values, a card by its id (the cards are each game's own: the texts
        # are kept for every game, as a card's written form is its id)
        key = "".join(f"v{at}.id if type(v{at}) is Card else v{at}, " for at in range(len(params)))
        self.add(pad, f"values = {{{names}}}", "try:", f"    key = ({key})", "    text = texts.get(key)",
                 "except TypeError:  # a value that is no key (a list)", "    text = spec._written(values)",
                 "if text is None:", "    text = spec._kept_text(key, values)",
                 "out.append(Act(spec, values, text))")
        for index in range(len(params) - 1, -1, -1):  # each level's name unbound once its loop is done
            self.add(index + 1, f"bound.pop({params[index][0]!r}, None)")

_FIELD = re.compile(r"\{(\w+)\}")


def _pattern(action: ActionSpec):
    """The regular expression of an action's written form: a parameter over cards or seats is one word, any
    other (a payment) one or more; None when its text cannot be read back."""
    text = " ".join(action.text.split()) if action.text else " ".join(
        [action.name, *(f"{{{name}}}" for name, *_ in action.params)])
    out, at = [], 0
    for match in _FIELD.finditer(text):
        name = match.group(1)
        if name not in action.kinds:
            return None
        out.append(re.escape(text[at:match.start()]))
        word = action.kinds[name] in (CARD, SEAT)
        out.append(f"(?P<{name}>\\S+)" if word else f"(?P<{name}>.+?)")
        at = match.end()
    out.append(re.escape(text[at:]))
    try:
        return re.compile("".join(out) + "$")
    except re.error:  # a parameter written twice: such a text is matched by its legal actions only
        return None


def _choices(values, s) -> list:
    """The values a parameter takes: the distinct cards of a zone by id (sorted), or the list's items."""
    if values is None:
        return []
    if isinstance(values, Zone):
        # several actions range over the same zone (a hand) in one choice, a display or a tableau stays the
        # same for many decisions: sorted again only when the zone holds other cards (a C-level compare)
        kept = s.choices.get(id(values))
        if kept is not None and kept[0] is values and kept[1] == values:
            return kept[2]
        found = s.choices[id(values)] = (values, list(values), _distinct(values))
        return found[2]
    if values and type(values[0]) is Card:
        return _distinct(values)
    # a list worked out for this step (ways to pay, seats) is only read while the actions are listed
    return values if type(values) is list else list(values)


def _distinct(cards) -> list:
    """The first card of each id, by id."""
    first: dict[str, Card] = {}
    for card in cards:
        first.setdefault(card.id, card)
    return [first[k] for k in sorted(first)]


@dataclass
class Program:
    """A compiled rules file."""

    file: str
    digest: str
    players: tuple[int, ...]
    tables: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, ZoneSpec] = field(default_factory=dict)
    counters: dict[str, CounterSpec] = field(default_factory=dict)
    setup: list = field(default_factory=list)
    turn: list = field(default_factory=list)
    after_turn: list = field(default_factory=list)  # steps after every turn, however it ended (a refill)
    skip_turn: Any = None
    actions: dict[str, ActionSpec] = field(default_factory=dict)
    end_now: list = field(default_factory=list)
    end_round: list = field(default_factory=list)
    end_after_round: list = field(default_factory=list)
    score: Any = None
    tie_breaks: list = field(default_factory=list)
    lowest_wins: bool = False
    bots: dict[str, Any] = field(default_factory=dict)
    # rule option -> (default, help); see Reader._options
    options: dict[str, Any] = field(default_factory=dict)
    goal_deck: str | None = None
    goal_needs: Any = None  # card -> the card ids it needs (goals: needs:)
    goal_wild: Any = None  # card -> whether it stands in for any needed card (goals: wild:)
    goal_line: int = 0
    turn_cap: int = 5000
    decks: tuple[str, ...] = ()
    snapshot: list = field(default_factory=list)  # (key, expression) the snapshot shows beside its own
    snapshot_players: list = field(default_factory=list)  # (key, expression) of each seat (`players.N.key`)

    def winners_of(self, s) -> list[int]:
        """The winning seats: the best score, then each tie-break in turn; a tie after them all is shared."""
        sign = -1 if self.lowest_wins else 1
        keys = []
        me = s.me
        for seat in range(s.n):
            s.me = seat
            keys.append((sign * self.score(s, {}), *(t(s, {}) for t in self.tie_breaks)))
        s.me = me
        best = max(keys)
        return [seat for seat, key in enumerate(keys) if key == best]


class Reader:
    """Reads one rules file against a game's decks into a Program, collecting every problem."""

    def __init__(self, text: str, file: str, decks: dict[str, frozenset], settings: dict, built_ins: dict):
        self.file, self.decks, self.settings = file, decks, settings
        self.problems: list[Problem] = []
        self.built_ins = built_ins
        self.data = parse_yaml(text, file)
        self.program = Program(file=file, digest=hashlib.sha256(text.encode()).hexdigest(), players=())
        # names whose value is the same for the whole game (and the values reading only these, see _values)
        self.steady = {"settings", "options", "players", *built_ins, *FUNCTIONS}

    # ----- problems
    # ----------------------------------------------------------------------------------------------
    def problem(self, line: int, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def keys(self, data, allowed, what: str) -> bool:
        if not isinstance(data, dict):
            self.problem(getattr(data, "line", 0), f"{what} is {_kind(data)}; expected a mapping of "
                                                   f"{', '.join(allowed)}")
            return False
        for key in data:
            if key not in allowed:
                self.problem(
                    data.line_of(key),
                    f"unknown key '{key}' in {what}{did_you_mean(str(key), allowed)}; "
                    f"expected {known_list(allowed, 30)}",
                )
        return True

    def expression(self, text, line: int, scope: Scope, want: tuple[str, ...] = (), what: str = "") -> Any:
        """The compiled expression, or a reader that fails (after a located problem)."""
        try:
            read, kind, _of = compile_expression(text, scope)
        except ExpressionError as exc:
            self.problem(line, str(exc))
            return _broken
        if want and kind not in want and kind != ANY:
            hint = f"; expected {text}.size" if kind == ZONE and NUMBER in want else ""
            self.problem(
                line, f"'{text}' is a {kind}, but {what or 'this'} needs a {' or '.join(want)}{hint}"
            )
            return _broken
        return _located(read, self.file, line, text)

    def typed(self, text, line: int, scope: Scope) -> tuple[Any, str, str]:
        try:
            read, kind, of = compile_expression(text, scope)
        except ExpressionError as exc:
            self.problem(line, str(exc))
            return _broken, ANY, ANY
        return _located(read, self.file, line, text), kind, of

    # ----- the file
    # ----------------------------------------------------------------------------------------------
    def read(self) -> Program:
        data, p = self.data, self.program
        kind = next((k for k in DATA_FILE_KEYS if k in data), None)
        if kind is not None and "turn" not in data:  # one line, not a problem per key of another kind of file
            raise InputError(
                Problem(
                    self.file,
                    data.line_of(kind),
                    f"this is a {kind} file ({kind}: {data[kind]}), "
                    "not a rules file of the rules language; expected "
                    "zones, setup, turn, actions, end and score "
                    "(`pnp docs rules-language`)",
                )
            )
        self.keys(data, TOP_KEYS, "the rules file")
        p.players = self._players(data)
        p.turn_cap = self._int(data, "turn_cap", 5000)
        for name, values in self._mapping(data, "tables").items():
            p.tables[name] = self._table(name, values, data["tables"].line_of(name))
        self._zones(self._mapping(data, "zones"))
        self._options(self._mapping(data, "options"))
        scope = self._scope()
        self._counters(self._mapping(data, "counters"), scope)
        self._values(self._mapping(data, "values"), scope)
        for name in self._mapping(data, "actions"):  # every action first: a choose may name one written later
            p.actions[name] = ActionSpec(name, data["actions"].line_of(name))
        for name, spec in self._mapping(data, "actions").items():
            self._action(p.actions[name], spec, scope)
        p.setup = self.steps(data.get("setup"), data.line_of("setup"), scope, "setup")
        if "turn" not in data:
            self.problem(
                data.line, "the rules have no `turn:`; expected the steps of a turn (e.g. - choose: [play])"
            )
        p.turn = self.steps(data.get("turn"), data.line_of("turn"), scope, "the turn")
        p.after_turn = self.steps(data.get("after_turn"), data.line_of("after_turn"), scope, "after_turn")
        if "skip_turn" in data:
            p.skip_turn = self.expression(data["skip_turn"], data.line_of("skip_turn"), scope)
        self._ends(data.get("end"), data.line_of("end"), scope)
        if "score" not in data:
            self.problem(
                data.line, "the rules have no `score:`; expected each player's score, e.g. score: \"points\""
            )
        else:
            p.score = self.expression(data["score"], data.line_of("score"), scope, (NUMBER, BOOL), "score")
        breaks = data.get("tie_breaks") or []
        if not isinstance(breaks, list):
            self.problem(
                data.line_of("tie_breaks"), "tie_breaks is not a list; expected a list of expressions"
            )
            breaks = []
        p.tie_breaks = [self.expression(t, breaks.line_of(i), scope) for i, t in enumerate(breaks)]
        winner = data.get("winner", "highest")
        if winner not in ("highest", "lowest"):
            self.problem(data.line_of("winner"), f"winner '{winner}'; expected highest or lowest (score)")
        p.lowest_wins = winner == "lowest"
        self._bots(data.get("bots"), data.line_of("bots"), scope)
        self._snapshot(data.get("snapshot"), data.line_of("snapshot"), scope)
        self._goals(data.get("goals"), scope)
        if self.problems:
            raise InputError(self.problems)
        return p

    def _goals(self, goals, scope) -> None:
        """`goals:` {deck, needs, wild}: the deck whose cards are goals, what each needs, what stands in."""
        p = self.program
        if goals is not None:
            if self.keys(goals, ("deck", "needs", "wild"), "goals") and goals.get("deck") not in self.decks:
                self.problem(
                    goals.line_of("deck"),
                    f"goals: deck '{goals.get('deck')}' is not a deck of the game"
                    f"{did_you_mean(str(goals.get('deck')), self.decks)}; known: "
                    f"{known_list(self.decks)}",
                )
            p.goal_deck = goals.get("deck") if isinstance(goals, dict) else None
            # what a goal card needs, and which cards stand in for any (the check)
            if isinstance(goals, dict):
                card = scope.with_names({"card": Name(CARD, _bound("card"))})
                if "needs" in goals:
                    p.goal_needs = self.expression(goals["needs"], goals.line_of("needs"), card, (LIST,),
                                                  "goals: needs")
                    p.goal_line = goals.line_of("needs")
                if "wild" in goals:
                    p.goal_wild = self.expression(goals["wild"], goals.line_of("wild"), card)

    def _mapping(self, data, key: str) -> dict:
        value = data.get(key)
        if value is None:
            return YDict()
        if not isinstance(value, dict):
            self.problem(data.line_of(key), f"`{key}` is {_kind(value)}; expected a mapping of names")
            return YDict()
        for name in value:
            if not isinstance(name, str) or not name.isidentifier():
                self.problem(value.line_of(name), f"'{name}' cannot name a {key[:-1]}: expressions read it; "
                                                  "expected letters, digits and _ (e.g. draw_pile)")
        return value

    def _int(self, data, key: str, default: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            self.problem(data.line_of(key), f"`{key}` is {value!r}; expected a whole number of at least 1")
            return default
        return value

    def _players(self, data) -> tuple[int, ...]:
        value = data.get("players")
        if value is None:
            return ()
        if (
            isinstance(value, dict)
            and set(value) <= {"min", "max"}
            and all(isinstance(v, int) for v in value.values())
        ):
            return tuple(range(value.get("min", 2), value.get("max", value.get("min", 2)) + 1))
        if isinstance(value, list) and value and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1
                                                     for v in value):
            return tuple(value)
        self.problem(
            data.line_of("players"),
            f"players is {value!r}; expected a list of counts ([2, 3, 4]) or {{min: 2, max: 4}}",
        )
        return ()

    def _table(self, name: str, values, line: int):
        if not isinstance(values, dict):
            return values  # one value for every player count
        for key in values:
            if key != "default" and (isinstance(key, bool) or not isinstance(key, int)):
                self.problem(values.line_of(key), f"table '{name}' has key {key!r}; expected player counts "
                                                  "(2: 7, 3: 5, ...) and optionally default")
        missing = [n for n in self.program.players if n not in values] if "default" not in values else []
        if missing:
            self.problem(
                line,
                f"table '{name}' gives no value for {', '.join(map(str, missing))} players; expected "
                "one per player count the rules play (or `default:`)",
            )
        return dict(values)

    def _zones(self, zones) -> None:
        for name, spec in zones.items():
            line = zones.line_of(name)
            if spec is None:
                spec = YDict()
                spec.line = line
            if not self.keys(spec, ZONE_KEYS, f"zone '{name}'"):  # a misspelt key is reported, the zone kept
                continue
            owner = spec.get("owner", "shared")
            if owner not in ("player", "shared"):
                self.problem(
                    spec.line_of("owner"),
                    f"zone '{name}': owner '{owner}'; expected player (one per player) or shared",
                )
            deck = spec.get("deck")
            if deck is not None and deck not in self.decks:
                self.problem(spec.line_of("deck"), f"zone '{name}': deck '{deck}' is not a deck of the game"
                                                   f"{did_you_mean(str(deck), self.decks)}; known: "
                                                   f"{known_list(self.decks)}")
                deck = None
            if deck is not None and owner == "player":
                self.problem(
                    spec.line_of("deck"),
                    f"zone '{name}' is one per player, so the deck cannot start in "
                    "it; expected a shared zone for the deck (then deal)",
                )
                deck = None
            face = spec.get("face", "up" if owner == "shared" and deck is None else "down")
            if face not in ("up", "down"):
                self.problem(spec.line_of("face"), f"zone '{name}': face '{face}'; expected up or down")
            seen = spec.get("seen_by", "owner" if owner == "player" else ("all" if face == "up" else "none"))
            if seen not in ("all", "owner", "none"):
                self.problem(
                    spec.line_of("seen_by"), f"zone '{name}': seen_by '{seen}'; expected all, owner or none"
                )
            limit = spec.get("limit")
            if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
                self.problem(
                    spec.line_of("limit"), f"zone '{name}': limit {limit!r}; expected a whole number"
                )
                limit = None
            zone = ZoneSpec(name, owner == "player", deck, face, seen, limit, "nothing", line=line,
                            label=str(spec.get("label") or name))
            places = spec.get("places", False)
            if not isinstance(places, bool):
                self.problem(spec.line_of("places"), f"zone '{name}': places {places!r}; expected true "
                                                     "(a row whose empty places are filled first) or false")
            zone.places = places is True
            self._when_empty(zone, spec, zones)
            self.program.zones[name] = zone
            if deck is not None:
                self.program.decks += (deck,)

    def _when_empty(self, zone: ZoneSpec, spec, zones) -> None:
        empty = spec.get("when_empty", "nothing")
        line = spec.line_of("when_empty")
        if isinstance(empty, dict):
            if self.keys(empty, ("reshuffle", "keep", "label"), f"zone '{zone.name}' when_empty"):
                source = empty.get("reshuffle")
                if source not in zones:
                    self.problem(
                        empty.line_of("reshuffle"),
                        f"zone '{zone.name}' reshuffles '{source}', which is "
                        f"not a zone{did_you_mean(str(source), zones)}; known: "
                        f"{known_list(zones)}",
                    )
                elif (zones[source] or {}).get("owner", "shared") != "shared":
                    self.problem(
                        empty.line_of("reshuffle"),
                        f"zone '{zone.name}' reshuffles '{source}', one zone per "
                        "player; expected a shared zone",
                    )
                zone.when_empty, zone.reshuffle_from = "reshuffle", str(source)
                zone.reshuffle_keep = int(empty.get("keep", 0) or 0)
                zone.reshuffle_label = str(empty.get("label") or f"{zone.name}-reshuffle")
            return
        if empty not in ("end", "nothing"):
            self.problem(line, f"zone '{zone.name}': when_empty '{empty}'; expected end, nothing or "
                               "{reshuffle: <zone>}")
            return
        zone.when_empty = empty

    def _options(self, options) -> None:
        """Rule options (`--option NAME=VALUE`): each with its default, used when game.yaml's settings have
        none."""
        for name, spec in options.items():
            if not isinstance(spec, dict):
                spec_map = YDict(default=spec)
                spec_map.line, spec_map.key_lines = options.line_of(name), {}
                spec = spec_map
            if self.keys(spec, ("default", "help"), f"option '{name}'"):
                self.program.options[name] = (spec.get("default"), str(spec.get("help", "")))

    # ----- names
    # -------------------------------------------------------------------------------------------------
    def _scope(self) -> Scope:
        p = self.program
        names: dict[str, Name] = {
            "me": Name(SEAT, _src(lambda s, b: s.seats[s.me], "s.seats[s.me]")),
            "current": Name(SEAT, _src(lambda s, b: s.seats[s.cur], "s.seats[s.cur]")),
            "first": Name(SEAT, lambda s, b: s.seats[s.first]),
            "next": Name(SEAT, lambda s, b: s.seats[(s.me + 1) % s.n]),
            "previous": Name(SEAT, lambda s, b: s.seats[(s.me - 1) % s.n]),
            "opponents": Name(LIST, _src(lambda s, b: s.opponents[s.me], "s.opponents[s.me]"), SEAT),
            "seats": Name(LIST, lambda s, b: list(s.seats), SEAT),
            "players": Name(NUMBER, _src(lambda s, b: s.n, "s.n")),
            "turn": Name(NUMBER, _src(lambda s, b: s.turns, "s.turns")),
            "round": Name(NUMBER, _src(lambda s, b: s.rounds, "s.rounds")),
            "taken": Name(LIST, _src(lambda s, b: s.taken, "s.taken"), TEXT),
            "acted": Name(NUMBER, _src(lambda s, b: len(s.taken), "len(s.taken)")),
            "trigger": Name(ANY, lambda s, b: s.trigger),
            "settings": Name(SETTINGS, _constant(dict(self.settings))),
            "options": Name(SETTINGS, _src(lambda s, b: s.options, "s.options")),
        }
        for name in p.tables:
            names[name] = Name(ANY, _table_read(name))
        seat_parts: dict[str, str] = {}
        for name, zone in p.zones.items():
            if zone.per_player:
                names[name] = Name(ZONE, _own_zone(name), CARD)
                seat_parts[name] = ZONE
            else:
                names[name] = Name(ZONE, _shared_zone(name), CARD)
        card_fields = frozenset().union(*self.decks.values()) if self.decks else frozenset()
        action_parts = {"name": TEXT}
        for spec in (self.data.get("actions") or {}).values():
            if isinstance(spec, dict) and isinstance(spec.get("for"), dict):
                action_parts.update({k: ANY for k in spec["for"]})
        functions = {name: (function, ANY) for name, function in self.built_ins.items()}
        return Scope(names, card_fields, seat_parts, _seat_reader(p), action_parts, functions)

    def _counters(self, counters, scope: Scope) -> None:
        for name, spec in counters.items():
            line = counters.line_of(name)
            if not isinstance(spec, dict):
                spec_map = YDict(start=spec)
                spec_map.line, spec_map.key_lines = line, {}
                spec = spec_map
            if not self.keys(spec, COUNTER_KEYS, f"counter '{name}'"):
                continue
            per = spec.get("owner", "shared") == "player"
            if name in scope.names:
                self.problem(
                    line,
                    f"counter '{name}' has the name of a zone, table or built-in name; expected another name",
                )
            scope.names[name] = Name(ANY, _own_counter(name) if per else _shared_counter(name))
            if per:
                scope.seat_parts[name] = NUMBER
        for name, spec in counters.items():
            line = counters.line_of(name)
            start = spec.get("start", 0) if isinstance(spec, dict) else spec
            per = isinstance(spec, dict) and spec.get("owner", "shared") == "player"
            self.program.counters[name] = CounterSpec(name, per, self.expression(start, line, scope))

    def _values(self, values, scope: Scope) -> None:
        """Named expressions, each compiled once its names are; a value that refers to itself is refused."""
        self.steady |= set(self.program.tables)
        order, state, fine = [], {}, {}

        def visit(name: str, path: list[str]) -> bool:
            if state.get(name) == 1:
                cycle = path[path.index(name):]
                self.problem(values.line_of(cycle[0]), f"circular definition: {' -> '.join(cycle)}; expected "
                                                       "values that end in zones, counters and numbers")
                return False
            if state.get(name) == 2:
                return fine[name]
            state[name] = 1
            ok = all([visit(n, path + [n]) for n in sorted(names_in(values[name])) if n in values])
            state[name], fine[name] = 2, ok
            order.append(name)
            return ok

        good = {name for name in values if visit(name, [name])}
        # names whose value is the same for the whole game: a value reading only these (and its parameters'
        # cards) is kept for the game, not for one step (a recipe's points are worked out once per attachment)
        steady = self.steady
        for name in order:
            if name in scope.names and name not in values:
                self.problem(
                    values.line_of(name),
                    f"value '{name}' has the name of a zone, counter or built-in; expected another name",
                )
            if name not in good:
                scope.names[name] = Name(ANY, _broken)
                continue
            spec = values[name]
            text = spec.get("is") if isinstance(spec, dict) else spec
            params = _params_of(spec)
            read_names = names_in(text) | (names_in(text, with_mapped=True) & set(values))
            game_long = read_names - set(params) <= steady
            if game_long:
                steady.add(name)
            if isinstance(spec, dict):  # a value of parameters: {of: [x], is: expression}, called as name(x)
                self._function(name, spec, values.line_of(name), scope, game_long)
                continue
            read, kind, of = self.typed(spec, values.line_of(name), scope)
            scope.names[name] = Name(kind, (_kept_for_game if game_long else _kept)(name, read), of)

    def _staged(self, action: ActionSpec, text: str, line: int, scope: Scope) -> list[list] | None:
        """The parts of an action's `if` joined by `and`, each checked as soon as the parameters it reads are
        chosen (an eight's rank is checked once, not once per suit it could name): per parameter, its
        checks; a part reading only that card parameter and steady names goes to `card_checks` instead."""
        params = [n for n, *_ in action.params]
        stages: list[list] = [[] for _ in params]
        by_card: list[list] = [[] for _ in params]
        for part in conjuncts(parse(text)):
            names = {n.name for n in part.find_all(jinja_nodes.Name)} | (
                {part.name} if isinstance(part, jinja_nodes.Name) else set())
            level = max((params.index(n) for n in names if n in params), default=0)
            try:
                read = compile_tree(Compiler(scope, text), part)[0]
            except ExpressionError:  # the whole condition compiled, so its parts do; kept whole if not
                return None
            mapped = {str(f.args[0].value) for f in part.find_all(jinja_nodes.Filter)
                      if f.name == "map" and f.args and isinstance(f.args[0], jinja_nodes.Const)}
            read_names = names | (mapped & set(scope.functions))
            steady = action.kinds.get(params[level]) == CARD and read_names - {params[level]} <= self.steady
            (by_card if steady else stages)[level].append(_located(read, self.file, line, text))
        action.card_checks = by_card if any(by_card) else []
        return stages

    def _parts(self, text: str, line: int, scope: Scope) -> list[tuple[frozenset, Any]]:
        """The parts of a condition joined by `and`, each with the names it reads (a refusal checks the parts
        whose parameters a written action names)."""
        parts = []
        for part in conjuncts(parse(text)):
            names = {n.name for n in part.find_all(jinja_nodes.Name)} | (
                {part.name} if isinstance(part, jinja_nodes.Name) else set())
            try:
                read = compile_tree(Compiler(scope, text), part)[0]
            except ExpressionError:  # the whole condition compiled, so its parts do
                return []
            parts.append((frozenset(names), _located(read, self.file, line, text)))
        return parts

    def _refusals(self, action: ActionSpec, data, line: int, scope: Scope) -> None:
        """`refuse:` [{if: condition, say: text} or {why: expression}]: why a written action is not allowed
        now, the first that holds (scripts' `reject:` and players read it)."""
        if data is None:
            return
        if not isinstance(data, list):
            self.problem(line, f"action '{action.name}': `refuse` is {_kind(data)}; expected a list of "
                               "{if: <condition>, say: <text>} or {why: <expression giving the text>}")
            return
        for index, item in enumerate(data):
            at = data.line_of(index)
            if not self.keys(item, REFUSAL_KEYS, f"a refusal of action '{action.name}'"):
                continue
            if ("why" in item) == ("if" in item or "say" in item) or ("if" in item) != ("say" in item):
                self.problem(at, f"a refusal of action '{action.name}' needs if: and say:, or why: alone")
                continue
            if "why" in item:
                action.refusals.append(("why", self.expression(item["why"], item.line_of("why"), scope), ""))
                continue
            say = str(item["say"])
            try:
                say.format(**{k: k for k, *_ in action.params})
            except (KeyError, IndexError, ValueError) as exc:
                self.problem(item.line_of("say"), f"a refusal of action '{action.name}': say '{say}' names "
                                                  f"{exc}, which is not a parameter; expected "
                                                  f"{{{'}, {'.join(n for n, *_ in action.params)}}}")
                continue
            action.refusals.append(("if", self.expression(item["if"], item.line_of("if"), scope), say))

    def _snapshot(self, data, line: int, scope: Scope) -> None:
        """`snapshot:` {key: expression, players: {key: expression}}: what the game shows scripts beside the
        standard keys (a key of `players:` is worked out for each seat, as `me`)."""
        if data is None:
            return
        if not isinstance(data, dict):
            self.problem(line, f"`snapshot` is {_kind(data)}; expected a mapping of key: expression")
            return
        for key, text in data.items():
            if key == "players":
                if not isinstance(text, dict):
                    self.problem(data.line_of(key), "snapshot `players` is not a mapping; expected key: "
                                                    "expression, worked out for each seat")
                    continue
                for part, inner in text.items():
                    self.program.snapshot_players.append(
                        (str(part), self.expression(inner, text.line_of(part), scope)))
                continue
            self.program.snapshot.append((str(key), self.expression(text, data.line_of(key), scope)))

    def _function(self, name: str, spec, line: int, scope: Scope, game_long: bool = False) -> None:
        if not self.keys(spec, ("of", "is"), f"value '{name}'") or "is" not in spec:
            if isinstance(spec, dict) and "is" not in spec:
                self.problem(
                    line, f"value '{name}' has no `is:`; expected {{of: [parameter], is: <expression>}}"
                )
            return
        params = _params_of(spec)
        inner = scope.with_names({p: Name(ANY, _bound(p)) for p in params})
        read = self.expression(spec["is"], spec.line_of("is"), inner)

        def function(s, *args):
            # kept like a named value, per epoch, seat and arguments (cards and seats: a bot asks again and
            # again); a value of the game's steady names alone, for the game, by its cards and what lies
            # under them
            if game_long:
                if len(args) == 1 and type(args[0]) is Card and not args[0].under:  # a card, nothing under it
                    key = (name, args[0])
                else:
                    key = _steady_key(name, args)
                if key is not None:
                    found = s.steady.get(key, _missing)
                    if found is _missing:
                        if len(s.steady) > 4096:
                            s.steady.clear()
                        found = s.steady[key] = read(s, dict(zip(params, args, strict=False)))
                    return found
            try:
                key = (name, s.epoch, s.me, *args)
                found = s.kept.get(key, _missing)
            except TypeError:  # an argument that is no key (a list): worked out each time
                return read(s, dict(zip(params, args, strict=False)))
            if found is _missing:
                if len(s.kept) > 1024:
                    s.kept.clear()
                found = s.kept[key] = read(s, dict(zip(params, args, strict=False)))
            return found

        if len(params) == 1:
            function = _one_parameter(name, params[0], read, game_long, function)
        if game_long and len(params) == 1:  # expressions.Source reads a kept value of one card without a call
            function.inline = (name, Card, _missing)
        scope.functions[name] = (function, ANY)

    def _action(self, action: ActionSpec, spec, scope: Scope) -> None:
        line = action.line
        if not self.keys(spec, ACTION_KEYS, f"action '{action.name}'"):
            return
        params = spec.get("for") or YDict()
        extra: dict[str, Name] = {}
        if not isinstance(params, dict):
            self.problem(spec.line_of("for"), f"action '{action.name}': `for` is {_kind(params)}; expected a "
                                              "mapping of parameter: zone or list (card: hand)")
            params = YDict()
        inner = scope
        for name, domain in params.items():
            pline = params.line_of(name)
            read, kind, of = self.typed(domain, pline, inner)
            if kind not in (ZONE, LIST, ANY):
                self.problem(
                    pline,
                    f"action '{action.name}': parameter '{name}' ranges over '{domain}', a {kind}; "
                    "expected a zone or a list",
                )
            action.params.append((name, read, of == CARD))
            action.kinds[name] = of
            if of == CARD:
                action.played.append(name)
            extra[name] = Name(of, _bound(name))
            inner = scope.with_names(extra)
        if "if" in spec:
            action.condition = self.expression(spec["if"], spec.line_of("if"), inner)
            if action.condition is not _broken and len(action.params) > 1:
                action.checks = self._staged(action, spec["if"], spec.line_of("if"), inner)
            elif action.condition is not _broken and len(action.params) == 1:
                names = names_in(spec["if"], with_mapped=True)
                only = action.params[0][0]
                action.by_card = action.kinds.get(only) == CARD and names - {only} <= self.steady
            if action.condition is not _broken:
                action.parts = self._parts(spec["if"], spec.line_of("if"), inner)
        action.once_per_turn = bool(spec.get("once_per_turn", False))
        if spec.get("text") is not None:
            action.text = str(spec["text"])
            try:
                action.text.format(**{k: k for k in params})
            except (KeyError, IndexError, ValueError) as exc:
                self.problem(
                    spec.line_of("text"),
                    f"action '{action.name}': text '{action.text}' names {exc}, "
                    f"which is not a parameter; expected {{{'}, {'.join(params)}}}",
                )
            if not action.text.split() or action.text.split()[0].startswith("{"):
                self.problem(
                    spec.line_of("text"),
                    f"action '{action.name}': text '{action.text}' must start with "
                    f"a word; expected e.g. '{action.name} {{card}}'",
                )
        action.pattern = _pattern(action)
        self._refusals(action, spec.get("refuse"), spec.line_of("refuse"), inner)
        if not spec.get("do"):
            self.problem(line, f"action '{action.name}' has no effect; expected `do:` with at least one step "
                               "(draw, move, give, steal, swap, refill, set, add, end_turn, ...)")
            return
        action.do = self.steps(spec["do"], spec.line_of("do"), inner, f"action '{action.name}'")

    # ----- steps
    # -------------------------------------------------------------------------------------------------
    def steps(self, data, line: int, scope: Scope, where: str) -> list:
        if data is None:
            return []
        if not isinstance(data, list):
            self.problem(line, f"{where} is {_kind(data)}; expected a list of steps (- draw: ...)")
            return []
        out = []
        for index, item in enumerate(data):
            step = self.step(item, data.line_of(index), scope, where)
            if step is not None:
                out.append(step)
        return out

    def step(self, item, line: int, scope: Scope, where: str):
        if isinstance(item, str) and item in ("end_turn",):
            item = YDict(end_turn=True)
            item.line, item.key_lines = line, {"end_turn": line}
        if not isinstance(item, dict) or not item:
            self.problem(line, f"a step of {where} is {_kind(item)}; expected a mapping with one of "
                               f"{known_list(STEP_VERBS, 30)}")
            return None
        verbs = [k for k in item if k in STEP_VERBS]
        unknown = [k for k in item if k not in STEP_VERBS and k not in STEP_MODIFIERS]
        for key in unknown:
            self.problem(
                item.line_of(key),
                f"unknown effect '{key}' in {where}{did_you_mean(str(key), STEP_VERBS)}; "
                f"expected one of {known_list(STEP_VERBS, 30)}",
            )
        if unknown:
            return None
        if not verbs and "if" in item:
            verbs = []
            self.problem(line, f"a step of {where} has `if:` but nothing to do; expected a step beside it or "
                               "`then:` steps")
            return None
        if len(verbs) != 1:
            self.problem(line, f"a step of {where} has {' and '.join(verbs) or 'no verb'}; expected one of "
                               f"{known_list(STEP_VERBS, 30)} per step")
            return None
        verb = verbs[0]
        vline = item.line_of(verb)
        value = item[verb]
        build = getattr(self, "s_" + verb)
        step = build(value, vline, scope, item)
        if step is None:
            return None
        step.file, step.line = self.file, vline
        if "if" in item and verb != "then":
            step.condition = self.expression(item["if"], item.line_of("if"), scope)
        return step

    def _args(self, verb: str, value, line: int, required: tuple[str, ...]) -> dict | None:
        allowed = STEP_VERBS[verb]
        if not isinstance(value, dict):
            if allowed and not isinstance(value, list):
                value_map = YDict({allowed[0]: value})
                value_map.line, value_map.key_lines = line, {allowed[0]: line}
                value = value_map
            else:
                self.problem(line, f"'{verb}' is {_kind(value)}; expected a mapping of {', '.join(allowed)}")
                return None
        if not self.keys(value, allowed, f"'{verb}'"):
            return None
        missing = [k for k in required if k not in value]
        if missing:
            self.problem(
                line, f"'{verb}' needs {', '.join(missing)}; expected {verb}: {{{', '.join(required)}}}"
            )
            return None
        return value

    def _zone(self, args, key: str, scope: Scope, default: str | None = None):
        text = args.get(key, default)
        return self.expression(text, args.line_of(key), scope, (ZONE,), f"'{key}'")

    def _per_player_zone(self, args, key: str, line: int, default: str | None = None) -> str:
        name = args.get(key, default)
        zone = self.program.zones.get(str(name))
        if zone is None or not zone.per_player:
            mine = [z for z, spec in self.program.zones.items() if spec.per_player]
            self.problem(
                args.line_of(key) if key in args else line,
                f"'{name}' is not a zone of each player{did_you_mean(str(name), mine)}; expected one of "
                f"{known_list(mine) or '(no zone has owner: player)'}",
            )
            return ""
        return str(name)

    def s_shuffle(self, value, line, scope, item):
        args = self._args("shuffle", value, line, ("zone",))
        if args is None:
            return None
        return st.Shuffle(self._zone(args, "zone", scope), args.get("label") or item.get("label"))

    def s_draw(self, value, line, scope, item):
        args = self._args("draw", value, line, ("from", "to"))
        if args is None:
            return None
        count = self.expression(args.get("count", 1), args.line_of("count"), scope, (NUMBER,), "count")
        return st.Draw(self._zone(args, "from", scope), self._zone(args, "to", scope), count)

    def s_deal(self, value, line, scope, item):
        args = self._args("deal", value, line, ("from", "to", "count"))
        if args is None:
            return None
        count = self.expression(args["count"], args.line_of("count"), scope, (NUMBER,), "count")
        return st.Deal(self._zone(args, "from", scope), self._per_player_zone(args, "to", line), count)

    def s_move(self, value, line, scope, item):
        args = self._args("move", value, line, ("from", "to"))
        if args is None:
            return None
        if ("card" in args) == ("where" in args):
            self.problem(
                line,
                "'move' needs `card:` (one card) or `where:` (every card for which it holds), not "
                f"{'both' if 'card' in args else 'neither'}",
            )
            return None
        card = where = None
        if "card" in args:
            card = self.expression(args["card"], args.line_of("card"), scope, (CARD, TEXT, LIST), "'card'")
        else:
            where = self.expression(args["where"], args.line_of("where"),
                                    scope.with_names({"card": Name(CARD, _bound("card"))}))
        return st.Move(card, where, self._zone(args, "from", scope), self._zone(args, "to", scope))

    def s_give(self, value, line, scope, item):
        args = self._args("give", value, line, ("card", "to"))
        if args is None:
            return None
        card = self.expression(args["card"], args.line_of("card"), scope, (CARD, TEXT), "'card'")
        seat = self.expression(args["to"], args.line_of("to"), scope, (SEAT, NUMBER), "'to'")
        default = next((z for z, spec in self.program.zones.items() if spec.per_player), None)
        return st.Give(card, seat, self._per_player_zone(args, "zone", line, default))

    def s_steal(self, value, line, scope, item):
        args = self._args("steal", value, line, ("from",))
        if args is None:
            return None
        seat = self.expression(args["from"], args.line_of("from"), scope, (SEAT, NUMBER), "'from'")
        count = self.expression(args.get("count", 1), args.line_of("count"), scope, (NUMBER,), "count")
        default = next((z for z, spec in self.program.zones.items() if spec.per_player), None)
        zone = self._per_player_zone(args, "zone", line, default)
        return st.Steal(
            seat, count, zone, self._zone(args, "to", scope, zone), str(args.get("label", "steal"))
        )

    def s_swap(self, value, line, scope, item):
        args = self._args("swap", value, line, ("zone", "with"))
        if args is None:
            return None
        return st.Swap(self._zone(args, "zone", scope), self._zone(args, "with", scope))

    def s_refill(self, value, line, scope, item):
        args = self._args("refill", value, line, ("zone", "from", "size"))
        if args is None:
            return None
        size = self.expression(args["size"], args.line_of("size"), scope, (NUMBER,), "size")
        return st.Refill(self._zone(args, "zone", scope), self._zone(args, "from", scope), size)

    def s_attach(self, value, line, scope, item):
        args = self._args("attach", value, line, ("card", "from", "to"))
        if args is None:
            return None
        card = self.expression(args["card"], args.line_of("card"), scope, (CARD, TEXT, LIST), "'card'")
        target = self.expression(args["to"], args.line_of("to"), scope, (CARD,), "'to'")
        return st.Attach(card, self._zone(args, "from", scope), target)

    def s_lay_sets(self, value, line, scope, item):
        args = self._args("lay_sets", value, line, ("from", "to", "by", "size"))
        if args is None:
            return None
        by = str(args["by"])
        fields = frozenset().union(*self.decks.values()) if self.decks else frozenset()
        if by not in fields and by not in ("id", "name"):
            self.problem(args.line_of("by"), f"'lay_sets' by '{by}': no deck has that field"
                                             f"{did_you_mean(by, fields)}; known: {known_list(fields, 30)}")
        size = self.expression(args["size"], args.line_of("size"), scope, (NUMBER,), "size")
        return st.LaySets(self._zone(args, "from", scope), self._zone(args, "to", scope), by, size)

    def _counter_step(self, verb, value, line, scope, item):
        if not isinstance(value, dict) or not value:
            self.problem(line, f"'{verb}' is {_kind(value)}; expected a mapping of counter: value")
            return None
        values = []
        for name, expr in value.items():
            counter = self.program.counters.get(name)
            if counter is None:
                known = list(self.program.counters)
                self.problem(
                    value.line_of(name),
                    f"'{verb}': '{name}' is not a counter{did_you_mean(str(name), known)}"
                    f"; known: {known_list(known) or '(no counters:)'}",
                )
                continue
            want = (NUMBER, BOOL) if verb == "add" else ()
            values.append(
                (name, counter.per_player, self.expression(expr, value.line_of(name), scope, want, verb))
            )
        seat = self.expression(item["seat"], item.line_of("seat"), scope, (SEAT, NUMBER), "'seat'") \
            if "seat" in item else None
        return st.Counter(verb, values, seat)

    def s_set(self, value, line, scope, item):
        return self._counter_step("set", value, line, scope, item)

    def s_add(self, value, line, scope, item):
        return self._counter_step("add", value, line, scope, item)

    def s_then(self, value, line, scope, item):
        if "if" not in item:
            self.problem(line, "`then:` without `if:`; expected if: <condition> beside it")
            return None
        test = self.expression(item["if"], item.line_of("if"), scope)
        return st.Branch(test, self.steps(value, line, scope, "then"),
                         self.steps(item.get("else"), item.line_of("else"), scope, "else"))

    def s_choose(self, value, line, scope, item):
        names = value if isinstance(value, list) else [value]
        actions = []
        for index, name in enumerate(names):
            spec = self.program.actions.get(name)
            if spec is None:
                at = names.line_of(index) if isinstance(names, YList) else line
                self.problem(
                    at,
                    f"unknown action '{name}'{did_you_mean(str(name), self.program.actions)}; known: "
                    f"{known_list(self.program.actions) or '(no actions:)'}",
                )
                continue
            actions.append(spec)
        if_none = item.get("if_none", "skip")
        if if_none not in ("skip", "end_turn", "fail"):
            self.problem(item.line_of("if_none"), f"if_none '{if_none}'; expected skip, end_turn or fail")
        refuse = item.get("refuse")
        if refuse is not None and not isinstance(refuse, str):
            self.problem(item.line_of("refuse"), f"choose: refuse is {_kind(refuse)}; expected the text that "
                                                 "refuses an action this choice does not offer")
            refuse = None
        return st.Choose(actions, if_none, refuse)

    def s_repeat(self, value, line, scope, item):
        args = self._args("repeat", value, line, ())
        if args is None:
            return None
        if "max" not in args:
            self.problem(
                line,
                "a repeat without `max:` could go on for ever; expected max: <most times> (and "
                "until: <condition> to stop earlier)",
            )
            return None
        if not args.get("do"):
            self.problem(line, "a repeat with nothing to `do:`; expected do: [steps]")
            return None
        most = self.expression(args["max"], args.line_of("max"), scope, (NUMBER,), "max")
        until = self.expression(args["until"], args.line_of("until"), scope) if "until" in args else None
        return st.Repeat(self.steps(args["do"], args.line_of("do"), scope, "repeat"), until, most)

    def s_end_turn(self, value, line, scope, item):
        return st.EndTurn()

    def s_end_game(self, value, line, scope, item):
        return st.EndGame("end_game", str(value))

    def s_trigger(self, value, line, scope, item):
        return st.EndGame("trigger", str(value))

    def s_complete(self, value, line, scope, item):
        return st.Complete(self.expression(value, line, scope, (CARD, TEXT), "'complete'"))

    def s_first_player(self, value, line, scope, item):
        if value == "random":
            return st.FirstPlayer(None, str(item.get("label", "first-player")))
        return st.FirstPlayer(self.expression(value, line, scope, (SEAT, NUMBER), "first_player"), "")

    # ----- ends and bots
    # -----------------------------------------------------------------------------------------
    def _ends(self, data, line: int, scope: Scope) -> None:
        if data is None:
            self.problem(
                line, "the rules have no `end:`; expected when the game ends (- when: ..., ended_by: ...)"
            )
            return
        if not isinstance(data, list):
            self.problem(line, f"`end` is {_kind(data)}; expected a list of end conditions")
            return
        for index, item in enumerate(data):
            at = data.line_of(index)
            if not self.keys(item, END_KEYS, "an end condition"):
                continue
            if "when" not in item:
                self.problem(at, "an end condition without `when:`; expected when: <condition>")
                continue
            where = item.get("at", "once")
            if where not in WHERE:
                self.problem(
                    item.line_of("at"),
                    f"end at '{where}'; expected once (at once), round (the round is "
                    "played out) or round_end (checked as each round ends)",
                )
                continue
            reason = str(item.get("ended_by", f"end-{index + 1}"))
            when = self.expression(item["when"], item.line_of("when"), scope)
            getattr(self.program, WHERE[where]).append(EndCondition(when, reason, at))

    def _preferences(self, prefer, scope: Scope):
        table, bounds = {}, {}
        for action_name, text in prefer.items():
            spec = self.program.actions.get(action_name)
            if spec is None:
                self.problem(
                    prefer.line_of(action_name),
                    f"prefer: unknown action '{action_name}'"
                    f"{did_you_mean(str(action_name), self.program.actions)}; "
                    f"known: {known_list(self.program.actions)}",
                )
                continue
            names = {n: Name(CARD if cards else ANY, _bound(n)) for n, _read, cards in spec.params}
            table[action_name] = self.expression(text, prefer.line_of(action_name), scope.with_names(names))
            head = _head_bound(text)
            if head is not None:
                bounds[action_name] = head
        found = _by_action(table)
        found.bounds = bounds
        return found

    def _bots(self, data, line: int, scope: Scope) -> None:
        bots = self.program.bots
        if data is None:
            bots["random"] = ("random", None)
            return
        if not isinstance(data, dict):
            self.problem(
                line, f"`bots` is {_kind(data)}; expected a mapping of bot name: random or {{prefer: ...}}"
            )
            return
        inner = scope.with_names({"action": Name(ACTION, _bound("action"))})
        for name, spec in data.items():
            at = data.line_of(name)
            if spec == "random":
                bots[name] = ("random", None)
            elif (
                isinstance(spec, dict) and self.keys(spec, ("prefer",), f"bot '{name}'") and "prefer" in spec
            ):
                prefer = spec["prefer"]
                # per action: its parameters are names, an action not named is last
                if isinstance(prefer, dict):
                    bots[name] = ("greedy", self._preferences(prefer, inner))
                else:
                    bots[name] = ("greedy", self.expression(prefer, spec.line_of("prefer"), inner))
            elif not isinstance(spec, dict):
                self.problem(
                    at, f"bot '{name}' is {spec!r}; expected random or {{prefer: <score of an action>}}"
                )


def _head_bound(text) -> float | None:
    """The most the first item of a `prefer` list can be, when the expression says it (`[40, ...]`, `[50] if
    ... else [0]`); None when it does not. A greedy bot passes over an action whose bound is below the first
    item of the best value found: it cannot be higher."""
    try:
        tree = parse(text) if isinstance(text, str) else None
    except ExpressionError:
        return None

    def bound(node):
        if isinstance(node, jinja_nodes.List) and node.items and isinstance(node.items[0], jinja_nodes.Const):
            head = node.items[0].value
            return head if isinstance(head, (int, float)) and not isinstance(head, bool) else None
        if isinstance(node, jinja_nodes.CondExpr):
            yes = bound(node.expr1)
            no = bound(node.expr2) if node.expr2 is not None else yes
            return None if yes is None or no is None else max(yes, no)
        return None

    return bound(tree) if tree is not None else None


def _by_action(table: dict):
    """A `prefer` given per action: the value of the action's own expression, None (last) for the others."""

    def prefer(s, b):
        read = table.get(b["action"].name)
        return None if read is None else read(s, b)

    prefer.table = table  # engine.Bot reads the action's own expression without this call
    return prefer


def _kind(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "empty"
    return f"{value!r}"


def _broken(s, b):  # pragma: no cover - a program with problems is never played
    raise AssertionError("a rules file with problems is never played")


def _constant(value):
    return lambda s, b: value


def _src(read, source: str):
    """`read`, with the Python source expressions.Source writes for it (the names of a rules file enter it
    as literals only)."""
    read.src = source
    return read


def _bound(name: str):
    return _src(lambda s, b: b.get(name), f"b.get({name!r})")


def _table_read(name: str):
    return _src(lambda s, b: s.tables[name], f"s.tables[{name!r}]")


def _own_zone(name: str):
    return _src(lambda s, b: s.pzones[name][s.me], f"s.pzones[{name!r}][s.me]")


def _shared_zone(name: str):
    return _src(lambda s, b: s.zones[name], f"s.zones[{name!r}]")


def _own_counter(name: str):
    return _src(lambda s, b: s.pcounters[name][s.me], f"s.pcounters[{name!r}][s.me]")


def _shared_counter(name: str):
    return _src(lambda s, b: s.counters[name], f"s.counters[{name!r}]")


def _kept(name: str, read):
    """A named value worked out once per epoch and seat (a bot asks for it once per legal action): it reads
    the table only, which no one changes between two steps."""

    def kept(s, b):
        key = (name, s.epoch, s.me)
        found = s.kept.get(key, _missing)
        if found is _missing:
            if len(s.kept) > 1024:
                s.kept.clear()
            found = s.kept[key] = read(s, b)
        return found

    kept.inline = ("step", name, _missing)  # expressions.Source reads the kept value without a call
    return kept


_missing = object()


def _one_parameter(name: str, param: str, read, game_long: bool, general):
    """The value of one parameter as `general` keeps it, without building argument tuples (the common
    case: a value of a card, of a seat)."""

    def function(s, arg=None, *more):
        if more:
            return general(s, arg, *more)
        if game_long:
            kind = type(arg)
            if kind is Card:
                key = (name, _card_key(arg) if arg.under else arg)
            else:  # as _steady_key keys one argument: a text or number as it is, anything else not kept
                key = (name, arg) if kind in _STEADY_TYPES or kind is Payment else None
            if key is not None:
                found = s.steady.get(key, _missing)
                if found is _missing:
                    if len(s.steady) > 4096:
                        s.steady.clear()
                    found = s.steady[key] = read(s, {param: arg})
                return found
        key = (name, s.epoch, s.me, arg)
        try:
            found = s.kept.get(key, _missing)
        except TypeError:  # an argument that is no key (a list): worked out each time
            return read(s, {param: arg})
        if found is _missing:
            if len(s.kept) > 1024:
                s.kept.clear()
            found = s.kept[key] = read(s, {param: arg})
        return found

    return function


def _kept_for_game(name: str, read):
    """A named value that reads only what stays the same for a whole game: worked out once per game."""

    def kept(s, b):
        found = s.steady.get(name, _missing)
        if found is _missing:
            found = s.steady[name] = read(s, b)
        return found

    kept.inline = ("game", name, _missing)
    return kept


_STEADY_TYPES = (str, int, float, bool, type(None))


def _steady_key(name: str, args: tuple):
    """The key of a game-long value's arguments: cards by what lies under them, texts and numbers as they
    are; None for any other argument (a seat, a list: it reaches the table, so it is kept one step only)."""
    key: list = [name]
    for arg in args:
        kind = type(arg)
        if kind is Card:
            key.append(_card_key(arg))
        elif kind in _STEADY_TYPES or kind is Payment:
            key.append(arg)
        else:
            return None
    return tuple(key)


def _card_key(card: Card):
    under = card.under
    if not under:
        return card
    for laid in under:  # cards under a card seldom have cards under them: one C-level tuple then
        if laid.under:
            break
    else:
        return (card, *under)
    key = [card]
    for laid in under:
        key.append(_card_key(laid) if laid.under else laid)
    return tuple(key)


def _params_of(spec) -> list[str]:
    """The parameter names of a value `{of: [x], is: ...}` (none for a plain value)."""
    if not isinstance(spec, dict):
        return []
    params = spec.get("of") or []
    return [params] if isinstance(params, str) else list(params)


def _seat_reader(program: Program):
    def reader(part: str):
        if part in program.zones:
            return lambda s, seat: s.pzones[part][seat]
        return lambda s, seat: s.pcounters[part][seat]

    return reader


def _located(read, file: str, line: int, text):
    """`read`, whose failures (a wrong value at run time) name the rules file's line (a written expression
    catches them in its own function: no call more per evaluation)."""
    locate = getattr(read, "locate", None)
    if locate is not None:
        return locate(_failure(file, line, text))

    def located(s, b):
        try:
            return read(s, b)
        except (RulesFailure, RulesLimit) as exc:
            message = str(exc)
            if message.startswith(f"{file}:"):
                raise
            raise type(exc)(f"{file}:{line}: {message}") from None
        except (TypeError, ValueError, AttributeError, ZeroDivisionError, IndexError, KeyError) as exc:
            raise RulesFailure(
                f"{file}:{line}: '{text}' cannot be worked out: {type(exc).__name__}: {exc}"
            ) from None

    return located


def _failure(file: str, line: int, text):
    """What a failure while working out the expression `text` becomes: the same failure, at the line."""

    def failure(exc: Exception) -> Exception:
        if isinstance(exc, (RulesFailure, RulesLimit)):
            message = str(exc)
            return exc if message.startswith(f"{file}:") else type(exc)(f"{file}:{line}: {message}")
        return RulesFailure(f"{file}:{line}: '{text}' cannot be worked out: {type(exc).__name__}: {exc}")

    return failure


def read_program(
    text: str, file: str, decks: dict[str, frozenset], settings: dict, built_ins: dict
) -> Program:
    """The compiled rules file (InputError with one located problem per mistake)."""
    return Reader(text, file, decks, settings, built_ins).read()
