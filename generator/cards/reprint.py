"""`pnp build --changed`: what to reprint since the cards were marked printed, and the swap list that says it.

The printed record (generator.data.printed) holds each card's revision as printed; the game now has its own
(generator.faces.face: `CardRenderer.revision`). A card whose revision differs is reprinted, every copy
("replace"); a new card too ("add"); a card no longer in the game is to be taken out ("remove"). A card whose
face is the same but whose copies changed gets the extra copies printed ("add ... more") or the difference
taken out. Pure data, no drawing: the card sheets draw the list (generator.cards.sheets).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.caching import per_game
from generator.core.errors import InputError, Problem
from generator.data.game import Game
from generator.data.printed import Record, read_record, record_path

SWAP_ACTIONS = ("replace", "add", "add_more", "remove", "remove_some")


@dataclass(frozen=True)
class Swap:
    """One line of the swap list: what to do with a card, and how many copies the reprint has of it."""

    action: str  # one of SWAP_ACTIONS
    deck: str
    card: str  # its id
    code: str
    name: str
    copies: int  # the copies this line is about (printed now, or taken out)
    printed: int  # the copies the reprint has of it (0: nothing printed)


@dataclass(frozen=True)
class Reprint:
    """The swap list of one game in one language, against its record."""

    swaps: tuple[Swap, ...]
    record: Record

    def selection(self) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
        """Per deck (in print order) the cards printed and how many copies of each."""
        found: dict[str, list[tuple[str, int]]] = {}
        for swap in self.swaps:
            if swap.printed:
                found.setdefault(swap.deck, []).append((swap.card, swap.printed))
        return tuple((deck, tuple(cards)) for deck, cards in found.items())


def swap_line(swap: Swap, say) -> str:
    """One line of the swap list in the game's language ('replace ORD-07 Grandma Rosa (1 copy)')."""
    return say(f"sheets.swap_{swap.action}", code=swap.code, name=swap.name, count=swap.copies)


def swap_lines(reprint: Reprint, say) -> list[str]:
    """The swap list as lines, or the one line saying nothing changed."""
    return [swap_line(swap, say) for swap in reprint.swaps] or [say("sheets.swap_none")]


@per_game
def reprint_of(game: Game) -> Reprint:
    """What `--changed` reprints of this game in its language; InputError at the record when it has none,
    is damaged, or lacks the language."""
    from generator.faces.face import renderer_for

    shown = game.show(record_path(game.dir))
    record = read_record(game.dir, shown, game.id)
    printed = record.printed.get(game.language)
    if printed is None:
        known = ", ".join(record.printed) or "none"
        raise InputError(Problem(shown, 1, f"no cards of {game.id} in language {game.language} are marked "
                                           f"printed (the record has {known}); expected `pnp mark-printed "
                                           f"{game.id} --lang {game.language}` after printing them"))
    revisions = renderer_for(game).card_revisions()
    swaps: list[Swap] = []
    for deck in game.decks.values():
        before = printed.get(deck.id, {})
        for card in deck.cards:
            now, old = revisions[deck.id][card.id], before.get(card.id)
            if old is None or old.revision != now:  # every copy printed
                swaps.append(Swap("add" if old is None else "replace", deck.id, card.id, card.code, card.name,
                                  card.copies, card.copies))
            elif card.copies > old.copies:
                more = card.copies - old.copies
                swaps.append(Swap("add_more", deck.id, card.id, card.code, card.name, more, more))
            elif card.copies < old.copies:
                swaps.append(Swap("remove_some", deck.id, card.id, card.code, card.name,
                                  old.copies - card.copies, 0))
    for deck_id, cards in printed.items():
        deck = game.decks.get(deck_id)
        for card_id, old in cards.items():
            if deck is None or card_id not in deck.by_id():
                swaps.append(Swap("remove", deck_id, card_id, old.code, old.name, old.copies, 0))
    return Reprint(tuple(swaps), record)
