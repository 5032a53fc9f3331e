"""The lookahead bot: it looks ahead (it finds the winning move the greedy bot misses), replays from its seed
whatever the workers, plays in `pnp replay`, `pnp sweep --bots` and `pnp validate --strength`, and every bad
budget or engine is one located line. Budgets and game counts stay tiny: a lookahead game takes seconds."""

from __future__ import annotations

import json

import pytest

from generator.data.load import load_game
from generator.engines.base import TERMINAL, Engine, IllegalAction, State
from generator.engines.registry import engine_for
from generator.validator.executors import LocalProcesses
from generator.validator.harness import play_game
from generator.validator.lookahead import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    BotNameError,
    LookaheadBot,
    lookahead_budget,
)
from generator.validator.simulate import Run, SimSettings, simulate
from tests.conftest import run_pnp


class TrapState(State):
    """Seat 0 takes 'grab' (worth a point now, and the greedy bot's choice) or 'wait'; seat 1 then takes the
    last move: after a grab it scores two, after a wait nothing. Only looking ahead finds the win."""

    def __init__(self, *_setup):  # new_state(game, players, options): one game, always the same
        self.moves: list[str] = []
        self.log: list[str] = []

    def current_player(self) -> int:
        return len(self.moves) if len(self.moves) < 2 else TERMINAL

    def chance_request(self):
        raise IllegalAction("no chance in this game")

    def legal_actions(self) -> list[str]:
        return ["grab", "wait"] if not self.moves else ["last"]

    def apply(self, action) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"not now: {action}")
        self.moves.append(action)

    def parse_action(self, text: str):
        return text

    def scores(self) -> list[float]:
        if not self.moves:
            return [0, 0]
        grabbed = self.moves[0] == "grab"
        return [1 if grabbed else 0.5, 2 if grabbed and len(self.moves) > 1 else 0]

    def winners(self) -> list[int]:
        scores = self.scores()
        return [seat for seat in (0, 1) if scores[seat] == max(scores)]

    def card_count(self) -> dict[str, int]:
        return {}

    def snapshot(self) -> dict:
        return {"moves": list(self.moves)}

    def clone(self) -> TrapState:
        new = TrapState()
        new.moves, new.log = list(self.moves), list(self.log)
        return new

    def redeal(self, seat: int, rng) -> None:
        """Nothing is hidden."""


def first_action(state, _rng):
    return state.legal_actions()[0]


TRAP = Engine(name="trap", new_state=TrapState, player_counts=(2,),
              bots={"greedy": first_action, "random": first_action}, turn_cap=10)


def test_the_lookahead_bot_finds_the_move_the_greedy_bot_misses():
    assert play_game(TRAP, None, 2, 1, ["greedy", "greedy"]).winners == [1]
    record = play_game(TRAP, None, 2, 1, ["lookahead:4", "greedy"])
    assert record.ok and record.winners == [0]
    assert "# seat 0 (lookahead:4): wait" in record.log


@pytest.mark.parametrize("budget", ["0", "-3", str(MAX_BUDGET + 1), "lots", ""])
def test_a_bad_budget_is_a_located_line(budget):
    with pytest.raises(BotNameError) as caught:
        lookahead_budget(f"lookahead:{budget}")
    message = str(caught.value)
    assert message.startswith(f"--bots lookahead:{budget}: a lookahead budget is") and "\n" not in message
    assert f"from 1 to {MAX_BUDGET}" in message


def test_budget_names():
    assert lookahead_budget("lookahead") == DEFAULT_BUDGET
    assert lookahead_budget("lookahead:200") == 200 and lookahead_budget("greedy") is None


def test_same_seed_same_games_whatever_the_workers(repo_project):
    game = load_game(repo_project, "short-order-hero")
    runs = [Run("hero", game, engine_for(game), {}, bots=("lookahead:1", "greedy"))]
    settings = SimSettings(games=3, seed=5, players=(2,))
    found = []
    for jobs in (1, 2):
        with LocalProcesses(jobs) as workers:
            found.append(json.dumps(simulate(runs, settings, workers, size=1), sort_keys=True))
    assert found[0] == found[1]
    games = json.loads(found[0])["hero"]["2"]
    assert all(g["failure"] is None and g["bots"] == ["lookahead:1", "greedy"] for g in games)


def test_the_bot_keeps_the_real_state_untouched(repo_project):
    game = load_game(repo_project, "order-up-trading")
    engine = engine_for(game)
    record = play_game(engine, game, 3, 8, ["lookahead:1", "greedy", "greedy"])
    assert record.ok, record.failure  # the harness checked legality and cards after every action
    assert record.log == play_game(engine, game, 3, 8, ["lookahead:1", "greedy", "greedy"]).log
    assert LookaheadBot(engine, 3).budget == 3


def test_replay_plays_the_lookahead_bot_and_refuses_bad_budgets(repo_project):
    args = ("replay", "short-order-hero", "--seed", "3", "--players", "2")
    result = run_pnp(*args, "--bots", "lookahead:1,greedy", project=repo_project)
    assert result.exit_code == 0, result.output
    assert "# seat 0 (lookahead:1):" in result.output and "Scores" in result.output
    for budget, said in (("0", "'0'"), ("-2", "'-2'"), ("200000", "'200000'")):
        bad = run_pnp(*args, "--bots", f"lookahead:{budget}", project=repo_project)
        assert bad.exit_code == 1 and "Traceback" not in bad.output
        (line,) = [x for x in bad.output.splitlines() if "lookahead" in x]
        assert f"--bots lookahead:{budget}: a lookahead budget is" in line and said in line
    unknown = run_pnp(*args, "--bots", "clever", project=repo_project)
    assert "unknown bot 'clever'; known: greedy, random, lookahead[:BUDGET]" in unknown.output


def test_strength_on_an_engine_without_the_two_methods_is_one_line(repo_project):
    result = run_pnp("validate", "crazy-eights", "--strength", "--games", "2", project=repo_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == "1 problem found."
    (line,) = [x for x in result.output.splitlines() if "--strength" in x]
    assert line.startswith("cards/crazy-eights/game.yaml:")
    assert "lacks clone and redeal; expected both optional methods clone() and redeal(seat, rng)" in line


@pytest.mark.parametrize(("args", "said"), [
    (("--strength", "--lookahead-budget", "0"), "--lookahead-budget 0: a lookahead budget is"),
    (("--strength", "--lookahead-budget", "-4"), "not '-4'"),
    (("--strength", "--lookahead-budget", "100001"), "from 1 to 100000, not '100001'"),
    (("--strength-games", "5"), "--strength-games sets up --strength; expected --strength with it"),
])
def test_bad_strength_options_are_one_line(repo_project, args, said):
    result = run_pnp("validate", "short-order-hero", *args, project=repo_project)
    assert result.exit_code == 1 and said in result.output and "Traceback" not in result.output
    assert result.output.strip().splitlines()[1:] == ["1 problem found."]


def test_strength_reports_seat_fairness_beside_the_greedy_figures(tmp_project, tmp_path):
    common = ("validate", "short-order-hero", "--games", "100", "--players", "2", "--jobs", "1")
    plain, strong = tmp_path / "plain.json", tmp_path / "strong.json"
    first = run_pnp(*common, "--report", str(plain), project=tmp_project)
    assert first.exit_code == 0, first.output
    result = run_pnp(*common, "--strength", "--strength-games", "2", "--lookahead-budget", "1",
                     "--report", str(strong), project=tmp_project)
    assert result.exit_code == 0, result.output
    assert "Played 2 games with the lookahead bot in every seat (--strength)" in result.output
    assert ("  seat fairness with lookahead:1 in every seat (2 games per player count; 95% intervals), "
            "greedy mirror beside:") in result.output
    assert "    2 players: wins by turn position (1st first) " in result.output
    report = json.loads(strong.read_text())["games"]["short-order-hero"]
    strength = report.pop("strength")
    assert strength["bot"] == "lookahead:1" and strength["games_per_count"] == 2
    rows = strength["by_players"]["2"]
    assert rows["games"] == 2 and rows["failed"] == 0
    assert sum(r["wins"] for r in rows["position_wins"]) == pytest.approx(2)
    assert rows["greedy_position_wins"] == report["by_players"]["2"]["position_wins_greedy_mirror"]
    # the greedy figures are those of a run without --strength
    assert report == json.loads(plain.read_text())["games"]["short-order-hero"]
    # and balance.pdf shows them: the section, its chart's label and each count's figures
    from pypdf import PdfReader

    pdf = tmp_project.build_dir / "short-order-hero" / "balance.pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "Win rate by turn position with stronger players" in text
    assert "wins (lookahead:1 in every seat)" in text
    assert "2 players, 2 games: " in text and "; greedy: " in text


def test_sweep_plays_the_bots_it_is_given(tmp_project, tmp_path):
    common = ("sweep", "short-order-hero", "--vary", "settings.start_hand=6,7", "--games", "2",
              "--players", "2", "--jobs", "1")
    report = tmp_path / "sweep.json"
    result = run_pnp(*common, "--bots", "lookahead:1", "--report", str(report), project=tmp_project)
    assert "Played 4 games of 2 variants" in result.output, result.output
    found = json.loads(report.read_text())
    assert found["settings"]["bots"] == "every seat: lookahead:1"
    assert found["variants"][0]["by_players"]["2"]["seat_wins"][0]["count"] + \
        found["variants"][0]["by_players"]["2"]["seat_wins"][1]["count"] == pytest.approx(2)
    bad = run_pnp(*common, "--bots", "lookahead:0", project=tmp_project)
    assert bad.exit_code == 1 and "--bots lookahead:0: a lookahead budget is" in bad.output
    wrong = run_pnp(*common, "--bots", "greedy,greedy,greedy", project=tmp_project)
    assert wrong.exit_code == 1 and "--bots names 3 bots for 2 players" in wrong.output
