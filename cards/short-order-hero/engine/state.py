"""The Short Order Hero game state (games.md C.2/C.4): setup, chance, drawing, turns, the tracker, scoring and
what the game shows (actions.py: the legal actions and what each does)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
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
    Cooks,
    apply_action,
    cooks_for,
    legal_actions,
    parse_action,
)
from .data import Cooked, Rules
from .options import BUILT_IN, OPTIONS, hand_limit_of


def _said(seat: int, action: Action) -> str:
    """An action's log line."""
    return f"seat {seat}: {action}"


class SOHState(State):
    """One game of Short Order Hero."""

    def __init__(self, rules: Rules, players: int, options: dict):
        self.r = rules
        self.n = players
        settings = rules.settings
        check_known_options(options, OPTIONS)

        def resolve_option(name: str):
            return option_or_setting(options, settings, name, BUILT_IN[name])

        self.display_size = int(settings.get("display", 5))
        self.start_hand = int(settings.get("start_hand", 7))
        self.floor = int(settings.get("sabotage_floor", 0))
        self.floor_mode = str(resolve_option("floor_mode"))
        if self.floor_mode not in ("end", "clamp"):
            raise ValueError(f"floor_mode '{self.floor_mode}'; expected end or clamp")
        self.trigger_count = int(resolve_option("fifth_recipe_trigger"))
        self.hand_limit = hand_limit_of(resolve_option("hand_limit"))
        self.use_tracker = bool(resolve_option("use_tracker"))
        self.track: tuple[str, ...] = ()
        if self.use_tracker:
            if players not in rules.tracks:
                raise ValueError(f"the round tracker has no start space for {players} players")
            self.track = rules.tracks[players]
        self.log = GameLog()
        self.hands: list[dict[str, int]] = [{} for _ in range(players)]
        self.completed: list[list[Cooked]] = [[] for _ in range(players)]
        self.owner: dict[str, int] = {}
        # every card starts in its (not yet shuffled) deck, so card counts hold from the first moment
        self.pile: list[str] = list(reversed(rules.ingredient_cards))  # ingredients draw pile, top = last
        self.discard: list[str] = []
        self.recipe_deck: list[str] = list(reversed(rules.recipe_cards))  # top = last
        self.display: list[str | None] = [None] * self.display_size
        self.first = 0
        self.cur = 0
        self.phase = "setup"
        self.acted = False
        self.discard_used = False
        self.discarding = 0
        self.marker = 0
        self.turns = 0
        self.rounds = 0
        self.trigger: str | None = None
        self.ended_by: str | None = None
        self._winners: list[int] = []
        self.pending_chance: ChanceRequest | None = None
        self.victim = -1  # the seat a steal takes cards from, while chance picks them
        # (seat, cards still to draw, what comes after the draw)
        self._pending_draw: tuple[int, int, Callable[[], None]] | None = None
        self._version = 0  # bumped by every apply(); keys the legal-action cache
        self._legal: tuple[int, list[Action]] | None = None
        # the last card_count(), reused while equal
        self._counts: tuple[int, int, dict[str, int]] | None = None
        self._cooks: list[Cooks] = []
        self._cooks_at = -1  # the _version _cooks belong to
        self._display_seen: list | None = None  # the display _display_sets were worked out for
        self._display_sets: tuple = ()
        # metrics
        self.shown_at: dict[str, int] = {}
        self.dwell: dict[str, list[int]] = {}
        self.goals: list[str] = []
        self.usage: Counter = Counter()
        self.floor_hits = 0
        self.reshuffles = 0
        self.skipped_draws = 0
        self.hand_limit_discards = 0
        self.dead_hand_turns = 0
        self.hand_sizes: list[int] = []
        self.steals = 0
        self.ask(ChanceRequest("shuffle", "recipe-deck", items=rules.recipe_cards))

    # ----- chance and setup -------------------------------------------------------------------------------
    def ask(self, request: ChanceRequest) -> None:
        """Chance decides next; CHANCE_HANDLERS[request.label] applies its outcome."""
        self.pending_chance = request

    def _recipes_shuffled(self, values) -> None:
        self.recipe_deck = list(reversed(values))
        self._refill_display()
        self.ask(ChanceRequest("shuffle", "ingredients-deck", items=self.r.ingredient_cards))

    def _ingredients_shuffled(self, values) -> None:
        self.pile = list(reversed(values))
        for seat in range(self.n):
            for _ in range(self.start_hand):
                if self.pile:
                    self.give(seat, self.pile.pop())
        self.ask(ChanceRequest("pick", "first-player", count=1, n=self.n))

    def _first_picked(self, values) -> None:
        self.first = self.cur = int(values[0])
        self.log.append(f"seat {self.first} goes first")
        self._begin_turn()

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.pending_chance is not None else self.cur

    def chance_request(self) -> ChanceRequest:
        if self.pending_chance is None:
            raise IllegalAction("no chance event is pending")
        return self.pending_chance

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        request = self.pending_chance
        if request is None:
            raise IllegalAction(f"no chance event is pending, but an outcome for '{outcome.label}' was given")
        values = check_outcome(request, outcome)
        self.pending_chance = None
        CHANCE_HANDLERS[request.label](self, values)

    # ----- drawing ----------------------------------------------------------------------------------------
    def give(self, seat: int, card: str) -> None:
        """One card into the seat's hand."""
        hand = self.hands[seat]
        hand[card] = hand.get(card, 0) + 1

    def take(self, seat: int, card: str) -> None:
        """One card out of the seat's hand."""
        hand = self.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1

    def draw(self, seat: int, count: int, then) -> None:
        """The seat draws `count` cards (a reshuffle of the discard pile may come between), then `then()`."""
        self._pending_draw = (seat, count, then)
        self._continue_draw()

    def _continue_draw(self) -> None:
        seat, count, then = self._pending_draw
        while count:
            if not self.pile:
                if self.discard:  # C.4-9: shuffle the discard pile into a new draw pile
                    self._pending_draw = (seat, count, then)
                    discards = tuple(sorted(self.discard))
                    self.ask(ChanceRequest("shuffle", "ingredients-reshuffle", items=discards))
                    return
                self.skipped_draws += count  # both piles empty: the draw is skipped
                break
            self.give(seat, self.pile.pop())
            count -= 1
        self._pending_draw = None
        then()

    def _stolen(self, values) -> None:
        cards = sorted(Counter(self.hands[self.victim]).elements())
        for index in values:
            card = cards[int(index)]
            self.take(self.victim, card)
            self.give(self.cur, card)
        self.phase = "actions"

    def _reshuffled(self, values) -> None:
        self.discard = []
        self.pile = list(reversed(values))
        self.reshuffles += 1
        self.log.append("the discard pile is shuffled into a new draw pile")
        self._continue_draw()

    # ----- turn structure ---------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        self.acted = self.discard_used = False
        self.discarding = 0
        self.phase = "draw"
        self.draw(self.cur, 1, self._turn_ready)

    def _turn_ready(self) -> None:
        self.phase = "actions"
        if self.display_useful_or_wild().isdisjoint(self.hands[self.cur]):
            self.dead_hand_turns += 1

    def display_useful(self) -> frozenset[str]:
        """The cards that can fill a slot of a recipe on display (not wilds)."""
        return self._display_cards()[0]

    def display_useful_or_wild(self) -> frozenset[str]:
        """display_useful() and the wilds: a hand with none of them can cook nothing on display."""
        return self._display_cards()[1]

    def _display_cards(self) -> tuple[frozenset[str], frozenset[str]]:
        # asked every turn and by the greedy bot; the display changes only when a recipe is cooked or refilled
        if self._display_seen != self.display:
            useful = frozenset().union(*(self.r.useful[rid] for rid in self.display if rid))
            self._display_seen = list(self.display)
            self._display_sets = (useful, useful | frozenset(self.r.wilds))
        return self._display_sets

    def back_to_actions(self) -> None:
        """The turn goes on with more actions."""
        self.phase = "actions"

    def end_turn(self) -> None:
        """The seat ends its turn: down to the hand limit first, if it has one."""
        if self.hand_limit is not None and sum(self.hands[self.cur].values()) > self.hand_limit:
            self.phase = "hand-limit"
            return
        self.finish_turn()

    def finish_turn(self) -> None:
        """After the turn: refill the display, move the round marker, end the game or start the next turn."""
        self.hand_sizes.append(sum(self.hands[self.cur].values()))
        self.turns += 1
        self._refill_display()
        if not any(self.display) and not self.recipe_deck and self.trigger is None:
            self.trigger = "recipes-exhausted"  # C.4-10: finish the round, then the game ends
        nxt = (self.cur + 1) % self.n
        if nxt == self.first:
            self.rounds += 1
            if self.trigger:
                return self._game_over(self.trigger)
            if self.track:
                self.marker += 1
                self.log.append(f"the round marker moves to {self.track[self.marker]}")
                if self.marker >= len(self.track) - 1:
                    return self._game_over("all-done")
        self.cur = nxt
        self._begin_turn()

    def _refill_display(self) -> None:
        for i, rid in enumerate(self.display):
            if rid is None and self.recipe_deck:
                new = self.recipe_deck.pop()
                self.display[i] = new
                self.shown_at[new] = self.turns

    def _game_over(self, why: str) -> None:
        self.phase, self.ended_by = "over", why
        for rid in self.display:
            if rid:
                self.dwell.setdefault(rid, []).append(self.turns - self.shown_at[rid])
        self._winners = self._decide_winners()
        self.log.append(f"game over ({why}): scores {self.scores()}, winners {self._winners}")

    # ----- actions ----------------------------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.r)

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: one list per state, shared until the next apply (do not
        change it)."""
        # the harness and the bots both ask for the same position: compute it once per applied action
        if self._legal is None or self._legal[0] != self._version:
            self._legal = (self._version, legal_actions(self))
        return self._legal[1]

    def displayed_cooks(self) -> list[Cooks]:
        """The ways to cook each displayed recipe that can be cooked now, in display order (those of
        legal_actions())."""
        if self._cooks_at != self._version:
            cooks = self._cooks = []
            if self.phase not in ("over", "hand-limit", "discarding") and self.pending_chance is None:
                hand, r = self.hands[self.cur], self.r
                held, needs = hand.keys(), r.needs
                wilds = sum(hand.get(w, 0) for w in r.wilds)
                for rid in self.display:
                    # without wilds a recipe needs each of its named ingredients in the hand: most fail here
                    if rid and (wilds or held >= needs[rid]):
                        found = cooks_for(r, rid, hand, wilds)
                        if found.actions:
                            cooks.append(found)
            self._cooks_at = self._version
        return self._cooks

    def apply(self, action) -> None:
        self._version += 1
        if isinstance(action, ChanceOutcome):
            return self._apply_chance(action)
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self.pending_chance is not None:
            raise IllegalAction(f"chance event '{self.pending_chance.label}' must be decided first")
        if isinstance(action, str):
            action = self.parse_action(action)
        self.log.append((_said, self.cur, action))  # made into text only when the log is read
        try:
            apply_action(self, action)
        except IllegalAction:
            self.log.pop()  # a refused action leaves no trace
            raise

    # ----- lookahead: a copy, and the hidden cards dealt anew ---------------------------------------------
    def clone(self) -> SOHState:
        """A deep, independent copy; the rules (read only) and the caches of unchanged lists stay shared."""
        new = object.__new__(SOHState)
        new.__dict__.update(self.__dict__)
        new.log = GameLog(self.log)
        new.hands = [dict(hand) for hand in self.hands]
        new.completed = [[_copy_cooked(c) for c in recs] for recs in self.completed]
        new.owner = dict(self.owner)
        new.pile, new.discard = list(self.pile), list(self.discard)
        new.recipe_deck, new.display = list(self.recipe_deck), list(self.display)
        if self._pending_draw is not None:  # its `then` is a method of this state: bound to the copy
            seat, count, then = self._pending_draw
            new._pending_draw = (seat, count, then.__func__.__get__(new))
        new._cooks_at = -1
        new.shown_at, new.goals, new.usage = dict(self.shown_at), list(self.goals), Counter(self.usage)
        new.dwell = {k: list(v) for k, v in self.dwell.items()}
        new.hand_sizes, new._winners = list(self.hand_sizes), list(self._winners)
        return new

    def redeal(self, seat: int, rng) -> None:
        """Deal anew what `seat` cannot see: the other hands (same sizes) with the ingredients draw pile, and
        the order of the recipe deck. Its hand, the display, the discard pile and the cooked recipes stay."""
        others = [s for s in range(self.n) if s != seat]
        unseen = list(self.pile)
        for s in others:
            unseen.extend(Counter(self.hands[s]).elements())
        unseen.sort()  # a fixed order before the shuffle: the same rng gives the same deal
        rng.shuffle(unseen)
        for s in others:
            size = sum(self.hands[s].values())
            hand: dict[str, int] = {}
            for card in unseen[len(unseen) - size:]:
                hand[card] = hand.get(card, 0) + 1
            del unseen[len(unseen) - size:]
            self.hands[s] = hand
        self.pile = unseen
        deck = sorted(self.recipe_deck)
        rng.shuffle(deck)
        self.recipe_deck = deck
        self._version += 1  # the cached legal actions and cooks belong to the old deal

    # ----- scores and what the game shows -----------------------------------------------------------------
    def recipe_score(self, cooked: Cooked) -> int:
        """One completed recipe's points under this game's floor rule."""
        return cooked.score(self.floor_mode, self.floor)

    def scores(self) -> list[float]:
        # recipe_score() of every completed recipe, inline: the harness reads the scores after every turn
        if self.floor_mode == "end":
            floor = self.floor
            return [sum([c.total if c.total > floor else floor for c in recs]) for recs in self.completed]
        return [sum([c.running for c in recs]) for recs in self.completed]

    def _decide_winners(self) -> list[int]:
        # C.4-13: highest total, then more completed recipes, then the highest single recipe; else shared
        def key(seat: int):
            recs = self.completed[seat]
            return (self.scores()[seat], len(recs), max((self.recipe_score(c) for c in recs), default=0))

        best = max(key(s) for s in range(self.n))
        return [s for s in range(self.n) if key(s) == best]

    def winners(self) -> list[int]:
        return list(self._winners)

    def card_count(self) -> dict[str, int]:
        # plain loops: the harness calls this after every action (measured: cheaper than map/chain sums here)
        held = attached = cooked = 0
        for hand in self.hands:
            held += sum(hand.values())
        for recs in self.completed:
            cooked += len(recs)
            for c in recs:
                attached += len(c.bonus) + len(c.mods)
        recipes = len(self.recipe_deck) + len(self.display) - self.display.count(None) + cooked
        ingredients = len(self.pile) + len(self.discard) + held + attached
        last = self._counts
        if last is not None and last[0] == recipes and last[1] == ingredients:
            return last[2]  # the same dict while the counts hold: the harness then compares no further
        counts = {"recipes": recipes, "ingredients": ingredients}
        self._counts = (recipes, ingredients, counts)
        return counts

    def invariant_problems(self) -> list[str]:
        problems = []
        if self.hand_limit is not None:
            for seat, hand in enumerate(self.hands):
                size = sum(hand.values())
                in_turn = seat == self.cur and self.phase != "over"
                if size > self.hand_limit and not in_turn:
                    problems.append(
                        f"seat {seat} holds {size} cards after its turn; the hand limit is {self.hand_limit}"
                    )
        display = self.display
        distinct = len(set(display))
        # no recipe twice: every slot distinct, or only empty slots repeated (None is never an owned recipe)
        twice = distinct != len(display) and distinct - (None in display) != len(display) - display.count(
            None
        )
        if twice or not self.owner.keys().isdisjoint(display):
            problems.append(
                f"a recipe is on display twice or both on display and cooked: {list(filter(None, display))}"
            )
        return problems

    def snapshot(self) -> dict[str, Any]:
        scores = self.scores()
        snap = {
            "current_player": self.current_player(),
            "terminal": self.phase == "over",
            "scores": scores,
            "phase": self.phase,
            "first_player": self.first,
            "turn": self.turns + 1,
            "round": self.rounds + 1,
            "rounds_played": self.rounds,
            "marker": self.track[self.marker] if self.track else None,
            "rounds_left": len(self.track) - 1 - self.marker if self.track else None,
            "display": list(self.display),
            "recipe_deck": len(self.recipe_deck),
            "draw_pile": len(self.pile),
            "discard_pile": len(self.discard),
            "acted": self.acted,
            "discard_used": self.discard_used,
            "end_trigger": self.trigger,
            "ended_by": self.ended_by,
            "hand_limit": self.hand_limit,
            "floor_mode": self.floor_mode,
            "floor_hits": self.floor_hits,
            "reshuffles": self.reshuffles,
            "players": [
                {
                    "hand": sorted(Counter(h).elements()),
                    "hand_size": sum(h.values()),
                    "score": scores[seat],
                    "completed": len(self.completed[seat]),
                    "recipes": [
                        {
                            "id": c.recipe.id,
                            "bonus": [b for b, _ in c.bonus],
                            "mods": [m for m, _ in c.mods],
                            "score": self.recipe_score(c),
                        }
                        for c in self.completed[seat]
                    ],
                }
                for seat, h in enumerate(self.hands)
            ],
        }
        if self.phase == "over":
            snap["winners"] = self.winners()
        return snap

    def metrics(self) -> dict[str, Any]:
        scores = self.scores()
        top = max(scores) if scores else 0
        return {
            "turns": self.turns,
            "rounds": self.rounds,
            "ended_by": self.ended_by,
            "completed_goals": list(self.goals),
            "dwell": {k: list(v) for k, v in self.dwell.items()},
            "card_usage": dict(self.usage),
            "hand_limit_discards": self.hand_limit_discards,
            "dead_hand_turns": self.dead_hand_turns,
            # the first player is drawn at random
            "turn_order": [(self.first + i) % self.n for i in range(self.n)],
            "extra": {
                "floor_hits": self.floor_hits,
                "reshuffles": self.reshuffles,
                "skipped_draws": self.skipped_draws,
                "hand_sizes": list(self.hand_sizes),
                "max_hand": max(self.hand_sizes, default=0),
                "steals": self.steals,
                "recipes_by_seat": [len(r) for r in self.completed],
                "recipe_deck_left": len(self.recipe_deck),
                "tied_top_score": scores.count(top) > 1,
                "shared_win": len(self._winners) > 1,
            },
        }


def _copy_cooked(cooked: Cooked) -> Cooked:
    """A completed recipe's own copy (spices and sabotage change it)."""
    new = object.__new__(Cooked)
    new.recipe, new.bonus, new.mods = cooked.recipe, list(cooked.bonus), list(cooked.mods)
    new.running, new.total = cooked.running, cooked.total
    return new


# chance event label -> what its outcome does to the state
CHANCE_HANDLERS = {
    "recipe-deck": SOHState._recipes_shuffled,
    "ingredients-deck": SOHState._ingredients_shuffled,
    "first-player": SOHState._first_picked,
    "ingredients-reshuffle": SOHState._reshuffled,
    "steal": SOHState._stolen,
}
