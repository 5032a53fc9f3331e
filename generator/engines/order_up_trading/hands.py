"""What one seat's hand allows, worked out once per hand: its offers, whether it is complete, what it does not need.

A hand changes only when its seat trades or a deal comes, but it is asked about several times in between (the bell
after a trade, then the bot, legal_actions() and apply() at the seat's turn); a `HandView` keeps the answers until
the hand or the recipe changes. The answers are bit-mask operations on the deck's tables (TradingDeck); the
card-by-card reading (`unwanted_cards`, `by_group`) is the reference, used as it is for what masks cannot describe
(a card twice in a hand, cards outside the listed food groups), and the two agree on every hand.
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
    """The answers about one hand (its cards in their order) and recipe.

    `mask`: the hand's bit mask (None when a card is there twice, which no game does); `unwanted`: the bit mask of
    the cards not needed for the recipe (None without a recipe or mask); `complete`: whether the hand holds exactly
    the recipe's names. The bots keep what they derive in `greedy` (see bots.py), legal_actions() its offers, `call`
    and `pass` in `legal`."""

    __slots__ = ("deck", "hand", "recipe", "mask", "unwanted", "complete", "greedy", "legal", "_groups", "_lists")

    def __init__(self, deck, hand: list[str], recipe: str | None):
        self.deck = deck
        self.hand = hand = list(hand)  # a copy: the view holds while the seat's hand still equals it
        self.recipe = recipe
        mask = sum(map(deck.bit.__getitem__, hand))
        self.mask = mask = mask if mask.bit_count() == len(hand) else None
        self.greedy = self.legal = self._groups = self._lists = None
        if recipe is None:
            self.unwanted, self.complete = None, False
        elif mask is None:
            self.unwanted = None
            self.complete = tuple(sorted(deck.name[c] for c in hand)) == deck.needs[recipe]
        else:
            useful = mask & deck.useful_mask[recipe]
            kept_of = deck.kept[recipe]
            kept = kept_of.get(useful)
            if kept is None:  # which useful cards are kept depends on the useful cards alone: worked out once
                kept = kept_of[useful] = useful ^ deck.mask(unwanted_cards(deck, deck.cards_of(useful), recipe))
            self.unwanted = unwanted = mask ^ kept
            # every card is kept (no name beyond its count in the recipe) and there are as many as the recipe lists
            self.complete = not unwanted and len(hand) == len(deck.needs[recipe])

    def offers(self) -> list:
        """Every offer of the hand, in legal_actions() order."""
        return self.deck.offers(self.hand, self.mask)

    def has_unwanted(self) -> bool:
        """Whether some card is not needed for the recipe."""
        return bool(self.unwanted if self.unwanted is not None else unwanted_cards(self.deck, self.hand, self.recipe))

    def unwanted_by_group(self) -> list[list[str]]:
        """The unwanted cards (unwanted_cards order) by food group, groups in order of their first card."""
        if self._lists is None:
            deck = self.deck
            if self.unwanted is None or not deck.groups_partition:
                self._lists = by_group(deck, unwanted_cards(deck, self.hand, self.recipe))
            else:
                icons = deck.icon_mask[self.recipe]
                self._lists = [list(deck.cards_of(cards & icons) + deck.cards_of(cards & ~icons))
                               for cards in self._unwanted_groups()]
        return self._lists

    def unwanted_offers(self) -> list[tuple[int, Action]]:
        """(size, offer) of each food group's unwanted cards, in unwanted_by_group order (the offers in deck order)."""
        deck = self.deck
        if self.unwanted is None or not deck.groups_partition:
            return [(len(g), new_action(Action, ("offer", tuple(sorted(g, key=deck.index.__getitem__)))))
                    for g in self.unwanted_by_group()]
        return [(cards.bit_count(), deck.offer(cards)) for cards in self._unwanted_groups()]

    def _unwanted_groups(self) -> list[int]:
        """The bit masks of the unwanted cards of each food group, groups in order of their first card."""
        if self._groups is None:
            deck, unwanted = self.deck, self.unwanted
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
            self._groups = [cards for _, cards in found]
        return self._groups
