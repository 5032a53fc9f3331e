"""The component list of a game (what `pnp list` prints and a rulebook's "Components" shows)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.data.game import Game


@dataclass
class ComponentLine:
    """One line of the component list."""

    name: str
    count: int
    detail: str = ""


def component_list(game: Game) -> list[ComponentLine]:
    """Decks (with their card types), boards and other components, with counts from the data."""
    lines: list[ComponentLine] = []
    for deck in game.decks.values():
        lines.append(ComponentLine(deck.name, deck.copies, f"{len(deck.cards)} card type{'s' if len(deck.cards) != 1 else ''}"))
    for board in game.boards.values():
        lines.append(ComponentLine(board.model.name, 1, f"{len(board.model.spaces)} spaces"))
    for comp in game.config.components:
        lines.append(ComponentLine(comp.name, comp.count, comp.note))
    return lines


def format_component_list(game: Game) -> str:
    """Plain-text component list with each deck's card types and copies."""
    out = [f"{game.title} ({game.id}): {game.config.players.min}-{game.config.players.max} players"]
    for line in component_list(game):
        detail = f"  ({line.detail})" if line.detail else ""
        out.append(f"  {line.count:>4} x {line.name}{detail}")
    for deck in game.decks.values():
        out.append(f"  {deck.name} [{deck.code}], {deck.copies} cards:")
        for card in deck.cards:
            out.append(f"    {card.code}  {card.copies:>3} x {card.name}")
    return "\n".join(out)
