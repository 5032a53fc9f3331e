"""Static composition checks of the recipe trading game (games.md B.3) that need the engine's reading of
ingredient names (case, spacing and plural insensitive) or a search over set selections, each naming cards by
file:line.

The counts, food groups, recipe shapes and scoring numbers are data: game.yaml `checks:`.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

from generator.core.errors import Problem
from generator.engines.common import GameYaml, at

RECIPES, INGREDIENTS, RULES, GROUPS = "recipes", "ingredients", "rules", "food-groups"


def normalise_name(name: str) -> str:
    """Comparison key of an ingredient name: lower case, single spaces, every word singular."""
    words = re.sub(r"[^a-z0-9]+", " ", name.lower()).split()
    return " ".join(_singular(word) for word in words)


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith(("oes", "ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 2 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _names(items) -> str:
    return ", ".join(items)


class _Data:
    """The decks and table the checks read, plus derived look-ups (copies count as physical cards)."""

    def __init__(self, game):
        self.game = game
        self.recipes = game.decks[RECIPES].cards
        self.ingredient_deck = game.decks[INGREDIENTS]
        self.ingredients = self.ingredient_deck.cards
        self.groups = game.tables[GROUPS].rows
        self.hand = int(game.setting("hand", 7))
        self.set_cards = {r.id: [c for c in self.ingredients if c.recipe == r.id] for r in self.recipes}
        self.set_names = {
            rid: Counter({c.ingredient: 0 for c in cards}) for rid, cards in self.set_cards.items()
        }
        for rid, cards in self.set_cards.items():
            for card in cards:
                self.set_names[rid][card.ingredient] += card.copies
        self.need = {r.id: Counter(r.ingredients) for r in self.recipes}
        # the food group of a name: the group most of its cards are in (the odd ones are reported elsewhere)
        votes: dict[str, Counter] = {}
        for card in self.ingredients:
            votes.setdefault(normalise_name(card.ingredient), Counter())[card.group] += card.copies
        self.group_of = {key: counter.most_common(1)[0][0] for key, counter in votes.items()}
        self.copies_of = Counter()
        for card in self.ingredients:
            self.copies_of[normalise_name(card.ingredient)] += card.copies


def static_checks(game) -> list[tuple[str, list[Problem]]]:
    """Every B.3 invariant that the data alone decides, as (check name, problems)."""
    shown = game.show(game.dir / "game.yaml")
    missing = [what for what, present in ((f"deck '{RECIPES}'", RECIPES in game.decks),
                                          (f"deck '{INGREDIENTS}'", INGREDIENTS in game.decks),
                                          (f"table '{GROUPS}'", GROUPS in game.tables)) if not present]
    if missing:
        return [
            (
                "recipes, ingredients and food groups defined",
                [
                    Problem(
                        shown,
                        0,
                        f"{_names(missing)} missing; expected decks '{RECIPES}' and '{INGREDIENTS}' and "
                        f"table '{GROUPS}'",
                    )
                ],
            )
        ]
    data = _Data(game)
    yaml = GameYaml(game)
    return [
        ("one spelling per ingredient", check_spelling(data)),
        ("one food group per ingredient", check_one_group(data)),
        (
            "set self-sufficiency for every recipe, every selection of sets and a winner's swap",
            check_sets(data),
        ),
        ("equal copy-sum and sharing per recipe", check_balance(data)),
        ("deal feasibility: a hand per player for every player count", check_deal(data, yaml)),
        ("rule card numbers match the settings", check_rule_card(data)),
    ]


def check_spelling(data: _Data) -> list[Problem]:
    """Names that normalise alike (case, spacing, plural) are spelt alike, on cards and recipes."""
    problems = []
    seen: dict[str, list[tuple[str, str, object, str]]] = {}  # key -> (spelling, who, record, field)
    for card in data.ingredients:
        if card.name != card.ingredient:
            problems.append(
                at(
                    card,
                    "name",
                    f"card {card.id} prints '{card.name}' but its ingredient is '{card.ingredient}'; "
                    "expected the printed name to be the ingredient name",
                )
            )
        seen.setdefault(normalise_name(card.ingredient), []).append(
            (card.ingredient, f"card {card.id}", card, "ingredient")
        )
    for recipe in data.recipes:
        for name in recipe.ingredients:
            seen.setdefault(normalise_name(name), []).append(
                (name, f"recipe {recipe.id}", recipe, "ingredients")
            )
    for uses in seen.values():
        counts = Counter(spelling for spelling, *_ in uses)
        if len(counts) < 2:
            continue
        best = max(counts.values())
        canonical = next(spelling for spelling, *_ in uses if counts[spelling] == best)
        where = next(who for spelling, who, *_ in uses if spelling == canonical)
        for spelling, who, record, key in uses:
            if spelling != canonical:
                problems.append(
                    at(
                        record,
                        key,
                        f"ingredient '{spelling}' ({who}) looks like '{canonical}' ({where}); "
                        "expected one spelling per ingredient",
                    )
                )
    return problems


def check_one_group(data: _Data) -> list[Problem]:
    """Every ingredient name belongs to exactly one food group (so its colour is a function of its name)."""
    problems = []
    first: dict[str, object] = {}
    for card in data.ingredients:
        key = normalise_name(card.ingredient)
        if card.group == data.group_of[key]:
            first.setdefault(key, card)
    for card in data.ingredients:
        key = normalise_name(card.ingredient)
        if card.group != data.group_of[key]:
            other = first[key]
            problems.append(
                at(
                    card,
                    "group",
                    f"ingredient '{card.ingredient}' (card {card.id}) is in food group '{card.group}' "
                    f"but card {other.id} puts it in '{other.group}'; expected one food group per ingredient "
                    "name",
                )
            )
    return problems


def _diff(have: Counter, need: Counter) -> str:
    missing = sorted((need - have).elements())
    extra = sorted((have - need).elements())
    parts = ([f"missing {_names(missing)}"] if missing else []) + (
        [f"extra {_names(extra)}"] if extra else []
    )
    return "; ".join(parts)


def check_sets(data: _Data) -> list[Problem]:
    """Each set's names equal its recipe; so does every k-set selection, before and after a winner's swap."""
    problems = []
    for recipe in data.recipes:
        have, need = data.set_names[recipe.id], data.need[recipe.id]
        if have != need:
            problems.append(
                at(
                    recipe,
                    "ingredients",
                    f"the {recipe.id} cards do not match recipe '{recipe.id}' ({_diff(have, need)}); "
                    "expected the names on its icon cards to equal its ingredient list",
                )
            )
    by_id = {r.id: r for r in data.recipes}
    ids = list(by_id)
    selection_problem = swap_problem = None
    for k in range(max(1, data.game.config.players.min), len(ids) + 1):
        for chosen in combinations(ids, k):
            pool = sum((data.set_names[r] for r in chosen), Counter())
            need = sum((data.need[r] for r in chosen), Counter())
            if pool != need and selection_problem is None:
                selection_problem = at(
                    by_id[chosen[0]],
                    "ingredients",
                    f"with {k} players and sets {_names(chosen)} in play the cards do not fit the recipes "
                    f"({_diff(pool, need)}); expected every selection of sets to be completable by all "
                    "players",
                )
            for winner in chosen:
                for incoming in (r for r in ids if r not in chosen):
                    after = pool - data.need[winner] + data.set_names[incoming]
                    after_need = need - data.need[winner] + data.need[incoming]
                    if after != after_need and swap_problem is None:
                        swap_problem = at(
                            by_id[incoming],
                            "ingredients",
                            f"with {k} players, after {winner}'s winning hand is swapped for the {incoming} "
                            "set the cards "
                            f"in play do not fit the recipes ({_diff(after, after_need)}); expected every "
                            "swap to keep the game completable",
                        )
    return problems + [p for p in (selection_problem, swap_problem) if p is not None]


def check_balance(data: _Data) -> list[Problem]:
    """Equal copy-sum per recipe and the same number of recipes sharing a name with each."""
    problems = []
    copy_sum = {r.id: sum(data.copies_of[normalise_name(n)] for n in r.ingredients) for r in data.recipes}
    keys = {r.id: {normalise_name(n) for n in r.ingredients} for r in data.recipes}
    sharing = {
        r.id: sorted(o.id for o in data.recipes if o.id != r.id and keys[r.id] & keys[o.id])
        for r in data.recipes
    }
    usual_sum = Counter(copy_sum.values()).most_common(1)[0][0]
    usual_share = Counter(len(s) for s in sharing.values()).most_common(1)[0][0]
    for recipe in data.recipes:
        if copy_sum[recipe.id] != usual_sum:
            shared = ", ".join(
                f"{n} {data.copies_of[normalise_name(n)]}"
                for n in recipe.ingredients
                if data.copies_of[normalise_name(n)] != 1
            )
            problems.append(
                at(
                    recipe,
                    "ingredients",
                    f"recipe '{recipe.id}' has copy-sum {copy_sum[recipe.id]} "
                    f"({shared or 'no shared names'}); "
                    f"most recipes have {usual_sum}; expected equal copy-sums so no recipe is harder to "
                    "collect",
                )
            )
        if len(sharing[recipe.id]) != usual_share:
            problems.append(
                at(
                    recipe,
                    "ingredients",
                    f"recipe '{recipe.id}' shares ingredients with {len(sharing[recipe.id])} recipes "
                    f"({_names(sharing[recipe.id]) or 'none'}); most share with {usual_share}; expected the "
                    "same number for every recipe",
                )
            )
    return problems


def check_deal(data: _Data, yaml: GameYaml) -> list[Problem]:
    """For every supported player count k the k sets in play hold exactly `hand` cards per player."""
    problems = []
    players = data.game.config.players  # the range itself is a game.yaml check
    sizes = {r.id: sum(data.set_names[r.id].values()) for r in data.recipes}
    for k in range(max(players.min, 1), min(players.max, len(sizes)) + 1):
        bad = next((c for c in combinations(sizes, k) if sum(sizes[r] for r in c) != data.hand * k), None)
        if bad is not None:
            problems.append(
                Problem(
                    yaml.file,
                    yaml.line_of("players"),
                    f"with {k} players the sets {_names(bad)} hold "
                    f"{sum(sizes[r] for r in bad)} cards; expected {data.hand * k} = {data.hand} per player",
                )
            )
    return problems


def check_rule_card(data: _Data) -> list[Problem]:
    """The numbers printed on the rule cards are the ones in game.yaml settings."""
    if RULES not in data.game.decks:
        return []
    game = data.game
    wanted = {
        "winner points": f"+{game.setting('win_points')}",
        "icon point": f"+{game.setting('icon_point')}",
        "false call": f"{game.setting('false_call')}",
        "target": f"{game.setting('target')}",
        "hand": f"{game.setting('hand')}",
    }
    problems = []
    for card in game.decks[RULES].cards:
        text = " ".join(str(line) for line in card.fields.get("lines") or []).replace("\u2212", "-")
        for what, number in wanted.items():
            if not re.search(rf"(?<![\d+-]){re.escape(number)}(?!\d)", text):
                problems.append(
                    at(
                        card,
                        "lines",
                        f"rule card '{card.id}' does not print the {what} {number} from game.yaml settings; "
                        "expected the printed numbers to match the settings",
                    )
                )
    return problems
