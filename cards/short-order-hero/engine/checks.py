"""Static composition checks of Short Order Hero (games.md C.3) that read the bonus chains and card texts as
the engine does, or walk the round tracker, each naming file:line. The counts, categories, value ranges, setup
and floors are data: game.yaml `checks:`."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from generator.core.errors import Problem, did_you_mean, known_list
from generator.engines.common import GameYaml

from .data import (
    ANY_MEAT,
    DEFAULT_MEATS,
    distances_to_end,
    parse_bonus,
)

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass
class Ctx:
    """What every check reads: the game, its two decks and where game.yaml settings are written."""

    game: Any  # a loaded Game and its two Decks
    recipes: Any
    ingredients: Any
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
                out.append(
                    Problem(
                        card.file,
                        card.line_of("required"),
                        f"recipe '{card.id}' needs {count} {ing} but the deck has only {copies[ing]}; "
                        "expected copies >= required",
                    )
                )
        bonus = Counter(b[0] for b in _bonus(card) if b is not None and b[0] in copies)
        for ing, count in bonus.items():
            total = need[ing] + count
            if need[ing] <= copies[ing] < total:
                out.append(
                    Problem(
                        card.file,
                        card.line_of("bonus"),
                        f"recipe '{card.id}' uses {total} {ing} with its full bonus chain but the deck has "
                        f"only {copies[ing]}; "
                        f"expected required + bonus <= copies",
                    )
                )
    return out


def check_any_meat(c: Ctx) -> list[Problem]:
    """C.3-3: Any Meat only among requirements; beef, chicken and pork exist, are flagged and suffice."""
    out, by_id, ing = [], c.by_id, c.ingredients
    meats = list(c.setting("any_meat", DEFAULT_MEATS) or DEFAULT_MEATS)
    for meat in meats:
        card = by_id.get(meat)
        if card is None:
            out.append(
                Problem(
                    ing.file,
                    ing.key_lines.get("cards", ing.line),
                    f"meat '{meat}' is not in the ingredients deck; expected {', '.join(meats)} in the deck, "
                    f"flagged `meat: true` (they count as Any Meat)",
                )
            )
        elif not card.fields.get("meat"):
            out.append(
                Problem(
                    card.file,
                    card.line_of("meat"),
                    f"'{meat}' is not flagged as meat; expected `meat: true` (it counts as Any Meat)",
                )
            )
    for card in ing.cards:
        if card.fields.get("meat") and card.id not in meats:
            out.append(
                Problem(
                    card.file,
                    card.line_of("meat"),
                    f"'{card.id}' is flagged as meat; expected only {', '.join(meats)} (game.yaml any_meat) "
                    "to count as Any Meat",
                )
            )
    meat_cards = sum(card.copies for card in ing.cards if card.fields.get("meat"))
    for card in c.recipes.cards:
        if any(b is not None and b[0] == ANY_MEAT for b in _bonus(card)):
            out.append(
                Problem(
                    card.file,
                    card.line_of("bonus"),
                    f"recipe '{card.id}' has Any Meat in its bonus chain; expected Any Meat only among the "
                    "required ingredients",
                )
            )
        slots = int(card.fields.get("any_meat") or 0)
        if not slots:
            continue
        need = slots + sum(
            1 for i in card.fields.get("required") or [] if i in by_id and by_id[i].fields.get("meat")
        )
        if need > meat_cards:
            out.append(
                Problem(
                    card.file,
                    card.line_of("any_meat"),
                    f"recipe '{card.id}' needs {need} meat cards (Any Meat plus named meats) but the deck "
                    "has only "
                    f"{meat_cards}; expected enough {', '.join(meats)}",
                )
            )
    return out


def check_bonus_chains(c: Ctx) -> list[Problem]:
    """C.3-4: bonus entries read 'ingredient +points', name deck ingredients and are worth more than 0."""
    out, by_id = [], c.by_id
    for card in c.recipes.cards:
        for text, parsed in zip(card.fields.get("bonus") or [], _bonus(card), strict=True):
            line = card.line_of("bonus")
            if parsed is None:
                out.append(
                    Problem(
                        card.file,
                        line,
                        f"recipe '{card.id}' bonus '{text}' is not 'ingredient +points'; expected e.g. 'egg "
                        "+1'",
                    )
                )
                continue
            ing, points = parsed
            if ing == ANY_MEAT:
                continue  # reported by the Any Meat check
            if ing not in by_id:
                out.append(
                    Problem(
                        card.file,
                        line,
                        f"recipe '{card.id}' has bonus ingredient '{ing}', which is not in the ingredients "
                        "deck"
                        f"{did_you_mean(ing, by_id)}; known: {known_list(by_id)}",
                    )
                )
            if points <= 0:
                out.append(
                    Problem(
                        card.file,
                        line,
                        f"recipe '{card.id}' bonus '{ing}' is worth {points}; expected every bonus "
                        "ingredient worth more than 0",
                    )
                )
    return out


def check_values(c: Ctx) -> list[Problem]:
    """C.3-5: at most max_recipe_points with every bonus ingredient (value ranges are a game.yaml check)."""
    out, limit = [], int(c.setting("max_recipe_points", 15))
    for card in c.recipes.cards:
        value = int(card.fields.get("value") or 0)
        best = value + sum(b[1] for b in _bonus(card) if b is not None and b[1] > 0)
        if best > limit:
            out.append(
                Problem(
                    card.file,
                    card.line_of("bonus"),
                    f"recipe '{card.id}' is worth {best} with every bonus ingredient; expected at most "
                    f"{limit} (max_recipe_points)",
                )
            )
    return out


def check_wild_scope(c: Ctx) -> list[Problem]:
    """C.3-7: bonus chains list only ingredient cards (the wild card's fields and the required ingredients are
    game.yaml checks)."""
    out, by_id = [], c.by_id
    for card in c.recipes.cards:
        listed = [("bonus", b[0]) for b in _bonus(card) if b is not None]
        for key, ing in listed:
            kind = by_id[ing].fields.get("kind") if ing in by_id else None
            if kind not in (None, "ingredient"):
                out.append(
                    Problem(
                        card.file,
                        card.line_of(key),
                        f"recipe '{card.id}' lists {ing} (a {kind} card) as an ingredient; expected only "
                        "ingredient "
                        "cards in recipes (a wild stands in for ingredients, never for spices, sabotage or "
                        "draws)",
                    )
                )
    return out


def _space_line(board, index: int, key: str | None = None) -> int:
    items = board.raw.get("spaces")
    item = items[index]
    return item.line_of(key) if key and hasattr(item, "line_of") else items.line_of(index)


def check_tracker(c: Ctx) -> list[Problem]:
    """C.3-8: a start for every player count, before All Done, one path, rounds agreeing with
    rounds_by_players."""
    tracker_id = str(c.setting("tracker", "tracker"))
    board = c.game.boards.get(tracker_id)
    if board is None:
        if not c.setting("use_tracker", True):
            return []
        return [
            Problem(
                c.game_file,
                c.setting_line("tracker"),
                f"round tracker board '{tracker_id}' not found; expected a board file with `board: "
                f"{tracker_id}`",
            )
        ]
    spaces = board.model.spaces
    spaces_line = board.raw.line_of("spaces")
    index = {s.id: i for i, s in enumerate(spaces)}
    ends = [s for s in spaces if s.kind == "end"]
    if len(ends) != 1:
        return [Problem(board.file, spaces_line,
                        f"the tracker has {len(ends)} All Done spaces (kind: end); expected exactly one")]
    end, dist = distances_to_end(board)
    out = _path_problems(board, index, end, dist)
    low, high = c.game.config.players.min, c.game.config.players.max
    starts = _starts(board, index, low, high, out)
    rounds: dict[int, int] = {}
    by_players = c.setting("rounds_by_players") or {}
    for count in range(low, high + 1):
        found = starts.get(count, [])
        if not found:
            out.append(
                Problem(
                    board.file,
                    spaces_line,
                    f"no start space for {count} players; expected a space with {count} in `start_for` "
                    f"for every player count {low}-{high} (game.yaml players)",
                )
            )
            continue
        out += _start_problems(board, index, count, found, end)
        space = found[0]
        if space.id == end or space.id not in dist:
            continue
        rounds[count] = dist[space.id]
        wanted = by_players.get(count, by_players.get(str(count)))
        if wanted is not None and int(wanted) != rounds[count]:
            out.append(
                Problem(
                    board.file,
                    _space_line(board, index[space.id], "start_for"),
                    f"the start for {count} players ('{space.id}') is {rounds[count]} spaces from All Done, "
                    "so the game "
                    f"lasts {rounds[count]} rounds, but game.yaml rounds_by_players says {wanted}; expected "
                    "them to agree",
                )
            )
    for count in range(low + 1, high + 1):
        if count in rounds and count - 1 in rounds and rounds[count] > rounds[count - 1]:
            space = starts[count][0]
            out.append(
                Problem(
                    board.file,
                    _space_line(board, index[space.id], "start_for"),
                    f"{count} players get {rounds[count]} rounds but {count - 1} players get "
                    f"{rounds[count - 1]}; "
                    f"expected rounds not to increase with more players",
                )
            )
    return out


def _path_problems(board, index: dict, end: str, dist: dict) -> list[Problem]:
    """The tracker is one path ending at All Done, and every space is on it."""
    out = []
    graph = board.neighbours()
    for space in board.model.spaces:
        limit = 1 if space.id == end else 2
        if len(graph[space.id]) > limit:
            out.append(
                Problem(
                    board.file,
                    _space_line(board, index[space.id]),
                    f"space '{space.id}' joins {len(graph[space.id])} spaces; expected the tracker to be one "
                    "path ending at All Done",
                )
            )
        if space.id not in dist:
            out.append(
                Problem(
                    board.file,
                    _space_line(board, index[space.id]),
                    f"space '{space.id}' has no path to All Done; expected every space on one path to "
                    f"'{end}'",
                )
            )
    return out


def _starts(board, index: dict, low: int, high: int, out: list[Problem]) -> dict[int, list]:
    """The start spaces of each player count; a start for a count the game is not played by goes to `out`."""
    starts: dict[int, list] = {}
    for space in board.model.spaces:
        for count in space.start_for:
            starts.setdefault(count, []).append(space)
            if not low <= count <= high:
                out.append(
                    Problem(
                        board.file,
                        _space_line(board, index[space.id], "start_for"),
                        f"space '{space.id}' is a start for {count} players; expected player counts "
                        f"{low}-{high} (game.yaml players)",
                    )
                )
    return starts


def _start_problems(board, index: dict, count: int, found: list, end: str) -> list[Problem]:
    """One start per player count, and never All Done itself."""
    out = []
    if len(found) > 1:
        out.append(
            Problem(
                board.file,
                _space_line(board, index[found[1].id], "start_for"),
                f"{count} players start on both '{found[0].id}' and '{found[1].id}'; expected one start "
                "per player count",
            )
        )
    if found[0].id == end:
        out.append(
            Problem(
                board.file,
                _space_line(board, index[found[0].id], "start_for"),
                f"the start for {count} players is All Done itself; expected every start before All Done",
            )
        )
    return out


def _says_count(text: str, verbs: str, count: int) -> bool:
    word = NUMBER_WORDS.get(count, str(count))
    return re.search(rf"\b({verbs})\s+({count}|{word})\s+cards?\b", text, re.IGNORECASE) is not None


def check_texts(c: Ctx) -> list[Problem]:
    """C.3-11: printed texts state the card's parameters (points, draw N, steal N, Any Meat, any one
    ingredient)."""
    out = []
    for card in c.ingredients.cards:
        f, kind = card.fields, card.fields.get("kind")
        text = str(f.get("effect") or "").replace("\u2212", "-")
        line = card.line_of("effect")
        if kind in ("spice", "sabotage") and f.get("points") is not None:
            sign = f"{f['points']:+d}"
            if not text.startswith(sign + " ") and text != sign:
                out.append(
                    Problem(
                        card.file,
                        line,
                        f"{kind} '{card.id}' is worth {sign} but its text says '{text}'; expected the text "
                        f"to start with '{sign}'",
                    )
                )
        if f.get("draw") and not _says_count(text, "draw", f["draw"]):
            out.append(
                Problem(
                    card.file,
                    line,
                    f"'{card.id}' draws {f['draw']} but its text says '{text}'; expected 'Draw {f['draw']} "
                    "cards'",
                )
            )
        if f.get("steal") and not _says_count(text, "take|steal", f["steal"]):
            n = f["steal"]
            out.append(
                Problem(
                    card.file,
                    line,
                    f"'{card.id}' takes {n} but its text says '{text}'; "
                    f"expected 'Take {n} card{'s' if n > 1 else ''} at random from an opponent's hand'",
                )
            )
        if f.get("meat") and "any meat" not in text.lower():
            out.append(
                Problem(
                    card.file,
                    line,
                    f"'{card.id}' counts as Any Meat but its text says '{text}'; expected 'Counts as Any "
                    "Meat'",
                )
            )
        if kind == "wild" and "any one ingredient" not in text.lower():
            out.append(
                Problem(
                    card.file,
                    line,
                    f"wild '{card.id}' says '{text}'; expected 'Counts as any one ingredient'",
                )
            )
    return out


CHECKS = [
    ("every recipe cookable without wilds", check_cookable),
    ("Any Meat satisfiable", check_any_meat),
    ("bonus chains well-formed", check_bonus_chains),
    ("recipe values with every bonus within max_recipe_points", check_values),
    ("bonus chains list ingredient cards only", check_wild_scope),
    ("round tracker starts and lengths", check_tracker),
    ("card texts match their parameters", check_texts),
]


def static_checks(game) -> list[tuple[str, list[Problem]]]:
    """Every Short Order Hero composition check: (name, problems) with file:line for each problem."""
    yaml = GameYaml(game)
    recipes, ingredients = game.decks.get("recipes"), game.decks.get("ingredients")
    if recipes is None or ingredients is None:
        return [
            (
                "decks recipes and ingredients",
                [
                    Problem(
                        yaml.file,
                        0,
                        "Short Order Hero needs the decks 'recipes' and 'ingredients'; expected recipes.yaml "
                        "and ingredients.yaml",
                    )
                ],
            )
        ]
    ctx = Ctx(game, recipes, ingredients, yaml)
    return [(name, check(ctx)) for name, check in CHECKS]
