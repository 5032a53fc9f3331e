"""The bounded template sandbox: templates that would hang or exhaust memory fail at once with a TemplateLimit
naming the bound; ordinary templates (and the bundled rules) render as before, well inside the budget."""

from __future__ import annotations

import random

import pytest

from generator.core.limits import MAX_TEMPLATE_STEPS, MAX_TEMPLATE_WORK
from generator.data.sandbox import TemplateLimit, size_of
from generator.data.templating import environment

BOMBS = {
    "range(10**9)": ("{% for i in range(10**9) %}{% endfor %}", "range() of more than 100,000 numbers"),
    "range(10**30)": ("{{ range(10**30) }}", "range() of more than 100,000 numbers"),
    "'x' * 10**10": ("{{ 'x' * 10**10 }}", "repeating a str 10000000000 times"),
    "nested loops": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        "loops more than 200,000 times",
    ),
    "a macro calling itself": (
        "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
        "calls nest more than 100 deep",
    ),
    "a huge power": ("{{ 10 ** (10 ** 10) }}", "is a number of more than 4,096 bits"),
    "doubling with ~": (
        "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "a value would be more than 1,000,000 characters long",
    ),
    "doubling with +": (
        "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
        "joining two values would be more than 1,000,000 characters long",
    ),
    "str.ljust": ("{{ 'x'.ljust(10**10) }}", "ljust() is given 10000000000"),
    "center filter": ("{{ 'x'|center(10**10) }}", "the filter 'center' is given 10000000000"),
    "format width": ("{{ '{:>9999999999}'.format(1) }}", "format() asks for a width of a million characters"),
    "% width": ("{{ '%9999999999s' % 1 }}", "a % format asks for a width of a million characters"),
    "replace amplifies": (
        "{{ ('x' * 999999)|replace('', 'yyyy') }}",
        "replace() would make text of more than",
    ),
    "indent amplifies": ("{{ ('\\n' * 999999)|indent(999999) }}", "indent() would make text of more than"),
    "a list of big strings": ("{{ (['x' * 999999] * 999999)|join }}", "repeating a list 999999 times"),
    "appending in a loop": (
        "{% set l = [] %}{% for i in range(100000) %}{{ l.append('x' * 999999 ~ i) }}{% endfor %}",
        "builds more than 20,000,000 characters",
    ),
    "searching a big text in a loop": (
        "{% set big = 'x' * 999999 %}{% for i in range(100000) %}{% if 'y' in big %}{% endif %}{% endfor %}",
        "builds more than 20,000,000 characters",
    ),
    "slicing a big text in a loop": (
        "{% set big = 'x' * 999999 %}{% for i in range(100000) %}{{ big[::-1][:1] }}{% endfor %}",
        "builds more than 20,000,000 characters",
    ),
    "summing in a loop": (
        "{% for i in range(100000) %}{{ range(100000)|sum }}{% endfor %}",
        "builds more than 20,000,000 characters",
    ),
    "too much output": (
        "{% for i in range(100000) %}{{ 'x' * 999 }}{% endfor %}",
        "writes more than 1,000,000 characters",
    ),
    "lipsum": ("{{ lipsum(n=10**6) }}", "lipsum"),
}


@pytest.mark.parametrize("case", sorted(BOMBS))
def test_bombs_stop_with_the_bound_they_cross(case):
    source, message = BOMBS[case]
    env = environment(autoescape=True)
    with pytest.raises(Exception) as info:
        env.render_bounded(env.from_string(source), {})
    if case == "lipsum":  # not offered at all: placeholder text whose size nothing bounds
        assert "'lipsum' is undefined" in str(info.value)
    else:
        assert isinstance(info.value, TemplateLimit) and message in str(info.value), str(info.value)


def test_ordinary_templates_render_as_before():
    env = environment(autoescape=True)
    source = (
        "{% for i in range(3) %}{{ i }}{% endfor %} {{ 'a' ~ 'b' }} {{ [1, 2, 3]|join(',') }} {{ 'x'|upper "
        "}} "
        "{{ 3 in [1, 2, 3] }} {{ 'abcdef'[1:3] }} {{ '%5s|' % 'ab' }} {{ '{:>4}'.format(7) }} "
        "{% for x in [[1], [2, 3]] recursive %}{{ loop(x) if x is iterable else x }}{% endfor %}"
    )
    assert env.render_bounded(env.from_string(source), {}) == "012 ab 1,2,3 X True bc    ab|    7 123"


def test_the_bundled_rules_use_a_small_part_of_the_budget(repo_project):
    from generator.booklet.text import _environment, render_rules
    from generator.data.load import load_game

    for game_id in repo_project.game_ids():
        render_rules(load_game(repo_project, game_id))
        budget = _environment(repo_project, str(repo_project.rules_template(game_id).parent)).budget
        assert budget.used_steps < MAX_TEMPLATE_STEPS / 20 and budget.used_work < MAX_TEMPLATE_WORK / 20, (
            game_id
        )


def _reference_size(value, cap=1_000_000):
    """size_of as first written: every leaf through the function (the measure the budget is defined by)."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, bool) or value is None:
        return 1
    if isinstance(value, int):
        return value.bit_length() // 3 + 1
    if isinstance(value, range):
        return len(value)
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        total, stack = 0, [value]
        while stack and total <= cap:
            item = stack.pop()
            if isinstance(item, dict):
                total += 2 * len(item)
                stack.extend(item.keys())
                stack.extend(item.values())
            elif isinstance(item, (list, tuple, set, frozenset)):
                total += len(item) + 1
                stack.extend(item)
            else:
                total += _reference_size(item, cap)
        return total
    return 1


class _Text(str):
    pass


def test_size_of_counts_what_it_counted_before_its_fast_path():
    """The walk's shortcut for strings, ints, bools and None charges exactly what the full walk charged."""
    rng = random.Random(5)
    leaves = [
        lambda: "x" * rng.randint(0, 30),
        lambda: rng.randint(-(10**9), 10**9),
        lambda: rng.random() < 0.5,
        lambda: None,
        lambda: rng.random(),
        lambda: range(rng.randint(0, 9)),
        lambda: _Text("abc"),
        lambda: 10**200,
    ]

    def value(depth):
        if depth > 3 or rng.random() < 0.3:
            return rng.choice(leaves)()
        kind = rng.choice([list, tuple, dict, frozenset])
        items = [value(depth + 1) for _ in range(rng.randint(0, 6))]
        if kind is dict:
            return {f"k{i}": item for i, item in enumerate(items)}
        if kind is frozenset:
            return frozenset(i for i in items if isinstance(i, (str, int, type(None), range)))
        return kind(items)

    for _ in range(400):
        data = value(0)
        assert size_of(data) == _reference_size(data)
        assert size_of(data, 50) == _reference_size(data, 50)


REMEMBERING = [  # templates that hand the same containers around, and change them between uses
    "{{ deck | map(attribute='name') | join }}{{ deck | length }}{{ deck | selectattr('name', 'in', names) | "
    "list }}",
    "{{ deck | length }}{{ deck.append({'name': 'x' * 5000}) }}{{ deck | join }}{{ deck | length }}",
    "{{ deck | list }}{{ deck[0].update(name='y' * 9000) }}{{ deck | list }}{{ deck[0] ~ '' }}",
    "{{ names | sort }}{{ names.pop() }}{{ names | join }}{{ deck | first }}{{ names.clear() }}{{ names == "
    "[] }}",
    "{{ table | dictsort }}{{ table.get('a') }}{{ table | length }}{{ table.setdefault('b', 'z' * 700) }}{{ "
    "table }}",
    "{{ deck[0] | items | list }}{{ deck[0].name.upper() }}{{ deck[1].pop('name') }}{{ deck | list }}{{ deck "
    "< [] }}",
]


@pytest.mark.parametrize("source", REMEMBERING)
def test_remembered_sizes_charge_what_sizing_every_time_charges(source):
    """A budget that remembers sizes (the game checks') charges exactly what one sizing every value charges,
    also when the template changes a container it already charged."""
    from generator.data.sandbox import Budget

    used, shown = [], []
    for remember in (False, True):
        env = environment(autoescape=False)
        env.budget = Budget(sizes={} if remember else None)
        data = {"deck": [{"name": f"card {i}", "text": "t" * i} for i in range(40)],
                "names": [f"card {i}" for i in range(0, 40, 3)], "table": {"a": "b" * 30}}
        shown.append(env.from_string(source).render(**data))
        used.append((env.budget.used_work, env.budget.used_steps))
    assert used[0] == used[1] and shown[0] == shown[1]
    assert used[0][0] > 1000


def test_remembered_sizes_are_what_size_of_counts():
    """Sizes put together from the remembered sizes of the containers inside are size_of's counts, also past
    MAX_TEMPLATE_TEXT (where size_of stops just over it) and for data shared between containers."""
    from generator.data.sandbox import Budget

    rng = random.Random(11)
    shared = [{"id": "card", "tags": ["a", "b"]}, ("x" * 400_000,), {"big": "y" * 700_000}]
    leaves = [
        lambda: "x" * rng.randint(0, 30),
        lambda: rng.randint(-(10**9), 10**9),
        lambda: rng.random() < 0.5,
        lambda: None,
        lambda: rng.random(),
        lambda: range(rng.randint(0, 9)),
        lambda: _Text("abc"),
        lambda: 10**200,
        lambda: rng.choice(shared),
    ]

    def value(depth):
        if depth > 11 or rng.random() < 0.3:
            return rng.choice(leaves)()
        kind = rng.choice([list, tuple, dict, frozenset, set])
        items = [value(depth + 1) for _ in range(rng.randint(0, 6))]
        if kind is dict:
            return {f"k{i}": item for i, item in enumerate(items)}
        if kind in (frozenset, set):
            return kind(i for i in items if isinstance(i, (str, int, type(None), range)) or i is shared[1])
        return kind(items)

    budget = Budget(sizes={})
    for _ in range(200):
        data = value(0)
        assert budget.size(data) == size_of(data)
        assert budget.size(data) == size_of(data)  # remembered
    assert any(found > 1_000_000 for _, found in budget.sizes.values())
