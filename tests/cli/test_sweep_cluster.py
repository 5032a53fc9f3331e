"""The issue's own sweep of Order Up (6 variants), on local processes and on `--cluster local:2`: identical
JSON."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_pnp

pytest.importorskip("distributed")


def test_local_processes_and_a_local_cluster_write_identical_reports(tmp_project):
    args = ["sweep", "order-up-pizza", "--vary", "settings.hand_limit=8,10,12", "--vary",
            "settings.end_mode=immediate,finish_round", "--games", "8", "--players", "2"]
    reports = []
    for where in (["--jobs", "2"], ["--cluster", "local:2"]):
        report = tmp_project.root / f"sweep-{len(reports)}.json"
        result = run_pnp(*args, *where, "--report", str(report), project=tmp_project)
        assert result.exit_code == 0, result.output
        reports.append(report.read_bytes())
    assert "Dask cluster local:2, 2 worker threads" in result.output
    assert reports[0] == reports[1]
    variants = json.loads(reports[0])["variants"]
    assert [v["label"] for v in variants] == [
        f"hand_limit={h}, end_mode={m}" for h in (8, 10, 12) for m in ("immediate", "finish_round")]
    assert all(v["status"] == "simulated" and v["by_players"]["2"]["games"] == 8 for v in variants)
