"""Keys that were renamed: a file written before the rename still loads for one release, with a warning that
says the new name, and `pnp migrate` rewrites the old name in place (only that word: comments, order and
spacing are kept)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import Problem
from generator.core.write import atomic_write
from generator.core.yamlio import YDict


@dataclass(frozen=True)
class RenamedKey:
    """A top-level key of game.yaml that has a new name."""

    old: str
    new: str
    why: str  # what the new name means, for the warning


GAME_RENAMES = (
    RenamedKey("components", "extras", "things in the box that are not printed; printed components are files "
                                       "of their own with `component:` as the top-level key"),
)


def read_renamed(raw: YDict, shown: str) -> tuple[list[Problem], list[Problem]]:
    """Read each old key of game.yaml as its new name (in `raw`): (warnings, problems). Both names given is a
    problem."""
    warnings, problems = [], []
    for renamed in GAME_RENAMES:
        if renamed.old not in raw:
            continue
        line = raw.line_of(renamed.old)
        if renamed.new in raw:
            problems.append(Problem(shown, line, f"'{renamed.old}' is the old name of '{renamed.new}', which "
                                                 f"is given too (line {raw.line_of(renamed.new)}); expected "
                                                 f"only '{renamed.new}'"))
            raw.pop(renamed.old)
            continue
        raw[renamed.new] = raw.pop(renamed.old)
        raw.key_lines[renamed.new] = line
        message = (f"'{renamed.old}' is now called '{renamed.new}' ({renamed.why}); read as '{renamed.new}' "
                   "for this release: `pnp migrate` rewrites it")
        warnings.append(Problem(shown, line, message))
    return warnings, problems


def migrate_file(path: Path, raw: YDict, shown: str) -> list[str]:
    """Rewrite the old top-level keys of one game.yaml in place; what was changed, one line each."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    done = []
    for renamed in GAME_RENAMES:
        if renamed.old not in raw or renamed.new in raw:
            continue
        index = raw.line_of(renamed.old) - 1
        pattern = re.compile(rf"^{re.escape(renamed.old)}(\s*:)")
        if 0 <= index < len(lines) and pattern.match(lines[index]):
            lines[index] = pattern.sub(rf"{renamed.new}\1", lines[index], count=1)
            done.append(f"{shown}:{index + 1}: '{renamed.old}' -> '{renamed.new}'")
    if done:
        atomic_write(path, "".join(lines))
    return done
