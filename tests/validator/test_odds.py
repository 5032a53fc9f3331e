"""Exact deck odds: the counts agree with brute force on small decks and with seeded deals of the real decks
(each judged by the engine's own rule for a complete hand), a goal that can never be completed is located,
an engine without the declaration gets one line, and `pnp odds` prints the tables."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from itertools import combinations

import pytest
from pnp_engine_order_up_pizza.actions import payment_options
from pnp_engine_order_up_pizza.data import pizza_data
from pnp_engine_order_up_trading.data import trading_deck
from pnp_engine_short_order_hero.actions import can_cook
from pnp_engine_short_order_hero.data import rules_for

from generator.data.expand import expand_ids
from generator.data.load import load_game
from generator.engines.base import Deal, GoalNeeds, GoalsAndDeals
from generator.engines.registry import engine_for
from generator.validator.odds import deck_odds, game_odds, holding_counts, impossible_goals, odds_lines
from tests.conftest import REPO, run_pnp

Z95, Z999 = 1.96, 3.29  # two-sided 95 % and 99.9 % normal quantiles


def _brute(goal: GoalNeeds, deck: dict[str, int], m: int) -> int:
    """The m-card sets of the deck that hold the goal, by listing them (a slot filled by one card each)."""
    cards = [card for card, n in sorted(deck.items()) for _ in range(n)]
    slots = [cards_ for cards_, n in goal.slots for _ in range(n)]

    def fills(hand: list[str], i: int) -> bool:  # back-tracking: every slot a distinct card
        if i == len(slots):
            return True
        for j, card in enumerate(hand):
            if (card in slots[i] or card in goal.wilds) and fills(hand[:j] + hand[j + 1:], i + 1):
                return True
        return False

    return sum(1 for hand in combinations(cards, m) if fills(list(hand), 0))


@pytest.mark.parametrize("m", range(0, 9))
def test_counts_equal_brute_force_with_overlapping_slots_and_wilds(m):
    deck = {"beef": 2, "pork": 3, "chicken": 1, "egg": 2, "wild": 1, "salt": 3}
    goal = GoalNeeds("g", ((frozenset({"pork"}), 1), (frozenset({"beef", "pork", "chicken"}), 2),
                           (frozenset({"egg"}), 1)), frozenset({"wild"}))
    assert holding_counts(goal, deck, 12)[m] == _brute(goal, deck, m)


def test_an_impossible_goal_is_located_at_its_card_and_says_what_is_short():
    goal = GoalNeeds("soup", ((frozenset({"egg"}), 4), (frozenset({"truffle"}), 1)), frozenset({"wild"}),
                     "Soup", "cards/x/recipes.yaml", 12)
    declared = GoalsAndDeals((goal,), (Deal(2, (("egg", 2), ("wild", 1), ("salt", 9)), 3),))
    figures = deck_odds(declared)
    assert figures["by_players"]["2"]["goals"]["soup"]["opening"] == 0
    (problem,) = impossible_goals(declared, figures)
    assert (problem.file, problem.line) == ("cards/x/recipes.yaml", 12)
    assert "goal 'soup' can never be completed at 2 players" in problem.message
    assert "4 x egg (the deck has 2)" in problem.message and "1 x truffle (the deck has 0)" in problem.message
    assert "1 wilds can stand in" in problem.message


def _check(found: list[tuple[str, float, float, int]]) -> None:
    """Each (what, exact, simulated share, deals): the exact figure within the 99.9 % interval of the
    simulated share (several dozen figures are compared, so a 95 % miss now and then is chance), and at
    most a tenth of them outside their 95 % interval."""
    outside = []
    for what, exact, share, n in found:
        sd = math.sqrt(max(exact * (1 - exact), 0.25 / n) / n)  # floor: a share near 0 or 1 still varies
        z = abs(share - exact) / sd
        assert z <= Z999, f"{what}: exact {exact:.5f}, simulated {share:.5f} of {n} (z {z:.1f})"
        if z > Z95:
            outside.append(what)
    assert len(outside) <= max(1, len(found) // 10), outside


def _figures(repo_project, game_id: str):
    game = load_game(repo_project, game_id)
    figures, problems = game_odds(game, engine_for(game))
    assert problems == []
    return game, figures


def test_short_order_hero_odds_agree_with_seeded_deals_judged_by_the_engine(repo_project):
    game, figures = _figures(repo_project, "short-order-hero")
    rules = rules_for(game)
    deck = list(expand_ids(game.decks["ingredients"]))
    players, hand_size, deals = 4, 7, 2500
    f = figures["by_players"]["4"]
    rng = random.Random(31)
    held, within, seen = Counter(), Counter(), Counter()
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [Counter(deck[s * hand_size:(s + 1) * hand_size]) for s in range(players)]
        pile = deck[players * hand_size:]  # dealt in blocks, as the engine deals
        for hand in hands:
            seen.update(set(hand))
            held.update(rid for rid, recipe in rules.recipes.items() if can_cook(recipe, hand, rules))
        for n in (5, 15):
            drawn = hands[0] + Counter(pile[:n])
            within.update((rid, n) for rid, recipe in rules.recipes.items() if can_cook(recipe, drawn, rules))
    found = [(f"{rid} opening", g["opening"], held[rid] / (deals * players), deals * players)
             for rid, g in f["goals"].items()]
    found += [(f"{rid} within {n}", g["within"][str(n)], within[(rid, n)] / deals, deals)
              for rid, g in f["goals"].items() for n in (5, 15)]
    found += [(f"{card} seen", c["opening"], seen[card] / (deals * players), deals * players)
              for card, c in f["cards"].items()]
    _check(found)


def test_short_order_hero_expected_draws_agree_with_drawing_until_complete(repo_project):
    game, figures = _figures(repo_project, "short-order-hero")
    rules = rules_for(game)
    deck = list(expand_ids(game.decks["ingredients"]))
    rng, deals = random.Random(7), 300
    draws: dict[str, list[int]] = {rid: [] for rid in rules.recipes}
    for _ in range(deals):
        rng.shuffle(deck)
        for rid, recipe in rules.recipes.items():  # the fewest draws after the hand: monotone, so bisect
            low, high = 0, len(deck) - 7
            while low < high:
                mid = (low + high) // 2
                if can_cook(recipe, Counter(deck[:7 + mid]), rules):
                    high = mid
                else:
                    low = mid + 1
            draws[rid].append(low)
    for rid, g in figures["by_players"]["2"]["goals"].items():
        mean = sum(draws[rid]) / deals
        sd = math.sqrt(sum((d - mean) ** 2 for d in draws[rid]) / (deals - 1) / deals)
        assert abs(mean - g["expected_draws"]) <= Z999 * sd, (rid, g["expected_draws"], mean, sd)


def test_order_up_odds_agree_with_seeded_deals_judged_by_the_engine(repo_project):
    game, figures = _figures(repo_project, "order-up-pizza")
    data = pizza_data(game)
    deck = list(data.topping_deck)
    players, hand_size, deals = 3, 6, 2000
    f = figures["by_players"]["3"]
    rng = random.Random(5)
    held, within, seen = Counter(), Counter(), Counter()

    def pays(order: str, hand: Counter) -> bool:
        return bool(payment_options(data.order_req[order], hand, hand.get("wild-card", 0)))

    for _ in range(deals):
        rng.shuffle(deck)
        hands = [Counter(deck[s * hand_size:(s + 1) * hand_size]) for s in range(players)]
        pile = deck[players * hand_size:]
        for hand in hands:
            seen.update(set(hand))
            held.update(order for order in f["goals"] if pays(order, hand))
        drawn = hands[0] + Counter(pile[:10])
        within.update(order for order in f["goals"] if pays(order, drawn))
    found = [(f"{o} opening", g["opening"], held[o] / (deals * players), deals * players)
             for o, g in f["goals"].items()]
    found += [(f"{o} within 10", g["within"]["10"], within[o] / deals, deals) for o, g in f["goals"].items()]
    found += [(f"{card} seen", c["opening"], seen[card] / (deals * players), deals * players)
              for card, c in f["cards"].items()]
    _check(found)


def test_trading_odds_agree_with_seeded_deals_of_random_sets(repo_project):
    game, figures = _figures(repo_project, "order-up-trading")
    deck = trading_deck(game)
    players, deals = 3, 3000
    f = figures["by_players"]["3"]
    rng = random.Random(11)
    complete, seen, dealt = Counter(), Counter(), Counter()
    for _ in range(deals):
        chosen = rng.sample(deck.recipe_ids, players)  # the sets in play, then the cards and the recipes
        cards = [c for r in chosen for c in deck.sets[r]]
        rng.shuffle(cards)
        rng.shuffle(chosen)
        for seat, recipe in enumerate(chosen):
            hand = cards[seat * 7:(seat + 1) * 7]
            seen.update(hand)
            dealt[recipe] += 1
            complete[recipe] += sorted(deck.name[c] for c in hand) == sorted(deck.needs[recipe])
    found = [(f"{r} dealt complete", g["opening"], complete[r] / dealt[r], dealt[r])
             for r, g in f["goals"].items()]
    found += [(f"{card} seen", c["opening"], seen[card] / (deals * players), deals * players)
              for card, c in f["cards"].items()]
    _check(found)
    assert f["goals"]["burrito"]["opening"] == pytest.approx(1 / 46_512, rel=1e-4)  # C(21, 7) / 3 sets
    assert f["goals"]["burrito"]["opening_exact"] is not None


def test_pnp_odds_prints_the_tables_and_json(repo_project):
    result = run_pnp("odds", "short-order-hero", project=repo_project)
    assert result.exit_code == 0, result.output
    assert "2-5 players: a hand of 7 dealt from 231 cards" in result.output
    game, figures = _figures(repo_project, "short-order-hero")
    toast = figures["by_players"]["2"]["goals"]["buttered-toast"]
    assert f"{100 * toast['opening']:.1f}%" in next(line for line in result.output.splitlines()
                                                  if "Buttered Toast" in line)
    assert "\n".join(odds_lines(figures)) in result.output
    result = run_pnp("odds", "order-up-trading", "--players", "4", "--json", project=repo_project)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    assert data["player_counts"] == [4] and list(data["by_players"]) == ["4"]


def test_pnp_odds_bad_input_is_one_located_line(repo_project):
    result = run_pnp("odds", "crazy-eights", project=repo_project)
    assert result.exit_code == 1
    assert "crazy-eights: engine rules:cards/crazy-eights/rules.yaml declares no goals: declare " \
           "Engine(deck_odds=...)" in result.output
    result = run_pnp("odds", "demo", project=REPO / "tests" / "fixtures" / "demo-project")
    assert result.exit_code == 1
    assert "demo: no `engine:` in game.yaml, so no goals are declared: name one there and declare " \
           "Engine(deck_odds=...)" in result.output
    result = run_pnp("odds", "short-order-hero", "--players", "7", project=repo_project)
    assert result.exit_code == 1 and "declares deals for 2, 3, 4, 5 players" in result.output
    result = run_pnp("odds", "short-order-hero", "--draws", "five", project=repo_project)
    assert result.exit_code == 2 and "expected draw counts >= 0" in result.output
    needs = ",".join(["pickle"] * 15)
    result = run_pnp("odds", "short-order-hero", "--set", f"recipes.buttered-toast.required=[{needs}]",
                     project=repo_project)
    assert result.exit_code == 1
    card = game_line(repo_project, "buttered-toast")
    assert (f"cards/short-order-hero/recipes.yaml:{card}: goal 'buttered-toast' can never be completed at "
            "2, 3, 4, 5 players: it needs 15 x pickle (the deck has 8) and 6 wilds can stand in"
            ) in result.output


def game_line(project, recipe: str) -> int:
    """The line of the recipe's `required:` in recipes.yaml."""
    lines = (project.cards_dir / "short-order-hero" / "recipes.yaml").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- id: {recipe}")
    return next(i for i in range(start, len(lines)) if lines[i].strip().startswith("required:")) + 1
