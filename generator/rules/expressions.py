"""The expression language of rules files: Jinja's expression syntax, type-checked and compiled once into
one Python function each.

An expression is parsed with Jinja's parser (the syntax of `checks:` in game.yaml), checked against what its
names are (a zone, a card, a seat, a number...) and compiled into a tree of Python closures `f(state, bound)`
(`Compiler`), then written again as the source of one function (`Source`: the language's own forms, the rules
file's names and texts as literals): no template is rendered per evaluation, and one evaluation is one call.
`bound` holds the values an action or a step binds (`card`, `seat`,
...). Nothing can loop in an expression (no loops, no recursion: named values may not refer to themselves);
what could blow up (a range, `*` and `**` on big values) is bounded, and every failure while evaluating names
the rules file's line.
"""

from __future__ import annotations

import keyword
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from jinja2 import Environment, nodes
from jinja2.exceptions import TemplateSyntaxError
from jinja2.parser import Parser

from generator.core.errors import did_you_mean, known_list
from generator.core.limits import MAX_TEMPLATE_INT_BITS, MAX_TEMPLATE_RANGE, MAX_TEMPLATE_TEXT, LimitExceeded

# the kinds of value an expression has, as the checks name them
NUMBER, BOOL, TEXT, CARD, ZONE, SEAT, LIST, ACTION, SETTINGS, ANY = (
    "number", "flag", "text", "card", "zone", "seat", "list", "action", "settings", "value")
ZONE_PARTS = {"size": NUMBER, "top": CARD, "bottom": CARD, "empty": BOOL, "cards": LIST}
CARD_PARTS = {"id": TEXT, "name": TEXT, "copies": NUMBER, "deck": TEXT, "under": ZONE}
_PARSER_ENV = Environment()  # only its parser is used


class ExpressionError(ValueError):
    """A mistake in an expression found while compiling it (the message names the expression)."""


class RulesLimit(LimitExceeded):
    """An expression or a turn that does more than the bounds allow."""


class RulesFailure(RuntimeError):
    """A rule that cannot be carried out while a game is played (located at its rules file line)."""


Compiled = Callable[[Any, dict], Any]


@dataclass
class Name:
    """What a name stands for while compiling: its kind and how to read it (`of_kind` for lists: their
    items)."""

    kind: str
    read: Compiled
    of_kind: str = ANY
    fields: frozenset = frozenset()  # the fields of a card, or the parts of a seat


@dataclass
class Scope:
    """The names an expression may use, and what the cards and seats have."""

    names: dict[str, Name]
    card_fields: frozenset  # every field a card of any deck of the game has
    # seat attribute -> kind (per-player zones, counters)
    seat_parts: dict[str, str] = field(default_factory=dict)
    seat_read: Callable[[str], Callable[[Any, int], Any]] | None = None  # part name -> read(state, seat)
    action_parts: dict[str, str] = field(default_factory=dict)
    functions: dict[str, Callable] = field(default_factory=dict)  # named built-ins (the game's own)

    def with_names(self, extra: dict[str, Name]) -> Scope:
        """This scope and `extra` names (an action's parameters)."""
        return Scope(
            {**self.names, **extra},
            self.card_fields,
            self.seat_parts,
            self.seat_read,
            self.action_parts,
            self.functions,
        )


def parse(text: str) -> nodes.Expr:
    """The expression tree of `text` (ExpressionError when it does not parse or has more after it)."""
    try:
        parser = Parser(_PARSER_ENV, str(text), state="variable")
        tree = parser.parse_expression()
        if parser.stream.current.type != "eof":
            raise ExpressionError(
                f"'{text}' does not parse: unexpected '{parser.stream.current.value}' after "
                "the expression; expected one expression"
            )
    except TemplateSyntaxError as exc:
        raise ExpressionError(f"'{text}' does not parse: {exc.message}; expected an expression like "
                              "\"hand.size > 0\"") from None
    return tree


def show(node: nodes.Node) -> str:
    """An expression tree written back as text (for messages)."""
    kind = type(node)
    if kind is nodes.Name:
        return node.name
    if kind is nodes.Const:
        return repr(node.value) if isinstance(node.value, str) else str(node.value).lower() \
            if isinstance(node.value, bool) or node.value is None else str(node.value)
    if kind is nodes.Getattr:
        return f"{show(node.node)}.{node.attr}"
    if kind is nodes.Getitem:
        return f"{show(node.node)}[{show(node.arg)}]"
    if isinstance(node, nodes.BinExpr):
        return f"{show(node.left)} {node.operator} {show(node.right)}"
    if isinstance(node, nodes.UnaryExpr):
        return f"{node.operator} {show(node.node)}".replace("- ", "-")
    if kind is nodes.Compare:
        return show(node.expr) + "".join(f" {_OP_TEXT.get(o.op, o.op)} {show(o.expr)}" for o in node.ops)
    if kind is nodes.Call:
        return f"{show(node.node)}({', '.join(show(a) for a in node.args)})"
    if kind is nodes.Filter:
        args = f"({', '.join(show(a) for a in node.args)})" if node.args else ""
        return f"{show(node.node)} | {node.name}{args}"
    if kind in (nodes.List, nodes.Tuple):
        return f"[{', '.join(show(i) for i in node.items)}]"
    if kind is nodes.CondExpr:
        return f"{show(node.expr1)} if {show(node.test)} else {show(node.expr2) if node.expr2 else 'none'}"
    return type(node).__name__


_OP_TEXT = {
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "lteq": "<=",
    "gt": ">",
    "gteq": ">=",
    "in": "in",
    "notin": "not in",
}
_COMPARE = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "lteq": operator.le,
    "gt": operator.gt,
    "gteq": operator.ge,
    "in": lambda a, b: _contains(b, a),
    "notin": lambda a, b: not _contains(b, a),
}


def _contains(container, item) -> bool:
    """`item in container`; a card id (text) is in a zone that holds a card of that id."""
    if container is None:
        return False
    if type(item) is str and isinstance(container, list) and container and type(container[0]) is not str:
        return any(getattr(c, "id", c) == item for c in container)
    return item in container


def _bounded_pow(a, b):
    if (
        isinstance(a, int)
        and isinstance(b, int)
        and b > 0
        and abs(a) > 1
        and b * abs(a).bit_length() > MAX_TEMPLATE_INT_BITS
    ):
        raise RulesLimit(
            f"{a} ** {b} is a number of more than {MAX_TEMPLATE_INT_BITS:,} bits; expected a smaller power"
        )
    return a ** b


def _bounded_mul(a, b):
    for seq, count in ((a, b), (b, a)):
        if (
            isinstance(seq, (str, list, tuple))
            and isinstance(count, int)
            and len(seq) * max(count, 0) > MAX_TEMPLATE_TEXT
        ):
            raise RulesLimit(
                f"repeating a {type(seq).__name__} {count} times would be more than {MAX_TEMPLATE_TEXT:,} "
                "long; expected smaller values"
            )
    if isinstance(a, int) and isinstance(b, int) and a.bit_length() + b.bit_length() > MAX_TEMPLATE_INT_BITS:
        raise RulesLimit(f"a product of more than {MAX_TEMPLATE_INT_BITS:,} bits; expected smaller numbers")
    return a * b


def _bounded_range(*args):
    numbers = range(*args)
    if len(numbers) > MAX_TEMPLATE_RANGE:
        raise RulesLimit(f"range() of more than {MAX_TEMPLATE_RANGE:,} numbers; expected a smaller range")
    return numbers


def _divide(a, b):
    return a / b if b else 0  # a rule dividing by nothing gets nothing, as a score of 0 out of 0 is 0


_BINARY = {nodes.Add: operator.add, nodes.Sub: operator.sub, nodes.Mul: _bounded_mul, nodes.Div: _divide,
           nodes.FloorDiv: lambda a, b: a // b if b else 0, nodes.Mod: lambda a, b: a % b if b else 0,
           nodes.Pow: _bounded_pow}


def field_of(value, name: str):
    """A card's field, a seat's part or an action's parameter at run time (None when the value has none)."""
    if value is None:
        return None
    fields = getattr(value, "fields", None)  # a card: its fields at once (one call less per read)
    if fields is not None and name != "under" and type(fields) is dict:
        return fields.get(name)
    get = getattr(value, "part", None)
    if get is not None:
        return get(name)
    if isinstance(value, dict):
        return value.get(name)
    return None


def _values(items, attribute):
    if attribute is None:
        return list(items)
    if attribute == "under":
        return [field_of(item, attribute) for item in items]
    # a card's field read at once (as field_of reads it), anything else by field_of
    return [f.get(attribute) if type(f := getattr(item, "fields", None)) is dict
            else field_of(item, attribute) for item in items]


_SELECT_TESTS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
                 ">=": operator.ge, "in": lambda a, b: a in b, "equalto": operator.eq}


def _select(items, attribute, test="==", value=True, keep=True):
    compare = _SELECT_TESTS.get(test)
    if compare is None:
        raise RulesFailure(f"selectattr test '{test}'; expected one of ==, !=, <, <=, >, >=, in")
    if attribute == "under":
        return [i for i in items if bool(compare(field_of(i, attribute), value)) == keep]
    # a card's field read at once (as field_of reads it), anything else by field_of
    return [i for i in items if bool(compare(f.get(attribute) if type(f := getattr(i, "fields", None)) is dict
                                             else field_of(i, attribute), value)) == keep]


def _unique(items):
    seen, out = set(), []
    for item in items:
        key = getattr(item, "id", item)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _sort_key(item):
    return (str(type(item).__name__), getattr(item, "id", item))


FILTERS: dict[str, tuple[Callable, str]] = {  # name -> (function(value, *args), kind of the result)
    "length": (len, NUMBER),
    "count": (len, NUMBER),
    # a value that is nothing (none, 0, false) adds 0: the others summed (a C-level filter)
    "sum": (lambda items, attribute=None: sum(filter(None, _values(items, attribute))), NUMBER),
    "map": (lambda items, attribute=None: _values(items, attribute), LIST),
    "selectattr": (
        lambda items, attribute, test="==", value=True: _select(items, attribute, test, value),
        LIST,
    ),
    "rejectattr": (
        lambda items, attribute, test="==", value=True: _select(items, attribute, test, value, False),
        LIST,
    ),
    "unique": (_unique, LIST),
    "list": (list, LIST),
    "sort": (
        lambda items, attribute=None: sorted(
            items, key=lambda i: _sort_key(field_of(i, attribute) if attribute else i)
        ),
        LIST,
    ),
    "first": (lambda items: items[0] if items else None, ANY),
    "last": (lambda items: items[-1] if items else None, ANY),
    "max": (lambda items, attribute=None: max(_values(items, attribute), default=0), NUMBER),
    "min": (lambda items, attribute=None: min(_values(items, attribute), default=0), NUMBER),
    "abs": (abs, NUMBER),
    "int": (lambda v: int(v or 0), NUMBER),
}
FUNCTIONS: dict[str, tuple[Callable, str]] = {
    "len": (len, NUMBER),
    "abs": (abs, NUMBER),
    "range": (_bounded_range, LIST),
    "min": (lambda *a: min(*a) if len(a) > 1 else min(a[0], default=0), NUMBER),
    "max": (lambda *a: max(*a) if len(a) > 1 else max(a[0], default=0), NUMBER),
    "sum": (lambda items: sum(items), NUMBER),
    "any": (any, BOOL),
    "all": (all, BOOL),
    "count": (
        lambda items, value: sum(1 for i in items if getattr(i, "id", i) == value or i == value),
        NUMBER,
    ),
}
TESTS = {
    "none": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "even": lambda v: v % 2 == 0,
    "odd": lambda v: v % 2 == 1,
    "divisibleby": lambda v, n: n and v % n == 0,
    "defined": lambda v: v is not None,
}
NUMBERISH = (NUMBER, BOOL, ANY)


class Compiler:
    """Compiles one expression against a scope; `text` is the whole expression, for messages."""

    def __init__(self, scope: Scope, text: str):
        self.scope, self.text = scope, text
        # id(node) -> (node, its compiled form), for Source
        self.done: dict[int, tuple[nodes.Node, tuple[Compiled, str, str]]] = {}

    def fail(self, node: nodes.Node, message: str) -> ExpressionError:
        part = show(node)
        where = f"'{self.text}'" if part == self.text.strip() else f"'{part}' in '{self.text}'"
        return ExpressionError(f"{where}: {message}")

    def compile(self, node: nodes.Node) -> tuple[Compiled, str, str]:
        """(closure, kind, kind of the items when a list or zone)."""
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(
                node,
                f"{type(node).__name__} expressions are not part of the rules language; expected "
                "names, numbers, texts, lists, operators, comparisons, filters and calls",
            )
        found = method(node)
        self.done[id(node)] = (node, found)
        return found

    def c_Const(self, node):
        value = node.value
        kind = BOOL if isinstance(value, bool) else NUMBER if isinstance(value, (int, float)) else \
            TEXT if isinstance(value, str) else ANY
        return (lambda s, b: value), kind, ANY

    def c_Name(self, node):
        found = self.scope.names.get(node.name)
        if found is None:
            known = sorted(self.scope.names) + sorted(self.scope.functions)
            raise self.fail(node, f"unknown name '{node.name}'{did_you_mean(node.name, known)}; known: "
                                  f"{known_list(known, 40)}")
        return found.read, found.kind, found.of_kind

    def c_Getattr(self, node):
        inner, kind, _of = self.compile(node.node)
        attr = node.attr
        if kind == ZONE:
            if attr not in ZONE_PARTS:
                raise self.fail(
                    node,
                    f"a zone has no '{attr}'{did_you_mean(attr, ZONE_PARTS)}; expected one of "
                    f"{', '.join(ZONE_PARTS)}",
                )
            return _zone_part(inner, attr), ZONE_PARTS[attr], CARD
        if kind == CARD:
            known = set(self.scope.card_fields) | set(CARD_PARTS)
            if attr not in known:
                raise self.fail(
                    node,
                    f"cards have no field '{attr}'{did_you_mean(attr, known)}; the decks' fields "
                    f"are {known_list(self.scope.card_fields, 40)}",
                )
            if attr == "under":
                return (lambda s, b: field_of(inner(s, b), attr)), ZONE, CARD
            return (lambda s, b: (card.fields.get(attr) if (card := inner(s, b)) is not None else None)), \
                CARD_PARTS.get(attr, ANY), CARD
        if kind == SEAT:
            parts = self.scope.seat_parts
            if attr not in parts:
                raise self.fail(
                    node,
                    f"a seat has no '{attr}'{did_you_mean(attr, parts)}; a seat's parts are its "
                    f"zones and counters: {known_list(parts, 40)}",
                )
            read = self.scope.seat_read(attr)
            return (lambda s, b: read(s, inner(s, b))), parts[attr], CARD
        if kind == ACTION:
            parts = self.scope.action_parts
            if attr not in parts:
                raise self.fail(node, f"an action has no '{attr}'{did_you_mean(attr, parts)}; known: "
                                      f"{known_list(parts, 40)}")
            return (lambda s, b: field_of(inner(s, b), attr)), parts[attr], ANY
        if kind in (NUMBER, BOOL, TEXT):
            raise self.fail(
                node, f"a {kind} has no '{attr}'; expected a zone, card, seat or action before the dot"
            )
        return (lambda s, b: field_of(inner(s, b), attr)), ANY, ANY

    def c_Getitem(self, node):
        inner, kind, of = self.compile(node.node)
        if isinstance(node.arg, nodes.Slice):
            raise self.fail(node, "slices are not part of the rules language; expected one index")
        index, index_kind, _ = self.compile(node.arg)
        if kind in (NUMBER, BOOL):
            raise self.fail(node, f"a {kind} cannot be indexed; expected a list, zone or table")

        def item(s, b):
            value, key = inner(s, b), index(s, b)
            try:
                return value[key]
            except (IndexError, KeyError, TypeError):
                return None

        return item, of if kind in (LIST, ZONE) else ANY, ANY

    def _number(self, node, kind, what: str):
        if kind not in NUMBERISH:
            hint = f"; expected {show(node)}.size" if kind == ZONE else ""
            raise self.fail(node, f"{what} needs numbers, but '{show(node)}' is a {kind}{hint}")

    def _binary(self, node, function):
        left, lkind, lof = self.compile(node.left)
        right, rkind, rof = self.compile(node.right)
        if isinstance(node, nodes.Add) and (lkind in (TEXT, LIST) or rkind in (TEXT, LIST)):
            if lkind in (ZONE, CARD, SEAT) or rkind in (ZONE, CARD, SEAT):
                raise self.fail(node, f"'+' joins texts or lists, not a {lkind} and a {rkind}")
            return (lambda s, b: _joined(left(s, b), right(s, b))), lkind if lkind != ANY else rkind, lof
        if not (isinstance(node, nodes.Mul) and (lkind in (TEXT, LIST) or rkind in (TEXT, LIST))):
            self._number(node.left, lkind, f"'{node.operator}'")
            self._number(node.right, rkind, f"'{node.operator}'")

        def binary(s, b):
            try:
                return function(left(s, b), right(s, b))
            except TypeError:
                raise RulesFailure(f"'{show(node)}' cannot be worked out with {left(s, b)!r} and "
                                   f"{right(s, b)!r}") from None

        kind = LIST if LIST in (lkind, rkind) else ANY if ANY in (lkind, rkind) else NUMBER
        return binary, kind, ANY

    def c_Add(self, node):
        return self._binary(node, _BINARY[nodes.Add])

    def c_Sub(self, node):
        return self._binary(node, _BINARY[nodes.Sub])

    def c_Mul(self, node):
        return self._binary(node, _BINARY[nodes.Mul])

    def c_Div(self, node):
        return self._binary(node, _BINARY[nodes.Div])

    def c_FloorDiv(self, node):
        return self._binary(node, _BINARY[nodes.FloorDiv])

    def c_Mod(self, node):
        return self._binary(node, _BINARY[nodes.Mod])

    def c_Pow(self, node):
        return self._binary(node, _BINARY[nodes.Pow])

    def c_Concat(self, node):
        parts = [self.compile(n)[0] for n in node.nodes]
        return (lambda s, b: "".join(str(p(s, b)) for p in parts)), TEXT, ANY

    def c_Neg(self, node):
        inner, kind, _ = self.compile(node.node)
        self._number(node.node, kind, "'-'")
        return (lambda s, b: -(inner(s, b) or 0)), NUMBER, ANY

    def c_Pos(self, node):
        return self.compile(node.node)

    def c_Not(self, node):
        inner = self.compile(node.node)[0]
        return (lambda s, b: not inner(s, b)), BOOL, ANY

    def c_And(self, node):
        left, right = self.compile(node.left)[0], self.compile(node.right)[0]
        return (lambda s, b: left(s, b) and right(s, b)), BOOL, ANY

    def c_Or(self, node):
        left, lkind, lof = self.compile(node.left)
        right, rkind, _ = self.compile(node.right)
        return (lambda s, b: left(s, b) or right(s, b)), lkind if lkind == rkind else ANY, lof

    def c_CondExpr(self, node):
        test = self.compile(node.test)[0]
        yes, ykind, yof = self.compile(node.expr1)
        if node.expr2 is None:
            return (lambda s, b: yes(s, b) if test(s, b) else None), ykind, yof
        no, nkind, _ = self.compile(node.expr2)
        return (lambda s, b: yes(s, b) if test(s, b) else no(s, b)), ykind if ykind == nkind else ANY, yof

    def c_Compare(self, node):
        first, kind, _ = self.compile(node.expr)
        steps = []
        for operand in node.ops:
            right, rkind, _ = self.compile(operand.expr)
            if operand.op in ("lt", "lteq", "gt", "gteq"):
                for side, side_kind in (
                    (node.expr if not steps else operand.expr, kind),
                    (operand.expr, rkind),
                ):
                    if side_kind in (ZONE, CARD, SEAT, LIST):
                        hint = f"; expected {show(side)}.size" if side_kind == ZONE else ""
                        raise self.fail(node, f"'{_OP_TEXT[operand.op]}' compares numbers or texts, but "
                                              f"'{show(side)}' is a {side_kind}{hint}")
            steps.append((_COMPARE[operand.op], right))
            kind = rkind
        if len(steps) == 1:
            test, right = steps[0]
            return (lambda s, b: test(first(s, b), right(s, b))), BOOL, ANY

        def chain(s, b):
            value = first(s, b)
            for test, right in steps:
                other = right(s, b)
                if not test(value, other):
                    return False
                value = other
            return True

        return chain, BOOL, ANY

    def c_List(self, node):
        items = [self.compile(i) for i in node.items]
        reads = [i[0] for i in items]
        kinds = {i[1] for i in items}
        return (lambda s, b: [r(s, b) for r in reads]), LIST, kinds.pop() if len(kinds) == 1 else ANY

    c_Tuple = c_List

    def c_Dict(self, node):
        pairs = [(self.compile(p.key)[0], self.compile(p.value)[0]) for p in node.items]
        return (lambda s, b: {k(s, b): v(s, b) for k, v in pairs}), ANY, ANY

    def _arguments(self, node):
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            raise self.fail(node, "*args and **kwargs are not part of the rules language")
        args = [self.compile(a)[0] for a in node.args]
        kwargs = {k.key: self.compile(k.value)[0] for k in node.kwargs}
        return args, kwargs

    def c_Call(self, node):
        if not isinstance(node.node, nodes.Name):
            raise self.fail(
                node,
                "only the language's functions can be called (len, min, max, sum, count, any, "
                "all, abs, range and the game's built-ins); expected name(...)",
            )
        name = node.node.name
        own = self.scope.functions.get(name)
        if own is not None:
            args, kwargs = self._arguments(node)
            function, kind = own
            return (
                (
                    lambda s, b: function(
                        s, *[a(s, b) for a in args], **{k: v(s, b) for k, v in kwargs.items()}
                    )
                ),
                kind,
                ANY,
            )
        if name not in FUNCTIONS:
            known = sorted(FUNCTIONS) + sorted(self.scope.functions)
            raise self.fail(
                node, f"unknown function '{name}'{did_you_mean(name, known)}; known: {known_list(known)}"
            )
        function, kind = FUNCTIONS[name]
        args, kwargs = self._arguments(node)
        of = self.compile(node.args[0])[2] if name in ("range",) or not node.args else ANY
        return _guarded(node, function, args, kwargs, self.text), kind, NUMBER if name == "range" else of

    def c_Filter(self, node):
        if node.node is None:
            raise self.fail(node, "a filter needs a value before '|'")
        value, kind, of = self.compile(node.node)
        if node.name not in FILTERS:
            raise self.fail(node, f"unknown filter '{node.name}'{did_you_mean(node.name, FILTERS)}; known: "
                                  f"{known_list(FILTERS)}")
        # a value of the rules with a parameter, per item
        if node.name == "map" and node.args and isinstance(node.args[0], nodes.Const) \
                and node.args[0].value in self.scope.functions:
            own = self.scope.functions[node.args[0].value][0]
            return (lambda s, b: [own(s, item) for item in value(s, b) or ()]), LIST, ANY
        if node.name in (
            "length",
            "count",
            "sum",
            "map",
            "selectattr",
            "rejectattr",
            "unique",
            "list",
            "sort",
            "first",
            "last",
            "max",
            "min",
        ) and kind in (NUMBER, BOOL, CARD, SEAT):
            raise self.fail(
                node, f"the filter '{node.name}' needs a list or zone, but '{show(node.node)}' is a {kind}"
            )
        if node.name in ("map", "sum", "selectattr", "rejectattr", "sort", "max", "min") and of == CARD:
            first = (
                node.args[0]
                if node.args
                else next((k.value for k in node.kwargs if k.key == "attribute"), None)
            )
            if isinstance(first, nodes.Const) and isinstance(first.value, str):
                known = set(self.scope.card_fields) | set(CARD_PARTS)
                if first.value not in known:
                    raise self.fail(
                        node, f"cards have no field '{first.value}'{did_you_mean(first.value, known)}"
                    )
        function, result = FILTERS[node.name]
        args, kwargs = self._arguments(node)
        call = _guarded(node, function, [value, *args], kwargs, self.text)
        item_kind = of if node.name in ("selectattr", "rejectattr", "unique", "list", "sort") else ANY
        if node.name in ("first", "last"):
            result = of
        return call, result, item_kind

    def c_Test(self, node):
        value = self.compile(node.node)[0]
        test = TESTS.get(node.name)
        if test is None:
            raise self.fail(node, f"unknown test '{node.name}'{did_you_mean(node.name, TESTS)}; known: "
                                  f"{known_list(TESTS)}")
        args = [self.compile(a)[0] for a in node.args]
        return (lambda s, b: bool(test(value(s, b), *[a(s, b) for a in args]))), BOOL, ANY


def _joined(a, b):
    out = list(a or []) + list(b or []) if isinstance(a, list) or isinstance(b, list) else str(a) + str(b)
    if len(out) > MAX_TEMPLATE_TEXT:
        raise RulesLimit(
            f"joining two values would be more than {MAX_TEMPLATE_TEXT:,} long; expected smaller values"
        )
    return out


def _guarded(node, function, args, kwargs, text):
    """A call of a language function whose wrong arguments are a located failure, not a traceback."""

    def call(s, b):
        values = [a(s, b) for a in args]
        try:
            return function(*values, **{k: v(s, b) for k, v in kwargs.items()})
        except (TypeError, ValueError, AttributeError) as exc:
            raise RulesFailure(f"'{show(node)}' cannot be worked out: {exc}") from None

    return call


def _zone_part(inner: Compiled, part: str) -> Compiled:
    if part == "size":
        return lambda s, b: len(inner(s, b))
    if part == "top":
        return lambda s, b: (z[-1] if (z := inner(s, b)) else None)
    if part == "bottom":
        return lambda s, b: (z[0] if (z := inner(s, b)) else None)
    if part == "empty":
        return lambda s, b: not inner(s, b)
    return lambda s, b: list(inner(s, b))


class Source:
    """An expression compiled (and checked) by a Compiler, written again as the source of one Python function
    `f(s, b)`: one call per evaluation instead of one per node of the tree. Only the language's own forms are
    written: the rules file's texts, names and numbers enter as literals (`repr`) or as objects of the
    function's namespace, never as code. A form it does not write is the Compiler's closure, called."""

    WRITTEN_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "lteq": "<=", "gt": ">", "gteq": ">="}
    HELPED = {nodes.Mul: _bounded_mul, nodes.Div: _divide, nodes.FloorDiv: _BINARY[nodes.FloorDiv],
              nodes.Mod: _BINARY[nodes.Mod], nodes.Pow: _bounded_pow}

    def __init__(self, compiler: Compiler):
        self.compiler = compiler
        self.space: dict[str, Any] = {"_contains": _contains, "_field_of": field_of, "_joined": _joined,
                                      "_item": _item, "_map_own": _map_own}
        self.temps = 0

    def ref(self, value) -> str:
        """A name of the function's namespace holding `value`."""
        name = f"_k{len(self.space)}"
        self.space[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def closure(self, node) -> str:
        return f"{self.ref(self.compiler.done[id(node)][1][0])}(s, b)"

    def kind(self, node) -> str:
        return self.compiler.done[id(node)][1][1]

    def write(self, node) -> str:
        """The Python source of `node` (the Compiler compiled it)."""
        method = getattr(self, "w_" + type(node).__name__, None)
        found = method(node) if method is not None else None
        return found if found is not None else self.closure(node)

    def function(self, tree) -> Compiled:
        """The expression as a function; its `locate(failure)` is the same function catching what fails
        (see language._located) and raising `failure(exc)` instead."""
        body = self.write(tree)
        try:
            function = self._built(f"def _expression(s, b):\n    return {body}\n")
        except SyntaxError:  # pragma: no cover - a form written wrongly: the checked closures still play it
            return self.compiler.done[id(tree)][1][0]
        function.locate = lambda failure: self._built(
            f"def _expression(s, b):\n    try:\n        return {body}\n    except _caught as exc:\n"
            "        raise _failure(exc) from None\n", failure)
        return function

    def _built(self, source: str, failure=None) -> Compiled:
        code = compile(source, "<rules expression>", "exec")
        space = {**self.space, "_caught": CAUGHT, "_failure": failure}
        exec(code, space)  # the source above: the language's forms only (see the class)
        function = space["_expression"]
        function.source = source  # for a look while debugging a rules file
        return function

    def w_Const(self, node):
        value = node.value
        if value is None or type(value) in (bool, int, float, str):
            return repr(value)
        return self.ref(value)

    def w_Name(self, node):
        found = self.compiler.scope.names.get(node.name)
        if found is None:
            return None
        inline = getattr(found.read, "inline", None)
        if inline is not None:  # a kept value: read from where it is kept, worked out (a call) only once
            how, name, missing = inline
            read, t, gone = self.ref(found.read), self.temp(), self.ref(missing)
            where = f"s.steady.get({name!r}, {gone})" if how == "game" else \
                f"s.kept.get(({name!r}, s.epoch, s.me), {gone})"
            return f"({t} if ({t} := {where}) is not {gone} else {read}(s, b))"
        written = getattr(found.read, "src", None)
        return f"({written})" if written else None

    def w_Getattr(self, node):
        kind, inner, attr = self.kind(node.node), self.write(node.node), node.attr
        if kind == ZONE:
            if attr == "size":
                return f"len({inner})"
            if attr == "empty":
                return f"(not {inner})"
            if attr in ("top", "bottom"):
                t = self.temp()
                return f"({t}[{-1 if attr == 'top' else 0}] if ({t} := {inner}) else None)"
            return f"list({inner})"
        if kind == CARD and attr != "under":
            t = self.temp()
            return f"({t}.fields.get({attr!r}) if ({t} := {inner}) is not None else None)"
        if kind == SEAT:
            return f"{self.ref(self.compiler.scope.seat_read(attr))}(s, {inner})"
        if attr != "under":  # a card's field at once (as field_of reads it), anything else by field_of
            t = self.temp()
            return (f"({t}.fields.get({attr!r}) if type(getattr({t} := {inner}, 'fields', None)) is dict "
                    f"else _field_of({t}, {attr!r}))")
        return f"_field_of({inner}, {attr!r})"

    def w_Compare(self, node):
        if len(node.ops) != 1:
            return None
        op = node.ops[0]
        left, right = self.write(node.expr), self.write(op.expr)
        if op.op in self.WRITTEN_COMPARE:
            return f"({left} {self.WRITTEN_COMPARE[op.op]} {right})"
        if op.op == "in":
            return f"_contains({right}, {left})"
        if op.op == "notin":
            return f"(not _contains({right}, {left}))"
        return None

    def w_And(self, node):
        return f"({self.write(node.left)} and {self.write(node.right)})"

    def w_Or(self, node):
        return f"({self.write(node.left)} or {self.write(node.right)})"

    def w_Not(self, node):
        return f"(not {self.write(node.node)})"

    def w_CondExpr(self, node):
        no = self.write(node.expr2) if node.expr2 is not None else "None"
        return f"({self.write(node.expr1)} if {self.write(node.test)} else {no})"

    def w_Add(self, node):
        if TEXT in (self.kind(node.left), self.kind(node.right)) or LIST in (self.kind(node.left),
                                                                            self.kind(node.right)):
            return f"_joined({self.write(node.left)}, {self.write(node.right)})"
        return f"({self.write(node.left)} + {self.write(node.right)})"

    def w_Sub(self, node):
        return f"({self.write(node.left)} - {self.write(node.right)})"

    def _helped(self, node):
        return f"{self.ref(self.HELPED[type(node)])}({self.write(node.left)}, {self.write(node.right)})"

    w_Mul = w_Div = w_FloorDiv = w_Mod = w_Pow = _helped

    def w_Neg(self, node):
        return f"(-({self.write(node.node)} or 0))"

    def w_Pos(self, node):
        return self.write(node.node)

    def w_List(self, node):
        return "[" + "".join(f"{self.write(item)}, " for item in node.items) + "]"

    w_Tuple = w_List

    def w_Getitem(self, node):
        return f"_item({self.write(node.node)}, {self.write(node.arg)})"

    def _arguments(self, node) -> str | None:
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            return None
        written = [self.write(a) for a in node.args]
        for pair in node.kwargs:
            if not pair.key.isidentifier() or pair.key.startswith("_") or keyword.iskeyword(pair.key):
                return None
            written.append(f"{pair.key}={self.write(pair.value)}")
        return ", ".join(written)

    def w_Call(self, node):
        name = node.node.name
        own = self.compiler.scope.functions.get(name)
        arguments = self._arguments(node)
        if arguments is None:
            return None
        if own is not None:
            inline = getattr(own[0], "inline", None)
            if inline is not None and len(node.args) == 1 and not node.kwargs:
                name, card, missing = inline  # a game-long value of a bare card: kept by card
                a, v, gone, kind, call = self.temp(), self.temp(), self.ref(missing), self.ref(card), \
                    self.ref(own[0])
                return (f"({v} if type({a} := {arguments}) is {kind} and not {a}.under and ({v} := "
                        f"s.steady.get(({name!r}, {a}), {gone})) is not {gone} else {call}(s, {a}))")
            return f"{self.ref(own[0])}(s{', ' if arguments else ''}{arguments})"
        return f"{self.ref(FUNCTIONS[name][0])}({arguments})"

    def w_Filter(self, node):
        value = self.write(node.node)
        if node.name == "map" and node.args and isinstance(node.args[0], nodes.Const) \
                and node.args[0].value in self.compiler.scope.functions:
            own = self.ref(self.compiler.scope.functions[node.args[0].value][0])
            return f"_map_own({own}, s, {value})"
        arguments = self._arguments(node)
        if arguments is None:
            return None
        return f"{self.ref(FILTERS[node.name][0])}({value}{', ' if arguments else ''}{arguments})"


def _map_own(function, s, items) -> list:
    """A value of the rules with a parameter, for each item (`cooked | map('recipe_points')`)."""
    return [function(s, item) for item in items or ()]


CAUGHT = (RulesFailure, RulesLimit, TypeError, ValueError, AttributeError, ZeroDivisionError, IndexError,
          KeyError)  # what a located expression turns into a failure at its line


def _item(value, key):
    try:
        return value[key]
    except (IndexError, KeyError, TypeError):
        return None


def compile_expression(text: Any, scope: Scope) -> tuple[Compiled, str, str]:
    """(function, kind, item kind) of an expression; a bool or number written in YAML is a constant."""
    if isinstance(text, (bool, int, float)):
        value = text
        return (lambda s, b: value), BOOL if isinstance(text, bool) else NUMBER, ANY
    if text is None:
        return (lambda s, b: None), ANY, ANY
    if not isinstance(text, str):
        raise ExpressionError(
            f"{text!r} is a {type(text).__name__}; expected an expression (text, number or flag)"
        )
    return compile_tree(Compiler(scope, text), parse(text))


def compile_tree(compiler: Compiler, tree: nodes.Node) -> tuple[Compiled, str, str]:
    """(function, kind, item kind) of a parsed expression: checked by the Compiler, then written as one
    function (Source)."""
    _closure, kind, of = compiler.compile(tree)
    return Source(compiler).function(tree), kind, of


def conjuncts(tree: nodes.Expr) -> list[nodes.Expr]:
    """The parts of an expression joined by `and` at its top (the expression itself when there are none)."""
    if isinstance(tree, nodes.And):
        return conjuncts(tree.left) + conjuncts(tree.right)
    return [tree]


def names_in(text: Any, with_mapped: bool = False) -> set[str]:
    """Every name an expression reads (for the order of named values and their cycles); `with_mapped`: also
    the texts `map('name')` names (a value of parameters mapped over a list, or a field)."""
    if not isinstance(text, str):
        return set()
    try:
        tree = parse(text)
    except ExpressionError:
        return set()
    found = {n.name for n in tree.find_all(nodes.Name)}  # the tree's descendants: the root is looked at below
    if with_mapped:
        for node in tree.find_all(nodes.Filter):
            if node.name == "map" and node.args and isinstance(node.args[0], nodes.Const):
                found.add(str(node.args[0].value))
    return found | {tree.name} if isinstance(tree, nodes.Name) else found
