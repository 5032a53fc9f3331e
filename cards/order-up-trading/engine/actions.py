"""The trading game's actions: what they are, what a seat's hand allows, the legal actions and applying them.

What one seat's hand allows (its offers, whether it is complete, what it does not need) is worked out once per
hand. A hand changes only when its seat trades or a deal comes, but it is asked about several times in between
(the bell after a trade, then the bot, legal_actions() and apply() at the seat's turn); a `HandView` keeps the
answers until the hand or the recipe changes. The answers are bit-mask operations on the deck's tables
(TradingDeck); the card-by-card reading (`unwanted_cards`, `by_group`) is the reference, used as it is for
what masks cannot describe (a card twice in a hand, cards outside the listed food groups), and the two agree
on every hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from generator.engines.base import IllegalAction

if TYPE_CHECKING:
    from .state import TradingState


class Action(NamedTuple):
    """`offer <cards>`, `give <cards>` (the split), `call` (Order up!) or `pass`; cards in deck order."""

    kind: str
    cards: tuple = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.cards))


CALL, PASS = Action("call"), Action("pass")
# builds an Action without NamedTuple's Python-level __new__ (legal_actions is hot)
new_action = tuple.__new__


def unwanted_cards(deck, hand, recipe: str) -> list[str]:
    """The cards of `hand` not needed for `recipe`, own-icon cards first, each part in deck order; of two
    cards with a needed name the icon match is kept."""
    # a name's count never goes below 0: get() is true while it is above
    need = deck.need_count[recipe].copy()
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

    `mask`: the hand's bit mask (None when a card is there twice, which no game does); `unwanted`: the bit
    mask of the cards not needed for the recipe (None without a recipe or mask); `complete`: whether the hand
    holds exactly the recipe's names. The bots keep what they derive in `greedy` (see bots.py),
    legal_actions() its offers, `call` and `pass` in `legal`."""

    __slots__ = (
        "deck",
        "hand",
        "recipe",
        "mask",
        "unwanted",
        "complete",
        "greedy",
        "legal",
        "_groups",
        "_lists",
    )

    def __init__(self, deck, hand: list[str], recipe: str | None):
        self.deck = deck
        self.hand = hand = list(hand)  # a copy: the view holds while the seat's hand still equals it
        self.recipe = recipe
        mask = sum(map(deck.bit.__getitem__, hand))
        self.mask = mask = mask if mask.bit_count() == len(hand) else None
        self.greedy: list[Action] | None = None
        self.legal: list[Action] | None = None
        self._groups: list[int] | None = None
        self._lists: list[list[str]] | None = None
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
                kept = kept_of[useful] = useful ^ deck.mask(
                    unwanted_cards(deck, deck.cards_of(useful), recipe)
                )
            self.unwanted = unwanted = mask ^ kept
            # every card is kept (no name beyond its count in the recipe) and there are as many as the recipe
            # lists
            self.complete = not unwanted and len(hand) == len(deck.needs[recipe])

    def offers(self) -> list:
        """Every offer of the hand, in legal_actions() order."""
        return self.deck.offers(self.hand, self.mask)

    def has_unwanted(self) -> bool:
        """Whether some card is not needed for the recipe."""
        return bool(
            self.unwanted if self.unwanted is not None else unwanted_cards(self.deck, self.hand, self.recipe)
        )

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
        """(size, offer) of each food group's unwanted cards, in unwanted_by_group order (the offers in deck
        order)."""
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
                    # a group's first card in unwanted_cards order: its first own-icon card, else its first
                    # card
                    first = cards & icons
                    found.append(((first & -first) if first else (cards & -cards) << shift, cards))
            if len(found) > 1:
                found.sort()
            self._groups = [cards for _, cards in found]
        return self._groups


# ---- legal actions and applying them -----------------------------------------------------------------------


def legal_actions(state: TradingState) -> list[Action]:
    """Every legal action, in a fixed order; an offering seat's list is shared while its hand holds (do not
    change it)."""
    if state.phase == "split":
        seat, m = state.split
        return list(state.deck.gives(state.offers[seat], m))
    if state.phase != "offers":
        return []
    view = state.hand_view((state.dealer + 1 + state.turn) % state.k)
    legal = view.legal
    if legal is None:  # the same for every turn the seat keeps this hand: made once per hand
        legal = view.legal = state.deck.offers(view.hand, view.mask)
        legal += (CALL, PASS)
    return legal


def parse_action(state: TradingState, text: str) -> Action:
    """The action a script writes as `text`; IllegalAction for an unknown verb or card."""
    kind, *cards = text.split()
    if kind in ("call", "pass") and not cards:
        return CALL if kind == "call" else PASS
    if kind not in ("offer", "give") or not cards:
        raise IllegalAction(
            f"unknown action '{text}'; expected 'offer <card ids>', 'give <card ids>', 'call' or 'pass'"
        )
    for card in cards:
        if card not in state.deck.index:
            raise IllegalAction(f"unknown card '{card}' in '{text}'")
    return Action(kind, state.canonical(cards))


def apply_offer(state: TradingState, action) -> None:
    """The seat at turn offers a bundle, calls Order up! or passes; the tick's trades follow its last turn."""
    seat = (state.dealer + 1 + state.turn) % state.k
    if not isinstance(action, Action) or action.kind not in ("offer", "call", "pass"):
        raise IllegalAction(f"'{action}' is not possible now; expected offer <cards>, call or pass")
    if action.kind == "offer":
        cards = action.cards
        # an offer legal_actions() listed (one colour, in deck order) only needs its cards in hand; any other
        # bundle gets every check and its reason
        if cards in state.deck.bundles:
            hand = state.hands[seat]
            for card in cards:
                if card not in hand:
                    check_bundle(state, seat, cards)  # raises, naming the card
        else:
            check_bundle(state, seat, cards)
        state.offers[seat] = cards
    elif action.kind == "call":
        if state.complete(seat):
            state.log.append(f"seat {seat} calls Order up! with a complete {state.recipe_of[seat]}")
            state.end_round(seat)
            return
        state.round_false[seat] += 1
        state.log.append(f"seat {seat} calls Order up! without a complete recipe: false call")
    state.turn += 1
    if state.turn == state.k:
        state.end_offers()


def check_bundle(state: TradingState, seat: int, cards: tuple) -> None:
    """IllegalAction unless `cards` are distinct cards of the seat's hand, all of one food group."""
    if not cards:
        raise IllegalAction("an offer needs at least one card")
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise IllegalAction(f"card {card} is not in seat {seat}'s hand")
    if len(set(cards)) != len(cards):
        raise IllegalAction("a card can be offered only once")
    groups = {state.deck.group[c] for c in cards}
    if len(groups) > 1:
        shown = ", ".join(f"{c} ({state.deck.group_label[state.deck.group[c]]})" for c in cards)
        raise IllegalAction(f"forbidden trade: a bundle must be one food group colour; got {shown}")


def apply_give(state: TradingState, action) -> None:
    """The larger offerer of a pair chooses which m of its offered cards it gives (the split rule)."""
    seat, m = state.split
    if not isinstance(action, Action) or action.kind != "give":
        raise IllegalAction(f"seat {seat} must choose which {m} of its offered cards to give: give <cards>")
    cards = action.cards
    if len(cards) != m or len(set(cards)) != m or not set(cards) <= set(state.offers[seat]):
        raise IllegalAction(
            f"seat {seat} must give {m} of its offered cards ({' '.join(state.offers[seat])})"
        )
    state.offers[seat] = tuple(cards)
    state.split = None
    state.trade_pairs()
