"""The trading engine: simultaneous blind trades modelled as ticks (games.md B.2), rounds, scoring and the set
swap.

One tick: every player, starting left of the dealer, chooses an `offer` (a bundle of 1+ cards of one food
group), `call` (shouts Order up!) or `pass`. Chance 'pairing' shuffles the offering seats (only asked with 3+
offers) and pairs them off in that order; each pair trades m = min(n_a, n_b) cards. When the bundles differ in
size the larger offerer chooses which m of its bundle to give (action `give`, the split rule). Then the
players whose hands now hold their recipe ring the bell; when several do, chance 'bell' picks who rang first.
A `call` with an incomplete hand is a false call: -5 at scoring, play goes on.
"""

from __future__ import annotations

from typing import Any

from generator.engines.base import (
    CHANCE,
    TERMINAL,
    ChanceOutcome,
    ChanceRequest,
    GameLog,
    IllegalAction,
    State,
)
from generator.engines.common import check_known_options, check_outcome, option_or_setting

from .actions import (
    Action,
    HandView,
    apply_give,
    apply_offer,
    legal_actions,
    parse_action,
)
from .data import INGREDIENTS, RECIPES, trading_deck
from .options import OPTIONS

REDEAL_TRIES = 10  # deals redeal() tries before keeping one that hands another player a complete hand
DEALT = frozenset(("offers", "split", "pairing", "bell"))  # phases in which every seat holds a full hand


def _traded(tick: int, a: int, give_a: tuple, b: int, give_b: tuple) -> str:
    """A trade's log line."""
    return f"tick {tick}: seat {a} gives {' '.join(give_a)} <-> seat {b} gives {' '.join(give_b)}"


class TradingState(State):
    """One game of Order Up for 3-6 players."""

    def __init__(self, game, players: int, options: dict | None = None):
        options = {**OPTIONS, **(options or {})}
        check_known_options(options, OPTIONS)
        deck = trading_deck(game)
        if not 3 <= players <= len(deck.recipe_ids):
            raise ValueError(f"{players} players; expected 3-{len(deck.recipe_ids)}")
        if options["bundle_policy"] not in ("largest", "random"):
            raise ValueError(f"bundle_policy {options['bundle_policy']!r}; expected largest or random")
        self.deck, self.k, self.options = deck, players, options
        settings = game.config.settings
        self.hand_size = int(game.setting("hand", 7))
        self.win_points = int(game.setting("win_points", 10))
        self.icon_point = int(game.setting("icon_point", 1))
        self.false_call = int(game.setting("false_call", -5))
        self.target = int(option_or_setting(options, settings, "target", 50))
        self.max_ticks = int(option_or_setting(options, settings, "max_ticks", 400))
        self.max_rounds = int(option_or_setting(options, settings, "max_rounds", 40))
        self.log = GameLog()  # the lines of trades are made only when read
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.recipe_of: list[str | None] = [None] * players
        self.score = [0] * players
        self.in_play: list[str] = []
        self.side: dict[str, list[str]] = {}  # recipe id -> the 7 cards set aside with it
        self.box: list[str] = list(deck.cards)  # cards not yet sorted into sets (before the set selection)
        self.pool: list[str] = []  # cards gathered for the next deal
        self.dealer = -1
        self.round = 0
        self.tick = 0
        self.total_ticks = 0
        self.offers: list[tuple | None] = [None] * players
        self.turn = 0  # position in the tick's turn order (left of the dealer first)
        self.pairs: list[tuple[int, int]] = []
        self.split: tuple[int, int] | None = None  # (seat that must choose, m)
        self.ringing: list[int] = []  # complete players racing for the bell
        self.round_false = [0] * players
        self.round_trades = 0
        self.history: list[dict] = []
        self.tie_rounds = 0  # rounds that ended with the lead tied at or above the target
        self.card_usage = dict.fromkeys(deck.cards, 0)
        self.last_trades: list[tuple] = []  # this tick's trades: (seat a, seat b, cards a gave, cards b gave)
        self.ended_by = ""
        self._winners: list[int] = []
        self._setup_problems: list[str] = []
        self._views: list[HandView | None] = [None] * players  # per seat, until its hand or recipe changes
        # card_count() and the hand sizes, counted again after the cards move (a deal, a trade, a swap of
        # sets)
        self._counted: dict[str, int] | None = None
        self._short_hands: list[str] | None = None
        self._request: ChanceRequest | None = None  # the pending chance request, asked once per chance event
        if players == len(deck.recipe_ids):  # all sets are used; no selection (rulebook: "start at step 2")
            self._select_sets(list(range(players)))
        self.phase = "sets" if players < len(deck.recipe_ids) else "dealer"

    # ---- the State API
    # -------------------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase == "offers":
            return (self.dealer + 1 + self.turn) % self.k
        if self.phase == "split":
            return self.split[0]
        return TERMINAL if self.phase == "over" else CHANCE

    def chance_request(self) -> ChanceRequest:
        if self._request is None:
            self._request = self._next_request()
        return self._request

    def _next_request(self) -> ChanceRequest:
        phase = self.phase
        if phase == "sets":
            return ChanceRequest("pick", "sets", n=len(self.deck.recipe_ids), count=self.k)
        # every tick with 3+ offers: the few possible requests are made once per game data
        if phase == "pairing":
            offering = tuple(p for p in range(self.k) if self.offers[p] is not None)
            request = self.deck.requests.get(offering)
            if request is None:
                request = self.deck.requests[offering] = ChanceRequest("shuffle", "pairing", items=offering)
            return request
        if phase == "dealer":
            return ChanceRequest("pick", "dealer", n=self.k, count=1)
        if phase == "side":
            return ChanceRequest("pick", "side", n=len(self.side), count=1)
        if phase == "ingredients-deal":
            return ChanceRequest("shuffle", "ingredients-deal", items=tuple(self.pool))
        if phase == "recipes-deal":
            return ChanceRequest("shuffle", "recipes-deal", items=tuple(self.in_play))
        if phase == "bell":
            return ChanceRequest("pick", "bell", n=len(self.ringing), count=1)
        raise IllegalAction(f"no chance event now (phase {phase})")

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order (see actions.legal_actions)."""
        return legal_actions(self)

    def hand_view(self, seat: int) -> HandView:
        """What the seat's hand allows (offers, complete, unwanted cards), worked out once per hand and
        recipe."""
        view = self._views[seat]
        hand = self.hands[seat]
        if view is not None and view.hand == hand and view.recipe == self.recipe_of[seat]:
            return view
        view = self._views[seat] = HandView(self.deck, hand, self.recipe_of[seat])
        return view

    def parse_action(self, text: str) -> Action:
        return parse_action(self, text)

    def canonical(self, cards) -> tuple:
        """The cards in deck order (how actions name them)."""
        return tuple(sorted(cards, key=self.deck.index.__getitem__))

    def apply(self, action) -> None:
        if isinstance(action, ChanceOutcome):
            self._apply_chance(action)
        elif self.phase == "offers":
            apply_offer(self, action)
        elif self.phase == "split":
            apply_give(self, action)
        elif self.phase == "over":
            raise IllegalAction("the game is over")
        else:
            raise IllegalAction(f"chance decides now ('{self.chance_request().label}'), not a player")

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_count(self) -> dict[str, int]:
        # asked after every action, but only a deal, a trade or a swap of sets moves cards: counted again
        # after those
        if self._counted is None:
            cards = (
                len(self.box) + len(self.pool) + sum(map(len, self.hands)) + sum(map(len, self.side.values()))
            )
            recipes = (
                len(self.in_play) + len(self.side) if self.phase != "sets" else len(self.deck.recipe_ids)
            )
            self._counted = {INGREDIENTS: cards, RECIPES: recipes}
        # the same dict while no card moved (the harness then compares no further); never changed
        return self._counted

    def invariant_problems(self) -> list[str]:
        if self.phase not in DEALT:
            return list(self._setup_problems)
        if self._short_hands is None:  # counted again after cards move, like card_count()
            self._short_hands = [f"seat {p} holds {len(h)} cards; expected {self.hand_size}"
                                 for p, h in enumerate(self.hands) if len(h) != self.hand_size]
        return self._setup_problems + self._short_hands

    def _cards_moved(self) -> None:
        """Every change to a hand, the pool, the box or the sets calls this: the checks count the cards
        again."""
        self._counted = self._short_hands = None

    # ---- chance
    # --------------------------------------------------------------------------------------------------

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        if self.phase == "over":
            raise IllegalAction("the game is over")
        request = self.chance_request() if self.phase not in ("offers", "split") else None
        if request is None:
            raise IllegalAction(f"a player decides now (seat {self.current_player()}), not chance")
        values = check_outcome(request, outcome)
        self._request = None
        self._cards_moved()
        CHANCE_HANDLERS[request.label](self, values)

    def _select_sets(self, indices) -> None:
        self._cards_moved()
        ids = self.deck.recipe_ids
        self.in_play = [ids[i] for i in sorted(indices)]
        self.side = {r: list(self.deck.sets[r]) for r in ids if r not in self.in_play}
        self.pool = [c for c in self.box if self.deck.icon[c] in self.in_play]
        self.box = []
        self._check_setup()

    def _chance_sets(self, values) -> None:
        self._select_sets(values)
        self.log.append(f"sets in play: {', '.join(self.in_play)}; aside: {', '.join(self.side) or '-'}")
        self.phase = "dealer"

    def _chance_dealer(self, values) -> None:
        self.dealer = values[0]
        self.log.append(f"dealer: seat {self.dealer}")
        self.phase = "ingredients-deal"

    def _chance_side(self, values) -> None:
        winner = self.history[-1]["winner"]
        gone, incoming = self.recipe_of[winner], list(self.side)[values[0]]
        # the winner's recipe goes aside with exactly the cards it was won with; the side set joins the rest
        self.side[gone] = list(self.canonical(self.hands[winner]))
        self.hands[winner] = []
        self.in_play = [r for r in self.deck.recipe_ids if (r in self.in_play and r != gone) or r == incoming]
        self.pool = self.side.pop(incoming)
        self.side = {r: self.side[r] for r in self.deck.recipe_ids if r in self.side}
        self.log.append(f"swap: {gone} set aside with seat {winner}'s winning hand; {incoming} set comes in")
        self._collect_hands()
        self._check_setup()
        self.phase = "ingredients-deal"

    def _collect_hands(self) -> None:
        self._cards_moved()
        self.pool = list(self.canonical(self.pool + [c for h in self.hands for c in h]))
        self.hands = [[] for _ in range(self.k)]
        self.recipe_of = [None] * self.k

    def _chance_ingredients_deal(self, values) -> None:
        # dealt in blocks of 7 starting left of the dealer (the same distribution as dealing one at a time)
        order = list(values)
        for i in range(self.k):
            self.hands[(self.dealer + 1 + i) % self.k] = order[i * self.hand_size:(i + 1) * self.hand_size]
        self.pool = []
        self.phase = "recipes-deal"

    def _chance_recipes_deal(self, values) -> None:
        for i, recipe in enumerate(values):
            self.recipe_of[(self.dealer + 1 + i) % self.k] = recipe
        self.round += 1
        self.tick = 1
        self.round_false = [0] * self.k
        self.round_trades = 0
        self.last_trades = []
        self.log.append(
            f"round {self.round}: recipes " + ", ".join(f"{p}={r}" for p, r in enumerate(self.recipe_of))
        )
        self._ring([p for p in range(self.k) if self.complete(p)])  # a hand can be dealt complete

    def _chance_pairing(self, values) -> None:
        self.pairs = [(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
        self.trade_pairs()

    def _chance_bell(self, values) -> None:
        self.end_round(self.ringing[values[0]])

    # ---- the tick: offers, trades, the bell ----------------------------------------------------------------

    def complete(self, seat: int) -> bool:
        """Whether the seat's hand holds exactly the names of its recipe."""
        return self.hand_view(seat).complete

    def end_offers(self) -> None:
        """After every seat's turn of the tick: chance pairs 3+ offering seats, else the trades are made."""
        self.last_trades = []
        offering = [p for p in range(self.k) if self.offers[p] is not None]
        if len(offering) >= 3:
            self.phase = "pairing"
            return
        self.pairs = [tuple(offering)] if len(offering) == 2 else []
        self.trade_pairs()

    def trade_pairs(self) -> None:
        """Make the tick's trades pair by pair, stopping at a split for its larger offerer to choose."""
        self.phase = "trading"
        while self.pairs:
            a, b = self.pairs[0]
            na, nb = len(self.offers[a]), len(self.offers[b])
            if na != nb:
                self.split = (a, nb) if na > nb else (b, na)
                self.phase = "split"
                return
            self.pairs.pop(0)
            self._swap(a, b)
        self._end_tick()

    def _swap(self, a: int, b: int) -> None:
        self._counted = self._short_hands = None  # _cards_moved(), inline: a tick has a few trades
        give_a, give_b = self.offers[a], self.offers[b]
        hand_a, hand_b = self.hands[a], self.hands[b]
        for card in give_a:
            hand_a.remove(card)
            self.card_usage[card] += 1
        for card in give_b:
            hand_b.remove(card)
            self.card_usage[card] += 1
        hand_a.extend(give_b)
        hand_b.extend(give_a)
        self.round_trades += 1
        self.last_trades.append((a, b, give_a, give_b))
        self.log.append((_traded, self.tick, a, give_a, b, give_b))

    def _end_tick(self) -> None:
        traded = sorted([p for a, b, _, _ in self.last_trades for p in (a, b)])  # a seat trades once per tick
        self.total_ticks += 1
        ringing = [p for p in traded if self.hand_view(p).complete]
        if ringing:
            self._ring(ringing)
            return
        self.tick += 1
        if self.tick > self.max_ticks:
            self._finish("tick-cap")
        else:
            self._start_tick()

    def _start_tick(self) -> None:
        self.phase = "offers"
        self.turn = 0
        self.offers = [None] * self.k

    def _ring(self, ringing: list[int]) -> None:
        if len(ringing) == 1:
            self.end_round(ringing[0])
        elif ringing:
            self.ringing = ringing
            self.phase = "bell"
        else:
            self._start_tick()

    # ---- rounds
    # --------------------------------------------------------------------------------------------------

    def end_round(self, winner: int) -> None:
        """Score the round `winner` won; the game ends, or the next round is set up."""
        points = []
        for p in range(self.k):
            icons = sum(1 for c in self.hands[p] if self.deck.icon[c] == self.recipe_of[p])
            points.append(
                self.icon_point * icons
                + self.false_call * self.round_false[p]
                + (self.win_points if p == winner else 0)
            )
        self.score = [s + d for s, d in zip(self.score, points, strict=True)]
        self.history.append(
            {
                "round": self.round,
                "dealer": self.dealer,
                "winner": winner,
                "recipe": self.recipe_of[winner],
                "in_play": list(self.in_play),
                "ticks": self.tick,
                "trades": self.round_trades,
                "false_calls": list(self.round_false),
                "points": points,
            }
        )
        self.log.append(
            f"round {self.round}: seat {winner} wins with {self.recipe_of[winner]}; points {points}; scores "
            f"{self.score}"
        )
        lead = max(self.score)
        if lead >= self.target and self.score.count(lead) > 1:
            self.tie_rounds += 1
        if lead >= self.target and self.score.count(lead) == 1:
            self._finish("target-score")
        elif self.round >= self.max_rounds:
            self._finish("round-cap")
        else:
            if lead >= self.target:
                self.log.append(f"tie at {lead}: another round")
            self.dealer = winner  # the winner deals the next round
            self.ringing, self.offers, self.pairs = [], [None] * self.k, []
            if self.side:
                self.phase = "side"
            else:
                self._collect_hands()
                self._check_setup()
                self.phase = "ingredients-deal"

    def _check_setup(self) -> None:
        """B.3 invariant 2 at every deal: the names in play are exactly what the in-play recipes need."""
        have = sorted(map(self.deck.name.__getitem__, self.pool))
        need = sorted(n for r in self.in_play for n in self.deck.needs[r])
        self._setup_problems = (
            []
            if have == need
            else [f"round {self.round + 1}: cards in play do not fit the recipes {self.in_play}"]
        )

    def _finish(self, reason: str) -> None:
        self.phase = "over"
        self.ended_by = reason
        lead = max(self.score)
        self._winners = [p for p in range(self.k) if self.score[p] == lead]
        self.log.append(f"game over ({reason}): scores {self.score}, winners {self._winners}")

    # ---- lookahead: a copy, and the hidden cards dealt anew ----------------------------------------------

    def clone(self) -> TradingState:
        """A deep, independent copy; the deck data and the options (read only) stay shared."""
        new = object.__new__(TradingState)
        new.__dict__.update(self.__dict__)
        new.log = GameLog(self.log)
        new.hands = [list(hand) for hand in self.hands]
        new.recipe_of, new.score, new.in_play = list(self.recipe_of), list(self.score), list(self.in_play)
        new.side = {r: list(cards) for r, cards in self.side.items()}
        new.box, new.pool, new.offers, new.pairs = list(self.box), list(self.pool), list(self.offers), list(
            self.pairs)
        new.ringing, new.round_false, new.history = list(self.ringing), list(self.round_false), list(
            self.history)
        new.card_usage, new.last_trades = dict(self.card_usage), list(self.last_trades)
        new._winners, new._views = list(self._winners), list(self._views)
        return new

    def redeal(self, seat: int, rng) -> None:
        """Deal anew what `seat` cannot see: the other players' cards (each keeps its hand size and the
        cards of an offer it has made this tick) and which of them holds which of the other recipes. Its own
        hand and recipe, the scores and the sets aside stay. A deal that would give another player a complete
        hand mid-round (it would have rung the bell) is dealt again, a few times at most."""
        others = [p for p in range(self.k) if p != seat and self.hands[p]]
        # seats that traded this tick (in a split or at the bell) hold their offers no more
        traded = {p for a, b, _, _ in self.last_trades for p in (a, b)} if self.phase in ("split", "bell") \
            else set()
        kept = [list(self.offers[p] or ()) if p not in traded else [] for p in range(self.k)]
        loose: list[list[str]] = []
        for p in range(self.k):
            hand = list(self.hands[p])
            for card in kept[p]:
                hand.remove(card)
            loose.append(hand)
        unseen = sorted(card for p in others for card in loose[p])
        recipes = sorted(self.recipe_of[p] for p in others if self.recipe_of[p] is not None)
        dealt = [p for p in others if self.recipe_of[p] is not None]
        for _ in range(REDEAL_TRIES):
            rng.shuffle(unseen)
            rng.shuffle(recipes)
            at = 0
            for p in others:
                self.hands[p] = kept[p] + unseen[at:at + len(loose[p])]
                at += len(loose[p])
            for p, recipe in zip(dealt, recipes, strict=True):
                self.recipe_of[p] = recipe
            self._views = [None] * self.k
            if self.phase not in ("offers", "split") or not any(self.complete(p) for p in dealt):
                break
        self._cards_moved()

    # ---- what the game shows -------------------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, Any]:
        """What the seat may know: its own cards and recipe, the scores and only the sizes of others'
        offers."""
        return {
            "hand": list(self.hands[seat]),
            "recipe": self.recipe_of[seat],
            "scores": list(self.score),
            "offer": self.offers[seat],
            "offer_sizes": [len(o) if o is not None else 0 for o in self.offers],
            "split": self.split[1] if self.split and self.split[0] == seat else None,
        }

    def snapshot(self) -> dict[str, Any]:
        snap = {
            "current_player": self.current_player(),
            "terminal": self.phase == "over",
            "scores": list(self.score),
            "phase": self.phase,
            "round": self.round,
            "tick": self.tick,
            "dealer": self.dealer,
            "in_play": list(self.in_play),
            "side": list(self.side),
            "side_sets": {r: list(self.canonical(c)) for r, c in self.side.items()},
            "players": [
                {
                    "hand": list(self.canonical(self.hands[p])),
                    "recipe": self.recipe_of[p],
                    "score": self.score[p],
                    "offer": list(self.offers[p]) if self.offers[p] is not None else None,
                    "false_calls": self.round_false[p],
                    "complete": self.complete(p),
                }
                for p in range(self.k)
            ],
            "trades": [
                {"seats": [a, b], "gave": [list(give_a), list(give_b)]}
                for a, b, give_a, give_b in self.last_trades
            ],
            "split": list(self.split) if self.split else None,
            "history": [dict(h) for h in self.history],
            "ended_by": self.ended_by,
            "tie_rounds": self.tie_rounds,
        }
        if self.phase == "over":
            snap["winners"] = self.winners()
        return snap

    def metrics(self) -> dict[str, Any]:
        return {
            "rounds": len(self.history),
            "turns": self.total_ticks,
            "ended_by": self.ended_by,
            "completed_goals": [h["recipe"] for h in self.history],
            "card_usage": dict(self.card_usage),
            "dealt_goals": [r for h in self.history for r in h["in_play"]],
            # turns of a tick go round from the left of the dealer; the first dealer is drawn at random
            "turn_order": [(self.history[0]["dealer"] + 1 + i) % self.k for i in range(self.k)]
            if self.history
            else list(range(self.k)),
            "extra": {
                "trades_per_round": [h["trades"] for h in self.history],
                "ticks_per_round": [h["ticks"] for h in self.history],
                "false_calls": sum(sum(h["false_calls"]) for h in self.history),
                "winner_recipe": [h["recipe"] for h in self.history],
                "winner_seat": [h["winner"] for h in self.history],
                "dealer": [h["dealer"] for h in self.history],
                "winner_was_dealer": sum(1 for h in self.history if h["winner"] == h["dealer"]),
                "recipes_in_play": [h["in_play"] for h in self.history],
                "tie_rounds": self.tie_rounds,
            },
        }


# chance event label -> what its outcome does to the state
CHANCE_HANDLERS = {
    "sets": TradingState._chance_sets,
    "dealer": TradingState._chance_dealer,
    "side": TradingState._chance_side,
    "ingredients-deal": TradingState._chance_ingredients_deal,
    "recipes-deal": TradingState._chance_recipes_deal,
    "pairing": TradingState._chance_pairing,
    "bell": TradingState._chance_bell,
}
