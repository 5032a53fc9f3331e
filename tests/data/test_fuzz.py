"""Fuzzing the designer's files: hypothesis puts odd values into every kind of field of a small game (nan and
infinity, huge and negative numbers, booleans for counts, deep nesting, aliases, paths that leave the project,
template expressions that loop or grow) and checks the promise of issue 15 each time: the checks either pass
or fail with located problems, never with another exception, and never show a file from outside the project.

Each class of failure the attack found has a strategy here that would have found it: tracebacks and silent
wrong output (odd values in each field, and what a field may hold when the checks pass), hangs and memory
bombs (nesting, aliases, loops and growing values in templates), outside files (paths), damaged build files
(manifest and state of any shape), and the command-line options of replay, validate, sweep, export and build.
Time-bounded: a fixed number of examples, derandomized (the same examples every run), no deadline (the machine
is shared).
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.limits import MAX_TEMPLATE_TEXT
from generator.data.project import Project
from generator.data.templating import environment
from generator.pipeline.gather import gather, preflight
from generator.pipeline.producers import plan
from tests.conftest import run_pnp

SECRET = "fuzz-secret-outside-the-project"
FUZZ = settings(max_examples=30, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "p"
    assert run_pnp("new", "demo", project=Project(root)).exit_code == 0
    (root.parent / "secret.yaml").write_text(f"boxes: {{}}\ndescription: {SECRET}\n")
    (root.parent / "secret.png").write_text(SECRET)
    return root


def fresh(scaffold: Path, tmp_path_factory) -> Project:
    root = tmp_path_factory.mktemp("case") / "p"
    shutil.copytree(scaffold, root)
    shutil.copy(scaffold.parent / "secret.yaml", root.parent / "secret.yaml")
    return Project(root)


# --- odd values
# --------------------------------------------------------------------------------------------------
# Hostile values first: hypothesis tries the first members of `sampled_from` first, so every field sees them.
HOSTILE_NUMBERS = [math.nan, math.inf, -math.inf, 10**9, -1, 0, True, 2**63, 1e308, -0.0, 10**400]
HOSTILE_LENGTHS = [
    math.nan,
    "0mm",
    "-5pt",
    math.inf,
    "1e9mm",
    "99999in",
    10**400,
    True,
    "-100%",
    "250%",
    "nan",
    "",
]
HOSTILE = [
    True,
    math.nan,
    10**9,
    None,
    "../../../secret",
    [],
    {},
    -1,
    "{{ 'x' * 10**10 }}",
    "a|b",
    "\x00",
    "x" * 300,
]
numbers = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.integers(-10**30, 10**30), st.floats())
lengths = st.one_of(st.sampled_from(HOSTILE_LENGTHS), numbers, st.text(max_size=8))
scalars = st.one_of(st.sampled_from(HOSTILE), numbers, st.booleans(), st.none(), st.text(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)

# (file, path of keys/indices, strategy): the fields a designer edits most
FIELDS = [
    ("cards/demo/game.yaml", ["bleed"], lengths),
    ("cards/demo/game.yaml", ["safe"], lengths),
    (
        "cards/demo/game.yaml",
        ["card_size"],
        st.one_of(st.fixed_dictionaries({"width": lengths, "height": lengths}), values),
    ),
    ("cards/demo/game.yaml", ["players", "min"], values),
    ("cards/demo/game.yaml", ["settings"], values),
    ("cards/demo/game.yaml", ["decks"], values),
    ("cards/demo/game.yaml", ["code"], values),
    ("cards/demo/actions.yaml", ["cards", 0, "copies"], values),
    ("cards/demo/actions.yaml", ["cards", 1, "value"], values),
    ("cards/demo/actions.yaml", ["cards", 0, "name"], values),
    ("cards/demo/actions.yaml", ["cards", 2, "icon"], values),
    ("cards/demo/actions.yaml", ["cards", 0, "image"], values),
    ("cards/demo/actions.yaml", ["cards", 1, "layout"], values),
    ("cards/demo/actions.yaml", ["total"], values),
    ("cards/demo/actions.yaml", ["fields", "value", "min"], values),
    ("cards/demo/actions.yaml", ["cards", 3], values),
    ("cards/demo/layouts/actions.yaml", ["boxes", "title", "x"], lengths),
    ("cards/demo/layouts/actions.yaml", ["boxes", "title", "size"], lengths),
    ("cards/demo/layouts/actions.yaml", ["boxes", "text", "min_size"], lengths),
    ("cards/demo/layouts/actions.yaml", ["boxes", "text", "leading"], numbers),
    ("cards/demo/layouts/actions.yaml", ["boxes", "band", "height"], lengths),
    ("cards/demo/layouts/actions.yaml", ["boxes", "plate", "radius"], lengths),
    ("cards/demo/layouts/actions.yaml", ["boxes", "picture", "icon"], values),
    ("cards/demo/layouts/actions.yaml", ["extends"], values),
    ("cards/demo/layouts/actions.yaml", ["boxes", "plate"], values),
]


def _set(data, path, value):
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def _edit(project: Project, rel: str, path: list, value) -> None:
    file = project.root / rel
    data = yaml.safe_load(file.read_text(encoding="utf-8"))
    _set(data, path, value)
    file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _checked(project: Project, draw: bool = False) -> bool:
    """Every check `pnp build` and `pnp validate` run before drawing (data, board, layouts and card templates,
    rules, figures, pictures), and with `draw` the card sheets drawn once as `pnp validate` does: passes or
    fails with located problems, never with another exception, and never shows the file outside the
    project."""
    try:
        games, _ = gather(project, ["demo"])
        plan(games, BuildOptions(papers=("letter",)))
        if draw:
            preflight(games)
    except InputError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        assert SECRET not in str(exc)
        return False
    return True


def _points(value) -> float | None:
    from generator.core.units import UnitError, to_pt

    try:
        return to_pt(value)
    except UnitError:
        return None


def _count(value) -> bool:
    return type(value) is int and 1 <= value <= 1000


# What a field may hold when every check passes; anything else would be silent wrong output (invisible or
# upside-down text for a size of 0 or -5 pt, a count of `true`, a bleed of nan).
ACCEPTS = {
    ("bleed",): lambda v: (p := _points(v)) is None or 0 <= p,
    ("safe",): lambda v: (p := _points(v)) is None or 0 <= p,
    ("cards", 0, "copies"): _count,
    ("cards", 1, "value"): lambda v: type(v) is int and v >= 0,
    ("boxes", "title", "size"): lambda v: (p := _points(v)) is None or p > 0,
    ("boxes", "text", "min_size"): lambda v: (p := _points(v)) is None or p > 0,
    ("boxes", "text", "leading"): lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    and math.isfinite(v) and v > 0,
    ("boxes", "band", "height"): lambda v: (p := _points(v)) is None or p >= 0,
}


@pytest.mark.parametrize("rel, path, strategy", FIELDS, ids=[f"{Path(r).name}:{'.'.join(map(str, k))}"
                                                          for r, k, _ in FIELDS])
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_odd_values_in_each_field_are_located_problems(scaffold, tmp_path_factory, rel, path, strategy, data):
    project = fresh(scaffold, tmp_path_factory)
    value = data.draw(strategy)
    _edit(project, rel, path, value)
    if _checked(project, draw=True):
        accepts = ACCEPTS.get(tuple(path), lambda _value: True)
        assert accepts(value), f"{rel}: {'.'.join(map(str, path))} = {value!r} passed every check"


@FUZZ
@given(depth=st.integers(1, 400), fan=st.integers(2, 12), levels=st.integers(1, 9))
def test_nesting_and_aliases_are_bounded(scaffold, tmp_path_factory, depth, fan, levels):
    project = fresh(scaffold, tmp_path_factory)
    game = project.root / "cards/demo/game.yaml"
    lines = [f"  l0: &l0 {'[' * depth}x{']' * depth}"]
    lines += [f"  l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * fan)}]" for i in range(1, levels)]
    text = game.read_text(encoding="utf-8").replace(
        "settings:", "settings:\n" + "\n".join(lines) + "\n  old:", 1
    )
    game.write_text(text, encoding="utf-8")
    _checked(project)


# --- templates
# ---------------------------------------------------------------------------------------------------
atoms = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(
        [
            "10**10",
            "10**(10**10)",
            "'x'",
            "'x' * 999999",
            "range(10**9)",
            "range(100000)",
            "[1, 2, 3]",
            "card.name",
            "game.settings",
            "none",
            "'%9999999999s'",
            "'{:>999999999}'",
            "lipsum(5)",
            "loop",
            "namespace(a=1)",
            "card.nope",
            "[[1]] * 99999",
        ]
    ),
)


def expressions(depth: int = 3) -> st.SearchStrategy[str]:
    return st.recursive(
        atoms,
        lambda inner: st.one_of(
            st.tuples(
                inner, st.sampled_from(["*", "**", "+", "~", "%", "//", "-", "in", "==", "<"]), inner
            ).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(
                inner,
                st.sampled_from(
                    [
                        "center(10**9)",
                        "replace('', 'yyyy')",
                        "indent(999999)",
                        "join",
                        "list",
                        "sum",
                        "string",
                        "upper",
                        "batch(999999, 'x')",
                        "wordwrap(5)",
                        "length",
                        "reverse",
                        "format(1)",
                        "tojson",
                    ]
                ),
            ).map(lambda t: f"({t[0]})|{t[1]}"),
            st.tuples(
                inner, st.sampled_from(["ljust(10**9)", "count('x')", "split()", "format(1)", "__class__"])
            ).map(lambda t: f"({t[0]}).{t[1]}"),
            inner.map(
                lambda e: f"{{% for i in {e} %}}{{% for j in {e} %}}{{{{ i }}}}{{% endfor %}}{{% endfor %}}"
            ),
            inner.map(lambda e: f"{{% macro m(n) %}}{{{{ m(n) ~ {e} }}}}{{% endmacro %}}{{{{ m(1) }}}}"),
        ),
        max_leaves=depth,
    )


def _as_template(expression: str) -> str:
    return expression if expression.startswith("{%") else "{{ " + expression + " }}"


@settings(max_examples=120, deadline=None, derandomize=True)
@given(expression=expressions())
def test_templates_stay_inside_their_budget(expression):
    env = environment(autoescape=True)
    context = {"card": {"name": "Draw Two"}, "game": {"settings": {"target": 10}}}
    try:
        out = env.render_bounded(env.from_string(_as_template(expression)), context)
    except Exception as exc:  # noqa: BLE001 - what kind of error is the point of the test
        # the kinds card text turns into located problems (generator.faces.text.Templates.render)
        from jinja2 import TemplateError

        assert isinstance(exc, (TemplateError, ValueError, TypeError, KeyError, AttributeError, IndexError,
                                ZeroDivisionError, OverflowError, RecursionError)), repr(exc)
        return
    assert len(out) <= MAX_TEMPLATE_TEXT


@FUZZ
@given(expression=expressions(depth=2), where=st.sampled_from(["text", "title", "value"]))
def test_card_text_templates_are_located_problems(scaffold, tmp_path_factory, expression, where):
    project = fresh(scaffold, tmp_path_factory)
    source = {"text": "card.text", "title": "card.name", "value": "card.value"}[where]
    layout = project.root / "cards/demo/layouts/actions.yaml"
    text = layout.read_text(encoding="utf-8").replace(
        f'text: "{{{{ {source} }}}}"',
        "text: " + yaml.safe_dump(_as_template(expression), width=10**6).strip().removesuffix("...").strip(),
        1,
    )
    layout.write_text(text, encoding="utf-8")
    _checked(project, draw=True)


# --- paths
# -------------------------------------------------------------------------------------------------------
paths = st.one_of(st.sampled_from(["../../../secret", "../../../secret.yaml", "/etc/passwd", "..", ".", "",
                                   "../..", "layouts/../../../../secret", "~/.bashrc", "\x00", "a" * 300]),
                  st.lists(st.sampled_from(["..", ".", "layouts", "secret", "icons", "x.png", "secret.png"]),
                           min_size=1, max_size=6).map("/".join))


@FUZZ
@given(path=paths, kind=st.sampled_from(["extends", "layout", "image", "icon", "include", "picture"]))
def test_paths_never_reach_outside_the_project(scaffold, tmp_path_factory, path, kind):
    project = fresh(scaffold, tmp_path_factory)
    root = project.root
    if kind == "extends":
        _edit(project, "cards/demo/layouts/actions.yaml", ["extends"], path)
    elif kind in ("layout", "image", "icon"):
        _edit(project, "cards/demo/actions.yaml", ["cards", 0, kind], path)
    else:
        rules = root / "templates/rules/demo.md.j2"
        line = f"{{% include {path!r} %}}" if kind == "include" else f"![x]({path.replace(')', '')})"
        rules.write_text(rules.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")
    _checked(project)


# --- command-line options
# ----------------------------------------------------------------------------------------
# What a user types after an option: numbers out of range, not-a-number, lengths with odd units, NAME=VALUE
# pairs
# that name nothing or set nonsense. Hostile values first (hypothesis tries the first members first).
CLI_HOSTILE = [
    "nan",
    "inf",
    "-inf",
    "-1",
    "0",
    "1e309",
    "10**9",
    "",
    "-2in",
    "1in",
    "99999mm",
    "0pt",
    "x",
    "../..",
    "=",
    "a=b",
    "settings.hand_limit=nan",
    "settings.hand_limit=-1",
    "toppings.pepperoni.copies=1000000000",
    "toppings.pepperoni.copies=true",
    "settings=1",
    "orders.total=0",
    "game_over_depth=-1",
    "dice=0",
    "hand_limit=1e9",
    "start_hand=99",
    "faceup_orders=0",
    "end_mode=nope",
    "options.dice=1,2",
    "settings.dice=0..3",
    "settings.dice=1..1000000:1",
    "toppings.nope.copies=2",
    "\x00",
    "x" * 300,
]
cli_words = st.one_of(st.sampled_from(CLI_HOSTILE), st.integers(-10**20, 10**20).map(str),
                      st.floats(allow_nan=True, allow_infinity=True).map(str), st.text(max_size=10))
pairs = st.one_of(
    st.sampled_from([w for w in CLI_HOSTILE if "=" in w]),
    st.tuples(
        st.sampled_from(
            [
                "dice",
                "hand_limit",
                "game_over_depth",
                "settings.dice",
                "toppings.ham.copies",
                "orders.big-bob.value",
                "players.red.color",
                "nope",
                "options.dice",
                "",
            ]
        ),
        cli_words,
    ).map("=".join),
)
player_counts = st.sampled_from(["2", "3", "4", "7", "1"])
# Values click accepts for a typed option (an integer, a float: nan and inf included) reach pnp's own checks;
# a few that click refuses keep the usage errors honest too.
seeds = st.one_of(st.integers(-2**70, 2**70).map(str), st.sampled_from(["nan", ""]))
floats = st.one_of(st.sampled_from(["nan", "inf", "-inf", "1e308", "-1e9", "0", "-0.0"]),
                   st.floats(allow_nan=True, allow_infinity=True).map(str))
CLI = settings(max_examples=8, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def pizza(tmp_path_factory) -> Project:
    from tests.conftest import REPO

    root = tmp_path_factory.mktemp("pizza")
    for name in ("cards", "templates"):
        shutil.copytree(
            REPO / name,
            root / name,
            ignore=shutil.ignore_patterns(
                "order-up-trading", "short-order-hero", "short-order-hero.md.j2", "order-up-trading.md.j2"
            ),
        )
    return Project(root)


def _answered(result) -> None:
    """Exit 0, 1 (problems, each on a line of its own) or 2 (a usage error click reports); never a traceback
    or an error of pnp itself, never a file from outside the project."""
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output[-3000:])
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output[-3000:]
    assert SECRET not in result.output
    if result.exit_code == 1:
        last = result.output.rstrip().splitlines()[-1]
        assert last.endswith(("found.", "failed.")) or last.startswith(("FAILED", "pnp: ")) or ": " in last, \
            result.output[-3000:]


def _with(args: list[str], name: str, values: list[str]) -> list[str]:
    for value in values:
        args += [name, value]
    return args


@CLI
@given(
    seed=seeds,
    players=player_counts,
    options=st.lists(pairs, max_size=2),
    sets=st.lists(pairs, max_size=2),
    bots=st.sampled_from(
        ["greedy", "random", "greedy,random", "nope", "", "greedy,greedy,greedy,greedy,greedy"]
    ),
)
def test_replay_options(pizza, seed, players, options, sets, bots):
    args = ["replay", "order-up-pizza", "--seed", seed, "--players", players, "--bots", bots]
    _answered(run_pnp(*_with(_with(args, "--option", options), "--set", sets), project=pizza))


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(games=st.sampled_from(["1", "2", "0"]), players=player_counts,
       options=st.lists(pairs, min_size=1, max_size=2), sets=st.lists(pairs, max_size=1))
def test_validate_options(pizza, games, players, options, sets):
    # --option/--set skip the scripts; --players 2 keeps it short when the count is valid
    args = ["validate", "order-up-pizza", "--games", games, "--players", players, "--jobs", "1"]
    _answered(run_pnp(*_with(_with(args, "--option", options), "--set", sets), project=pizza))


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    vary=st.one_of(
        st.sampled_from(
            [
                "settings.hand_limit=4,5",
                "options.dice=0,1",
                "settings.dice=1..1000000",
                "settings.hand_limit=nan,inf",
                "toppings.ham.copies=1..3:0",
                "nope=1,2",
            ]
        ),
        pairs,
    ),
    seed=seeds,
)
def test_sweep_options(pizza, tmp_path_factory, vary, seed):
    out = tmp_path_factory.mktemp("sweep") / "r.json"
    _answered(
        run_pnp(
            "sweep",
            "order-up-pizza",
            "--vary",
            vary,
            "--games",
            "1",
            "--players",
            "2",
            "--jobs",
            "1",
            "--seed",
            seed,
            "--report",
            str(out),
            project=pizza,
        )
    )


@CLI
@given(bleed=st.one_of(st.sampled_from(HOSTILE_LENGTHS).map(str), cli_words),
       dpi=st.sampled_from(["50", "72", "50", "1201", "x"]))
def test_export_png_options(scaffold, tmp_path_factory, bleed, dpi):
    project = fresh(scaffold, tmp_path_factory)
    result = run_pnp("export", "png", "--bleed", bleed, "--dpi", dpi, project=project)
    _answered(result)
    if result.exit_code != 0:
        assert not (project.build_dir / "demo" / "png").exists()  # nothing half-written


@CLI
@given(
    gap=st.one_of(st.sampled_from(HOSTILE_LENGTHS).map(str), cli_words),
    offset=st.tuples(floats, floats),
    only=st.lists(
        st.one_of(
            st.sampled_from(["actions", "actions:draw-two", "nope", "actions:nope", ":", "DEM-ACT-01", ""]),
            cli_words,
        ),
        max_size=2,
    ),
)
def test_build_options(scaffold, tmp_path_factory, gap, offset, only):
    project = fresh(scaffold, tmp_path_factory)
    args = ["build", "--paper", "a4", "--jobs", "1", "--gap", gap, "--back-offset", *offset]
    _answered(run_pnp(*_with(args, "--only", only), project=project))


# --- build files of the wrong shape
# ------------------------------------------------------------------------------
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6), st.floats(allow_nan=False)),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["outputs", "path", "games", "version", "key", "stale", "decks", "sha256", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=10,
)


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(manifest=json_values, state=json_values)
def test_damaged_build_files_cost_a_rebuild(scaffold, tmp_path_factory, manifest, state):
    import json

    project = fresh(scaffold, tmp_path_factory)
    project.build_dir.mkdir()
    (project.build_dir / "manifest.json").write_text(json.dumps(manifest))
    (project.build_dir / ".state.json").write_text(json.dumps(state))
    result = run_pnp("build", "--paper", "a4", "--jobs", "1", project=project)
    assert result.exit_code == 0, result.output
    written = json.loads((project.build_dir / "manifest.json").read_text())
    assert {o["path"] for o in written["outputs"]} >= {"demo/cards-a4.pdf", "demo/rules.pdf"}
