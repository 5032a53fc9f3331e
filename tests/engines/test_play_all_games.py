"""Every game in cards/ that names an engine: its scripts pass, and seeded games end with every card accounted
for.

One shared property test for all engines: for every player count, a few seeded games with the validator's bot
line-ups (all-greedy, and greedy against random with seats rotating) must end (no stall, no broken rule: the
harness checks legality, card conservation and invariants after every action), and replaying a seed must give
the identical log. The two optional methods a lookahead bot needs, `clone()` and `redeal(seat, rng)`, have
their shared test beside this one (test_lookahead_methods.py).
"""

from __future__ import annotations

from functools import cache

import pytest

from generator.core.yamlio import load_yaml
from generator.data.load import load_game
from generator.data.project import Project
from generator.engines.registry import engine_for
from generator.validator.harness import play_game
from generator.validator.scripts import run_script, script_files
from generator.validator.simulate import bots_for, derive_seed
from tests.conftest import REPO

PROJECT = Project(REPO)
# per game and player count, half all-greedy, half mixed; keeps the whole file well under a minute on 2 cores
GAMES_PER_COUNT = 30


def games_with_engines() -> list[str]:
    """Game folders whose game.yaml names a rules engine."""
    found = []
    for game_id in PROJECT.game_ids():
        path = PROJECT.cards_dir / game_id / "game.yaml"
        if path.is_file() and load_yaml(path).get("engine"):
            found.append(game_id)
    return found


@cache
def loaded(game_id: str):
    game = load_game(PROJECT, game_id)
    return game, engine_for(game)


def all_scripts() -> list:
    return [pytest.param(game_id, path, id=f"{game_id}/{path.name}")
            for game_id in games_with_engines() for path in script_files(PROJECT.cards_dir / game_id)]


@pytest.mark.parametrize("game_id", games_with_engines())
def test_seeded_games_end_conserve_cards_and_replay_identically(game_id):
    game, engine = loaded(game_id)
    problems = []
    assert {"greedy", "random"} <= set(engine.bots)
    for players in engine.player_counts:
        for index in range(GAMES_PER_COUNT):
            seed, bots = derive_seed(0, game_id, players, index), bots_for(index, players)
            record = play_game(engine, game, players, seed, bots)
            if record.failure:
                problems.append(f"{players} players, bots {','.join(bots)}, seed {seed}: {record.failure}")
                continue
            assert record.winners, f"{game_id}: finished game without winners (seed {seed})"
            again = play_game(engine, game, players, seed, bots)
            assert again.log == record.log, f"{game_id}: seed {seed} does not replay identically"
            assert (again.scores, again.metrics) == (record.scores, record.metrics)
    assert problems == []


@pytest.mark.parametrize(("game_id", "path"), all_scripts())
def test_script_passes(game_id, path):
    game, engine = loaded(game_id)
    assert run_script(path, game, engine) == []
