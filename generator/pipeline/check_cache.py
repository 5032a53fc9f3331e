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
    parts: dict = {}
    for name in names:
        keys = _games(data).get(name)
        known += [key for key in keys if isinstance(key, str)] if isinstance(keys, list) else []
        parts.update({memo: found for memo, found in _parts(data).get(name, {}).items() if found is None
                      or (isinstance(found, list) and all(isinstance(part, str) for part in found))})
    return PassedChecks(known, salt, parts)


def _parts(data) -> dict:
    """The file's parts read by each check, per game (what game_checks.parts_read found)."""
    ok = isinstance(data, dict) and data.get("version") == CACHE_VERSION
    if not ok or not isinstance(data.get("parts"), dict):
        return {}
    return {name: found for name, found in data["parts"].items() if isinstance(found, dict)}


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
    games, parts = dict(_games(data)), _parts(data)
    games.update(passed.passed)
    parts.update(passed.parts_used)  # the checks of a game checked now: those it has now
    text = json.dumps({"version": CACHE_VERSION, "games": dict(sorted(games.items())),
                       "parts": dict(sorted(parts.items()))}, indent=1) + "\n"
    return text if text != old else None
