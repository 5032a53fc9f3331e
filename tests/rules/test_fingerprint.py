"""The games Short Order Hero's rules file plays stay the same games while the interpreter is made faster: the
metrics, scores, winners, decisions and logs of 15 seeded games per player count hash to the fingerprint
below (the validator's bot mix, as `pnp validate` plays them).

A change to the rules file, the cards or the language's meaning that changes the games on purpose changes the
fingerprint: write the new one here in the same commit and say why in its message."""

from __future__ import annotations

import hashlib
import json

import pytest

from generator.data.load import load_game
from generator.engines.registry import rules_engine
from generator.validator.harness import play_game
from generator.validator.simulate import bots_for

GAMES = 15
FINGERPRINTS = {2: "56ef730f53a59594", 3: "5f9f14bc8876a036", 4: "fe342b519dcaae95", 5: "8bf6ce3f2dededae"}


def fingerprint(engine, game, players: int, games: int = GAMES) -> str:
    """The first 16 hex digits of the sha256 of `games` seeded games' records (metrics, scores, winners,
    decisions, log and score track)."""
    digest = hashlib.sha256()
    for index in range(games):
        record = play_game(engine, game, players, index, bots_for(index, players), log=True)
        assert record.ok, record.failure
        played = [record.metrics, record.scores, record.winners, record.decisions, record.log,
                  record.score_track]
        digest.update(json.dumps(played, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def hero(repo_project):
    return load_game(repo_project, "short-order-hero")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_described_games_are_the_games_they_were(hero, players):
    described = rules_engine(hero, "rules.yaml")
    assert fingerprint(described, hero, players) == FINGERPRINTS[players]
