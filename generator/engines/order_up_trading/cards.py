"""The trading game's actions and the card facts the engine reads from the YAML (one entry per physical card)."""

from __future__ import annotations

from typing import NamedTuple

RECIPES, INGREDIENTS, GROUPS = "recipes", "ingredients", "food-groups"


class Action(NamedTuple):
    """`offer <cards>`, `give <cards>` (the split), `call` (Order up!) or `pass`; cards in deck order."""

    kind: str
    cards: tuple = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.cards))


CALL, PASS = Action("call"), Action("pass")
new_action = tuple.__new__  # builds an Action without NamedTuple's Python-level __new__ (legal_actions is hot)


class TradingDeck:
    """What the engine needs from the YAML, built once per game: physical card ids and their properties."""

    def __init__(self, game):
        self.recipe_ids = [c.id for c in game.decks[RECIPES].cards]
        self.recipe_name = {c.id: c.name for c in game.decks[RECIPES].cards}
        self.needs = {c.id: tuple(sorted(c.ingredients)) for c in game.decks[RECIPES].cards}
        self.groups = [row.id for row in game.tables[GROUPS].rows]
        self.group_label = {row.id: row.name for row in game.tables[GROUPS].rows}
        self.cards: list[str] = []
        self.name, self.group, self.icon = {}, {}, {}
        for card in game.decks[INGREDIENTS].cards:
            for copy in range(1, card.copies + 1):
                cid = card.id if card.copies == 1 else f"{card.id}:{copy}"
                self.cards.append(cid)
                self.name[cid], self.group[cid], self.icon[cid] = card.ingredient, card.group, card.recipe
        self.index = {cid: i for i, cid in enumerate(self.cards)}
        self.sets = {rid: [c for c in self.cards if self.icon[c] == rid] for rid in self.recipe_ids}
        self.offer_cache: dict[tuple, list] = {}
