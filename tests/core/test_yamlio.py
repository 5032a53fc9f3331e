"""YAML reading: libyaml's composer gives the same values and line marks as the pure-Python reference, and the
same located messages for broken files."""

from __future__ import annotations

import yaml

from generator.core import yamlio
from generator.core.errors import InputError
from tests.conftest import REPO


def _same(a, b, where: str) -> None:
    assert type(a) is type(b), where
    if isinstance(a, dict):
        assert list(a) == list(b) and a.line == b.line and a.key_lines == b.key_lines, where
        for key in a:
            _same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list):
        assert len(a) == len(b) and a.line == b.line and a.item_lines == b.item_lines, where
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{index}]")
    else:
        assert a == b, where


def test_every_yaml_file_of_the_repository_reads_as_the_reference_reads_it():
    files = [p for p in REPO.rglob("*.y*ml") if ".venv" not in p.parts and "build" not in p.parts]
    assert len(files) > 50
    for path in files:
        text = path.read_text(encoding="utf-8")
        reference = yaml.load(text, Loader=yamlio._LineLoader)  # noqa: S506 - a SafeLoader
        _same(reference, yamlio.parse_yaml(text, str(path), expect_mapping=False), str(path))


def test_scalars_aliases_and_merge_keys_read_as_safe_yaml_reads_them():
    text = ("base: &b {size: 9pt, n: 3, ok: yes, off: ~, ratio: 1.5, when: 2024-01-02, hex: 0x1f}\n"
            "child:\n  <<: *b\n  extra: 4\nlist: [*b, '3', \"yes\", 1e3, .inf]\n")
    data = yamlio.parse_yaml(text, "x.yaml")
    _same(yaml.load(text, Loader=yamlio._LineLoader), data, "x")  # noqa: S506
    assert (
        data["child"]["extra"] == 4 and data["child"]["size"] == "9pt" and data["child"].line_of("extra") == 4
    )
    assert data["list"][0] is data["base"]  # an alias is the same value, as PyYAML gives it


def _problem(text: str) -> str:
    try:
        yamlio.parse_yaml(text, "cards/x/deck.yaml")
    except InputError as exc:
        [problem] = exc.problems
        return str(problem)
    raise AssertionError("no problem found")


def test_broken_files_are_located_and_worded_as_before():
    assert _problem("a: 1\nb: [1, 2\nc: 3\n") == (
        "cards/x/deck.yaml:2: the list opened here with '[' is not closed "
        "before line 3; expected a ',' between items and a closing ']'"
    )
    # an unclosed quote is found at the end of the file; it is reported where it opens
    assert _problem('a: 1\nb: "x\nc: 3\nd: 4\n').startswith("cards/x/deck.yaml:2: a quoted value starts here")
    assert _problem("a: 1\nb: {x: 1\nc: 3\n").startswith(
        "cards/x/deck.yaml:2: the mapping opened here with '{'"
    )
    assert _problem("a: 1\nb: 'x' y\n").startswith("cards/x/deck.yaml:2: broken YAML: ")
    assert _problem("a: 1\na: 2\n") == (
        "cards/x/deck.yaml:2: key 'a' appears twice in this mapping; expected each key once"
    )
    assert _problem("a:\n\tb: 1\n").endswith("expected spaces for indentation, not tabs")
    assert _problem("a: !!python/object/apply:os.system ['true']\n") == (
        "cards/x/deck.yaml:1: Python tags are not allowed; expected plain YAML data (safe loading only)")
    assert "custom tags are not allowed" in _problem("a: !mine 3\n")
    assert (
        _problem("? [1, 2]\n: x\n")
        == "cards/x/deck.yaml:1: broken YAML: a mapping key must be a plain value; "
        "expected valid YAML (check indentation and quotes)"
    )


def test_an_unquoted_colour_in_a_one_line_mapping_is_named_at_its_own_line():
    # the comment swallows the closing `}`: YAML notices a line later; the problem names the colour's line
    text = ("boxes:\n  background: {shape: rect, fill: #2d6a4f}\n"
            "  frame: {x: 4mm, y: 4mm, shape: rounded, stroke: \"#ffd166\"}\n")
    assert _problem(text) == (
        "cards/x/deck.yaml:2: broken YAML: a `#` starts a comment in YAML, so `fill: #2d6a4f` cuts this line "
        "short "
        "(the rest of it is not read and its `{` is never closed); expected the colour in quotes: fill: "
        "\"#2d6a4f\""
    )
    fields = "fields:\n  color: {type: color, default: #ff0000}\n  text: {type: text}\n"
    assert _problem(fields).startswith("cards/x/deck.yaml:2: broken YAML: a `#` starts a comment in YAML, so "
                                       "`default: #ff0000`")
    # a broken file without such a colour keeps the generic words; a colour in a comment line is no culprit
    assert "starts a comment" not in _problem("# e.g. {fill: #2d6a4f}\na: 1\nb: [1, 2\nc: 3\n")


def test_deep_nesting_is_a_located_problem_not_a_crash():
    deep = "a: " + "[" * 300 + "]" * 300 + "\n"
    assert "nested more than" in _problem(deep) and _problem(deep).startswith("cards/x/deck.yaml:1: ")
    deeper = "a: " + "[" * 5000 + "]" * 5000 + "\n"  # past libyaml's own limit: the reference words it
    assert _problem(deeper).startswith("cards/x/deck.yaml:")
