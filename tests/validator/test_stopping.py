"""The default `pnp validate`: batches until every win rate by turn position is known to ±3 pp at 95 % (or a
cap), the same stopping point whatever the number of workers, and `--games N` still exactly N."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.data.load import load_game
from generator.engines import registry
from generator.pipeline.validate import validate
from generator.validator.executors import LocalProcesses
from generator.validator.score_tracks import wilson
from generator.validator.simulate import AdaptiveSimulation, Run, SimSettings, simulate
from generator.validator.stopping import Stopping, first_batch, next_total, seat_half_width
from tests.conftest import run_pnp
from tests.fixtures import toy_engine as toy


@pytest.fixture
def project(tmp_path: Path):
    registry.register(toy.ENGINE)
    try:
        yield toy.make_toy_project(tmp_path)
    finally:
        registry.unregister(toy.ENGINE.name)


def two_player_games(n: int, first_wins_every: int = 2, failed: int = 0) -> list[dict]:
    """n synthetic results of 2 players: the first to play wins one game in `first_wins_every`; the first
    `failed` games failed."""
    games = []
    for i in range(n):
        winner = 0 if i % first_wins_every == 0 else 1
        games.append({"index": i, "winners": [winner], "scores": [1, 0] if winner == 0 else [0, 1],
                      "metrics": {}, "bots": ["greedy", "greedy"],
                      "failure": "broke" if i < failed else None})
    return games


def test_an_even_split_needs_about_1070_games_for_3_points():
    rule = Stopping()
    # Wilson half-width of a rate of 1/2: 1.96 * sqrt(1/4 / n), so 3 pp needs n >= 1068
    assert seat_half_width(two_player_games(1100), 2) == pytest.approx(0.02952, abs=1e-4)
    assert next_total(two_player_games(1100), 2, rule) is None  # reached: stop
    assert next_total(two_player_games(1050), 2, rule) is not None
    # the first batch is four fifths of that; then the next aims at the 1068 needed, in steps of 10 games
    assert first_batch(2, rule) == 860
    assert next_total(two_player_games(860), 2, rule) == 1070
    assert next_total(two_player_games(1070), 2, rule) is None
    low, high = wilson(450, 900)
    assert seat_half_width(two_player_games(900), 2) == pytest.approx((high - low) / 2)


def test_a_lopsided_rate_stops_sooner_and_failed_games_count_for_nothing():
    rule = Stopping()
    # the first to play wins one in five: 1.96^2 * 0.16 / 0.03^2 = 683 games
    assert seat_half_width(two_player_games(700, first_wins_every=5), 2) <= 0.03
    assert next_total(two_player_games(700, first_wins_every=5), 2, rule) is None
    # with a tenth of them failed the same games are not enough
    assert next_total(two_player_games(700, first_wins_every=5, failed=70), 2, rule) == 760  # 759 needed
    # every game failed: nothing to learn from more of them (the failures fail the run)
    assert next_total(two_player_games(100, failed=100), 2, rule) is None


def test_the_cap_stops_a_count_short_of_the_half_width():
    rule = Stopping(half_width=0.01, cap=300, step=50)
    assert first_batch(2, rule) == 300  # what 1 pp needs is far beyond the cap: the cap
    assert next_total(two_player_games(250), 2, rule) == 300  # never past the cap
    assert next_total(two_player_games(300), 2, rule) is None
    with pytest.raises(ValueError):
        Stopping(step=25)  # odd batches would unbalance all-greedy and mixed games
    assert next_total(two_player_games(860), 2, Stopping(step=50)) == 1100  # 1068 in steps of 50


def test_the_stopping_point_and_the_figures_are_the_same_on_one_worker_and_two(project):
    game = load_game(project, "toy")
    settings = SimSettings(seed=3, stopping=Stopping(half_width=0.06, step=20))
    found = []
    for jobs in (1, 2):
        with LocalProcesses(jobs) as executor:
            simulation = AdaptiveSimulation([Run("toy", game, toy.ENGINE)], settings, executor)
            with simulation:
                results = simulation.results()
        found.append((results, simulation.rounds, simulation.planned))
    assert found[0] == found[1]
    results, rounds, planned = found[0]
    counts = {players: len(games) for players, games in results["toy"].items()}
    assert planned == sum(counts.values())
    for players, games in results["toy"].items():
        assert [g["index"] for g in games] == list(range(len(games)))  # every game once, in index order
        assert next_total(games, players, settings.stopping) is None  # stopped where the rule says
        assert seat_half_width(games, players) <= 0.06
    # the same games as a fixed run of that many: the adaptive run only decides how many are played
    with LocalProcesses(1) as executor:
        fixed = simulate([Run("toy", game, toy.ENGINE)], SimSettings(seed=3, games=counts[2], players=(2,)),
                         executor)
    assert fixed["toy"][2] == results["toy"][2]


def test_default_validate_prints_the_interval_reached_and_reports_it(project):
    report = project.root / "report.json"
    result = run_pnp("validate", "--players", "4", "--jobs", "2", "--report", str(report), project=project)
    assert result.exit_code == 0, result.output
    figures = json.loads(report.read_text(encoding="utf-8"))["games"]["toy"]
    stopped = figures["settings"]["stopping"]
    assert figures["settings"]["games_per_count"] is None
    reached = stopped["by_players"]["4"]
    assert reached["met"] and reached["half_width"] <= 0.03
    assert reached["games"] == figures["by_players"]["4"]["games"] and reached["games"] % 10 == 0
    line = re.search(r"seat wins ±(\d\.\d) pp at 95 % after (\d+) games at 4 players", result.output)
    assert line, result.output
    assert float(line[1]) == round(100 * reached["half_width"], 1) and int(line[2]) == reached["games"]
    assert "until every win rate by turn position was within ±3 pp at 95 %" in result.output
    text = " ".join(PdfReader(project.build_dir / "toy" / "balance.pdf").pages[0].extract_text().split())
    assert (f"known to ±3 percentage points at 95 % (Wilson): {reached['games']} games at 4 players "
            f"(±{100 * reached['half_width']:.1f})") in text, text


def test_games_n_plays_exactly_n(project):
    report = project.root / "report.json"
    result = run_pnp("validate", "--games", "37", "--jobs", "2", "--report", str(report), project=project)
    assert result.exit_code == 0, result.output
    figures = json.loads(report.read_text(encoding="utf-8"))["games"]["toy"]
    assert {p: f["games"] for p, f in figures["by_players"].items()} == {"2": 37, "3": 37, "4": 37}
    assert figures["settings"]["games_per_count"] == 37 and "stopping" not in figures["settings"]
    assert "seat wins ±" not in result.output and "Played 111 games" in result.output


def test_library_default_settings_still_play_a_fixed_number(project):
    result = validate(project, ["toy"], SimSettings(games=12, players=(2,), jobs=1))
    assert result.stopping is None and result.games_played == 12
