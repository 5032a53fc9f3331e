"""The card facts the trading engine reads from the YAML (one entry per physical card), built once a game."""

from __future__ import annotations

from itertools import combinations

from generator.core.caching import per_game

from .actions import Action, new_action

RECIPES, INGREDIENTS, GROUPS = "recipes", "ingredients", "food-groups"
CACHED_OFFERS = 31  # offers of a colour holding kept for later hands: holdings of up to 5 cards
# bit masks whose cards are remembered: mostly one colour's cards, so far fewer in a game
CARDS_CACHE = 100_000
# (recipe, unwanted cards) whose greedy offers are remembered: about half the hands recur
GREEDY_CACHE = 50_000


class TradingDeck:
    """What the engine needs from the YAML, built once per loaded game: physical card ids and their
    properties.

    Read-only once built, so every game of a simulation shares it (`trading_deck`); only `offer_cache` grows,
    with values that depend on the cards alone."""

    def __init__(self, game):
        self.recipe_ids = [c.id for c in game.decks[RECIPES].cards]
        self.recipe_name = {c.id: c.name for c in game.decks[RECIPES].cards}
        self.needs = {c.id: tuple(sorted(c.ingredients)) for c in game.decks[RECIPES].cards}
        self.groups = [row.id for row in game.tables[GROUPS].rows]
        self.group_label = {row.id: row.name for row in game.tables[GROUPS].rows}
        self.cards: list[str] = []
        self.name, self.group, self.icon = {}, {}, {}
        for card in game.decks[INGREDIENTS].cards:
            for copy in range(1, card.copies + 1):
                cid = card.id if card.copies == 1 else f"{card.id}:{copy}"
                self.cards.append(cid)
                self.name[cid], self.group[cid], self.icon[cid] = card.ingredient, card.group, card.recipe
        self.index = {cid: i for i, cid in enumerate(self.cards)}
        self.sets = {rid: [c for c in self.cards if self.icon[c] == rid] for rid in self.recipe_ids}
        # Tables for the per-turn questions, so that each is a few integer operations: a card's bit in a
        # hand's bit
        # mask, the masks of the food groups and, per recipe, of its own-icon cards and of the cards it has a
        # use for.
        self.bit = {cid: 1 << i for i, cid in enumerate(self.cards)}
        self.group_masks = [self.mask(c for c in self.cards if self.group[c] == g) for g in self.groups]
        # the bots' grouping by colour works on masks only when every card is in exactly one listed food group
        self.groups_partition = len(set(self.groups)) == len(self.groups) and sum(
            self.group_masks
        ) == self.mask(self.cards)
        self.icon_mask = {rid: self.mask(self.sets[rid]) for rid in self.recipe_ids}
        self.useful_mask = {
            rid: self.mask(c for c in self.cards if self.name[c] in need) for rid, need in self.needs.items()
        }
        self.need_count = {rid: {n: need.count(n) for n in need} for rid, need in self.needs.items()}
        self.keep_order = {
            rid: {c: i + (0 if self.icon[c] == rid else len(self.cards)) for i, c in enumerate(self.cards)}
            for rid in self.recipe_ids
        }
        self.offer_cache: dict[int, list] = {}  # a colour holding's bit mask -> its offers
        # the bit mask of one colour's cards -> the offer of exactly those
        self.offer_of: dict[int, Action] = {}
        self.cards_cache: dict[int, tuple] = {}  # a bit mask -> its cards (up to CARDS_CACHE of them)
        self.give_cache: dict[tuple, tuple] = {}  # (an offer's cards, m) -> the gives of its split
        # recipe -> useful cards -> kept
        self.kept: dict[str, dict[int, int]] = {rid: {} for rid in self.recipe_ids}
        self.bundles: set[tuple] = set()  # the cards of every offer in offer_cache: one colour, in deck order
        self.requests: dict[tuple, object] = {}  # the offering seats -> their 'pairing' ChanceRequest
        # (bundle policy, recipe, bit mask of the unwanted cards) -> the offers a greedy seat chooses among
        # (bots.py)
        self.greedy: dict[tuple, list] = {}

    def __deepcopy__(self, memo):
        return self  # read-only game data: a copied state shares it

    def mask(self, cards) -> int:
        """The bit mask of distinct cards."""
        return sum(map(self.bit.__getitem__, cards))

    def cards_of(self, mask: int) -> tuple:
        """The cards of a bit mask, in deck order."""
        found = self.cards_cache.get(mask)
        if found is None:
            cards, rest, found = self.cards, mask, []
            while rest:
                low = rest & -rest
                found.append(cards[low.bit_length() - 1])
                rest ^= low
            found = tuple(found)
            if len(self.cards_cache) < CARDS_CACHE:
                self.cards_cache[mask] = found
        return found

    def offer(self, mask: int) -> Action:
        """The offer of exactly the cards of `mask` (one colour)."""
        action = self.offer_of.get(mask)
        if action is None:
            action = self.offer_of[mask] = new_action(Action, ("offer", self.cards_of(mask)))
        return action

    def offers(self, hand, mask: int | None) -> list:
        """Every `offer` of the hand (`mask`: its bit mask, None when a card is there twice) in
        legal_actions() order: by food group, then size, then deck order."""
        if mask is None:  # never in a game: group the cards one by one
            return self._offers_of_list(hand)
        actions = []
        cache = self.offer_cache
        for group_mask in self.group_masks:
            holding = mask & group_mask
            if holding:
                offers = cache.get(holding)
                if offers is None:  # the same colour holding recurs often; build its offers once
                    offers = self._combinations(self.cards_of(holding))
                    # bounded memory: 6-7 cards of one colour are rare and many
                    if len(offers) <= CACHED_OFFERS:
                        cache[holding] = offers
                        self.bundles.update(a.cards for a in offers)
                actions += offers
        return actions

    def gives(self, offer: tuple, m: int) -> tuple:
        """Every `give` of m of the offered cards (the split), in legal_actions() order."""
        gives = self.give_cache.get((offer, m))
        if gives is None:
            gives = self.give_cache[(offer, m)] = tuple(
                new_action(Action, ("give", cards)) for cards in combinations(offer, m)
            )
        return gives

    def _offers_of_list(self, hand) -> list:
        buckets: dict[str, list[str]] = {}
        for card in sorted(hand, key=self.index.__getitem__):
            buckets.setdefault(self.group[card], []).append(card)
        return [
            a
            for colour in self.groups
            if colour in buckets
            for a in self._combinations(tuple(buckets[colour]))
        ]

    @staticmethod
    def _combinations(same: tuple) -> list:
        return [
            new_action(Action, ("offer", cards))
            for size in range(1, len(same) + 1)
            for cards in combinations(same, size)
        ]


trading_deck = per_game(TradingDeck)
