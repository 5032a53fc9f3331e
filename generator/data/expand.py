"""Stage 3, expand: card types into physical cards (one entry per printed copy), in file order."""

from __future__ import annotations

from generator.data.game import Card, Deck, Game


def expand_deck(deck: Deck) -> list[Card]:
    """Every physical card of the deck: each card type repeated `copies` times, in file order."""
    return [card for card in deck.cards for _ in range(card.copies)]


def expand_ids(deck: Deck) -> list[str]:
    """The card ids of every physical card (what engines shuffle and deal)."""
    return [card.id for card in expand_deck(deck)]


def physical_cards(game: Game) -> dict[str, list[Card]]:
    """Deck id -> its physical cards, in print order."""
    return {deck_id: expand_deck(deck) for deck_id, deck in game.decks.items()}
