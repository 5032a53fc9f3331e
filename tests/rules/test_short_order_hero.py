"""Short Order Hero described in cards/short-order-hero/rules.yaml plays like its Python engine: the same
statistics within sampling noise at 2-5 players (mean rounds, win rate by turn position, endings, recipes
cooked).

The agreement test plays 2,000 games per player count with each engine (several minutes): it runs when
PNP_SLOW=1 is set (`PNP_SLOW=1 pytest tests/rules/test_short_order_hero.py`); the quick test plays a few."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.engines.base import IllegalAction, sample_chance
from generator.engines.registry import rules_engine
from generator.validator.harness import play_game
from generator.validator.scripts import run_script, script_files
from generator.validator.simulate import bots_for

AGREEMENT_GAMES = 2000
Z95 = 1.96


@pytest.fixture(scope="module")
def hero(repo_project):
    return load_game(repo_project, "short-order-hero")


@pytest.fixture(scope="module")
def described(hero):
    return rules_engine(hero, "rules.yaml")


def python_engine():
    from pnp_engine_short_order_hero import ENGINE  # the hand-written engine, read here and never changed

    return ENGINE


def figures(engine, game, players: int, games: int) -> dict:
    """Per game: rounds, the winner's turn position (1/k each of k shared winners), the ending, recipes
    cooked."""
    rounds, cooked, endings, positions = [], [], Counter(), [0.0] * players
    for index in range(games):
        record = play_game(engine, game, players, index, bots_for(index, players), log=False)
        assert record.ok, record.failure
        metrics = record.metrics
        rounds.append(metrics["rounds"])
        cooked.append(len(metrics["completed_goals"]))
        endings[metrics["ended_by"]] += 1
        order = metrics["turn_order"]
        for seat in record.winners:
            positions[order.index(seat)] += 1 / len(record.winners)
    return {"rounds": rounds, "cooked": cooked, "endings": endings, "positions": positions, "games": games}


def _mean_gap(a: list, b: list) -> tuple[float, float]:
    """(difference of the means, the half-width of its 95 % interval)."""
    def moments(values):
        mean = sum(values) / len(values)
        return mean, sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)

    (ma, va), (mb, vb) = moments(a), moments(b)
    return ma - mb, Z95 * math.sqrt(va / len(a) + vb / len(b))


def _share_gap(hits_a: float, hits_b: float, n: int) -> tuple[float, float]:
    pa, pb = hits_a / n, hits_b / n
    pooled = (hits_a + hits_b) / (2 * n)
    return pa - pb, Z95 * math.sqrt(max(pooled * (1 - pooled), 1e-12) * 2 / n)


def disagreements(ours: dict, theirs: dict) -> list[str]:
    """Every figure whose difference lies outside its 95 % interval."""
    found = []
    n = ours["games"]
    for name in ("rounds", "cooked"):
        gap, width = _mean_gap(ours[name], theirs[name])
        if abs(gap) > width:
            found.append(f"mean {name}: {gap:+.3f} (95 % interval +-{width:.3f})")
    for position, (a, b) in enumerate(zip(ours["positions"], theirs["positions"], strict=True)):
        gap, width = _share_gap(a, b, n)
        if abs(gap) > width:
            found.append(f"win rate of turn position {position + 1}: {gap:+.3f} (+-{width:.3f})")
    for ending in sorted(set(ours["endings"]) | set(theirs["endings"])):
        gap, width = _share_gap(ours["endings"][ending], theirs["endings"][ending], n)
        if abs(gap) > width:
            found.append(f"ended by {ending}: {gap:+.3f} (+-{width:.3f})")
    return found


def test_the_described_game_plays_every_player_count_without_a_failure(hero, described):
    assert described.player_counts == (2, 3, 4, 5) and set(described.bots) == {"random", "greedy"}
    for players in described.player_counts:
        found = figures(described, hero, players, 6)
        assert set(found["endings"]) <= {"all-done", "fifth-recipe", "recipes-exhausted"}
        assert sum(found["cooked"]) > 0
    checks = dict(described.static_checks(hero))
    assert all(problems == [] for problems in checks.values()), checks


def test_a_described_cook_is_written_as_the_engine_writes_it(hero, described):
    state, rng = described.new_state(hero, 2, {}), random.Random(3)
    # the setup: recipe deck, ingredients, first seat
    while state.current_player() < 0 and not state.is_terminal():
        state.apply(sample_chance(state.chance_request(), rng))
    texts = [str(a) for a in state.legal_actions()]
    assert "draw" in texts and all(t.split()[0] in ("draw", "cook", "play", "discard") for t in texts)


@pytest.mark.slow  # 2,000 games per count with each engine
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_described_game_agrees_with_the_python_engine(hero, described, players):
    ours = figures(described, hero, players, AGREEMENT_GAMES)
    theirs = figures(python_engine(), hero, players, AGREEMENT_GAMES)
    assert disagreements(ours, theirs) == []


def test_a_goal_the_copies_cannot_pay_for_is_named_at_its_line(hero, repo_project):
    from generator.rules.engine import engine_from_text

    text = (repo_project.root / "cards/short-order-hero/rules.yaml").read_text(encoding="utf-8")
    engine = engine_from_text(text, "cards/short-order-hero/rules.yaml", hero)
    assert dict(engine.static_checks(hero))["every goal can be completed with the copies that exist"] == []
    # nothing stands in: the same recipes then need only what the decks hold, still completable
    strict = text.replace("wild: \"card.kind == 'wild'\"", "wild: \"false\"")
    engine = engine_from_text(strict, "cards/short-order-hero/rules.yaml", hero)
    assert dict(engine.static_checks(hero))["every goal can be completed with the copies that exist"] == []
    # a recipe needing each of its ingredients 20 times cannot be cooked with 4 wilds among 231 cards
    greedy = text.replace("needs: card.required", "needs: \"card.required * 20\"")
    engine = engine_from_text(greedy, "cards/short-order-hero/rules.yaml", hero)
    found = [
        str(p)
        for p in dict(engine.static_checks(hero))["every goal can be completed with the copies that exist"]
    ]
    assert len(found) == len(hero.decks["recipes"].cards)
    assert (
        found[0].startswith("cards/short-order-hero/recipes.yaml:") and "can never be completed" in found[0]
    )


def test_rule_options_of_the_rules_file_change_the_game_played(hero, described):
    assert described.options == {"fifth_recipe_trigger": None, "use_tracker": None, "floor_mode": None}
    assert {o.name: o.kind for o in described.rule_options} == {
        "fifth_recipe_trigger": "int",
        "use_tracker": "bool",
        "floor_mode": "any",
    }
    endings = {
        play_game(
            described,
            hero,
            3,
            seed,
            ["greedy"] * 3,
            {"fifth_recipe_trigger": 2, "use_tracker": False},
            log=False,
        ).metrics["ended_by"]
        for seed in range(4)
    }
    assert endings == {"fifth-recipe"}
    with pytest.raises(ValueError, match="unknown option"):
        described.new_state(hero, 3, {"no_such_option": 1})


SCRIPTS = sorted(p.name for p in script_files(Path(__file__).resolve().parents[2] / "cards/short-order-hero"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_scripted_game_passes_against_the_description_and_the_python_engine(hero, described, script):
    path = hero.dir / "scripts" / script
    assert run_script(path, hero, described) == []
    assert run_script(path, hero, python_engine()) == []


def test_the_scripts_are_all_there():
    assert len(SCRIPTS) == 11


def test_a_refused_action_says_why_as_the_rules_file_words_it(hero, described):
    state, rng = described.new_state(hero, 2, {}), random.Random(5)
    while state.current_player() < 0:
        state.apply(sample_chance(state.chance_request(), rng))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="take at least one action"):
        state.apply("end")
    shown = before["display"][0]
    recipe = next(card for card in hero.decks["recipes"].cards if card.id == shown)
    slots = len(recipe.fields["required"]) + int(recipe.fields.get("any_meat") or 0)
    first = recipe.fields["required"][0]
    with pytest.raises(IllegalAction, match=f"^no-such-card cannot stand for {first}$"):
        state.apply(f"cook {shown}: " + " ".join(["no-such-card"] * slots))
    with pytest.raises(IllegalAction, match=f"^it needs one card for each of .*; got {slots + 1}$"):
        state.apply(f"cook {shown}: " + " ".join(["egg"] * (slots + 1)))
    elsewhere = next(card.id for card in hero.decks["recipes"].cards if card.id not in before["display"])
    with pytest.raises(IllegalAction, match=f"^recipe '{elsewhere}' is not on display$"):
        state.apply(f"cook {elsewhere}: egg")
    with pytest.raises(IllegalAction, match="not allowed now; legal: draw"):  # a card no deck has
        state.apply("cook no-such-recipe: egg")
    assert state.snapshot() == before  # a refusal changes nothing


def test_the_new_constructs_broken_are_located_lines(hero, repo_project):
    from generator.rules.engine import engine_from_text

    file = "cards/short-order-hero/rules.yaml"
    text = (repo_project.root / file).read_text(encoding="utf-8")
    lines = text.splitlines()

    def problems(changed: str) -> list:
        with pytest.raises(InputError) as caught:
            engine_from_text(changed, file, hero)
        return [(p.line, p.message) for p in caught.value.problems]

    def line_of(fragment: str) -> int:
        return next(number for number, line in enumerate(lines, 1) if fragment in line)

    found = problems(text.replace("{face: up, places: true}", "{face: up, places: 3}"))
    assert found == [(line_of("places: true"), found[0][1])] and "places 3" in found[0][1]
    found = problems(text.replace("say: \"'{target}' is not a completed recipe\"",
                                  "say: \"'{victim}' is not a completed recipe\""))
    # the spice's (sabotage has a victim: its refusal may name it)
    assert [line for line, _ in found] == [line_of("{target}' is not a completed recipe")]
    assert "names 'victim', which is not a parameter" in found[0][1]
    found = problems(text.replace("- why: \"unpaid(", "- {say: nothing, why: \"unpaid(").replace(
        "'Any Meat')\"", "'Any Meat')\"}"))
    assert found == [(line_of("- why: \"unpaid("), found[0][1])]
    assert "if: and say:, or why: alone" in found[0][1]
    found = problems(text.replace("refuse: \"finish the discard-and-draw", "refuse: [\"finish the discard"))
    assert [line for line, _ in found] == [line_of("refuse: \"finish")]
    found = problems(text.replace("  draw_pile: pantry.size", "  draw_pile: pantry.sise"))
    assert found == [(line_of("draw_pile: pantry.size"), found[0][1])] and "did you mean" in found[0][1]


def test_the_card_count_sees_a_card_lost_or_doubled_in_a_pile_it_counted_before(hero, described):
    # a big zone's count is kept while it holds the same cards: a card gone from it, or one more, is counted
    state = described.new_state(hero, 3, {})
    rng = random.Random(4)
    while state.current_player() < 0:  # the setup's shuffles
        state.apply(sample_chance(state.chance_request(), rng))
    start = state.card_count()
    pantry, discard = state.zones["pantry"], state.zones["discard"]
    assert len(pantry) >= 24 and state.card_count() == start
    lost = pantry.pop(0)
    assert state.card_count() == {**start, "ingredients": start["ingredients"] - 1}
    pantry.insert(0, lost)
    pantry.append(pantry[0])  # the same card twice
    assert state.card_count() == {**start, "ingredients": start["ingredients"] + 1}
    pantry.pop()
    recipe = state.zones["recipe_deck"].pop()
    pantry[5] = recipe  # an ingredient replaced by a recipe: the same number of cards
    assert state.card_count() == {"recipes": start["recipes"], "ingredients": start["ingredients"] - 1}
    discard.extend(pantry[:30])  # 29 ingredients and that recipe, each now in two piles
    assert state.card_count() == {"recipes": start["recipes"] + 1, "ingredients": start["ingredients"] + 28}


def test_the_card_count_follows_cards_taken_from_and_laid_on_top_of_a_pile(hero, described):
    # a big zone counted before and changed at its top only is counted from the cards that came or went: a
    # recipe laid on the pantry, drawn again, several at once, and a pile changed below its top as well
    state = described.new_state(hero, 3, {})
    rng = random.Random(5)
    while state.current_player() < 0:
        state.apply(sample_chance(state.chance_request(), rng))
    start = state.card_count()
    pantry, deck = state.zones["pantry"], state.zones["recipe_deck"]
    recipes = [deck.pop(), deck.pop()]
    pantry.extend(recipes)  # two recipes laid on top: the same counts (moved, not lost)
    assert state.card_count() == start
    pantry.append(recipes[0])  # one of them twice
    assert state.card_count() == {**start, "recipes": start["recipes"] + 1}
    del pantry[-3:]  # all three taken off the top: two recipes fewer than at the start
    assert state.card_count() == {**start, "recipes": start["recipes"] - 2}
    deck.extend(recipes)
    assert state.card_count() == start
    top = pantry.pop()
    pantry[0], pantry[1] = pantry[1], pantry[0]  # a card fewer on top and two swapped below it
    assert state.card_count() == {**start, "ingredients": start["ingredients"] - 1}
    pantry[3] = deck.pop()  # an ingredient below the top replaced by a recipe, and one laid on top
    pantry.append(top)
    assert state.card_count() == {**start, "ingredients": start["ingredients"] - 1}
