"""The deck odds in `pnp validate`: an added section of the JSON report (nothing else changes), summary
lines, a 'Deck odds (exact)' section of balance.pdf read back, the studio's validation page, and a goal that
can never be completed failing the run at its card's line."""

from __future__ import annotations

import dataclasses
import json
import urllib.request

import pytest

from generator.engines import registry
from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals
from generator.validator.odds import deck_odds, percent
from tests.conftest import run_pnp
from tests.fixtures import toy_engine as toy
from tests.fixtures.built import pdf_text
from tests.studio.conftest import wait_until_idle


def toy_deck_odds(game, options):  # noqa: ARG001 - the engine protocol
    """Sum Up's targets as the numbers they need, dealt 3 cards from the number deck at 2-4 players."""
    deck = tuple(sorted((card.id, card.copies) for card in game.decks["numbers"].cards))
    goals = tuple(GoalNeeds(t.id, tuple((frozenset({card}), n) for card, n in dict(t.needs).items()),
                            frozenset(), t.name, t.file, t.line_of("needs"))
                  for t in game.decks["targets"].cards)
    hand = int(game.setting("start_hand", 3))
    return GoalsAndDeals(goals, tuple(Deal(players, deck, hand) for players in (2, 3, 4)))


@pytest.fixture
def toy_project(tmp_path):
    project = toy.make_toy_project(tmp_path)
    yield project
    registry.unregister(toy.ENGINE.name)


def _validate(project, *args):
    report = project.root / "report.json"
    result = run_pnp("validate", "toy", "--games", "12", "--jobs", "1", "--report", str(report), *args,
                     project=project)
    return result, json.loads(report.read_text()) if report.exists() else None


def test_validate_adds_an_odds_section_and_changes_nothing_else(toy_project):
    registry.register(toy.ENGINE)
    plain, before = _validate(toy_project)
    assert plain.exit_code == 0, plain.output
    assert "toy_engine declares no goals: declare Engine(deck_odds=...)" in plain.output
    registry.register(dataclasses.replace(toy.ENGINE, deck_odds=toy_deck_odds))
    result, after = _validate(toy_project)
    assert result.exit_code == 0, result.output
    odds = after["games"]["toy"].pop("odds")
    assert after == before  # the report changes by the added section only
    assert odds["player_counts"] == [2, 3, 4] and odds["groups"] == [[2, 3, 4]]
    straight = odds["by_players"]["3"]["goals"]["straight"]
    # a one, a two and a three among 3 of the 17 numbers: 6 * 5 * 4 / C(17, 3)
    assert straight["opening"] == pytest.approx(120 / 680)
    assert "OK  toy: deck odds of 5 goals, 0 that can never be completed (pnp odds toy prints every figure)" \
        in result.output
    # one-two: 1 - (C(11, 3) + C(12, 3) - C(6, 3)) / C(17, 3); two-threes: (C(4, 2) * 13 + C(4, 3)) / C(17, 3)
    assert "deck odds (2-4 players): the opening hand holds one-two 46.3% ... two-threes 12.1%" \
        in result.output

    text = pdf_text(toy_project.build_dir / "toy" / "balance.pdf")
    assert "Deck odds (exact)" in text and "2-4 players: a hand of 3 dealt from 17 cards" in text
    assert "Straight (straight)" in text and percent(straight["opening"]) in text
    assert "The chance to see each card in the opening hand" in text and "One (one)" in text

    record = json.loads((toy_project.build_dir / "toy" / "validation.json").read_text())
    assert record["odds"]["declared"] and record["odds"]["tables"][0]["head"][:2] == ["goal", "opening hand"]
    from generator.studio.server import StudioServer  # the page the studio serves from that record

    server = StudioServer(toy_project, ["toy"], port=0).start()
    try:
        wait_until_idle(server.url)
        with urllib.request.urlopen(server.url + "g/toy/validation", timeout=20) as response:
            page = response.read().decode()
    finally:
        server.stop()
    assert "<h2>Deck odds" in page and "<th>opening hand</th>" in page
    assert f"<td>Straight (straight)</td><td>{percent(straight['opening'])}</td>" in page


def test_a_goal_that_can_never_be_completed_fails_validate_at_its_card(toy_project):
    registry.register(dataclasses.replace(toy.ENGINE, deck_odds=toy_deck_odds))
    result, _ = _validate(toy_project, "--no-sim", "--set", "targets.big-seven.needs={four: 3, three: 1}")
    assert result.exit_code == 1
    lines = (toy_project.cards_dir / "toy" / "targets.yaml").read_text().splitlines()
    card = next(i for i, line in enumerate(lines, 1) if "id: big-seven" in line)
    assert (f"cards/toy/targets.yaml:{card}: goal 'big-seven' can never be completed at 2, 3, 4 players: it "
            "needs 3 x four (the deck has 2)") in result.output
    assert "BAD toy: deck odds of 5 goals, 1 that can never be completed" in result.output


def test_odds_figures_do_not_depend_on_the_order_of_the_declaration():
    goal = GoalNeeds("g", ((frozenset({"a"}), 1), (frozenset({"b"}), 2)))
    deck = (("a", 3), ("b", 4), ("c", 5))
    one = deck_odds(GoalsAndDeals((goal,), (Deal(2, deck, 4),)))
    other = deck_odds(GoalsAndDeals((GoalNeeds("g", tuple(reversed(goal.slots))),),
                                    (Deal(2, tuple(reversed(deck)), 4),)))
    assert one["by_players"]["2"]["goals"] == other["by_players"]["2"]["goals"]


def broken_deck_odds(game, options):  # noqa: ARG001 - the engine protocol
    """A declaration with a slip in it."""
    return {"goals": []}


def test_a_declaration_that_fails_is_one_line_not_a_traceback(toy_project):
    registry.register(dataclasses.replace(toy.ENGINE, deck_odds=broken_deck_odds))
    result = run_pnp("odds", "toy", project=toy_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "toy: engine toy_engine: deck_odds returned a dict; expected a GoalsAndDeals" in result.output
    registry.register(dataclasses.replace(toy.ENGINE, deck_odds=toy_deck_odds))
    result = run_pnp("odds", "toy", "--draws", "2", project=toy_project)
    assert result.exit_code == 0, result.output
    assert "2-4 players: a hand of 3 dealt from 17 cards, then drawing from at least 5 left" in result.output
