"""build/.checks.json: the game.yaml `checks:` that passed, each by the hash of exactly what it reads
(generator.data.game_checks.check_key). A rebuild after an edit runs only the checks whose inputs changed: a
card text edit of one deck leaves the checks of the other decks, the boards and the settings alone. Only
passes are kept, so every problem a check reports comes from running it, on a cold build as on a rebuild."""

from __future__ import annotations

import json
from pathlib import Path

from generator.data.game_checks import PassedChecks

CHECKS_FILE = ".checks.json"
CACHE_VERSION = 1


def read_passed(build_dir: Path, names: list[str], salt: str) -> PassedChecks:
    """The checks the named games passed before (a missing or damaged file: none)."""
    known: list[str] = []
    try:
        data = json.loads((Path(build_dir) / CHECKS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    for name in names:
        keys = _games(data).get(name)
        known += [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []
    return PassedChecks(known, salt)


def _games(data) -> dict:
    """The file's entries per game, when it is one of this version (else none)."""
    ok = isinstance(data, dict) and data.get("version") == CACHE_VERSION
    return data["games"] if ok and isinstance(data.get("games"), dict) else {}


def passed_text(build_dir: Path, passed: PassedChecks) -> str | None:
    """The file with the checks that passed this time for the games checked (their keys replace the last
    ones) and the other games' entries as they were; None when it would not change. A build commits it with
    its outputs and state (a failed build leaves it as it was)."""
    if not passed.passed:
        return None
    path = Path(build_dir) / CHECKS_FILE
    try:
        old = path.read_text(encoding="utf-8")
        data = json.loads(old)
    except (OSError, ValueError):
        old, data = None, None
    games = dict(_games(data))
    games.update(passed.passed)
    text = json.dumps({"version": CACHE_VERSION, "games": dict(sorted(games.items()))}, indent=1) + "\n"
    return text if text != old else None
