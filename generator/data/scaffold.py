"""`pnp new NAME`: a new game folder from the template in generator/scaffold/, ready to build and validate."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import yaml

from generator.core.errors import InputError, Problem
from generator.core.ids import SLUG, expected_id
from generator.core.write import atomic_write
from generator.data.project import SCAFFOLD_DIR, Project

TEMPLATE_DIR = SCAFFOLD_DIR
GAME_ID = SLUG  # the Slug pattern of generator.data.models
CODE = re.compile(r"^[A-Z0-9]{2,6}$")
PIECES = "_making-the-pieces.md.j2"  # how each component is made, included by every game's rules
ENGINE_LINE = (
    "engine: {module: engine.py}  # the rules engine pnp validate plays (Python; pnp build never runs it)\n"
)
RULES_LINE = "engine: {rules: rules.yaml}  # rules as data for pnp validate (`pnp docs rules-language`)\n"


def default_code(name: str) -> str:
    """A card-code prefix from the game id: 'demo' -> 'DEM', 'space-race' -> 'SR'."""
    words = [w for w in re.split(r"[-_]", name.upper()) if w]
    code = "".join(w[0] for w in words) if len(words) > 1 else words[0][:3]
    code = re.sub(r"[^A-Z0-9]", "", code)[:6]
    return code if len(code) >= 2 else (code + "GAME")[:3]


def default_title(name: str) -> str:
    """A readable title from the game id: 'space-race' -> 'Space Race'."""
    return " ".join(w.capitalize() for w in re.split(r"[-_]", name) if w)


def yaml_scalar(value: str) -> str:
    """`value` as one YAML scalar that loads back exactly: as it is when it reads so, else double-quoted with
    escapes (a ':', a '#', a quote or a line break can then never end it or add a key)."""
    try:
        plain = "\n" not in value and yaml.safe_load(f"key: {value}\n") == {"key": value}
    except yaml.YAMLError:
        plain = False
    if plain:
        return value
    return yaml.safe_dump(value, default_style='"', allow_unicode=True, width=2**31).split("\n")[0]


def comment_text(value: str) -> str:
    """`value` for a YAML or Jinja comment: one line (breaks and control characters as spaces), never ending a
    Jinja comment."""
    line = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in value)
    return " ".join(line.split()).replace("#}", "# }")


def _fill(text: str, values: dict[str, str]) -> str:
    """The template with each __KEY__ replaced, in one pass: a title holding '__CODE__' stays as it is."""
    marks = re.compile("|".join(re.escape(f"__{key}__") for key in values))
    return marks.sub(lambda match: values[match.group(0)[2:-2]], text)


def new_game(project: Project, name: str, title: str | None = None, code: str | None = None,
             engine: bool = False, rules: bool = False) -> list[Path]:
    """Write cards/<name>/ (game.yaml, a sample deck, its layouts) and templates/rules/<name>.md.j2; returns
    the files. With `engine`, also a rules engine that plays the sample (engine.py) and a scripted game
    (scripts/); with `rules`, the sample's rules described in the rules language instead (rules.yaml)."""
    problems = []
    if engine and rules:
        problems.append(
            Problem(
                "",
                0,
                "--engine and --rules both give the game its rules; expected one of them "
                "(Python in engine.py, or the rules language in rules.yaml)",
            )
        )
    if not GAME_ID.match(name):
        problems.append(Problem("", 0, f"'{name}' is not a valid game id; expected {expected_id(name)}"))
    code = code or (default_code(name) if GAME_ID.match(name) else "")
    if GAME_ID.match(name) and not CODE.match(code):
        problems.append(
            Problem("", 0, f"card code '{code}' is not valid; expected 2 to 6 upper-case letters or digits")
        )
    game_dir = project.cards_dir / name
    if GAME_ID.match(name) and game_dir.exists():
        problems.append(
            Problem(
                project.show(game_dir),
                0,
                f"game '{name}' already exists; expected a new name (pnp new never overwrites a game)",
            )
        )
    if problems:
        raise InputError(problems)
    title = default_title(name) if title is None else title
    # the title is the designer's text: quoted as YAML where it is a value, one plain line in comments
    values = {"NAME": name, "TITLE_YAML": yaml_scalar(title), "TITLE_TEXT": comment_text(title),
              "TITLE_PY": comment_text(title).replace("\\", "\\\\").replace('"', '\\"'), "CODE": code,
              "ENGINE": ENGINE_LINE if engine else RULES_LINE if rules else ""}
    written = []
    extra = [TEMPLATE_DIR / "engine"] if engine else [TEMPLATE_DIR / "rules"] if rules else []
    for source in [TEMPLATE_DIR / "game"] + extra:
        for path in sorted(p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            target = game_dir / path.relative_to(source)
            written.append(atomic_write(target, _fill(path.read_text(encoding="utf-8"), values)))
    booklet = project.rules_template(name)
    if not booklet.exists():  # a rules text left by an earlier game of this name is kept as it is
        written.append(
            atomic_write(booklet, _fill((TEMPLATE_DIR / "rules.md.j2").read_text(encoding="utf-8"), values))
        )
    pieces = booklet.parent / PIECES
    if not pieces.exists():  # the shared "Making the pieces" the rules include (a project's own copy is kept)
        written.append(atomic_write(pieces, (TEMPLATE_DIR / PIECES).read_text(encoding="utf-8")))
    return written
