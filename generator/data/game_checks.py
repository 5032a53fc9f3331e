"""The composition rules a game declares in game.yaml `checks:`, evaluated over the loaded game.

    checks:
      - name: toppings deck matches the box
        assert: decks.toppings.copies == 91
        message: "toppings has {{ decks.toppings.copies }} cards; expected 91"
      - name: every order is worth the sum of its toppings
        let: {prices: "decks.toppings.cards | where(kind='topping') | pluck('price')"}
        for_each: {order: "decks.orders.cards | where(kind='order')"}
        assert: order.value == order.toppings | dot(prices)
        message: "order '{{ order.id }}' is worth ${{ order.value }}; its toppings cost ${{ order.toppings |
        dot(prices) }}"

Expressions are the sandboxed template language of the cards and rules (generator.data.templating): they see
the game as plain data (`decks`, `tables`, `boards`, `components`, `settings`, `players`, `title`, ...), the
helpers (`setting`, `street`, `ref`, `distance`, `colour_distance`) and the filters (Jinja's own plus `where`,
`tally`, `pluck`, `dot`, `entries`, `duplicates`, `loose`, `dictsum`, `lookup`). `let` names values once,
`for_each` gives the items a check is made for (`item`, or names of nested loops), `with` names values per
item; then `assert` must be true. A failed check is one problem at the check's line in game.yaml, naming the
check and the item (and where the item is written).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable
from typing import Any

from jinja2 import Environment, TemplateError, TemplateSyntaxError, nodes
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser
from jinja2.runtime import new_context

from generator.core.errors import Cell, Problem
from generator.core.yamlio import YList, load_yaml
from generator.data.compiled import SandboxedCache, private_cache
from generator.data.game import Game
from generator.data.models import CheckSpec
from generator.data.sandbox import Budget
from generator.data.templating import GameHelpers, View, environment, game_view

FAILURES_SHOWN = 25  # per check: a broken rule over hundreds of cards should not bury the other problems

# what evaluating a check's expression or message may raise for a mistake in the game's data or the check
EVALUATION_ERRORS = (TemplateError, TypeError, KeyError, ValueError, AttributeError, IndexError,
                     ZeroDivisionError)


class CompiledChecks(SandboxedCache):
    """The checks' expressions and messages as Jinja compiled them, kept between runs: a build compiles only
    the checks that changed."""

    kind = "checks"
    module = __file__


@functools.cache
def _compiled_checks() -> CompiledChecks | None:
    """The cache; None where the user has no private cache folder (then each run compiles)."""
    return private_cache(CompiledChecks)


def _expression_code(env, source: str):
    """The code of an expression as `Environment.compile_expression` makes it (None: it does not parse, and
    compile_expression says why)."""
    parser = Parser(env, source, state="variable")
    try:
        expr = parser.parse_expression()
        if not parser.stream.eos:
            return None
        expr.set_environment(env)
    except TemplateSyntaxError:
        return None
    return env.compile(
        nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1)
    )


class CheckError(Exception):
    """An expression of a check that does not compile or evaluate (a mistake in the check, not a failure)."""


class _Runner:
    """Evaluates the checks of one game, compiling every expression once."""

    def __init__(self, game: Game, view: View | None = None):
        self.game = game
        self.view = game_view(game) if view is None else view
        self.env = environment(autoescape=False, helpers=GameHelpers(game, self.view).functions())
        self.base = dict(self.view) | {"game": self.view}
        self.places = self._places()
        self._compiled: dict[tuple[str, str], Any] = {}
        self._globals: dict[str, dict] = {}  # expression -> its template's globals as one dict
        self.sizes: dict[int, tuple[Any, int]] = {}  # the sizes every check's budget charges (sandbox.Budget)

    def _places(self) -> dict[int, tuple[str, str, int]]:
        """id(view of a card or row) -> (what it is, file, line), to say where a failing item is written."""
        places: dict[int, tuple[str, str, int]] = {}
        for deck in self.game.decks.values():
            for card, seen in zip(deck.cards, self.view["decks"][deck.id]["cards"], strict=True):
                places[id(seen)] = (f"card '{card.id}'", card.file, card.line)
        for table in self.game.tables.values():
            for row, seen in zip(table.rows, self.view["tables"][table.id]["rows"], strict=True):
                places[id(seen)] = (f"{table.id} row '{row.id}'", row.file, row.line)
        return places

    def _compile(self, kind: str, source: str):
        found = self._compiled.get((kind, source))
        if found is None:
            found = self._cached(kind, source)
            if found is None:  # not cached (or a syntax error, which Jinja reports as it always does)
                found = (self.env.compile_expression(source, undefined_to_none=False) if kind == "expression"
                         else self.env.from_string(source))
            self._compiled[(kind, source)] = found
        return found

    def _cached(self, kind: str, source: str):
        """The compiled expression or message from the cache of compiled checks, compiled into it if new."""
        cache = _compiled_checks()
        if cache is None:
            return None
        try:
            bucket = cache.get_bucket(self.env, f"{kind}|{source}", None, source)
            if bucket.code is None:
                try:
                    code = (
                        _expression_code(self.env, source)
                        if kind == "expression"
                        else self.env.compile(source)
                    )
                except TemplateSyntaxError:
                    return None
                if code is None:
                    return None
                bucket.code = code
                cache.set_bucket(bucket)
        except OSError:  # a full or read-only cache folder only costs the compiling
            return None
        template = self.env.template_class.from_code(self.env, bucket.code, self.env.make_globals(None), None)
        return TemplateExpression(template, False) if kind == "expression" else template

    def _evaluate(self, source: str, scope: dict) -> Any:
        """What TemplateExpression(scope) gives, without merging the template's globals (a chain of mappings)
        into every evaluation's variables: they are merged once per expression."""
        template = self._compile("expression", source)._template
        merged = self._globals.get(source)
        if merged is None:
            merged = self._globals[source] = dict(template.globals)
        context = new_context(self.env, template.name, template.blocks, {**merged, **scope}, shared=True)
        for _ in template.root_render_func(context):
            pass
        return context.vars["result"]

    def value(self, source: str, scope: dict, key: str, truth: bool = False) -> Any:
        try:
            found = self._evaluate(source, scope)
            return bool(found) if truth else found  # an undefined or unsafe value raises only when it is used
        except TemplateSyntaxError as exc:
            raise CheckError(f"{key}: expression syntax error: {exc.message}") from None
        except EVALUATION_ERRORS as exc:
            raise CheckError(
                f"{key}: {type(exc).__name__ if not isinstance(exc, TemplateError) else 'error'}: {exc}"
            ) from None

    def text(self, source: str, scope: dict) -> str:
        try:
            return self._compile("template", source).render(**scope).strip()
        except TemplateSyntaxError as exc:
            raise CheckError(f"message: template syntax error: {exc.message}") from None
        except EVALUATION_ERRORS as exc:
            raise CheckError(f"message: {exc}") from None

    def scopes(self, check: CheckSpec) -> list[tuple[dict, list]]:
        """(variables, the loop items, outermost first) for every item the check is made for."""
        base = dict(self.base)
        for name, source in check.let.items():
            base[name] = self.value(source, base, f"let {name}")
        if check.for_each is None:
            return [(base, [])]
        loops = {"item": check.for_each} if isinstance(check.for_each, str) else dict(check.for_each)
        scopes: list[tuple[dict, list]] = [(base, [])]
        for name, source in loops.items():
            following = []
            for scope, chain in scopes:
                items = self.value(source, scope, f"for_each {name}")
                if isinstance(items, dict):
                    items = list(items.values())
                elif isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
                    raise CheckError(f"for_each {name}: gives {items!r}, not a list of items")
                following += [(scope | {name: item}, chain + [item]) for item in list(items)]
            scopes = following
        return scopes

    def describe(self, chain: list) -> str:
        """' for card 'x' (cards/g/orders.yaml:14)' for a failing item: the innermost loop item written in a
        card or table file, else the innermost item by its id or key."""
        if not chain:
            return ""
        for item in reversed(chain):
            place = self.places.get(id(item))
            if place is not None:
                what, file, line = place
                return f" for {what} ({file}:{line.cell if isinstance(line, Cell) else line})"
        item = chain[-1]
        if isinstance(item, dict) and "id" in item:
            return f" for '{item['id']}'"
        if isinstance(item, dict) and "key" in item:
            return f" for '{item['key']}'"
        return f" for {item!r}"

    def run(self, check: CheckSpec) -> list[str]:
        """The failure messages of one check (CheckError for a mistake in it). A check is bounded like one
        render of a template (generator.data.sandbox): it cannot loop or build without end."""
        # the checks' helpers and filters only read: a deck's size is worked out once, not per filter and
        # check
        self.env.budget = Budget(sizes=self.sizes)
        failures = []
        for scope, chain in self.scopes(check):
            for name, source in check.with_.items():
                scope[name] = self.value(source, scope, f"with {name}")
            if not self.value(check.assert_, scope, "assert", truth=True):
                said = (
                    self.text(check.message, scope) if check.message else f"expected {check.assert_.strip()}"
                )
                failures.append(f"check '{check.name}' failed{self.describe(chain)}: {said}")
        return failures


def run_checks(game: Game, problems, passed: PassedChecks | None = None) -> list[str]:
    """Every check game.yaml declares, adding a located problem per failure; returns the names of the
    checks. With `passed`, a check whose inputs (check_key) are those it last passed with is not run again."""
    if passed is not None:
        kept = passed.passed.setdefault(game.id, [])
    if not game.config.checks:
        return []
    shown = game.show(game.dir / "game.yaml")
    raw = load_yaml(game.dir / "game.yaml", shown).get("checks")
    view = game_view(game)
    runner: _Runner | None = None  # made only when a check is run: it compiles and indexes the game
    parts: dict[str, str] = {}  # the digests of the view's parts, worked out once for every check
    for index, check in enumerate(game.config.checks):
        key = None
        if passed is not None:
            key = check_key(game, check, passed.parts_of(game.id, check, view), view, parts, passed.salt)
        if key is not None and passed is not None and key in passed.known:
            kept.append(key)  # it passed with exactly these inputs: it passes again
            continue
        line = raw.line_of(index) if isinstance(raw, YList) else 0
        runner = runner or _Runner(game, view)
        try:
            failures = runner.run(check)
        except CheckError as exc:
            problems.add(
                shown,
                line,
                f"check '{check.name}' cannot be evaluated: {exc}; expected an expression "
                "over the game's data (see `pnp docs templates`)",
            )
            continue
        if not failures and key is not None and passed is not None:
            kept.append(key)
        for message in failures[:FAILURES_SHOWN]:
            problems.items.append(Problem(shown, line, message))
        if len(failures) > FAILURES_SHOWN:
            problems.add(
                shown, line, f"check '{check.name}' failed {len(failures) - FAILURES_SHOWN} more times"
            )
    return [check.name for check in game.config.checks]


class PassedChecks:
    """The checks that passed, each by the hash of what it reads (check_key): `known` from earlier runs,
    `passed` in this one (per game). `salt` is the hash of the tool that evaluates them (its version and
    sources). Only passes are kept: a failing check runs again each time, so its messages are always its
    own."""

    def __init__(self, known: Iterable[str] = (), salt: str = "", parts: dict | None = None):
        self.known, self.salt = set(known), salt
        self.passed: dict[str, list[str]] = {}
        # what each check reads (parts_read), by the hash of the check as written: parsing every expression
        # again would cost as much as the checks it saves
        self.parts: dict[str, list[str] | None] = dict(parts or {})
        self.parts_used: dict[str, dict[str, list[str] | None]] = {}  # per game, this run

    def parts_of(self, game: str, check: CheckSpec, view: dict) -> set[str] | None:
        """parts_read of the check, remembered by the hash of the check as written (and of the tool)."""
        spec = json.dumps([self.salt, check.model_dump(by_alias=True)], sort_keys=True, default=repr)
        memo = hashlib.sha256(spec.encode()).hexdigest()
        if memo in self.parts:
            found = self.parts[memo]
        else:
            read = parts_read(check, view)
            found = sorted(read) if read is not None else None
        self.parts_used.setdefault(game, {})[memo] = found
        return set(found) if found is not None else None


# Which parts of the game's view a check can read. The collections are read per item (`decks.orders` is the
# orders deck); a helper reads the parts it looks up (`street` the boards); `game` is the whole view.
_COLLECTIONS = ("decks", "tables", "boards", "components")
_HELPER_PARTS = {"setting": ("settings",), "street": ("boards",), "distance": ("boards",),
                 "ref": ("decks", "tables"), "in_play": ("decks",), "copies_for": ("decks",),
                 "colour_distance": (), "range": (), "dict": (), "namespace": ()}
_LANGUAGE_FILTERS = ("words", "join_and")
_PARSER = Environment()  # the checks' syntax is Jinja's own: only parsed here, never evaluated


def parts_read(check: CheckSpec, view: dict) -> set[str] | None:
    """The parts of the game's view (generator.data.templating.game_view) a check's expressions read:
    top-level keys ('settings', 'players'), collections ('decks': every deck) or one item of a collection
    ('decks.orders'). None when that cannot be told from the expressions (a helper whose words depend on the
    language, an expression that does not parse): then the check is run every time. The message is left out:
    it is rendered only when the check fails, and failures are never reused."""
    sources = list(check.let.values()) + list(check.with_.values()) + [check.assert_]
    if check.for_each is not None:
        sources += [check.for_each] if isinstance(check.for_each, str) else list(check.for_each.values())
    found: set[str] = set()
    for source in sources:
        try:
            parser = Parser(_PARSER, source, state="variable")
            expr = parser.parse_expression()
            if not parser.stream.eos:
                return None
        except TemplateSyntaxError:
            return None
        parents: dict[int, nodes.Node] = {}
        stack: list[nodes.Node] = [expr]
        while stack:
            node = stack.pop()
            for child in node.iter_child_nodes():
                parents[id(child)] = node
                stack.append(child)
        if any(f.name in _LANGUAGE_FILTERS for f in expr.find_all((nodes.Filter, nodes.Test))):
            return None  # their words come from the language's catalogue, which the view does not hold
        for name in expr.find_all(nodes.Name):
            parent = parents.get(id(name))
            if name.name == "game":
                found |= set(view)
            elif name.name in _COLLECTIONS:
                item = _item_named(name, parent)
                found.add(f"{name.name}.{item}" if item is not None else name.name)
            elif name.name in view:
                found.add(name.name)
            elif isinstance(parent, nodes.Call) and parent.node is name:
                if name.name not in _HELPER_PARTS:
                    return None  # a helper this does not know what it reads of
                found |= set(_HELPER_PARTS[name.name])
            # any other name is the check's own (let, for_each, with): its expression is read above
    return found


def _item_named(name: nodes.Name, parent: nodes.Node | None) -> str | None:
    """The item of a collection an expression names right after it (`decks.orders`, `decks['orders']`)."""
    if isinstance(parent, nodes.Getattr) and parent.node is name:
        return parent.attr
    if isinstance(parent, nodes.Getitem) and parent.node is name and isinstance(parent.arg, nodes.Const) \
            and isinstance(parent.arg.value, str):
        return parent.arg.value
    return None


def check_key(game: Game, check: CheckSpec, parts: set[str] | None, view: dict, digests: dict[str, str],
              salt: str) -> str | None:
    """The hash of everything a check reads: the tool (`salt`), the game and its language, the check as
    written and the `parts` of the view it reads (parts_read; their digests are kept in `digests`). None: it
    cannot be told, the check is run."""
    if parts is None:
        return None
    for part in parts - set(digests):
        collection, _, item = part.partition(".")
        value = view.get(collection)
        if item:
            value = value.get(item) if isinstance(value, dict) else None
        digests[part] = hashlib.sha256(
            json.dumps(value, ensure_ascii=False, default=repr).encode()
        ).hexdigest()
    inputs = [salt, game.id, game.language, check.model_dump(by_alias=True),
              sorted((part, digests[part]) for part in parts)]
    return hashlib.sha256(json.dumps(inputs, default=repr).encode()).hexdigest()
