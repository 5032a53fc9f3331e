"""The inventory of a game: everything in the box with counts (what `pnp list` prints and a rulebook's
"What is in the box" table shows), from the decks, boards, component files and the `extras` of game.yaml."""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.words import join_and
from generator.data.components import Component, component_size, tuckbox_plan
from generator.data.game import Game

KIND_WORDS = {"token": "token", "standee": "standee", "die": "die", "tuckbox": "tuck box", "sheet": "sheet"}


@dataclass
class InventoryLine:
    """One line of the inventory."""

    name: str
    count: int
    detail: str = ""


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {'dice' if word == 'die' else word + 'es' if word.endswith('x') else word + 's'}"


def component_line(game: Game, component: Component) -> InventoryLine:
    """The inventory line of one component, with its kind, size and what it holds."""
    size, _ = component_size(component, game.decks)
    kind = KIND_WORDS[component.kind]
    if component.kind == "tuckbox":
        plan = tuckbox_plan(component, game.decks) or []
        names = join_and([game.decks[d].name for d in component.model.deck_ids if d in game.decks])
        cards = sorted({box.cards for box in plan})
        held = f"{cards[0]} cards each" if len(cards) == 1 and len(plan) > 1 else (
            f"{' or '.join(map(str, cards))} cards each" if len(plan) > 1 else f"{plan[0].cards} cards" if plan else "")
        return InventoryLine(component.name, len(plan), f"for the {names}; {held}" if held else f"for the {names}")
    count = component.copies
    if component.kind in ("token", "standee"):
        kinds = len(component.items)
        names = ", ".join(item.name for item in component.items) if kinds <= 6 else f"{kinds} kinds"
        return InventoryLine(component.name, count, f"{kind if count == 1 else kind + 's'}, {size}: {names}")
    if component.kind == "die":
        return InventoryLine(component.name, count, f"printed {kind}, {size}")
    return InventoryLine(component.name, count, f"printed {kind}, {size}")


def inventory(game: Game) -> list[InventoryLine]:
    """Decks (with their card types), boards, printed components and extras, with counts from the data."""
    lines: list[InventoryLine] = []
    for deck in game.decks.values():
        lines.append(InventoryLine(deck.name, deck.copies, _plural(len(deck.cards), "card type")))
    for board in game.boards.values():
        lines.append(InventoryLine(board.model.name, 1, f"{len(board.model.spaces)} spaces"))
    for component in game.components.values():
        lines.append(component_line(game, component))
    for extra in game.config.extras:
        lines.append(InventoryLine(extra.name, extra.count, extra.note))
    return lines


def format_inventory(game: Game) -> str:
    """Plain-text inventory with each deck's card types and copies."""
    out = [f"{game.title} ({game.id}): {game.config.players.min}-{game.config.players.max} players"]
    for line in inventory(game):
        detail = f"  ({line.detail})" if line.detail else ""
        out.append(f"  {line.count:>4} x {line.name}{detail}")
    for deck in game.decks.values():
        out.append(f"  {deck.name} [{deck.code}], {deck.copies} cards:")
        for card in deck.cards:
            out.append(f"    {card.code}  {card.copies:>3} x {card.name}")
    for component in game.components.values():
        if component.kind in ("token", "standee"):
            out.append(f"  {component.name} [{component.code}], {_plural(component.copies, KIND_WORDS[component.kind])}:")
            for item in component.items:
                out.append(f"    {item.code}  {item.copies:>3} x {item.name}")
    return "\n".join(out)
