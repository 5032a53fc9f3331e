"""`pnp validate` and `pnp replay` on the toy game: deterministic parallel simulation, failures that name
seeds."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.data.load import load_game
from generator.engines import registry
from generator.validator.simulate import (
    Run,
    SimSettings,
    bots_for,
    derive_seed,
    plan_chunks,
    play_chunk,
    play_chunk_packed,
    unpack,
)
from tests.conftest import REPO, run_pnp
from tests.fixtures import toy_engine as toy

BASE14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")


@pytest.fixture(autouse=True)
def _forget_toy_engine():
    yield
    registry.unregister(toy.ENGINE.name)


def install_engine(engine=toy.ENGINE) -> None:
    """Make `engine: toy_engine` resolve to the toy (forked workers inherit the registry)."""
    registry.register(engine)


@pytest.fixture
def project(tmp_path: Path):
    install_engine()
    return toy.make_toy_project(tmp_path)


def test_seeds_are_stable_across_processes():
    here = [derive_seed(1, "toy", 3, i) for i in range(5)]
    code = ("from generator.validator.simulate import derive_seed; print([derive_seed(1, 'toy', 3, i) for i "
            "in range(5)])")
    there = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    assert there.strip() == str(here)
    assert len(set(here)) == 5
    assert derive_seed(1, "toy", 2, 0) != derive_seed(1, "toy", 3, 0) != derive_seed(2, "toy", 3, 0)


@pytest.mark.parametrize("collecting", [True, False])
def test_packed_results_unpack_to_the_played_results_and_leave_the_collector_as_it_was(project, collecting):
    game = load_game(project, "toy")
    run = Run("toy", game, toy.ENGINE, {})
    chunk = plan_chunks([run], SimSettings(games=30, players=(3,)), 30)[0]
    packed = play_chunk_packed(run.payload(), chunk)
    assert isinstance(packed, bytes)
    paused, thresholds = [], gc.get_threshold()
    gc.callbacks.append(lambda phase, _: paused.append(phase))  # no collection while the results are made,
    gc.set_threshold(10)  # though one would start after every 10 new objects
    (gc.enable if collecting else gc.disable)()
    try:
        results = unpack(packed)
        assert gc.isenabled() is collecting
    finally:
        gc.callbacks.pop()
        gc.set_threshold(*thresholds)
        gc.enable()
    assert paused == []
    assert results == play_chunk(run.payload(), chunk)
    assert [r["index"] for r in results] == list(range(30)) and all(r["scores"] for r in results)


def test_half_the_games_are_all_greedy_and_the_rest_mix_both_bots():
    mixes = [bots_for(i, 3) for i in range(8)]
    assert sum(m == ["greedy"] * 3 for m in mixes) == 4
    assert all({"greedy", "random"} == set(m) for m in mixes[1::2])
    assert mixes[1] != mixes[3]  # seats rotate


def test_report_and_pdf_are_identical_whatever_the_number_of_jobs(project):
    outputs = []
    for jobs in ("1", "2"):
        report = project.root / f"report-{jobs}.json"
        result = run_pnp(
            "validate",
            "--games",
            "60",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--report",
            str(report),
            project=project,
        )
        assert result.exit_code == 0, result.output
        outputs.append((report.read_bytes(), (project.build_dir / "toy" / "balance.pdf").read_bytes()))
    assert outputs[0] == outputs[1]
    figures = json.loads(outputs[0][0])["games"]["toy"]
    assert sorted(figures["by_players"]) == ["2", "3", "4"]
    two = figures["by_players"]["2"]
    assert two["games"] == 60 and two["failed"] == 0
    assert sum(s["wins"] for s in two["position_wins_all"]) == pytest.approx(60)
    assert sum(v["games"] for v in two["ended_by"].values()) == 60
    assert set(figures["goals"]) == {"pair-of-ones", "one-two", "two-threes", "straight", "big-seven"}
    assert figures["cards"]["one"]["uses"] > 0


def test_balance_pdf_uses_only_embedded_fonts_and_renders(project):
    result = run_pnp("validate", "--games", "30", "--jobs", "1", project=project)
    assert result.exit_code == 0, result.output
    assert "balance report: build/toy/balance.pdf" in result.output
    path = project.build_dir / "toy" / "balance.pdf"
    fonts = {str(f.get_object()["/BaseFont"]) for page in PdfReader(path).pages
             for f in page["/Resources"].get("/Font", {}).values()}
    assert fonts and not [f for f in fonts if any(b in f for b in BASE14)]
    text = "".join(page.extract_text() for page in PdfReader(path).pages)
    for heading in ("Game length in turns", "Win rate by turn position", "Card usage", "Goal completion"):
        assert heading in text
    image = pdfium.PdfDocument(str(path))[0].render(scale=0.5).to_pil()
    assert image.getextrema() != ((255, 255), (255, 255), (255, 255))


def test_stalled_game_fails_with_seed_and_a_replay_command_that_works(tmp_path):
    install_engine(toy.STALLING)
    project = toy.make_toy_project(tmp_path)
    result = run_pnp("validate", "--games", "4", "--players", "2", "--jobs", "1", project=project)
    assert result.exit_code == 1
    assert "stalled game in 4 of 4 games with 2 players" in result.output
    command = result.output.split("replay with: ")[1].split("\n")[0]
    seed = derive_seed(1, "toy", 2, 0)
    assert command == f"pnp replay toy --seed {seed} --players 2 --bots greedy,greedy"
    replay = run_pnp(*command.split()[1:], project=project)
    assert replay.exit_code == 1
    assert f"# seed {seed}, 2 players, bots greedy,greedy" in replay.output
    assert "FAILED: the game did not end within the turn cap of 60 decisions" in replay.output


def test_replay_prints_the_same_log_as_the_harness(project):
    result = run_pnp(
        "replay", "toy", "--seed", "9", "--players", "3", "--bots", "greedy,random,greedy", project=project
    )
    assert result.exit_code == 0, result.output
    assert "# seat 1 (random):" in result.output and "Game over" in result.output
    again = run_pnp(
        "replay", "toy", "--seed", "9", "--players", "3", "--bots", "greedy,random,greedy", project=project
    )
    assert again.output == result.output
    bad = run_pnp("replay", "toy", "--seed", "9", "--bots", "clever", project=project)
    assert bad.exit_code == 1 and "unknown bot 'clever'; known: greedy, random" in bad.output
    too_many = run_pnp("replay", "toy", "--seed", "9", "--players", "9", project=project)
    assert too_many.exit_code == 1 and "expected --players to be one of those, not 9" in too_many.output
    assert "Traceback" not in too_many.output and "ValueError" not in too_many.output


def test_goal_never_completed_fails_naming_the_card(project):
    targets = project.cards_dir / "toy" / "targets.yaml"
    targets.write_text(targets.read_text().replace("needs: {four: 1, three: 1}", "needs: {four: 3}"))
    result = run_pnp("validate", "--games", "20", "--jobs", "1", project=project)
    assert result.exit_code == 1
    assert ("cards/toy/targets.yaml:12: Target deck card 'Big seven' (big-seven) was never completed in 60 "
            "simulated games (2, 3, 4 players)") in result.output


def test_setup_failure_at_a_player_count_fails(tmp_path):
    install_engine(toy.WIDE)
    project = toy.make_toy_project(tmp_path)
    result = run_pnp(
        "validate",
        "--games",
        "3",
        "--players",
        "2",
        "--players",
        "5",
        "--players",
        "7",
        "--jobs",
        "1",
        project=project,
    )
    assert result.exit_code == 1
    assert "--  toy: not simulating 7 players; the engine plays 2, 3, 4, 5" in result.output
    assert (
        "cards/toy/game.yaml: setup failed with 5 players: ValueError: Sum Up is for 2-4 players, not 5"
        in result.output
    )


def test_broken_conservation_fails_with_seed(tmp_path):
    install_engine(toy.LEAKY)
    project = toy.make_toy_project(tmp_path)
    result = run_pnp("validate", "--games", "10", "--players", "3", "--jobs", "2", project=project)
    assert result.exit_code == 1
    assert (
        "conservation failure in" in result.output
        and "card conservation broken after 'claim" in result.output
    )
    assert "pnp replay toy --seed " in result.output


def test_failing_script_fails_validate_and_no_sim_skips_games(project):
    script = project.cards_dir / "toy" / "scripts" / "bad.yaml"
    script.write_text("players: 2\nsteps:\n  - expect: {round: 2}\n", encoding="utf-8")
    result = run_pnp("validate", "--no-sim", project=project)
    assert result.exit_code == 1
    assert "cards/toy/scripts/bad.yaml: step 1 (line 3): expected round = 2, got 1" in result.output
    assert "0 of 1 scripts pass" in result.output
    assert not (project.build_dir / "toy" / "balance.pdf").exists()


def test_goal_win_rate_when_dealt_counts_completions_per_deal():
    from types import SimpleNamespace

    from generator.validator.report import goal_figures

    game = SimpleNamespace(decks={})
    engine = SimpleNamespace(goals=lambda _game: ["a", "b"])
    played = [
        {"metrics": {"completed_goals": ["a"], "dealt_goals": ["a", "b"]}},
        {"metrics": {"completed_goals": ["a", "b"], "dealt_goals": ["a", "b", "a", "b"]}},
    ]
    figures = goal_figures(game, engine, played)
    assert figures["a"]["win_rate_when_dealt"] == pytest.approx(2 / 3, abs=1e-4)
    assert figures["b"]["win_rate_when_dealt"] == pytest.approx(1 / 3, abs=1e-4)
    no_deals = goal_figures(game, engine, [{"metrics": {"completed_goals": ["a"]}}])
    assert no_deals["a"]["win_rate_when_dealt"] is None
