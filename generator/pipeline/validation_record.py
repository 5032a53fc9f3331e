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
from generator.validator.odds import odds_tables, summary_lines
from generator.validator.playtests import compare
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
        "settings": {"games_per_count": settings.games if settings.stopping is None else None,
                     "seed": settings.seed, "players": list(settings.players),
                     "stopping": figures["settings"].get("stopping") if figures else None},
        "failed_games": sum(f["failed"] for f in figures["by_players"].values()) if figures else 0,
        "summary": terminal_summary(figures) if figures else [],
        "problems": [str(p) for p in entry.sim_problems],
        "unplayed_counts": list(entry.unplayed_counts),
        "balance_pdf": f"{entry.game}/balance.pdf" if entry.balance_pdf is not None else None,
        "odds": _odds_record(entry),
        "playtests": playtest_view(entry),
    }


def _odds_record(entry) -> dict:
    """The exact deck odds as the studio shows them: the summary, the tables and the goals that can never be
    completed; or the line saying what the engine should declare."""
    if entry.odds is None:
        return {"declared": False, "line": entry.no_odds, "summary": [], "tables": [], "problems": []}
    return {"declared": True, "line": "", "summary": summary_lines(entry.odds),
            "tables": odds_tables(entry.odds), "problems": [str(p) for p in entry.odds_problems]}


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _band_row(what: str, band: dict | None) -> list | None:
    """[figure, real, simulated, outside] of a length or margin comparison (validator.playtests)."""
    if not band:
        return None
    simulated = f"{band['simulated_mean']:.1f} (10-90%: {band['simulated_p10']:g}-{band['simulated_p90']:g})"
    return [what, f"{band['real_mean']:.1f}", simulated, bool(band["outside"])]


def _position_row(r: dict) -> list:
    """[figure, real, simulated, outside] of one turn position's share of the wins."""
    real = f"{r['real_wins']:g} of {r['plays']} ({100 * r['real_low']:.0f}-{100 * r['real_high']:.0f}%)"
    return [f"wins of the {_ordinal(r['position'])} to play", real, f"{100 * r['simulated']:.0f}%",
            bool(r["outside"])]


def playtest_view(entry) -> dict | None:
    """The playtests of a game as the studio shows them: each real play, and per player count its figures
    beside the simulated ones (from the comparison of the simulated run; the plays alone without one)."""
    if not entry.playtests:
        return None
    found = (entry.figures or {}).get("playtests")
    plays = (found or compare(entry.playtests, {"by_players": {}}))["games"]
    counts = []
    for players, c in sorted((found or {}).get("by_players", {}).items(), key=lambda kv: int(kv[0])):
        rows = []
        if c.get("simulated"):
            length = c.get("length") or {}
            rows = [row for row in (_band_row(f"length ({length.get('unit', 'rounds')})", length),
                                    _band_row("winning margin", c.get("margin"))) if row]
            rows += [_position_row(r) for r in c.get("positions", [])]
        counts.append({"players": int(players), "plays": c["plays"], "simulated": bool(c.get("simulated")),
                       "rows": rows})
    return {"plays": plays, "by_players": counts, "findings": list((found or {}).get("findings", [])),
            "compared": found is not None}


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
