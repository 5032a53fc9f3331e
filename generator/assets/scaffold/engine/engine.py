"""The rules engine of __TITLE_PY__, made by `pnp new __NAME__ --engine`: `pnp validate __NAME__` plays it.

This is Python of your project (game.yaml: `engine: {module: engine.py}`), run by `pnp validate`, `pnp replay`
and `pnp sweep` only; `pnp build` never runs it. The game it plays is the sample in rules.md.j2: shuffle the
action cards and deal `settings.hand_size` to each player (as many as the deck allows, the same for everyone);
on your turn play a card from your hand, score its `value` and draw a card; the first to `settings.target`
points wins at once, else the best score when every hand is empty. Change it as your rules change; the engine
API is in pnp's documentation (`pnp docs engine-api`).

The shape every engine has: a State (whose turn, what they may do, doing it, the score), bots that choose an
action, and an ENGINE that names them. Chance is asked for, never drawn here: the validator owns the random
numbers, so the same seed always plays the same game.
"""

from __future__ import annotations

from collections import Counter

from generator.engines.base import (
    CHANCE,
    TERMINAL,
    ChanceOutcome,
    ChanceRequest,
    Engine,
    IllegalAction,
    State,
)

DECK = "actions"  # the deck this engine plays (actions.yaml)


class GameState(State):
    """One game in progress: the draw pile, each player's hand and score, whose turn it is."""

    def __init__(self, game, players: int, options: dict):
        cards = game.decks[DECK].cards
        self.value = {card.id: card.value for card in cards}  # the `value` field of each card
        self.deck_items = tuple(card.id for card in cards for _ in range(card.copies))
        self.hand_size = game.setting("hand_size")
        self.target = options.get("target") or game.setting("target")
        self.players = players
        self.draw_pile: list[str] = list(self.deck_items)  # in file order until the setup shuffle
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.played: list[list[str]] = [[] for _ in range(players)]
        self.score = [0] * players
        self.seat = 0
        self.turns = 0
        self.shuffled = False
        self.ended_by = ""
        self.log: list[str] = []

    # -- whose turn, and what chance must decide
    # -------------------------------------------------------------------
    def current_player(self) -> int:
        if self.ended_by:
            return TERMINAL
        return self.seat if self.shuffled else CHANCE

    def chance_request(self) -> ChanceRequest:
        # the only chance event: the setup shuffle
        return ChanceRequest("shuffle", "deck", items=self.deck_items)

    # -- what a player may do, and doing it
    # ------------------------------------------------------------------------
    def legal_actions(self) -> list:
        return [f"play {card}" for card in sorted(set(self.hands[self.seat]))]

    def parse_action(self, text: str):
        words = text.split()
        if len(words) == 2 and words[0] == "play":
            return " ".join(words)
        raise IllegalAction(f"cannot read '{text}'; expected 'play CARD'")

    def apply(self, action) -> None:
        if isinstance(action, ChanceOutcome):
            self._deal(action)
            return
        if self.current_player() < 0:
            raise IllegalAction("no player acts now")
        if action not in self.legal_actions():
            raise IllegalAction(
                f"'{action}' is not allowed: you hold {', '.join(sorted(self.hands[self.seat]))}"
            )
        card = action.split()[1]
        hand = self.hands[self.seat]
        hand.remove(card)
        self.played[self.seat].append(card)
        self.score[self.seat] += self.value[card]
        self.log.append(f"Seat {self.seat} plays {card} and scores {self.value[card]}")
        if self.draw_pile:
            hand.append(self.draw_pile.pop(0))
        self.turns += 1
        if self.score[self.seat] >= self.target:
            self._end("target-score")
        elif not any(self.hands):
            self._end("hands-empty")
        else:
            self.seat = self._next_seat()

    # -- the score and what the validator checks
    # -------------------------------------------------------------------
    def scores(self) -> list[float]:
        return list(self.score)

    def winners(self) -> list[int]:
        best = max(self.score)
        return [seat for seat, score in enumerate(self.score) if score == best]

    def card_count(self) -> dict[str, int]:
        """Every card is somewhere, always: the validator fails a game where one appears or disappears."""
        held = sum(len(hand) for hand in self.hands) + sum(len(pile) for pile in self.played)
        return {DECK: len(self.draw_pile) + held}

    def snapshot(self) -> dict:
        """What a script's `expect:` can name (players.0.score, draw_pile, ...)."""
        return {
            "current_player": self.current_player(), "terminal": bool(self.ended_by), "scores": self.scores(),
            "draw_pile": len(self.draw_pile),
            "players": [{"hand": sorted(hand), "hand_size": len(hand), "score": score}
                        for hand, score in zip(self.hands, self.score, strict=True)],
        }

    def metrics(self) -> dict:
        """Figures of one game for the balance report (standard keys: `pnp docs engine-api`)."""
        return {"turns": self.turns, "rounds": -(-self.turns // self.players), "ended_by": self.ended_by,
                "card_usage": dict(sorted(Counter(card for pile in self.played for card in pile).items()))}

    # -- optional: a copy and a re-deal, which give the game a lookahead bot (`pnp replay --bots lookahead`,
    # `pnp validate --strength`)
    # ------------------------------------------------------------------------------------------------
    def clone(self) -> GameState:
        """A deep, independent copy: what changes during a game is copied, the card values are shared."""
        new = object.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.draw_pile, new.score, new.log = list(self.draw_pile), list(self.score), list(self.log)
        new.hands, new.played = [list(h) for h in self.hands], [list(p) for p in self.played]
        return new

    def redeal(self, seat: int, rng) -> None:
        """Deal anew what `seat` cannot see (the other hands and the draw pile), with the validator's rng."""
        others = [s for s in range(self.players) if s != seat]
        unseen = sorted(self.draw_pile + [card for s in others for card in self.hands[s]])
        rng.shuffle(unseen)
        for s in others:
            size = len(self.hands[s])
            self.hands[s], unseen = unseen[:size], unseen[size:]
        self.draw_pile = unseen

    # -- the rules' details
    # ----------------------------------------------------------------------------------------
    def _deal(self, outcome: ChanceOutcome) -> None:
        if self.shuffled or sorted(outcome.values) != sorted(self.deck_items):
            raise IllegalAction("the deck's shuffle must be a permutation of its cards, once")
        cards = list(outcome.values)
        # a short deck deals fewer, the same to everyone
        each = min(self.hand_size, len(cards) // self.players)
        for seat in range(self.players):
            self.hands[seat], cards = cards[:each], cards[each:]
        self.draw_pile = cards
        self.shuffled = True

    def _next_seat(self) -> int:
        for step in range(1, self.players + 1):  # a player with an empty hand is skipped
            seat = (self.seat + step) % self.players
            if self.hands[seat]:
                return seat
        return self.seat

    def _end(self, why: str) -> None:
        self.ended_by = why
        self.log.append(f"Game over ({why}): scores {self.score}")


def random_bot(state: GameState, rng):
    """Any card from the hand."""
    return rng.choice(state.legal_actions())


def greedy_bot(state: GameState, _rng):
    """The card worth the most points (the first in id order on a tie)."""
    return max(state.legal_actions(), key=lambda action: (state.value[action.split()[1]], action))


ENGINE = Engine(
    name="__NAME__",
    new_state=GameState,
    player_counts=(2, 3, 4),  # keep equal to game.yaml `players:`
    bots={"greedy": greedy_bot, "random": random_bot},
    options={"target": None},  # `pnp validate --option target=12` plays a variant; None: settings.target
    turn_cap=500,  # decisions before a game is called stalled
)
