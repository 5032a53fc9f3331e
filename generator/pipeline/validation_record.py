"""The record of the last `pnp validate` of each game (build/<game>/validation.json), read back by `pnp
serve`.

It holds what the terminal printed: the checks that passed, the scripted games, the simulation's summary and
every problem, located. No clock time is written (the file's own modification time says when it ran), so the
same run writes the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path

from generator.core.write import atomic_write
from generator.validator.report import terminal_summary

RECORD = "validation.json"


def record_path(build_dir: Path, game_id: str) -> Path:
    """build/<game>/validation.json."""
    return Path(build_dir) / game_id / RECORD


def game_record(entry, settings, simulated: bool) -> dict:
    """What one game's validation found, as plain data (entry: a pipeline.validate.GameValidation)."""
    report = entry.report
    figures = entry.figures
    return {
        "game": entry.game,
        "cards": report.cards, "decks": report.decks, "card_types": report.card_types,
        "checks": list(report.checks),
        "engine": entry.has_engine,
        "scripts": {"count": entry.scripts, "failing": entry.scripts_failing},
        "script_problems": [str(p) for p in entry.script_problems],
        "simulated": simulated and figures is not None,
        "settings": {"games_per_count": settings.games, "seed": settings.seed,
                     "players": list(settings.players)},
        "failed_games": sum(f["failed"] for f in figures["by_players"].values()) if figures else 0,
        "summary": terminal_summary(figures) if figures else [],
        "problems": [str(p) for p in entry.sim_problems],
        "unplayed_counts": list(entry.unplayed_counts),
        "balance_pdf": f"{entry.game}/balance.pdf" if entry.balance_pdf is not None else None,
    }


def write_records(build_dir: Path, games: list, settings, simulated: bool) -> list[Path]:
    """Write build/<game>/validation.json for every validated game."""
    return [atomic_write(record_path(build_dir, entry.game),
                         json.dumps(game_record(entry, settings, simulated), indent=1, sort_keys=True) + "\n")
            for entry in games]


def write_failure_record(build_dir: Path, game_id: str, problems: list[str]) -> Path:
    """Write build/<game>/validation.json for a run whose data did not load: the problems, nothing played."""
    record = {"game": game_id, "loaded": False, "problems": problems, "script_problems": [], "checks": [],
              "engine": False, "simulated": False, "summary": [], "balance_pdf": None}
    return atomic_write(record_path(build_dir, game_id), json.dumps(record, indent=1, sort_keys=True) + "\n")


def read_record(build_dir: Path, game_id: str) -> dict | None:
    """The last validation record of a game, or None when `pnp validate` has not run (or the file is
    damaged)."""
    try:
        data = json.loads(record_path(build_dir, game_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("game") == game_id else None
