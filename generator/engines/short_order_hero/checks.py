"""Static composition checks of Short Order Hero (games.md C.3, invariants 1-11), each naming file:line."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from generator.core.errors import Problem, did_you_mean, known_list
from generator.engines.common import GameYaml
from generator.engines.short_order_hero.data import (
    ANY_MEAT,
    DEFAULT_MEATS,
    INGREDIENT_CARDS,
    INGREDIENT_TYPES,
    RECIPE_CARDS,
    distances_to_end,
    parse_bonus,
)

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass
class Ctx:
    """What every check reads: the game, its two decks and where game.yaml settings are written."""

    game: object
    recipes: object
    ingredients: object
    yaml: GameYaml

    @property
    def by_id(self) -> dict:
        return self.ingredients.by_id()

    @property
    def game_file(self) -> str:
        return self.yaml.file

    def setting_line(self, name: str) -> int:
        return self.yaml.setting_line(name)

    def setting(self, name: str, default=None):
        return self.game.setting(name, default)


def _bonus(card) -> list[tuple[str, int] | None]:
    return [parse_bonus(text) for text in (card.fields.get("bonus") or [])]


def check_counts(c: Ctx) -> list[Problem]:
    """C.3-1: 22 recipes, 231 ingredient cards of 24 types, each type in one category, unique ids."""
    out, rd, ing = [], c.recipes, c.ingredients
    if rd.copies != RECIPE_CARDS:
        out.append(Problem(rd.file, rd.key_lines.get("cards", rd.line),
                           f"the recipe deck has {rd.copies} cards; expected {RECIPE_CARDS} (the published count)"))
    for card in rd.cards:
        if card.copies != 1:
            out.append(Problem(card.file, card.line_of("copies"),
                               f"recipe '{card.id}' has {card.copies} copies; expected 1 (every recipe card is different)"))
    if ing.copies != INGREDIENT_CARDS:
        out.append(Problem(ing.file, ing.key_lines.get("cards", ing.line),
                           f"the ingredients deck has {ing.copies} cards; expected {INGREDIENT_CARDS} (the published count)"))
    if len(ing.cards) != INGREDIENT_TYPES:
        out.append(Problem(ing.file, ing.key_lines.get("cards", ing.line),
                           f"the ingredients deck has {len(ing.cards)} card types; expected {INGREDIENT_TYPES} (the published '24 unique')"))
    for card in ing.cards:
        kind, f = card.fields.get("kind"), card.fields
        if f.get("meat") and kind != "ingredient":
            out.append(Problem(card.file, card.line_of("meat"),
                               f"card '{card.id}' is a {kind} but has `meat: true`; expected the meat flag only on ingredient cards"))
        has_points = f.get("points") is not None
        if kind in ("spice", "sabotage") and not has_points:
            sign = "positive" if kind == "spice" else "negative"
            out.append(Problem(card.file, card.line_of("kind"), f"{kind} '{card.id}' has no `points`; expected a {sign} number of points"))
        if kind not in ("spice", "sabotage") and has_points:
            out.append(Problem(card.file, card.line_of("points"),
                               f"{kind} card '{card.id}' has `points`; expected points only on spice and sabotage cards (one category per card type)"))
        acquire = [k for k in ("draw", "steal") if f.get(k)]
        if kind == "acquire" and len(acquire) != 1:
            what = "both draw and steal" if acquire else "neither draw nor steal"
            out.append(Problem(card.file, card.line_of("kind"),
                               f"acquire card '{card.id}' has {what}; expected exactly one of `draw: N` or `steal: N`"))
        if kind != "acquire" and acquire:
            out.append(Problem(card.file, card.line_of(acquire[0]),
                               f"{kind} card '{card.id}' has `{acquire[0]}`; expected draw/steal only on acquire cards"))
    ingredient_ids = {card.id for card in ing.cards}
    for card in rd.cards:
        if card.id in ingredient_ids:
            out.append(Problem(card.file, card.line_of("id"),
                               f"recipe id '{card.id}' is also a card id in {ing.file}; expected unique card ids across both decks"))
    return out


def check_cookable(c: Ctx) -> list[Problem]:
    """C.3-2: every recipe can be cooked, with its whole bonus chain, without wilds."""
    out, copies = [], {card.id: card.copies for card in c.ingredients.cards}
    for card in c.recipes.cards:
        need = Counter(card.fields.get("required") or [])
        for ing, count in need.items():
            if ing not in copies:
                out.append(Problem(card.file, card.line_of("required"),
                                   f"recipe '{card.id}' needs {ing}, which is not in the ingredients deck; "
                                   f"expected every required ingredient in {c.ingredients.file}"))
            elif count > copies[ing]:
                out.append(Problem(card.file, card.line_of("required"),
                                   f"recipe '{card.id}' needs {count} {ing} but the deck has only {copies[ing]}; expected copies >= required"))
        bonus = Counter(b[0] for b in _bonus(card) if b is not None and b[0] in copies)
        for ing, count in bonus.items():
            total = need[ing] + count
            if need[ing] <= copies[ing] < total:
                out.append(Problem(card.file, card.line_of("bonus"),
                                   f"recipe '{card.id}' uses {total} {ing} with its full bonus chain but the deck has only {copies[ing]}; "
                                   f"expected required + bonus <= copies"))
    return out


def check_any_meat(c: Ctx) -> list[Problem]:
    """C.3-3: Any Meat only among requirements; beef, chicken and pork exist, are flagged and suffice."""
    out, by_id, ing = [], c.by_id, c.ingredients
    meats = list(c.setting("any_meat", DEFAULT_MEATS) or DEFAULT_MEATS)
    for meat in meats:
        card = by_id.get(meat)
        if card is None:
            out.append(Problem(ing.file, ing.key_lines.get("cards", ing.line),
                               f"meat '{meat}' is not in the ingredients deck; expected {', '.join(meats)} in the deck, "
                               f"flagged `meat: true` (they count as Any Meat)"))
        elif not card.fields.get("meat"):
            out.append(Problem(card.file, card.line_of("meat"),
                               f"'{meat}' is not flagged as meat; expected `meat: true` (it counts as Any Meat)"))
    for card in ing.cards:
        if card.fields.get("meat") and card.id not in meats:
            out.append(Problem(card.file, card.line_of("meat"),
                               f"'{card.id}' is flagged as meat; expected only {', '.join(meats)} (game.yaml any_meat) to count as Any Meat"))
    meat_cards = sum(card.copies for card in ing.cards if card.fields.get("meat"))
    for card in c.recipes.cards:
        if any(b is not None and b[0] == ANY_MEAT for b in _bonus(card)):
            out.append(Problem(card.file, card.line_of("bonus"),
                               f"recipe '{card.id}' has Any Meat in its bonus chain; expected Any Meat only among the required ingredients"))
        slots = int(card.fields.get("any_meat") or 0)
        if not slots:
            continue
        need = slots + sum(1 for i in card.fields.get("required") or [] if i in by_id and by_id[i].fields.get("meat"))
        if need > meat_cards:
            out.append(Problem(card.file, card.line_of("any_meat"),
                               f"recipe '{card.id}' needs {need} meat cards (Any Meat plus named meats) but the deck has only "
                               f"{meat_cards}; expected enough {', '.join(meats)}"))
    return out


def check_bonus_chains(c: Ctx) -> list[Problem]:
    """C.3-4: bonus entries read 'ingredient +points', name deck ingredients and are worth more than 0."""
    out, by_id = [], c.by_id
    for card in c.recipes.cards:
        for text, parsed in zip(card.fields.get("bonus") or [], _bonus(card), strict=True):
            line = card.line_of("bonus")
            if parsed is None:
                out.append(Problem(card.file, line, f"recipe '{card.id}' bonus '{text}' is not 'ingredient +points'; expected e.g. 'egg +1'"))
                continue
            ing, points = parsed
            if ing == ANY_MEAT:
                continue  # reported by the Any Meat check
            if ing not in by_id:
                out.append(Problem(card.file, line,
                                   f"recipe '{card.id}' has bonus ingredient '{ing}', which is not in the ingredients deck"
                                   f"{did_you_mean(ing, by_id)}; known: {known_list(by_id)}"))
            if points <= 0:
                out.append(Problem(card.file, line,
                                   f"recipe '{card.id}' bonus '{ing}' is worth {points}; expected every bonus ingredient worth more than 0"))
    return out


def check_values(c: Ctx) -> list[Problem]:
    """C.3-5: n <= value <= 2n+1 for n required ingredients; at most max_recipe_points with all bonuses."""
    out, limit = [], int(c.setting("max_recipe_points", 15))
    for card in c.recipes.cards:
        n = len(card.fields.get("required") or []) + int(card.fields.get("any_meat") or 0)
        value = int(card.fields.get("value") or 0)
        if not n <= value <= 2 * n + 1:
            out.append(Problem(card.file, card.line_of("value"),
                               f"recipe '{card.id}' has value {value} for {n} required ingredients; expected {n} <= value <= {2 * n + 1}"))
        best = value + sum(b[1] for b in _bonus(card) if b is not None and b[1] > 0)
        if best > limit:
            out.append(Problem(card.file, card.line_of("bonus"),
                               f"recipe '{card.id}' is worth {best} with every bonus ingredient; expected at most {limit} (max_recipe_points)"))
    return out


def check_modifiers(c: Ctx) -> list[Problem]:
    """C.3-6: spices are worth more than 0, sabotage less than 0; the score floor is 0 and its mode is known."""
    out = []
    for card in c.ingredients.cards:
        kind, points = card.fields.get("kind"), card.fields.get("points")
        if points is None:
            continue
        if kind == "spice" and points <= 0:
            out.append(Problem(card.file, card.line_of("points"),
                               f"spice '{card.id}' has points {points}; expected spices and seasonings worth more than 0"))
        if kind == "sabotage" and points >= 0:
            out.append(Problem(card.file, card.line_of("points"),
                               f"sabotage '{card.id}' has points {points}; expected sabotage worth less than 0"))
    floor = c.setting("sabotage_floor", 0)
    if floor != 0:
        out.append(Problem(c.game_file, c.setting_line("sabotage_floor"),
                           f"sabotage_floor is {floor}; expected 0 (sabotage cannot make a recipe go below zero)"))
    mode = c.setting("floor_mode", "end")
    if mode not in ("end", "clamp"):
        out.append(Problem(c.game_file, c.setting_line("floor_mode"),
                           f"floor_mode is '{mode}'; expected end (floor each recipe when scoring) or clamp (at each sabotage)"))
    return out


def check_wild_scope(c: Ctx) -> list[Problem]:
    """C.3-7: a wild stands in for one ingredient or bonus ingredient only; recipes list only ingredients."""
    out, by_id = [], c.by_id
    for card in c.ingredients.cards:
        if card.fields.get("kind") != "wild":
            continue
        for key in ("meat", "points", "draw", "steal"):
            if card.fields.get(key) not in (None, False):
                out.append(Problem(card.file, card.line_of(key),
                                   f"wild card '{card.id}' has `{key}`; expected a wild to carry no {key}: "
                                   f"it stands in for one ingredient or bonus ingredient only"))
    for card in c.recipes.cards:
        listed = [("required", i) for i in card.fields.get("required") or []]
        listed += [("bonus", b[0]) for b in _bonus(card) if b is not None]
        for key, ing in listed:
            kind = by_id[ing].fields.get("kind") if ing in by_id else None
            if kind not in (None, "ingredient"):
                out.append(Problem(card.file, card.line_of(key),
                                   f"recipe '{card.id}' lists {ing} (a {kind} card) as an ingredient; expected only ingredient "
                                   f"cards in recipes (a wild stands in for ingredients, never for spices, sabotage or draws)"))
    return out


def _space_line(board, index: int, key: str | None = None) -> int:
    items = board.raw.get("spaces")
    item = items[index]
    return item.line_of(key) if key and hasattr(item, "line_of") else items.line_of(index)


def check_tracker(c: Ctx) -> list[Problem]:
    """C.3-8: a start for every player count, before All Done, one path, rounds agreeing with rounds_by_players."""
    tracker_id = str(c.setting("tracker", "tracker"))
    board = c.game.boards.get(tracker_id)
    if board is None:
        if not c.setting("use_tracker", True):
            return []
        return [Problem(c.game_file, c.setting_line("tracker"),
                        f"round tracker board '{tracker_id}' not found; expected a board file with `board: {tracker_id}`")]
    out, spaces = [], board.model.spaces
    spaces_line = board.raw.line_of("spaces")
    index = {s.id: i for i, s in enumerate(spaces)}
    ends = [s for s in spaces if s.kind == "end"]
    if len(ends) != 1:
        return [Problem(board.file, spaces_line,
                        f"the tracker has {len(ends)} All Done spaces (kind: end); expected exactly one")]
    end, dist = distances_to_end(board)
    graph = board.neighbours()
    for space in spaces:
        limit = 1 if space.id == end else 2
        if len(graph[space.id]) > limit:
            out.append(Problem(board.file, _space_line(board, index[space.id]),
                               f"space '{space.id}' joins {len(graph[space.id])} spaces; expected the tracker to be one path ending at All Done"))
        if space.id not in dist:
            out.append(Problem(board.file, _space_line(board, index[space.id]),
                               f"space '{space.id}' has no path to All Done; expected every space on one path to '{end}'"))
    low, high = c.game.config.players.min, c.game.config.players.max
    starts: dict[int, list] = {}
    for space in spaces:
        for count in space.start_for:
            starts.setdefault(count, []).append(space)
            if not low <= count <= high:
                out.append(Problem(board.file, _space_line(board, index[space.id], "start_for"),
                                   f"space '{space.id}' is a start for {count} players; expected player counts {low}-{high} (game.yaml players)"))
    rounds: dict[int, int] = {}
    by_players = c.setting("rounds_by_players") or {}
    for count in range(low, high + 1):
        found = starts.get(count, [])
        if not found:
            out.append(Problem(board.file, spaces_line,
                               f"no start space for {count} players; expected a space with {count} in `start_for` "
                               f"for every player count {low}-{high} (game.yaml players)"))
            continue
        space = found[0]
        line = _space_line(board, index[space.id], "start_for")
        if len(found) > 1:
            out.append(Problem(board.file, _space_line(board, index[found[1].id], "start_for"),
                               f"{count} players start on both '{found[0].id}' and '{found[1].id}'; expected one start per player count"))
        if space.id == end:
            out.append(Problem(board.file, line, f"the start for {count} players is All Done itself; expected every start before All Done"))
            continue
        if space.id not in dist:
            continue
        rounds[count] = dist[space.id]
        wanted = by_players.get(count, by_players.get(str(count)))
        if wanted is not None and int(wanted) != rounds[count]:
            out.append(Problem(board.file, line,
                               f"the start for {count} players ('{space.id}') is {rounds[count]} spaces from All Done, so the game "
                               f"lasts {rounds[count]} rounds, but game.yaml rounds_by_players says {wanted}; expected them to agree"))
    for count in range(low + 1, high + 1):
        if count in rounds and count - 1 in rounds and rounds[count] > rounds[count - 1]:
            space = starts[count][0]
            out.append(Problem(board.file, _space_line(board, index[space.id], "start_for"),
                               f"{count} players get {rounds[count]} rounds but {count - 1} players get {rounds[count - 1]}; "
                               f"expected rounds not to increase with more players"))
    return out


def _int_setting(c: Ctx, name: str, default: int, out: list) -> int | None:
    value = c.setting(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        out.append(Problem(c.game_file, c.setting_line(name), f"{name} is {value!r}; expected a whole number >= 1"))
        return None
    return value


def check_setup(c: Ctx) -> list[Problem]:
    """C.3-9: the deal and the display fit the decks; the hand limit leaves room for the starting hand."""
    out: list[Problem] = []
    hand = _int_setting(c, "start_hand", 7, out)
    display = _int_setting(c, "display", 5, out)
    _int_setting(c, "fifth_recipe_trigger", 5, out)
    players = c.game.config.players.max
    if hand is not None and hand * players > c.ingredients.copies:
        out.append(Problem(c.game_file, c.setting_line("start_hand"),
                           f"dealing {hand} cards to {players} players needs {hand * players} cards but the ingredients deck "
                           f"has {c.ingredients.copies}; expected enough cards for the deal"))
    if display is not None and display > c.recipes.copies:
        out.append(Problem(c.game_file, c.setting_line("display"),
                           f"the display shows {display} recipes but the recipe deck has only {c.recipes.copies}; expected display <= recipes"))
    limit = c.setting("hand_limit", "none")
    if limit not in (None, "none"):
        if not isinstance(limit, int) or isinstance(limit, bool) or (hand is not None and limit < hand):
            out.append(Problem(c.game_file, c.setting_line("hand_limit"),
                               f"hand_limit is {limit!r}; expected none or a whole number >= the starting hand ({hand})"))
    return out


def check_ingredient_floor(c: Ctx) -> list[Problem]:
    """C.3-10: every ingredient has at least ingredient_floor copies."""
    floor, out = int(c.setting("ingredient_floor", 6)), []
    for card in c.ingredients.cards:
        if card.fields.get("kind") == "ingredient" and card.copies < floor:
            out.append(Problem(card.file, card.line_of("copies"),
                               f"ingredient '{card.id}' has {card.copies} copies; expected at least {floor} (ingredient_floor in game.yaml)"))
    return out


def _says_count(text: str, verbs: str, count: int) -> bool:
    word = NUMBER_WORDS.get(count, str(count))
    return re.search(rf"\b({verbs})\s+({count}|{word})\s+cards?\b", text, re.IGNORECASE) is not None


def check_texts(c: Ctx) -> list[Problem]:
    """C.3-11: printed texts state the card's parameters (points, draw N, steal N, Any Meat, any one ingredient)."""
    out = []
    for card in c.ingredients.cards:
        f, kind = card.fields, card.fields.get("kind")
        text = str(f.get("effect") or "").replace("\u2212", "-")
        line = card.line_of("effect")
        if kind in ("spice", "sabotage") and f.get("points") is not None:
            sign = f"{f['points']:+d}"
            if not text.startswith(sign + " ") and text != sign:
                out.append(Problem(card.file, line, f"{kind} '{card.id}' is worth {sign} but its text says '{text}'; expected the text to start with '{sign}'"))
        if f.get("draw") and not _says_count(text, "draw", f["draw"]):
            out.append(Problem(card.file, line, f"'{card.id}' draws {f['draw']} but its text says '{text}'; expected 'Draw {f['draw']} cards'"))
        if f.get("steal") and not _says_count(text, "take|steal", f["steal"]):
            n = f["steal"]
            out.append(Problem(card.file, line, f"'{card.id}' takes {n} but its text says '{text}'; "
                                                f"expected 'Take {n} card{'s' if n > 1 else ''} at random from an opponent's hand'"))
        if f.get("meat") and "any meat" not in text.lower():
            out.append(Problem(card.file, line, f"'{card.id}' counts as Any Meat but its text says '{text}'; expected 'Counts as Any Meat'"))
        if kind == "wild" and "any one ingredient" not in text.lower():
            out.append(Problem(card.file, line, f"wild '{card.id}' says '{text}'; expected 'Counts as any one ingredient'"))
    return out


CHECKS = [
    ("22 recipes, 231 ingredient cards of 24 types, one category each", check_counts),
    ("every recipe cookable without wilds", check_cookable),
    ("Any Meat satisfiable", check_any_meat),
    ("bonus chains well-formed", check_bonus_chains),
    ("recipe values in range", check_values),
    ("spice and sabotage signs, score floor", check_modifiers),
    ("wild card scope", check_wild_scope),
    ("round tracker starts and lengths", check_tracker),
    ("setup feasibility", check_setup),
    ("per-ingredient floor", check_ingredient_floor),
    ("card texts match their parameters", check_texts),
]


def static_checks(game) -> list[tuple[str, list[Problem]]]:
    """Every Short Order Hero composition check: (name, problems) with file:line for each problem."""
    yaml = GameYaml(game)
    recipes, ingredients = game.decks.get("recipes"), game.decks.get("ingredients")
    if recipes is None or ingredients is None:
        return [("decks recipes and ingredients", [Problem(yaml.file, 0,
                 "Short Order Hero needs the decks 'recipes' and 'ingredients'; expected recipes.yaml and ingredients.yaml")])]
    ctx = Ctx(game, recipes, ingredients, yaml)
    return [(name, check(ctx)) for name, check in CHECKS]
