"""The inventory of a game: everything in the box with counts (what `pnp list` prints and a rulebook's
"What is in the box" table shows), from the decks, boards, component files and the `extras` of game.yaml.
The words come from the game's language (generator.core.phrases)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.data.components import Component, component_size
from generator.data.game import Game


@dataclass
class InventoryLine:
    """One line of the inventory."""

    name: str
    count: int
    detail: str = ""


def component_line(game: Game, component: Component) -> InventoryLine:
    """The inventory line of one component, with its kind, size and what it holds."""
    size, _ = component_size(component, game.decks, game.phrases)
    count, detail = component.model.inventory_entry(game, component, size)
    return InventoryLine(component.name, count, detail)


def inventory(game: Game) -> list[InventoryLine]:
    """Decks (with their card types), boards, printed components and extras, with counts from the data."""
    say = game.phrases.t
    lines: list[InventoryLine] = []
    for deck in game.decks.values():
        lines.append(
            InventoryLine(deck.name, deck.copies, say("inventory.card_types", count=len(deck.cards)))
        )
    for board in game.boards.values():
        lines.append(
            InventoryLine(board.model.name, 1, say("inventory.spaces", count=len(board.model.spaces)))
        )
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
        if component.model.lists_items:
            kind = game.phrases.t(f"inventory.{component.kind}", count=component.copies)
            out.append(f"  {component.name} [{component.code}], {component.copies} {kind}:")
            for item in component.items:
                out.append(f"    {item.code}  {item.copies:>3} x {item.name}")
    return "\n".join(out)
