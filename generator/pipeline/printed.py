"""`pnp mark-printed`: record the cards of the current build as printed, for `pnp build --changed`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.data.game import Game
from generator.data.printed import Printed, PrintedCard, write_record
from generator.data.project import Project


@dataclass(frozen=True)
class Marked:
    """One game's record as written: where, in which languages, how many card types and copies."""

    game: str
    path: Path
    languages: tuple[str, ...]
    cards: int
    copies: int


def printed_cards(game: Game) -> dict[str, dict[str, PrintedCard]]:
    """Deck id -> card id -> the card as the game prints it now (its code, name, copies and revision)."""
    from generator.faces.face import renderer_for

    revisions = renderer_for(game).card_revisions()
    return {deck.id: {card.id: PrintedCard(card.code, card.name, card.copies, revisions[deck.id][card.id])
                      for card in deck.cards}
            for deck in game.decks.values()}


def mark_printed(project: Project, names: list[str], languages: tuple[str, ...] = ()) -> list[Marked]:
    """Write cards/<game>/printed.yaml for each named game: its cards in every language asked for (default:
    every language it declares) as `pnp build` prints them now. The games are loaded and checked first: a
    game with a problem gets no record, and no record is written unless every game is right."""
    from generator.data.revision import content_revision
    from generator.pipeline.translations import translated_games

    games, _ = translated_games(project, names, languages or ("all",))
    found: dict[str, Printed] = {}
    first: dict[str, Game] = {}
    for game in games:
        found.setdefault(game.id, {})[game.language] = printed_cards(game)
        first.setdefault(game.id, game)
    marked = []
    for game_id, printed in found.items():
        game = first[game_id]
        revision = content_revision(game.dir, project.templates_dir)
        path = write_record(game.dir, game_id, printed, revision)
        cards = sum(len(cards) for cards in next(iter(printed.values())).values())
        copies = sum(c.copies for cards in next(iter(printed.values())).values() for c in cards.values())
        marked.append(Marked(game_id, path, tuple(printed), cards, copies))
    return marked
