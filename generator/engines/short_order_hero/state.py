"""The Short Order Hero game state (games.md C.2/C.4): setup, drawing, turns, legal actions, the tracker (plays.py: card effects)."""

from __future__ import annotations

from collections import Counter

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
from generator.engines.short_order_hero.actions import (
    DISCARD,
    DRAW,
    END,
    PLAY,
    PLAY_FROM,
    PLAY_ON,
    REDRAW,
    Action,
    Cooks,
    cooks_for,
    parse_action,
)
from generator.engines.short_order_hero.data import Rules
from generator.engines.short_order_hero.plays import Plays
from generator.engines.short_order_hero.results import Cooked, Results

# Rule options; None means "the value in game.yaml settings", else these built-in defaults.
OPTIONS = {"hand_limit": None, "floor_mode": None, "fifth_recipe_trigger": None, "use_tracker": None}
BUILT_IN = {"hand_limit": None, "floor_mode": "end", "fifth_recipe_trigger": 5, "use_tracker": True}


def _said(seat: int, action: Action) -> str:
    """An action's log line."""
    return f"seat {seat}: {action}"


def hand_limit_of(value) -> int | None:
    """None for no limit ('none', null, 0), else the limit as an int."""
    if value in (None, False, 0) or str(value).lower() == "none":
        return None
    return int(value)


class SOHState(Plays, Results, State):
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
        self._chance: ChanceRequest | None = None
        self._on_chance = None
        self._pending_draw = None
        self._version = 0  # bumped by every apply(); keys the legal-action cache
        self._legal: tuple[int, list[Action]] | None = None
        self._counts: tuple[int, int, dict[str, int]] | None = None  # the last card_count(), reused while equal
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
        self._ask(ChanceRequest("shuffle", "recipe-deck", items=rules.recipe_cards), self._recipes_shuffled)

    # ----- chance and setup -------------------------------------------------------------------------------
    def _ask(self, request: ChanceRequest, handler) -> None:
        self._chance, self._on_chance = request, handler

    def _recipes_shuffled(self, values) -> None:
        self.recipe_deck = list(reversed(values))
        self._refill_display()
        self._ask(ChanceRequest("shuffle", "ingredients-deck", items=self.r.ingredient_cards), self._ingredients_shuffled)

    def _ingredients_shuffled(self, values) -> None:
        self.pile = list(reversed(values))
        for seat in range(self.n):
            for _ in range(self.start_hand):
                if self.pile:
                    self._give(seat, self.pile.pop())
        self._ask(ChanceRequest("pick", "first-player", count=1, n=self.n), self._first_picked)

    def _first_picked(self, values) -> None:
        self.first = self.cur = int(values[0])
        self.log.append(f"seat {self.first} goes first")
        self._begin_turn()

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self._chance is not None else self.cur

    def chance_request(self) -> ChanceRequest:
        if self._chance is None:
            raise IllegalAction("no chance event is pending")
        return self._chance

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        request = self._chance
        if request is None:
            raise IllegalAction(f"no chance event is pending, but an outcome for '{outcome.label}' was given")
        values = check_outcome(request, outcome)
        handler = self._on_chance
        self._chance = self._on_chance = None
        handler(values)

    # ----- drawing ----------------------------------------------------------------------------------------
    def _give(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        hand[card] = hand.get(card, 0) + 1

    def _take(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1

    def _draw(self, seat: int, count: int, then) -> None:
        self._pending_draw = (seat, count, then)
        self._continue_draw()

    def _continue_draw(self) -> None:
        seat, count, then = self._pending_draw
        while count:
            if not self.pile:
                if self.discard:  # C.4-9: shuffle the discard pile into a new draw pile
                    self._pending_draw = (seat, count, then)
                    self._ask(ChanceRequest("shuffle", "ingredients-reshuffle", items=tuple(sorted(self.discard))),
                              self._reshuffled)
                    return
                self.skipped_draws += count  # both piles empty: the draw is skipped
                break
            self._give(seat, self.pile.pop())
            count -= 1
        self._pending_draw = None
        then()

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
        self._draw(self.cur, 1, self._turn_ready)

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

    def _back_to_actions(self) -> None:
        self.phase = "actions"

    def _end_turn(self) -> None:
        if self.hand_limit is not None and sum(self.hands[self.cur].values()) > self.hand_limit:
            self.phase = "hand-limit"
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
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
        """Every legal action, in a fixed order: one list per state, shared until the next apply (do not change it)."""
        # the harness and the bots both ask for the same position: compute it once per applied action
        if self._legal is None or self._legal[0] != self._version:
            self._legal = (self._version, self._compute_legal())
        return self._legal[1]

    def displayed_cooks(self) -> list[Cooks]:
        """The ways to cook each displayed recipe that can be cooked now, in display order (those of legal_actions())."""
        if self._cooks_at != self._version:
            cooks = self._cooks = []
            if self.phase not in ("over", "hand-limit", "discarding") and self._chance is None:
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

    def _compute_legal(self) -> list[Action]:
        if self.phase == "over" or self._chance is not None:
            return []
        hand = self.hands[self.cur]
        cards = sorted(hand)
        if self.phase == "hand-limit":
            return list(map(DISCARD.__getitem__, cards))
        if self.phase == "discarding":
            return [REDRAW, *map(DISCARD.__getitem__, cards)]
        acts = [END if self.acted else DRAW]
        for cooks in self.displayed_cooks():
            acts += cooks.actions
        r = self.r
        playable = r.playable
        me, n = self.cur, self.n
        for card in sorted(playable.keys() & hand.keys()):  # in name order, like every card of the hand
            what = playable[card]
            if what == "spice":
                acts += [PLAY_ON[card, c.recipe.id] for c in self.completed[me]]
            elif what == "sabotage":
                for k in range(1, n):
                    acts += [PLAY_ON[card, c.recipe.id] for c in self.completed[(me + k) % n]]
            else:  # acquire
                if card in r.draw:
                    acts.append(PLAY[card])
                if card in r.steal:
                    hands = self.hands
                    acts += [PLAY_FROM[card, s] for s in ((me + k) % n for k in range(1, n)) if hands[s]]
        if not self.discard_used:
            acts += map(DISCARD.__getitem__, cards)
        return acts

    def apply(self, action) -> None:
        self._version += 1
        if isinstance(action, ChanceOutcome):
            return self._apply_chance(action)
        if self.phase == "over":
            raise IllegalAction("the game is over")
        if self._chance is not None:
            raise IllegalAction(f"chance event '{self._chance.label}' must be decided first")
        if isinstance(action, str):
            action = self.parse_action(action)
        self.log.append((_said, self.cur, action))  # made into text only when the log is read
        try:
            self._dispatch(action)
        except IllegalAction:
            self.log.pop()  # a refused action leaves no trace
            raise

    def _dispatch(self, action: Action) -> None:
        verb = action.verb
        if self.phase == "hand-limit":
            if verb != "discard":
                raise IllegalAction(f"you hold more than {self.hand_limit} cards: discard down to the hand limit first")
            self._need(action.card)
            self._take(self.cur, action.card)
            self.discard.append(action.card)
            self.hand_limit_discards += 1
            if sum(self.hands[self.cur].values()) <= self.hand_limit:
                self._finish_turn()
            return
        if self.phase == "discarding":
            if verb == "discard":
                self._need(action.card)
                self._take(self.cur, action.card)
                self.discard.append(action.card)
                self.discarding += 1
                return
            if verb != "redraw":
                raise IllegalAction("finish the discard-and-draw action first with 'redraw'")
            self.discard_used = True
            self._draw(self.cur, self.discarding, self._back_to_actions)
            return
        if verb == "redraw":
            raise IllegalAction("redraw finishes a discard-and-draw; discard a card first")
        if verb == "draw":
            if self.acted:
                raise IllegalAction("the extra draw (option B) is only allowed instead of actions, not after them")
            self.acted = True
            self._draw(self.cur, 1, self._end_turn)
        elif verb == "end":
            if not self.acted:
                raise IllegalAction("take at least one action, or draw one more card to end your turn")
            self._end_turn()
        elif verb == "discard":
            if self.discard_used:
                raise IllegalAction("discard-and-draw is allowed only once per turn")
            self._need(action.card)
            self._take(self.cur, action.card)
            self.discard.append(action.card)
            self.acted, self.phase, self.discarding = True, "discarding", 1
        elif verb == "cook":
            self._cook(action)
        elif verb == "play":
            self._play(action)
        else:
            raise IllegalAction(f"unknown action '{action}'")
