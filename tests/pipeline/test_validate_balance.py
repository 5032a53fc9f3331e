"""`pnp validate`'s balance figures beyond seat fairness: the same seed gives the same report whatever the
number of workers, and the report carries the score-track figures of every player count."""

from __future__ import annotations

import json

import pytest

from generator.pipeline.validate import validate
from generator.validator.simulate import SimSettings
from tests.fixtures import toy_engine as toy
from tests.fixtures.built import pdf_text


def test_score_figures_do_not_depend_on_the_workers(tmp_path):
    reports = []
    with toy.registered_project(tmp_path) as project:
        for jobs in (1, 2):
            path = tmp_path / f"report-{jobs}.json"
            validate(project, ["toy"], SimSettings(games=60, seed=9, jobs=jobs), report_path=path)
            reports.append(path.read_text(encoding="utf-8"))
        text = pdf_text(project.build_dir / "toy" / "balance.pdf")
    assert reports[0] == reports[1]
    by_players = json.loads(reports[0])["games"]["toy"]["by_players"]
    for players, f in by_players.items():
        scores = f["scores"]
        assert scores["games"] == 30, players  # the all-greedy games: every other one
        assert scores["margin"]["low"] <= scores["margin"]["mean"] <= scores["margin"]["high"]
        assert sum(n for _, n in scores["lead_changes"]["histogram"]) == 30
        assert 0 < scores["half_time_leader_wins"]["n"] <= 30
        assert f["card_influence"]["basis"] == "game"  # the toy counts card uses per game only
        assert f["card_influence"]["cards"]
        margin = scores["margin"]
        assert f"{players} players {margin['mean']:.1f} ({margin['low']:.1f} to {margin['high']:.1f})" in text
    assert "Beyond seat fairness" in text and "half-time leader wins" in text
    assert "Cards and winning" in text and "margin, games it is played in" in text


def test_balance_pdf_is_the_same_drawn_by_its_own_process_or_here(tmp_path):
    # on the main thread a forked writer draws balance.pdf while validate goes on; off it (as `pnp serve` runs
    # validate) this process draws it: the same bytes, and the path is the one reported either way
    import threading

    drawn = {}
    with toy.registered_project(tmp_path) as project:
        pdf = project.build_dir / "toy" / "balance.pdf"
        result = validate(project, ["toy"], SimSettings(games=40, seed=3, jobs=2))
        drawn["forked"] = pdf.read_bytes()
        assert result.games[0].balance_pdf == pdf
        pdf.unlink()
        found = {}
        thread = threading.Thread(target=lambda: found.update(result=validate(
            project, ["toy"], SimSettings(games=40, seed=3, jobs=2))))
        thread.start()
        thread.join()
        drawn["here"] = pdf.read_bytes()
        assert found["result"].games[0].balance_pdf == pdf
    assert drawn["forked"] == drawn["here"]
    assert drawn["forked"].startswith(b"%PDF")


def test_a_balance_pdf_that_cannot_be_written_is_raised_from_its_writer(tmp_path):
    with toy.registered_project(tmp_path) as project:
        folder = project.build_dir / "toy"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "balance.pdf").mkdir()  # a folder where the report goes: renaming onto it fails
        with pytest.raises(IsADirectoryError) as raised:
            validate(project, ["toy"], SimSettings(games=20, seed=3, jobs=2))
    # the writer's own error, come back whole: its type and the file it could not write
    assert raised.value.filename2 == str(folder / "balance.pdf")
