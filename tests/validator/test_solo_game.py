"""A solo game reads as one: its cover says "1 player" (never "1–1 players") and its validation reports how
often the player wins, not turn positions or margins between players."""

from __future__ import annotations

import re

from pypdf import PdfReader

from tests.conftest import run_pnp


def _solo(tmp_path):
    assert run_pnp("new", "solo", "--rules", project=tmp_path).exit_code == 0
    game = tmp_path / "cards" / "solo" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("players: {min: 2, max: 4}",
                                                             "players: {min: 1, max: 1}"), encoding="utf-8")
    rules = tmp_path / "cards" / "solo" / "rules.yaml"
    text = re.sub(r"^players: \[.*\]$", "players: [1]", rules.read_text(encoding="utf-8"), flags=re.M)
    rules.write_text(text, encoding="utf-8")


def test_a_solo_games_cover_and_report(tmp_path):
    _solo(tmp_path)
    built = run_pnp("build", "--paper", "a4", project=tmp_path)
    assert built.exit_code == 0, built.output
    cover = PdfReader(tmp_path / "build" / "solo" / "rules.pdf").pages[0].extract_text()
    assert "1 player" in cover and "1–1" not in cover and "1 players" not in cover
    rules = " ".join(p.extract_text() for p in PdfReader(tmp_path / "build" / "solo" / "rules.pdf").pages)
    assert "1 to 1" not in rules
    checked = run_pnp("validate", "--games", "20", project=tmp_path)
    assert checked.exit_code == 0, checked.output
    line = next(x for x in checked.output.splitlines() if x.startswith("  1 player:"))
    assert re.search(r"; won \d+%; ended by ", line), line
    assert "turn position" not in checked.output and "margin" not in checked.output
