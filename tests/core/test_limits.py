"""The limits of generator.core.limits: YAML that nests, aliases or grows too far, lengths that are not
finite, and the table in the docs that tells a designer the bounds."""

from __future__ import annotations

import math

import pytest

from generator.core.errors import InputError
from generator.core.limits import MAX_YAML_ITEMS, limits_table
from generator.core.units import UnitError, to_pt
from generator.core.yamlio import load_yaml, parse_yaml
from tests.conftest import REPO


def problem(text: str) -> str:
    with pytest.raises(InputError) as info:
        parse_yaml(text, "f.yaml")
    [found] = info.value.problems
    return str(found)


def test_nesting_beyond_the_limit_is_a_located_problem():
    assert problem("a: 1\nb: " + "[" * 3000 + "]" * 3000 + "\n") == (
        "f.yaml:2: the data is nested more than 64 levels deep; expected at most 64 levels of mappings and "
        "lists"
    )
    assert parse_yaml("a: " + "[" * 60 + "1" + "]" * 60, "f.yaml")["a"]  # 61 levels are fine


def test_an_alias_bomb_is_refused_before_it_is_copied():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{b}: &{b} [{', '.join([f'*{a}'] * 10)}]" for a, b in zip("abcdefgh", "bcdefghi", strict=True)]
    assert problem("\n".join(lines)) == (
        f"f.yaml:5: this value expands to more than {MAX_YAML_ITEMS:,} values (each alias *name repeats what "
        "it "
        f"names); expected at most {MAX_YAML_ITEMS:,} values in one file"
    )


def test_aliases_that_only_nest_deeper_are_caught_too():
    lines = [f"x{i}: &x{i} " + "[" * 40 + (f"*x{i - 1}" if i else "1") + "]" * 40 for i in range(3)]
    assert "nested more than 64 levels deep; expected at most 64 levels" in problem("\n".join(lines))


def test_a_value_containing_itself_is_refused():
    assert (
        problem("a: &a [1, *a]\n")
        == "f.yaml:1: this value contains itself through an alias; expected plain data without cycles"
    )


def test_ordinary_anchors_and_merge_keys_still_work():
    data = parse_yaml("base: &b {a: 1, b: 2}\nthing:\n  <<: *b\n  c: 3\nlist: [*b, *b]\n", "f.yaml")
    assert data["thing"] == {"a": 1, "b": 2, "c": 3} and data["list"] == [{"a": 1, "b": 2}] * 2


def test_a_file_over_the_size_limit_is_not_parsed(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 10_100_000 + "\n")
    with pytest.raises(InputError) as info:
        load_yaml(path, "cards/g/big.yaml")
    assert str(info.value) == (
        "cards/g/big.yaml: file is 10,100,004 bytes; expected at most 10,000,000 bytes "
        "(pnp's limit for this kind of file)"
    )


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, 10**400, "99999in", True, None, [1]])
def test_lengths_are_finite_and_bounded(value):
    with pytest.raises(UnitError):
        to_pt(value)


def test_ordinary_lengths_still_convert():
    assert to_pt("63.5mm") == pytest.approx(180.0) and to_pt(9) == 9.0 and to_pt("-3mm") < 0


def test_the_docs_show_the_limits_as_the_code_has_them():
    assert limits_table() in (REPO / "docs" / "data-format.md").read_text(encoding="utf-8")
