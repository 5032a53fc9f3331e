"""Card backs: which back each card shows, and which cards share one drawn back.

A card shows its own `back:` layout, else its deck's `back:`, else the layout `<deck id>-back`. A back layout
sees `card` like a front does. A back whose layout never reads `card` looks the same for every card that uses
it, so it is drawn once (one Form XObject) and placed for every copy; a back that reads `card` is drawn per
card type. The deck's usual back keeps the form name suffix `B` it always had, so decks without card backs
print as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from jinja2 import meta
from jinja2.exceptions import TemplateSyntaxError

from generator.data.game import Card, Deck
from generator.faces.boxes import kind_of
from generator.faces.layout import Layout
from generator.faces.text import is_template

TEMPLATED_KEYS = ("fill", "stroke", "when")  # of every box; a kind's own are its `templated`


@dataclass(frozen=True)
class BackFace:
    """One drawn back of a deck: its form key, its layout, the card it shows (None: shared) and who uses
    it."""

    key: str
    layout: str
    card: Card | None
    cards: tuple[Card, ...]

    @property
    def shared(self) -> bool:
        """True when the back does not depend on the card (drawn once for all its cards)."""
        return self.card is None


def back_name(deck: Deck, card: Card | None) -> str:
    """The back layout a card shows (None: the deck's usual back)."""
    if card is not None and card.back:
        return card.back
    return deck.back or f"{deck.id}-back"


def layout_uses_card(layout: Layout, env) -> bool:
    """True when any template of the layout reads the variable `card`."""
    for box in layout.boxes:
        for key in kind_of(box).templated + TEMPLATED_KEYS:
            source = box.spec.get(key)
            if isinstance(source, str) and is_template(source):
                try:
                    if "card" in meta.find_undeclared_variables(env.parse(source)):
                        return True
                except TemplateSyntaxError:
                    continue  # reported with its box when the back is rendered
    return False


def group_backs(deck: Deck, uses_card: Callable[[Card], bool]) -> list[BackFace]:
    """The deck's drawn backs in card order: one per shared back layout, one per card whose back reads
    `card`."""
    default = back_name(deck, None)
    shared: dict[str, list[Card]] = {}
    faces: list[tuple[str, str, Card | None]] = []  # (key, layout, card), in order of first use
    for card in deck.cards:
        name = back_name(deck, card)
        if uses_card(card):
            faces.append((f"B{card.index:03d}", name, card))
            shared.setdefault(f"card:{card.id}", [card])
        else:
            if name not in shared:
                key = "B" if name == default else f"BL{sum(1 for k, *_ in faces if k.startswith('BL')) + 1}"
                faces.append((key, name, None))
                shared[name] = []
            shared[name].append(card)
    return [
        BackFace(key, layout, card, tuple(shared[f"card:{card.id}"] if card is not None else shared[layout]))
        for key, layout, card in faces
    ]
