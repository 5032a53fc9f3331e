"""The bounded sandbox: Jinja's sandbox (no file or Python internals) plus bounds on what one render may do.

Jinja's sandbox stops `range(10**9)` but not `{{ 'x' * 10**10 }}`, two nested `range(100000)` loops, a macro
calling itself or a string doubled in a loop: those hang or run out of memory. Here every render gets a budget
(`generator.core.limits`): loop iterations, the size of any string or list it builds, the size of its output
and the characters it builds in all. Loops, `~`, comparisons, the operators `* ** + %`, calls, filters and
tests are checked; going over a bound raises `TemplateLimit` (a ValueError), which the callers report at the
template line like any other template mistake.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator
from jinja2.runtime import LoopContext, new_context
from jinja2.sandbox import SandboxedEnvironment

from generator.core.limits import (
    MAX_TEMPLATE_CALL_DEPTH,
    MAX_TEMPLATE_INCLUDES,
    MAX_TEMPLATE_INT_BITS,
    MAX_TEMPLATE_RANGE,
    MAX_TEMPLATE_STEPS,
    MAX_TEMPLATE_TEXT,
    MAX_TEMPLATE_WORK,
    LimitExceeded,
)

_WIDTH = re.compile(r"\d{7,}")  # a width or precision of a million or more in a format string


class TemplateLimit(LimitExceeded):
    """A template that loops, builds or prints more than the bounds allow."""


_CONTAINERS = (list, tuple, dict, set, frozenset)
# methods of a list, dict or set that do not change it; any other method called from a template may (see
# `size`)
_READING = frozenset({"get", "keys", "values", "items", "index", "count", "copy", "issubset", "issuperset",
                      "isdisjoint", "union", "intersection", "difference", "symmetric_difference"})


class Budget:
    """What one render may still do: loop steps and characters built (strings, lists, output).

    With `sizes` (a dict, which may be shared by the budgets of several renders over the same data), the size
    of each list, dict or set charged is worked out once (the game's checks hand the same decks to filter
    after filter); a template calling a method that may change a container forgets them all. Only for renders
    whose helpers and filters never change what they are given, and whose data the caller does not change
    between renders."""

    def __init__(self, steps: int = MAX_TEMPLATE_STEPS, work: int = MAX_TEMPLATE_WORK,
                 sizes: dict[int, tuple[Any, int]] | None = None):
        self.steps, self.work = steps, work
        self.steps_left, self.work_left, self.depth, self.includes = steps, work, 0, 0
        self.sizes = sizes  # id -> (the value, its size)

    def size(self, value: Any) -> int:
        """size_of(value), remembered for a container (with `sizes`; the value is kept, so its id stays its
        own)."""
        if type(value) is str:
            return len(value)
        sizes = self.sizes
        if sizes is None or not isinstance(value, _CONTAINERS):
            return size_of(value)
        found = sizes.get(id(value))
        if found is None:
            found = sizes[id(value)] = (value, self._composed(value, 0))
        return found[1]

    def _composed(self, value: Any, depth: int) -> int:
        """size_of(value) of a container from the remembered sizes of the containers in it (a filter's new
        list of the same cards costs a look-up per card). The same count: size_of walks each item's contents
        in turn and adds them up; where the sum passes MAX_TEMPLATE_TEXT, size_of's own walk gives the count
        it stops at."""
        if depth > 8:  # deeper data is rare: walked as it is (without recursion)
            return size_of(value)
        sizes = self.sizes
        assert sizes is not None  # only `size` calls this, and only with sizes
        total = 2 * len(value) if isinstance(value, dict) else len(value) + 1
        for item in (value.keys(), value.values()) if isinstance(value, dict) else (value,):
            for part in item:
                kind = type(part)
                if kind is str:
                    total += len(part)
                elif kind is int:
                    total += part.bit_length() // 3 + 1
                elif isinstance(part, _CONTAINERS):
                    found = sizes.get(id(part))
                    if found is None:
                        found = sizes[id(part)] = (part, self._composed(part, depth + 1))
                    total += found[1]
                else:
                    total += size_of(part)
        return total if total <= MAX_TEMPLATE_TEXT else size_of(value)

    def called(self, owner: Any, method: str) -> None:
        """A template called `method` of `owner`: remembered sizes are forgotten when it may change a
        container."""
        if self.sizes and isinstance(owner, (list, dict, set)) and method not in _READING:
            self.sizes.clear()

    @property
    def used_steps(self) -> int:
        return self.steps - self.steps_left

    @property
    def used_work(self) -> int:
        return self.work - self.work_left

    def step(self) -> None:
        self.steps_left -= 1
        if self.steps_left < 0:
            raise TemplateLimit(f"the template loops more than {MAX_TEMPLATE_STEPS:,} times in one render; "
                                "expected smaller loops (pnp's limit)")

    def charge(self, size: int) -> None:
        self.work_left -= size
        if self.work_left < 0:
            raise TemplateLimit(
                f"the template builds more than {MAX_TEMPLATE_WORK:,} characters of text and lists "
                "in one render; expected less work per card or booklet (pnp's limit)"
            )


def size_of(value: Any, cap: int = MAX_TEMPLATE_TEXT) -> int:
    """About how many characters `value` takes when printed, counted up to just over `cap` (cheap for big
    data)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, int):
        return value.bit_length() // 3 + 1
    if isinstance(value, range):
        return len(value)
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        total = 0
        stack: list[Any] = [value]
        while stack and total <= cap:
            item = stack.pop()
            kind = type(item)
            if kind is str:  # the common leaves first, without a call (checks walk every card's fields)
                total += len(item)
            elif kind is int:
                total += item.bit_length() // 3 + 1
            elif kind is bool or item is None:
                total += 1
            elif isinstance(item, dict):
                total += 2 * len(item)
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, (list, tuple, set, frozenset)):
                total += len(item) + 1
                stack.extend(item)
            else:
                total += size_of(item, cap)
        return total
    return 1


def _check_text(value: Any, what: str) -> Any:
    """`value` when it is no larger than MAX_TEMPLATE_TEXT (strings and lists); TemplateLimit otherwise."""
    if isinstance(value, (str, list, tuple, dict, set, range)) and size_of(value) > MAX_TEMPLATE_TEXT:
        raise TemplateLimit(
            f"{what} would be more than {MAX_TEMPLATE_TEXT:,} characters long; expected smaller "
            "text or lists (pnp's limit)"
        )
    return value


def _check_number(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_TEMPLATE_TEXT:
        raise TemplateLimit(
            f"{what} is given {value if abs(value) < 10**12 else 'a huge number'}; expected at most "
            f"{MAX_TEMPLATE_TEXT:,} (pnp's limit for widths and counts in templates)"
        )


def _check_format(text: Any, what: str) -> None:
    if isinstance(text, str) and _WIDTH.search(text):
        raise TemplateLimit(
            f"{what} asks for a width of a million characters or more; expected a smaller width"
        )


def bounded_range(*args: int) -> range:
    """range() of at most MAX_TEMPLATE_RANGE numbers."""
    try:
        numbers = range(*args)
        count = len(numbers)
    except OverflowError:
        count = MAX_TEMPLATE_RANGE + 1
    if count > MAX_TEMPLATE_RANGE:
        raise TemplateLimit(
            f"range() of more than {MAX_TEMPLATE_RANGE:,} numbers; expected a smaller range (pnp's limit)"
        )
    return numbers


def _operate(operator: str, left: Any, right: Any) -> None:
    """Refuse an operation whose result would be too large before it is computed."""
    ints = all(isinstance(v, int) and not isinstance(v, bool) for v in (left, right))
    if operator == "**" and ints and right > 0 and abs(left) > 1:
        if right * math.log2(abs(left)) > MAX_TEMPLATE_INT_BITS:
            raise TemplateLimit(f"{left} ** {right} is a number of more than {MAX_TEMPLATE_INT_BITS:,} bits; "
                                "expected a smaller power")
    elif operator == "*" and ints:
        if left.bit_length() + right.bit_length() > MAX_TEMPLATE_INT_BITS:
            raise TemplateLimit(
                f"a product of more than {MAX_TEMPLATE_INT_BITS:,} bits; expected smaller numbers"
            )
    elif operator == "*":
        for seq, count in ((left, right), (right, left)):
            if (isinstance(seq, (str, list, tuple)) and isinstance(count, int) and not isinstance(count, bool)
                    and size_of(seq) * max(count, 0) > MAX_TEMPLATE_TEXT):
                times = count if count < 10**12 else "a huge number of"
                raise TemplateLimit(f"repeating a {type(seq).__name__} {times} times would be more than "
                                    f"{MAX_TEMPLATE_TEXT:,} characters long; expected smaller text or lists "
                                    "(pnp's limit)")
    elif operator == "+" and not ints:
        if size_of(left) + size_of(right) > MAX_TEMPLATE_TEXT:
            raise TemplateLimit(
                f"joining two values would be more than {MAX_TEMPLATE_TEXT:,} characters long; "
                "expected smaller text or lists (pnp's limit)"
            )
    elif operator == "%":
        _check_format(left, "a % format")
        for value in right if isinstance(right, tuple) else (right,):
            _check_text(value, "a % format argument")


def _estimate_filter(name: str, args: tuple, kwargs: dict) -> None:
    """Filters whose result can be much larger than their input, estimated before they run."""
    value = args[0] if args else None
    if name == "replace" and isinstance(value, str) and len(args) >= 3:
        old, new = str(args[1]), str(args[2])
        pieces = len(value) + 1 if not old else value.count(old)
        if len(value) + pieces * len(new) > MAX_TEMPLATE_TEXT:
            raise TemplateLimit(f"replace() would make text of more than {MAX_TEMPLATE_TEXT:,} characters")
    elif name == "indent" and isinstance(value, str):
        width = args[1] if len(args) > 1 else kwargs.get("width", 4)
        width = len(width) if isinstance(width, str) else int(width or 0)
        if len(value) + (value.count("\n") + 1) * max(width, 0) > MAX_TEMPLATE_TEXT:
            raise TemplateLimit(f"indent() would make text of more than {MAX_TEMPLATE_TEXT:,} characters")
    elif name == "wordwrap" and isinstance(value, str):
        wrap = args[3] if len(args) > 3 else kwargs.get("wrapstring") or "\n"
        if len(value) * (1 + len(str(wrap))) > MAX_TEMPLATE_TEXT:
            raise TemplateLimit(f"wordwrap() would make text of more than {MAX_TEMPLATE_TEXT:,} characters")
    elif name == "format":
        _check_format(value, "format()")


GUARDS = ("guard_loop", "guard_value")


class _GuardedCode(CodeGenerator):
    """Compiles the guards that `guard_tree` inserts as plain calls of the environment's methods (not through
    the sandbox's checked `call`: they run on every loop step and must cost little)."""

    def visit_Call(self, node: nodes.Call, frame, forward_caller: bool = False) -> None:
        target = node.node
        if isinstance(target, nodes.EnvironmentAttribute) and target.name in GUARDS:
            self.write(f"environment.{target.name}(")
            self.visit(node.args[0], frame)
            self.write(")")
            return
        super().visit_Call(node, frame, forward_caller=forward_caller)


class BoundedSandbox(SandboxedEnvironment):
    """A sandboxed environment whose every render runs on a fresh `Budget` (see the module docstring)."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})
    code_generator_class = _GuardedCode
    text_type: type[str] = str  # what the output of a template, macro or block is (a str subclass marks it)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = Budget()
        self._merged_globals: dict = {}  # template -> its globals as one dict (render_bounded)
        self.globals["range"] = bounded_range
        self.globals.pop("lipsum", None)  # placeholder text generator: sizes it cannot bound
        self.filters = _GuardedFilters(self, self.filters)
        self.tests = _GuardedFilters(self, self.tests)

    # -- one budget per render
    # -------------------------------------------------------------------------------------
    def render_bounded(self, template, context: dict) -> str:
        """`template.render(context)` on a fresh budget. The template's globals (a chain of two mappings) are
        copied into one dict once per template, not for every render (a game renders its card texts once per
        card)."""
        self.budget = Budget()
        merged = self._merged_globals.get(template)
        if merged is None:
            merged = self._merged_globals[template] = dict(template.globals)
        frame = new_context(self, template.name, template.blocks, {**merged, **context}, shared=True)
        try:
            return self.concat(template.root_render_func(frame))
        except Exception:
            return self.handle_exception()

    def concat(self, parts: Iterable[str]) -> str:
        """The output of a template, macro or block: joined only while it stays under MAX_TEMPLATE_TEXT."""
        collected, total = [], 0
        for part in parts:
            total += len(part)
            if total > MAX_TEMPLATE_TEXT:
                raise TemplateLimit(
                    f"the template writes more than {MAX_TEMPLATE_TEXT:,} characters; expected "
                    "shorter output (pnp's limit)"
                )
            collected.append(part)
        self.budget.charge(total)
        return self.text_type("".join(collected))

    def get_template(self, name, parent=None, globals=None):  # noqa: A002 - Jinja's signature
        """Every {% include %}, {% import %} and {% extends %} comes here: at most MAX_TEMPLATE_INCLUDES per
        render."""
        self.budget.includes += 1
        if self.budget.includes > MAX_TEMPLATE_INCLUDES:
            raise TemplateLimit(
                f"the template includes or imports other templates more than {MAX_TEMPLATE_INCLUDES} times "
                "in "
                "one render (does it include itself?); expected fewer includes"
            )
        return super().get_template(name, parent, globals)

    # -- what the compiled templates call
    # ------------------------------------------------------------------------
    def guard_loop(self, iterable: Iterable) -> Iterator:
        """Each iteration of a `for` loop costs one step."""
        budget = self.budget
        for item in iterable:
            budget.step()
            yield item

    def guard_value(self, value: Any) -> Any:
        """A value about to be joined (`~`) or compared: charged by its size, refused when too large."""
        budget = self.budget
        size = budget.size(value)
        if size > MAX_TEMPLATE_TEXT and isinstance(value, (str, list, tuple, dict, set, range)):
            _check_text(value, "a value")
        budget.charge(size)
        return value

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        _operate(operator, left, right)
        budget = self.budget
        budget.charge(budget.size(left) + budget.size(right))
        result = super().call_binop(context, operator, left, right)
        return _check_text(result, f"the result of '{operator}'")

    def getitem(self, obj: Any, argument: Any) -> Any:
        result = super().getitem(obj, argument)
        if isinstance(argument, slice):  # a slice is a copy
            self.budget.charge(size_of(result))
        return result

    # Jinja's signature
    def call(__self, __context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        owner = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)  # str.format comes wrapped
        if isinstance(__obj, LoopContext) and args:  # a recursive loop's `loop(children)` is a loop too
            args = (__self.guard_loop(args[0]),) + args[1:]
        if isinstance(owner, (str, list, tuple, dict)) or getattr(__obj, "__name__", "") in (
            "format",
            "format_map",
        ):
            for value in (*args, *kwargs.values()):
                _check_number(value, f"{getattr(__obj, '__name__', 'a method')}()")
                _check_format(value, f"{getattr(__obj, '__name__', 'a method')}()")
            if isinstance(owner, str):
                _check_format(owner, f"{getattr(__obj, '__name__', 'a method')}()")
            __self.budget.charge(__self.budget.size(owner) + sum(__self.budget.size(v) for v in args))
        budget = __self.budget
        if owner is not None:
            budget.called(owner, getattr(__obj, "__name__", ""))
        budget.depth += 1
        try:
            if budget.depth > MAX_TEMPLATE_CALL_DEPTH:
                raise TemplateLimit(
                    f"calls nest more than {MAX_TEMPLATE_CALL_DEPTH} deep (a macro calling itself?); "
                    "expected a call chain that ends"
                )
            result = super().call(__context, __obj, *args, **kwargs)
        finally:
            budget.depth -= 1
        budget.charge(budget.size(result))
        return _check_text(result, f"the result of {getattr(__obj, '__name__', 'a call')}()")

    # -- the compiled code calls the guards above
    # ---------------------------------------------------------------
    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        guard_tree(tree)
        tree.set_environment(self)
        return tree


def _call(method: str, node: nodes.Node) -> nodes.Call:
    return nodes.Call(nodes.EnvironmentAttribute(method), [node], [], None, None, lineno=node.lineno)


def guard_tree(tree: nodes.Template) -> None:
    """Route every loop, `~` operand, comparison and sliced value of a parsed template through the budget of
    its render (Jinja slices and compares in plain Python, outside the sandbox's hooks)."""
    for loop in list(tree.find_all(nodes.For)):
        loop.iter = _call("guard_loop", loop.iter)
    for concat in list(tree.find_all(nodes.Concat)):
        concat.nodes = [_call("guard_value", node) for node in concat.nodes]
    for compare in list(tree.find_all(nodes.Compare)):
        compare.expr = _call("guard_value", compare.expr)
        for operand in compare.ops:
            operand.expr = _call("guard_value", operand.expr)
    for item in list(tree.find_all(nodes.Getitem)):
        if isinstance(item.arg, nodes.Slice):
            item.node = _call("guard_value", item.node)


class _GuardedFilters(dict):
    """The filters (or tests) of an environment, each checked against the budget when it is looked up."""

    def __init__(self, env: BoundedSandbox, original: dict):
        super().__init__(original)
        self._env = env
        self._wrapped: dict[str, Any] = {}

    def __setitem__(self, key, value) -> None:
        self._wrapped.pop(key, None)
        super().__setitem__(key, value)

    def update(self, *args, **kwargs) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __getitem__(self, key):
        if key not in self._wrapped:
            self._wrapped[key] = _guarded_filter(self._env, key, super().__getitem__(key))
        return self._wrapped[key]

    def get(self, key, default=None):
        # self.get(key, default), as SIM401 suggests, is this very method: the look-up goes via __getitem__
        return self[key] if key in self else default  # noqa: SIM401


_AMPLIFIERS = frozenset({"replace", "indent", "wordwrap", "format"})


def _cost(values: Iterable[Any], what: str, budget: Budget) -> int:
    """The work of handling `values` (their sizes); refuses a huge count or width among them."""
    work = 0
    for value in values:
        kind = type(value)
        if kind is str:
            work += len(value)
        elif kind is int:
            if value > MAX_TEMPLATE_TEXT or value < -MAX_TEMPLATE_TEXT:
                _check_number(value, what)
            work += 1
        else:
            work += budget.size(value)
    return work


def _guarded_filter(env: BoundedSandbox, name: str, function):
    """A filter that charges its input, refuses huge widths and counts, and checks the size of its result."""
    estimate = name in _AMPLIFIERS

    @functools.wraps(function)  # keeps Jinja's pass_context/pass_environment marks
    def guarded(*args: Any, **kwargs: Any) -> Any:
        data = args[1:] if args and _is_jinja_internal(args[0]) else args
        what = f"the filter '{name}'"
        budget = env.budget
        work = _cost(data, what, budget) + (_cost(kwargs.values(), what, budget) if kwargs else 0)
        if estimate:
            _estimate_filter(name, data, kwargs)
        budget.charge(work)
        result = function(*args, **kwargs)
        size = budget.size(result)
        if size > MAX_TEMPLATE_TEXT:
            _check_text(result, f"the result of the filter '{name}'")
        budget.charge(size)
        return result

    return guarded


def _is_jinja_internal(value: Any) -> bool:
    """The environment or a context Jinja passes to a filter first (pass_environment, pass_context, ...)."""
    return isinstance(value, SandboxedEnvironment) or type(value).__name__ in ("Context", "EvalContext")
