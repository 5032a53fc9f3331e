"""Bad component files, tried as a designer would with `pnp build`: one located line each, exit 1, no
traceback."""

from __future__ import annotations

import pytest

from tests.components.conftest import write_project
from tests.conftest import run_pnp

TOKEN = """\
    component: chits
    kind: token
    name: Coins
    shape: hex
    across: 1in
    layout: chit
    fields: {value: {type: int}}
    items:
      - {id: coin, name: Coin, copies: 4, value: 1}
    """
DIE = """\
    component: dice
    kind: die
    name: Dice
    size: 16mm
    faces:
      - {pips: 1}
      - {pips: 2}
      - {pips: 3}
      - {pips: 4}
      - {pips: 5}
      - {pips: 6}
    """
BOX = """\
    component: box
    kind: tuckbox
    name: Box
    deck: things
    """


def _build(tmp_path, files: dict[str, str]) -> list[str]:
    project = write_project(tmp_path / "p", files)
    result = run_pnp("build", "--paper", "letter", project=project)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].endswith("problem found.") or lines[-1].endswith("problems found."), lines
    return lines[:-1]


@pytest.mark.parametrize(
    "name, text, expected",
    [
        (
            "box.yaml",
            BOX.replace("deck: things", "deck: thingz"),
            "cards/chits/box.yaml:4: tuck box 'box' is for deck 'thingz', which does not exist (did you mean "
            "'things'?); "
            "known: things",
        ),
        (
            "chits.yaml",
            TOKEN.replace("across: 1in", "across: 300mm"),
            "cards/chits/chits.yaml:5: token 'chits' needs 346 x 300 mm, more than a page holds",
        ),
        (
            "dice.yaml",
            DIE.replace("      - {pips: 6}\n", ""),
            "cards/chits/dice.yaml:5: 'faces': a die with 5 faces; expected exactly 6",
        ),
        (
            "chits.yaml",
            TOKEN.replace("across: 1in", "across: -1in"),
            "cards/chits/chits.yaml:5: 'across': -1in is a negative size; expected a size above 0",
        ),
        (
            "chits.yaml",
            TOKEN.replace("across: 1in", "across: 0"),
            "cards/chits/chits.yaml:5: 'across': 0 is no size at all; expected a size above 0",
        ),
        (
            "chits.yaml",
            TOKEN.replace("kind: token", "kind: tokn"),
            "cards/chits/chits.yaml:2: unknown component kind 'tokn' (did you mean 'token'?); expected one "
            "of: token, "
            "standee, die, tuckbox, sheet",
        ),
        (
            "chits.yaml",
            TOKEN.replace("shape: hex", "shape: oval"),
            "cards/chits/chits.yaml:4: 'shape' is 'oval'; expected one of: circle, hex, square, rounded",
        ),
        (
            "chits.yaml",
            TOKEN.replace("layout: chit", "layout: chip"),
            "cards/chits/chits.yaml:6: layout 'chip' not found (did you mean 'chit'?)",
        ),
        (
            "dice.yaml",
            DIE.replace("size: 16mm", "size: -16mm"),
            "cards/chits/dice.yaml:4: 'size': -16mm is a negative size; expected a size above 0",
        ),
        (
            "dice.yaml",
            DIE.replace("- {pips: 3}", "- {pips: 3, text: three}"),
            "cards/chits/dice.yaml:8: 'faces': a face shows pips, text; expected exactly one of pips, text, "
            "icon, layout",
        ),
        # one slip, one message: the colour read as a comment explains why 'color' is empty
        (
            "box.yaml",
            BOX.rstrip(" ") + "    color: #2d6a4f\n",
            "cards/chits/box.yaml:5: `color: #2d6a4f` is read as a comment (YAML starts one at ' #'), so "
            "color is empty; "
            "expected the colour in quotes: color: \"#2d6a4f\"",
        ),
    ],
)
def test_bad_component_files_give_one_located_line(tmp_path, name, text, expected):
    lines = _build(tmp_path, {name: text})
    assert len(lines) == 1, lines
    assert lines[0].startswith(expected), lines[0]


def test_a_text_outside_a_round_token_names_the_layout_box(tmp_path):
    layout = """\
        boxes:
          value: {x: 2mm, y: 2mm, width: 10mm, height: 5mm, text: "1"}
        """
    lines = _build(
        tmp_path,
        {
            "chits.yaml": TOKEN.replace("shape: hex\n    across: 1in", "shape: circle\n    diameter: 1in"),
            "layouts/chit.yaml": layout,
        },
    )
    assert lines == [
        "cards/chits/layouts/chit.yaml:2: text box 'value' of token 'chits' reaches outside its 25.4 mm "
        "circle outline; expected it 1.5 mm inside the shape (a smaller or more central box)"
    ]


def test_the_old_components_key_is_read_as_extras_with_a_warning_until_migrated(tmp_path):
    game = ("title: Chits\ncode: CHT\nplayers: {min: 2, max: 4}\ndecks: [things]\n# what is in the box\n"
            "components:   # not printed\n  - {name: Bell, count: 1}\n")
    write_project(tmp_path, {"game.yaml": game})
    result = run_pnp("build", "--paper", "a4", project=tmp_path)
    assert result.exit_code == 0, result.output
    assert ("warning: cards/chits/game.yaml:6: 'components' is now called 'extras' (things in the box that "
            "are not printed; printed components are files of their own with `component:` as the top-level "
            "key); read as 'extras' for this release: `pnp migrate` rewrites it") in result.output
    assert "Bell" in run_pnp("list", project=tmp_path).output  # read as an extra
    migrated = run_pnp("migrate", project=tmp_path)
    assert migrated.exit_code == 0
    assert "cards/chits/game.yaml:6: 'components' -> 'extras'" in migrated.output
    path = tmp_path / "cards" / "chits" / "game.yaml"
    assert path.read_text() == game.replace("components:   # not printed", "extras:   # not printed")
    assert "Nothing to migrate" in run_pnp("migrate", project=tmp_path).output
    rebuilt = run_pnp("build", "--paper", "a4", "--force", project=tmp_path)
    assert rebuilt.exit_code == 0 and "now called" not in rebuilt.output


def test_old_and_new_names_together_are_a_problem(tmp_path):
    game = ("title: Chits\ncode: CHT\nplayers: {min: 2, max: 4}\ndecks: [things]\ncomponents:\n  - {name: "
            "Bell, count: 1}\nextras: []\n")
    lines = _build(tmp_path, {"game.yaml": game})
    assert lines == ["cards/chits/game.yaml:5: 'components' is the old name of 'extras', which is given too "
                     "(line 7); expected only 'extras'"]


def test_component_and_deck_ids_stay_apart(tmp_path):
    lines = _build(tmp_path, {"box.yaml": BOX.replace("component: box", "component: things")})
    assert lines == [
        "cards/chits/box.yaml:1: component 'things' has the id of the deck in cards/chits/things.yaml; "
        "expected an id of its own (exports use it as a folder name)"
    ]


SHEET = """\
    component: pad
    kind: sheet
    name: Score pad
    size: {width: 95mm, height: 125mm}
    columns:
      - {header: Round, text: "{{ number }}"}
      - {header: "", repeat: 6}
    rows: 12
    """


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("pad.yaml", SHEET.replace("rows: 12", "rows: 1000000"),
         "cards/chits/pad.yaml:8: 'rows': 1,000,000 blank rows; expected at most 1,000 (pnp's limit for one "
         "sheet"),
        ("pad.yaml", SHEET.replace("repeat: 6", "repeat: 1000000"),
         "cards/chits/pad.yaml:5: 'columns': 1,000,001 columns (repeats counted); expected at most 100"),
        ("pad.yaml", SHEET.replace("rows: 12", "rows: 12\n    copies: 1000000"),
         "cards/chits/pad.yaml:9: copies is 1000000; expected a whole number from 1 to 1,000"),
        ("dice.yaml", DIE.replace("size: 16mm", "size: 16mm\n    copies: 1000000"),
         "cards/chits/dice.yaml:5: copies is 1000000; expected a whole number from 1 to 1,000"),
    ],
)
def test_a_huge_pad_or_die_is_refused_at_its_limit_before_any_work(tmp_path, name, text, expected):
    import time

    started = time.monotonic()
    lines = _build(tmp_path, {name: text})
    assert time.monotonic() - started < 5  # the limit is checked as the file is read (within a second here)
    assert len(lines) == 1 and lines[0].startswith(expected), lines
