"""Short Order Hero data read once from the loaded YAML: recipes with their needs, card kinds, the tracker
path."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from generator.core.caching import per_game
from generator.core.graphs import distances
from generator.data.expand import expand_ids

ANY_MEAT = "any-meat"  # the slot name used in actions and messages for an "Any Meat" requirement
DEFAULT_MEATS = ("beef", "chicken", "pork")
BONUS_RE = re.compile(r"^\s*([a-z0-9][a-z0-9_-]*)\s+([+-]\s*\d+)\s*$")

# Published counts (games.md 1.C): 22 recipe cards, 231 ingredient cards of 24 kinds.
KINDS = ("ingredient", "spice", "sabotage", "acquire", "wild")


def parse_bonus(text: str) -> tuple[str, int] | None:
    """'egg +1' -> ('egg', 1); None when the text is not 'ingredient +points'."""
    match = BONUS_RE.match(str(text))
    if not match:
        return None
    return match.group(1), int(match.group(2).replace(" ", ""))


@dataclass(frozen=True)
class Recipe:
    """A recipe card as the engine needs it: slots in printed order, bonus chain, needs as a Counter."""

    id: str
    name: str
    value: int
    required: tuple[str, ...]  # named required ingredients, printed order, repeats allowed
    any_meat: int
    bonus: tuple[tuple[str, int], ...]  # (ingredient, points) in printed order
    need: Counter = field(compare=False, hash=False)  # named required ingredient -> count
    need_items: tuple = field(default=(), compare=False)  # need.items() as a tuple, for the hot path

    @property
    def slots(self) -> tuple[str, ...]:
        """Every required slot in printed order: the named ingredients, then the Any Meat slots."""
        return self.required + (ANY_MEAT,) * self.any_meat

    @property
    def max_points(self) -> int:
        """Value with the whole bonus chain."""
        return self.value + sum(points for _, points in self.bonus)


@dataclass
class Rules:
    """Everything the engine reads from the game folder, computed once per loaded game."""

    recipes: dict[str, Recipe]
    recipe_cards: tuple[str, ...]  # one id per physical recipe card, file order
    ingredient_cards: tuple[str, ...]  # one id per physical ingredient card, file order
    kind: dict[str, str]
    meats: frozenset[str]
    wilds: tuple[str, ...]
    points: dict[str, int]
    draw: dict[str, int]
    steal: dict[str, int]
    settings: dict[str, Any]
    tracks: dict[int, tuple[str, ...]]  # player count -> spaces from the start to All Done
    useful: dict[str, frozenset[str]]  # recipe id -> card ids that can fill one of its slots (not wilds)
    # recipe id -> the cards whose counts in a hand decide every way to cook it (its ingredients, meats,
    # wilds), and
    # for each the most it could fill: a hand holding more of a card cooks the recipe in exactly the same ways
    cook_inputs: dict[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    cook_caps: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    # (recipe id, capped counts of its cook_inputs) -> the ways to cook it (actions.Cooks), for hands that can
    cook_memo: dict[tuple, tuple] = field(init=False, repr=False, compare=False)
    # recipe -> named ingredients
    needs: dict[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    # card -> kind, for cards played alone
    playable: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        # derived here, not passed in: dataclasses.replace() then starts a changed copy with its own memo
        self.needs = {rid: frozenset(recipe.need) for rid, recipe in self.recipes.items()}
        self.playable = {
            card: kind for card, kind in self.kind.items() if kind in ("spice", "sabotage", "acquire")
        }
        self.cook_inputs, self.cook_caps = {}, {}
        for rid, recipe in self.recipes.items():
            bonus = [b for b, _ in recipe.bonus]
            slots = len(recipe.required) + recipe.any_meat + len(bonus)
            inputs = tuple(
                dict.fromkeys(
                    [*recipe.need, *bonus, *(sorted(self.meats) if recipe.any_meat else ()), *self.wilds]
                )
            )
            self.cook_inputs[rid] = inputs
            self.cook_caps[rid] = tuple(recipe.need.get(card, 0) + bonus.count(card)
                                        + (recipe.any_meat if card in self.meats else 0)
                                        + (slots if card in self.wilds else 0) for card in inputs)
        self.cook_memo = {}


def recipe_from_card(card) -> Recipe:
    """A Recipe from a recipes.yaml card (bonus entries that do not parse are skipped; checks report them)."""
    bonus = tuple(p for p in (parse_bonus(b) for b in (card.fields.get("bonus") or [])) if p is not None)
    required = tuple(card.fields.get("required") or ())
    return Recipe(
        card.id,
        card.name,
        int(card.fields.get("value") or 0),
        required,
        int(card.fields.get("any_meat") or 0),
        bonus,
        Counter(required),
        tuple(Counter(required).items()),
    )


def tracker_graph(board) -> dict[str, list[str]]:
    """The tracker's spaces and the roads between them."""
    return board.neighbours()


def distances_to_end(board) -> tuple[str | None, dict[str, int]]:
    """(All Done space id, space -> steps to it); ({}) when the tracker has no end space."""
    ends = [s.id for s in board.model.spaces if s.kind == "end"]
    if not ends:
        return None, {}
    return ends[0], distances(tracker_graph(board), ends[0])


def track_paths(board) -> dict[int, tuple[str, ...]]:
    """Player count -> the spaces the marker visits from that count's start to All Done."""
    end, dist = distances_to_end(board)
    graph = tracker_graph(board)
    paths: dict[int, tuple[str, ...]] = {}
    for space in board.model.spaces:
        if space.id not in dist:
            continue
        for count in space.start_for:
            path, here = [space.id], space.id
            while here != end:
                here = min(n for n in graph[here] if dist.get(n, 1 << 30) == dist[here] - 1)
                path.append(here)
            paths[count] = tuple(path)
    return paths


def build_rules(game) -> Rules:
    """Read the recipes, the ingredients and the tracker of a loaded game."""
    recipes_deck, ingredients = game.decks["recipes"], game.decks["ingredients"]
    recipes = {card.id: recipe_from_card(card) for card in recipes_deck.cards}
    kind, points, draw, steal = {}, {}, {}, {}
    meats, wilds = set(), []
    for card in ingredients.cards:
        kind[card.id] = card.fields.get("kind")
        if card.fields.get("meat"):
            meats.add(card.id)
        if kind[card.id] == "wild":
            wilds.append(card.id)
        if card.fields.get("points") is not None:
            points[card.id] = int(card.fields["points"])
        if card.fields.get("draw"):
            draw[card.id] = int(card.fields["draw"])
        if card.fields.get("steal"):
            steal[card.id] = int(card.fields["steal"])
    board = game.boards.get(str(game.setting("tracker", "tracker")))
    useful = {}
    for rid, recipe in recipes.items():
        ids = set(recipe.required) | {b for b, _ in recipe.bonus}
        if recipe.any_meat:
            ids |= meats
        useful[rid] = frozenset(ids)
    return Rules(
        recipes=recipes,
        recipe_cards=tuple(expand_ids(recipes_deck)),
        ingredient_cards=tuple(expand_ids(ingredients)),
        kind=kind, meats=frozenset(meats), wilds=tuple(sorted(wilds)), points=points, draw=draw, steal=steal,
        settings=dict(game.config.settings), tracks=track_paths(board) if board is not None else {},
        useful=useful,
    )


rules_for = per_game(build_rules)  # the engine's view of a loaded game, built once per Game object


class Cooked:
    """A completed recipe: its card, the bonus cards laid on it and the spices/sabotage added later, in
    order."""

    __slots__ = ("recipe", "bonus", "mods", "running", "total")

    def __init__(self, recipe: Recipe, bonus: list[tuple[str, int]]):
        self.recipe = recipe
        self.bonus = bonus
        self.mods: list[tuple[str, int]] = []
        self.total = recipe.value + sum(p for _, p in bonus)  # value + bonus + modifiers, no floor
        self.running = self.total  # the clamp-mode value

    def raw(self) -> int:
        """Value + bonus + spices + sabotage, without any floor."""
        return self.total

    def score(self, mode: str, floor: int) -> int:
        """The recipe's points: floored once at the end (mode 'end') or at each modifier (mode 'clamp')."""
        return (self.total if self.total > floor else floor) if mode == "end" else self.running

    def add(self, card: str, points: int, floor: int, mode: str) -> bool:
        """Attach a spice or sabotage card; True when a sabotage pushes the recipe below the floor."""
        self.mods.append((card, points))
        self.total += points
        hit = points < 0 and (self.running + points < floor if mode == "clamp" else self.total < floor)
        self.running = max(floor, self.running + points)
        return hit
