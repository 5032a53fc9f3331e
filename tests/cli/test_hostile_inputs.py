"""Every bad input of the attack in issue 15, as a designer (or an attacker) would write it: each gives exit 1
and one located line per problem, never a traceback, never a hang, and nothing from outside the project.

Bombs (inputs that would hang or exhaust memory without the limits of generator.core.limits) run in a child
process under a 1 GB address-space limit and a CPU-time limit, so a regression fails the test instead of the
machine; nothing here measures speed.
"""

from __future__ import annotations

import os
import resource
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from generator.data.project import Project
from tests.conftest import run_pnp

SECRET = "hunter2-outside-the-project"


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("scaffold")
    assert run_pnp("new", "demo", project=Project(root)).exit_code == 0
    return root


@pytest.fixture
def demo(scaffold: Path, tmp_path: Path) -> Project:
    shutil.copytree(scaffold, tmp_path / "p")
    (tmp_path / "secret.yaml").write_text(f"password: {SECRET}\n")
    (tmp_path / "secret.md").write_text(f"{SECRET}\n")
    return Project(tmp_path / "p")


GAME, DECK = "cards/demo/game.yaml", "cards/demo/actions.yaml"
LAYOUT, RULES = "cards/demo/layouts/actions.yaml", "templates/rules/demo.md.j2"
SETTINGS = ("settings:                 # rule parameters, read by the rules text (and a rules engine, if you "
            "add one)\n")
BOARD = """board: city
name: City
grid: {cols: 3, rows: 3, cell: 18mm, margin: 10mm}
spaces:
  - {id: a, at: [0, 0]}
  - {id: b, at: [1, 0]}
connect_adjacent: true
"""


def edit(project: Project, rel: str, old: str, new: str) -> None:
    path = project.root / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(project: Project, rel: str, text: str) -> None:
    path = project.root / rel
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def write(project: Project, rel: str, data: str | bytes) -> None:
    path = project.root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")


def png_header(width: int, height: int) -> bytes:
    """A tiny PNG file whose header claims width x height pixels (a decompression bomb needs no more)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def art_box(image: str) -> tuple[str, str]:
    return (
        "  plate: {x: 16.75mm",
        f"  art: {{x: 16.75mm, y: 19mm, width: 30mm, height: 30mm, image: {image}}}\n  plate: {{x: 16.75mm",
    )


def assert_located(result, *fragments: str) -> list[str]:
    """Exit 1, every fragment in the output, each line a problem or the count, no traceback, no outside
    file."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and SECRET not in result.output, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    problems = [
        line for line in lines if not line.startswith(("OK ", "--  ", "      - ", "  wrote", "BAD", "Played"))
        and "running its rules engine, the project's own Python in" not in line  # what the run imports
    ]
    assert problems[-1].endswith("found."), result.output
    for line in problems[:-1]:
        # 'file:line: what; expected ...' (or '--option: ...' for a command-line value)
        assert ": " in line, line
    return problems[:-1]


# name -> (changes, command, fragments of the one expected problem line)
CASES = {
    "layout x is nan": (
        [(LAYOUT, "x: 4mm\n    y: 3.5mm", "x: .nan\n    y: 3.5mm")],
        "validate",
        [f"{LAYOUT}:7: 'boxes.title.x'", "finite"],
    ),
    "bleed is nan": ([(GAME, "bleed: 3mm", "bleed: .nan")], "validate", [f"{GAME}:9: 'bleed'", "finite"]),
    "bleed is negative": (
        [(GAME, "bleed: 3mm", "bleed: -3mm")],
        "validate",
        [f"{GAME}:9: 'bleed'", "from 0 mm"],
    ),
    "board cell 0mm": (
        [("cards/demo/board.yaml", None, BOARD.replace("18mm", "0mm"))],
        "validate",
        ["cards/demo/board.yaml:3: 'grid.cell': the cell size is 0 mm"],
    ),
    "a zone far outside the board": (
        [
            (
                "cards/demo/board.yaml",
                None,
                BOARD + "zones:\n  - {id: z, caption: Z, at: [0, 0], size: [1000000000, 2]}\n",
            )
        ],
        "validate",
        [
            "cards/demo/board.yaml:9: zone 'z' (0, 0, 1e+09 x 2 cells) reaches outside the "
            "3 x 3 board; expected it within the grid"
        ],
    ),
    "duplicate deck code": (
        [
            ("cards/demo/more.yaml", None, "COPY"),
            ("cards/demo/more.yaml", "deck: actions", "deck: more"),
            (GAME, "decks: [actions]", "decks: [actions, more]"),
        ],
        "build",
        ["cards/demo/more.yaml:4: deck 'more' has code 'ACT', which deck 'actions'"],
    ),
    "font size 0pt": (
        [(LAYOUT, "size: 10pt", "size: 0pt")],
        "validate",
        [f"{LAYOUT}:26: 'boxes.text.size'", "above 0"],
    ),
    "font size -5pt": (
        [(LAYOUT, "size: 10pt", "size: -5pt")],
        "validate",
        [f"{LAYOUT}:26: 'boxes.text.size'"],
    ),
    "number field nan": (
        [
            (DECK, "value: {type: int, min: 0, help: points}", "value: {type: number, help: points}"),
            (DECK, "value: 1\n", "value: .inf\n"),
        ],
        "validate",
        [f"{DECK}:16: 'value' is inf; expected a finite number"],
    ),
    "copies true": (
        [(DECK, "copies: 4", "copies: true")],
        "validate",
        [f"{DECK}:14: 'copies' is true; expected a whole number"],
    ),
    "unknown engine": (
        [(GAME, "decks: [actions]", "engine: nope\ndecks: [actions]")],
        "validate",
        [f"{GAME}:11: rules engine 'nope' does not exist"],
    ),
    "invalid UTF-8 in a deck": (
        [(DECK, "Draw Two", b"Draw \xff Two")],
        "validate",
        [f"{DECK}:13: byte 0xff is not valid UTF-8"],
    ),
    "invalid UTF-8 in the rules": (
        [(RULES, "# Setup", b"# Set\xffup")],
        "validate",
        [f"{RULES}:20: byte 0xff is not valid UTF-8"],
    ),
    "an unclosed quote": (
        [(DECK, "text: Score 5 points.", 'text: "Score 5 points.')],
        "validate",
        [f"{DECK}:39: a quoted value starts here and its closing quote never comes"],
    ),
    "an unclosed list": (
        [(GAME, "decks: [actions]", "decks: [actions")],
        "validate",
        [f"{GAME}:11: the list opened here with '[' is not closed before line 12"],
    ),
    "a word wider than its box": (
        [
            (
                DECK,
                "text: Draw **2** cards, then discard 1.",
                "text: Supercalifragilisticexpialidociousnessesfantasticallylonger",
            )
        ],
        "validate",
        [
            "card DEM-ACT-01 (draw-two): box 'text': text does not fit",
            "the word 'Supercalifragilisticexpialidociousnes...' is 175.7 pt wide at 7 pt",
            "the box is 151.7 pt wide",
        ],
    ),
    "a bold word wider than its box": (
        [(DECK, "text: Draw **2** cards, then discard 1.", "text: Draw **WWWWWWWWWWWWWWWWWWWWW** now")],
        "validate",
        # measured in bold as drawn (in the regular face it is 149.8 pt: it
        # would fit)
        ["the word 'WWWWWWWWWWWWWWWWWWWWW' is 154.5 pt wide at 7 pt", "the box is 151.7 pt wide"],
    ),
    "a template typo for every card": (
        [(LAYOUT, 'text: "{{ card.text }}"', 'text: "{{ game.settings.nope }}"')],
        "validate",
        [
            "card DEM-ACT-01 (draw-two) and 3 more cards: box 'text': "
            "template error: no field 'nope' here; known: hand_size, target"
        ],
    ),
    "range(10**9)": (
        [(LAYOUT, 'text: "{{ card.text }}"', 'text: "{% for i in range(10**9) %}{% endfor %}"')],
        "validate",
        ["and 3 more cards: box 'text': range() of more than 100,000 numbers"],
    ),
    "a macro calling itself": (
        [(RULES, "# Setup", "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}\n# Setup")],
        "validate",
        [f"{RULES}:20: calls nest more than 100 deep"],
    ),
    "the rules including themselves": (
        [(RULES, "# Setup", "{% include 'demo.md.j2' %}\n# Setup")],
        "validate",
        [f"{RULES}:20: the template includes or imports other templates more than 64 times"],
    ),
    "a missing Markdown image": (
        [(RULES, "# Setup", "![map](images/map.png)\n\n# Setup")],
        "validate",
        [f"{RULES}:20: picture 'images/map.png' not found"],
    ),
    "a Markdown image outside": (
        [(RULES, "# Setup", "![x](/etc/hostname)\n\n# Setup")],
        "build",
        [f"{RULES}:20: picture '/etc/hostname' is outside the project folder"],
    ),
    "a bad figure block": (
        [(RULES, "# Setup", '```figure\n{"kind": "card", "deck": "nope"}\n```\n\n# Setup')],
        "validate",
        [f"{RULES}:21: figure: no deck 'nope'; known: actions"],
    ),
    "a figure block that is no JSON": (
        [(RULES, "# Setup", "```figure\n{kind: card}\n```\n\n# Setup")],
        "validate",
        [f"{RULES}:21: a figure block is not valid JSON"],
    ),
    "figure width banana": (
        [
            (
                RULES,
                "# Setup",
                "{{ figure('card', deck='actions', card='draw-two', width='banana') }}\n# Setup",
            )
        ],
        "validate",
        [f"{RULES}:20: figure width: 'banana' is not a length"],
    ),
    "a figure of a card that is not there": (
        [(RULES, "# Setup", "![Nope](card:actions/nope)\n\n# Setup")],
        "build",
        [f"{RULES}:20: picture 'card:actions/nope' names no card"],
    ),
    "extends outside": (
        [(LAYOUT, "boxes:", "extends: ../../../../secret\nboxes:")],
        "validate",
        [f"{LAYOUT}:3: layout '../../../../secret' is outside the project folder"],
    ),
    "a card layout outside": (
        [(DECK, "  - id: draw-two\n", "  - id: draw-two\n    layout: ../../../../secret\n")],
        "validate",
        [f"{DECK}:13: layout '../../../../secret' is outside the project folder"],
    ),
    "an include outside": (
        [(RULES, "# Setup", "{% include '../../../secret.md' %}\n# Setup")],
        "build",
        [f"{RULES}:20: template '../../../secret.md' is outside the project folder"],
    ),
    "a corrupt PNG": (
        [("cards/demo/images/a.png", None, b"\x89PNG\r\n\x1a\ngarbage"), (LAYOUT, *art_box("images/a.png"))],
        "build",
        [
            f"{LAYOUT}:18: card DEM-ACT-01 (draw-two) and 3 more cards: box 'art': image 'a.png' "
            "cannot be read as a picture (not a picture file pnp knows, or damaged); expected a PNG, "
            "JPG or SVG file"
        ],
    ),
    "a PNG of 30000 x 30000": (
        [("cards/demo/images/a.png", None, png_header(30000, 30000)), (LAYOUT, *art_box("images/a.png"))],
        "validate",
        ["box 'art': image 'a.png' has more than 64,000,000 pixels"],
    ),
    "an SVG image climbing out": (
        [
            (
                "cards/demo/images/a.svg",
                None,
                '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
                '<image href="../../../../secret.png" width="10" height="10"/></svg>',
            ),
            (LAYOUT, *art_box("images/a.svg")),
        ],
        "build",
        [
            "box 'art': image 'images/a.svg': line 2 of the SVG refers to "
            "'../../../../secret.png', which is outside the project folder"
        ],
    ),
}


def apply(project: Project, changes) -> None:
    for rel, old, new in changes:
        if old is None:
            if new == "COPY":
                shutil.copy(project.root / DECK, project.root / rel)
            else:
                write(project, rel, new)
        elif isinstance(new, bytes):
            path = project.root / rel
            path.write_bytes(path.read_bytes().replace(old.encode(), new, 1))
        else:
            edit(project, rel, old, new)


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_located_line(demo: Project, case: str):
    changes, command, fragments = CASES[case]
    apply(demo, changes)
    args = ["validate", "--no-sim"] if command == "validate" else [command]
    problems = assert_located(run_pnp(*args, project=demo), *fragments)
    assert len(problems) == 1, problems
    if command == "build":
        # nothing drawn from a project with problems
        assert not (demo.build_dir / "demo" / "cards-a4.pdf").exists()


def test_validate_finds_what_build_finds(demo: Project):
    """The rules template, its figures and pictures and the card faces are checked the same way by both
    commands."""
    apply(
        demo,
        CASES["a bad figure block"][0] + CASES["a missing Markdown image"][0] + CASES["a corrupt PNG"][0],
    )
    checked = assert_located(run_pnp("validate", "--no-sim", project=demo))
    built = assert_located(run_pnp("build", project=demo))
    assert sorted(checked) == sorted(built) and len(built) == 3


def test_outside_links_are_refused(demo: Project, tmp_path: Path):
    """Symbolic links to files elsewhere count as outside: an icon and a rules include."""
    (tmp_path / "evil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    )
    (demo.root / "cards/demo/icons").mkdir()
    os.symlink(tmp_path / "evil.svg", demo.root / "cards/demo/icons/evil.svg")
    edit(demo, DECK, "icon: hand", "icon: evil")
    os.symlink(tmp_path / "secret.md", demo.root / "templates/rules/inc.md")
    edit(demo, RULES, "# Setup", "{% include 'inc.md' %}\n# Setup")
    problems = assert_located(run_pnp("build", project=demo),
                              "icon 'evil' file 'cards/demo/icons/evil.svg' is outside the project folder",
                              f"{RULES}:20: template 'inc.md' is outside the project folder")
    assert len(problems) == 2 and not demo.build_dir.exists()


def test_data_files_and_scripts_linked_from_outside_are_refused_unread(tmp_project: Project, tmp_path: Path):
    """A *.yaml in a game folder (or its scripts/) that is a symbolic link out of the project is a problem
    located at the link; the file it points to is neither read nor named."""
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "deck.yaml").write_text(f"deck: stolen\nname: {SECRET}\n")
    game = tmp_project.cards_dir / "order-up-pizza"
    os.symlink(outside / "deck.yaml", game / "stolen.yaml")
    result = run_pnp("validate", "order-up-pizza", "--no-sim", project=tmp_project)
    assert assert_located(result) == [
        "cards/order-up-pizza/stolen.yaml: data file 'stolen.yaml' is outside the project folder; expected a "
        "path "
        f"inside {tmp_project.root.name}/ (symbolic links are followed before checking)"
    ]
    assert str(outside) not in result.output
    (game / "stolen.yaml").unlink()
    os.symlink(outside / "deck.yaml", game / "scripts" / "99_stolen.yaml")
    result = run_pnp("validate", "order-up-pizza", "--no-sim", project=tmp_project)
    assert result.exit_code == 1 and SECRET not in result.output and str(outside) not in result.output
    assert (
        "cards/order-up-pizza/scripts/99_stolen.yaml: script '99_stolen.yaml' is outside the project folder"
        in result.output
    ), result.output
    (game / "scripts" / "99_stolen.yaml").unlink()
    (game / "i18n" / "cs.yaml").replace(outside / "cs.yaml")
    os.symlink(outside / "cs.yaml", game / "i18n" / "cs.yaml")
    result = run_pnp("validate", "order-up-pizza", "--no-sim", project=tmp_project)
    assert result.exit_code == 1 and str(outside) not in result.output
    assert (
        "cards/order-up-pizza/i18n/cs.yaml: Czech (cs): translation file 'cs.yaml' is outside the project "
        "folder" in result.output
    ), result.output


@pytest.mark.parametrize("bleed", ["-2in", "-1in", "1in"])
def test_export_bleed_out_of_range(demo: Project, bleed: str):
    problems = assert_located(run_pnp("export", "png", "--bleed", bleed, project=demo), "--bleed: ")
    assert problems == [
        f"--bleed: {bleed.removesuffix('in')} in; expected from 0 to 0.5 in (a negative bleed "
        "would cut into the card)"
    ]
    assert not (demo.build_dir / "demo" / "png").exists()


def test_a_card_without_an_icon_shows_no_icon_not_none(demo: Project):
    """`icon: "{{ card.icon }}"` for a card with no icon skips the box (it used to ask for an icon called
    'None')."""
    edit(demo, DECK, "    icon: hand\n", "")
    result = run_pnp("build", "--paper", "a4", project=demo)
    assert result.exit_code == 0, result.output
    import pypdfium2

    text = (
        pypdfium2.PdfDocument(str(demo.build_dir / "demo" / "cards-a4.pdf"))[2]
        .get_textpage()
        .get_text_range()
    )
    assert "Draw Two" in text and "None" not in text


def test_validate_with_player_counts_the_game_never_plays(tmp_project: Project):
    result = run_pnp("validate", "order-up-pizza", "--players", "7", "--jobs", "1", project=tmp_project)
    problems = assert_located(result)
    assert problems == [
        "cards/order-up-pizza/game.yaml:4: --players 7: order-up-pizza is played by 2, 3, 4 players, "
        "so no game was simulated; expected --players to name one of those counts"
    ]


def test_damaged_build_files_cost_a_rebuild_not_a_crash(demo: Project):
    assert run_pnp("build", "--paper", "a4", project=demo).exit_code == 0
    for name, text in (
        ("manifest.json", '{"outputs": [1, {"path": 2}], "decks": 5}'),
        (".state.json", '{"version": 1, "games": {"demo": {"key": 1, "outputs": 5}}, "outputs": 3}'),
    ):
        (demo.build_dir / name).write_text(text)
        result = run_pnp("build", "--paper", "a4", project=demo)
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
        import json

        manifest = json.loads((demo.build_dir / "manifest.json").read_text())
        assert {o["path"] for o in manifest["outputs"]} >= {"demo/cards-a4.pdf", "demo/rules.pdf"}


# --- bombs: a child process with 1 GB of address space and 10 s of CPU
# ------------------------------------------

ALIAS_BOMB = "".join(f"  {a}: &{a} [{', '.join([f'*{b}'] * 10) if b else ', '.join(['x'] * 10)}]\n"
                     for a, b in zip("abcdefghi", [None, *"abcdefgh"], strict=True))
LOAD_BOMBS = [  # found while loading: each file is reported, all in one run
    (GAME, SETTINGS, "settings:\n" + ALIAS_BOMB),
    ("cards/demo/board.yaml", None, BOARD.replace("cols: 3, rows: 3", "cols: 100000, rows: 100000")),
    (
        "cards/demo/deep.yaml",
        None,
        "table: deep\nname: Deep\nrows:\n  - {id: a, name: " + "[" * 3000 + "]" * 3000 + "}\n",
    ),
]
def _big_deck(deck: str, code: str) -> list[tuple]:
    """A copy of the sample deck under another id and code, every card printed 1000 times."""
    rel = f"cards/demo/{deck}.yaml"
    return [
        (rel, None, "COPY"),
        (rel, "deck: actions", f"deck: {deck}"),
        (rel, "code: ACT", f"code: {code}"),
    ] + [(rel, f"copies: {n}\n", "copies: 1000\n") for n in (4, 3, 2, 1)]


DECK_BOMBS = [  # found while typing the decks (game.yaml must load for that)
    *_big_deck("more", "MOR"), *_big_deck("third", "THD"), *_big_deck("fourth", "FOU"),
    (DECK, "copies: 4", "copies: 1000000000"),
    (GAME, "decks: [actions]", "decks: [actions, more, third, fourth]"),
]
RENDER_BOMBS = [  # found while drawing the cards and the rules once: each box and template reported
    (LAYOUT, 'text: "{{ card.text }}"', "text: \"{{ 'x' * 10**10 }}\""),
    (LAYOUT, 'text: "{{ card.value }}"',
     'text: "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"'),
    (LAYOUT, 'text: "{{ card.name }}"', 'text: "{% set ns = namespace(s=\'ab\') %}{% for i in range(64) %}'
                                        '{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"'),
    (RULES, "# Setup", "{{ 10 ** (10 ** 10) }}\n# Setup"),
    ("cards/demo/images/a.png", None, png_header(30000, 30000)),
    (LAYOUT, *art_box("images/a.png")),
]


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (10, 10))


def _pnp_in_a_box(project: Project, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "--project", str(project.root), *args],
                          capture_output=True, text=True, preexec_fn=_limited, check=False)


@pytest.mark.parametrize("bombs, fragments", [
    (LOAD_BOMBS, [f"{GAME}:17: this value expands to more than 100,000 values",
                  "cards/demo/board.yaml:3: 'grid': the grid has 100000 x 100000 = 10,000,000,000 cells",
                  "cards/demo/deep.yaml:4: the data is nested more than 64 levels deep"]),
    (DECK_BOMBS, [f"{DECK}:14: copies is 1000000000; expected a whole number from 1 to 1,000",
                  f"{GAME}:11: the decks hold 12,006 cards; expected at most 10,000 in one game"]),
    (RENDER_BOMBS, ["box 'text': repeating a str 10000000000 times would be more than 1,000,000 characters",
                    "box 'value': the template loops more than 200,000 times in one render",
                    "box 'title': a value would be more than 1,000,000 characters long",
                    f"{RULES}:20: 10 ** 10000000000 is a number of more than 4,096 bits",
                    "box 'art': image 'a.png' has more than 64,000,000 pixels"]),
], ids=["loading", "typing decks", "drawing"])
def test_bombs_fail_located_within_the_limits(demo: Project, bombs, fragments):
    apply(demo, bombs)
    run = _pnp_in_a_box(demo, "validate", "--no-sim")
    assert run.returncode == 1, (run.returncode, run.stdout, run.stderr[-2000:])  # not killed by the limits
    assert "Traceback" not in run.stderr and "MemoryError" not in run.stderr, run.stderr[-2000:]
    for fragment in fragments:
        assert fragment in run.stderr, run.stderr
    count = len(fragments)
    assert run.stderr.strip().endswith(f"{count} problem{'s' if count > 1 else ''} found."), run.stderr
