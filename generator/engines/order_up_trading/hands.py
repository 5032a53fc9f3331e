"""What one seat's hand allows, worked out once per hand: its offers, whether it is complete, what it does not need.

A hand changes only when its seat trades or a deal comes, but it is asked about several times in between (the bell
after a trade, then the bot, legal_actions() and apply() at the seat's turn); a `HandView` keeps the answers until
the hand or the recipe changes. The answers are bit-mask operations on the deck's tables (TradingDeck), with the
card-by-card reading (`unwanted_cards`) as the reference: the two give the same answers for every hand.
"""

from __future__ import annotations

from generator.engines.order_up_trading.cards import Action, new_action


def unwanted_cards(deck, hand, recipe: str) -> list[str]:
    """The cards of `hand` not needed for `recipe`, own-icon cards first, each part in deck order; of two cards with
    a needed name the icon match is kept."""
    need = deck.need_count[recipe].copy()  # a name's count never goes below 0: get() is true while it is above
    name = deck.name
    unwanted = []
    for card in sorted(hand, key=deck.keep_order[recipe].__getitem__):
        wanted = name[card]
        if need.get(wanted):
            need[wanted] -= 1
        else:
            unwanted.append(card)
    return unwanted


def by_group(deck, cards) -> list[list[str]]:
    """The cards by food group, groups in order of their first card, each group's cards in the given order."""
    groups: dict[str, list[str]] = {}
    group = deck.group
    for card in cards:
        same = groups.get(group[card])
        if same is None:
            groups[group[card]] = [card]
        else:
            same.append(card)
    return list(groups.values())


class HandView:
    """The answers about one hand (its cards in their order) and recipe, each worked out when first asked."""

    __slots__ = ("deck", "hand", "recipe", "mask", "_unwanted", "_groups", "memo")

    def __init__(self, deck, hand: list[str], recipe: str | None):
        self.deck = deck
        self.hand = list(hand)  # a copy: the view holds while the seat's hand still equals it
        self.recipe = recipe
        mask = deck.mask(hand)
        self.mask = mask if mask.bit_count() == len(hand) else None  # None: a card twice (never in a game)
        self._unwanted: int | None = None
        self._groups: list[list[str]] | None = None
        self.memo: dict = {}  # what the bots derive from this hand (see bots.py)

    def fits(self, hand: list[str], recipe: str | None) -> bool:
        """Whether this view still describes the seat (same cards in the same order, same recipe)."""
        return self.hand == hand and self.recipe == recipe

    def offers(self) -> list:
        """Every offer of the hand, in legal_actions() order."""
        return self.deck.offers(self.hand, self.mask if self.mask is not None else -1)

    def unwanted_mask(self) -> int:
        """The bit mask of the cards not needed for the recipe (see unwanted_cards)."""
        if self._unwanted is None:
            deck, recipe, mask = self.deck, self.recipe, self.mask
            useful = mask & deck.useful_mask[recipe]
            kept = deck.kept.get((recipe, useful))
            if kept is None:  # which useful cards are kept depends on the useful cards alone: worked out once
                kept = deck.kept[(recipe, useful)] = useful ^ deck.mask(unwanted_cards(deck, deck.cards_of(useful), recipe))
            self._unwanted = mask ^ kept
        return self._unwanted

    def complete(self) -> bool:
        """Whether the hand holds exactly the names of the recipe."""
        if self.recipe is None:
            return False
        if self.mask is None:
            return tuple(sorted(self.deck.name[c] for c in self.hand)) == self.deck.needs[self.recipe]
        # every card is kept (no name beyond its count in the recipe) and there are as many as the recipe lists
        return not self.unwanted_mask() and len(self.hand) == len(self.deck.needs[self.recipe])

    def has_unwanted(self) -> bool:
        """Whether some card is not needed for the recipe."""
        return bool(self.unwanted_mask() if self.mask is not None else self.unwanted_by_group())

    def unwanted_by_group(self) -> list[list[str]]:
        """The unwanted cards (unwanted_cards order) by food group, groups in order of their first card."""
        if self._groups is None:
            deck = self.deck
            if self.mask is None or not deck.groups_partition:
                self._groups = by_group(deck, unwanted_cards(deck, self.hand, self.recipe))
            else:
                icons = deck.icon_mask[self.recipe]
                self._groups = [list(deck.cards_of(cards & icons) + deck.cards_of(cards & ~icons))
                                for cards in self._unwanted_groups()]
        return self._groups

    def _unwanted_groups(self) -> list[int]:
        """The bit masks of the unwanted cards of each food group, groups in order of their first card."""
        deck = self.deck
        unwanted = self.unwanted_mask()
        icons, shift = unwanted & deck.icon_mask[self.recipe], len(deck.cards)
        found = []
        for group_mask in deck.group_masks:
            cards = unwanted & group_mask
            if cards:
                # a group's first card in unwanted_cards order: its first own-icon card, else its first card
                first = cards & icons
                found.append(((first & -first) if first else (cards & -cards) << shift, cards))
        if len(found) > 1:
            found.sort()
        return [cards for _, cards in found]

    def unwanted_offers(self) -> list[tuple[int, object]]:
        """(size, offer) of each food group's unwanted cards, in unwanted_by_group order (the offers in deck order)."""
        deck = self.deck
        if self.mask is None or not deck.groups_partition:
            return [(len(g), new_action(Action, ("offer", tuple(sorted(g, key=deck.index.__getitem__)))))
                    for g in self.unwanted_by_group()]
        return [(cards.bit_count(), deck.offer(cards)) for cards in self._unwanted_groups()]
