"""The inventory of a game: everything in the box with counts (what `pnp list` prints and a rulebook's
"What is in the box" table shows), from the decks, boards, component files and the `extras` of game.yaml.
The words come from the game's language (generator.core.phrases)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.data.components import Component, component_size, tuckbox_plan
from generator.data.game import Game


@dataclass
class InventoryLine:
    """One line of the inventory."""

    name: str
    count: int
    detail: str = ""


def component_line(game: Game, component: Component) -> InventoryLine:
    """The inventory line of one component, with its kind, size and what it holds."""
    say, phrases = game.phrases.t, game.phrases
    size, _ = component_size(component, game.decks, phrases)
    if component.kind == "tuckbox":
        plan = tuckbox_plan(component, game.decks) or []
        names = phrases.join_and([game.decks[d].name for d in component.model.deck_ids if d in game.decks])
        cards = sorted({box.cards for box in plan})
        held = say("inventory.cards_each", cards=cards[0]) if len(cards) == 1 and len(plan) > 1 else (
            say("inventory.cards_each", cards=f" {say('words.or')} ".join(map(str, cards))) if len(plan) > 1
            else say("inventory.cards", count=plan[0].cards) if plan else "")
        detail = say("inventory.for_decks_held", decks=names, held=held) if held else say("inventory.for_decks", decks=names)
        return InventoryLine(component.name, len(plan), detail)
    count = component.copies
    kind = say(f"inventory.{component.kind}", count=count)
    if component.kind in ("token", "standee"):
        kinds = len(component.items)
        names = ", ".join(item.name for item in component.items) if kinds <= 6 else say("inventory.kinds", count=kinds)
        return InventoryLine(component.name, count, say("inventory.pieces", kind=kind, size=size, names=names))
    return InventoryLine(component.name, count, say("inventory.printed", kind=say(f"inventory.{component.kind}", count=1),
                                                    size=size))


def inventory(game: Game) -> list[InventoryLine]:
    """Decks (with their card types), boards, printed components and extras, with counts from the data."""
    say = game.phrases.t
    lines: list[InventoryLine] = []
    for deck in game.decks.values():
        lines.append(InventoryLine(deck.name, deck.copies, say("inventory.card_types", count=len(deck.cards))))
    for board in game.boards.values():
        lines.append(InventoryLine(board.model.name, 1, say("inventory.spaces", count=len(board.model.spaces))))
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
            kind = game.phrases.t(f"inventory.{component.kind}", count=component.copies)
            out.append(f"  {component.name} [{component.code}], {component.copies} {kind}:")
            for item in component.items:
                out.append(f"    {item.code}  {item.copies:>3} x {item.name}")
    return "\n".join(out)
