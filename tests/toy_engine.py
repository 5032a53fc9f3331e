"""A tiny card game for testing the harness, the script runner and `pnp validate` without the real games.

"Sum Up": shuffle a number deck and a target deck, deal 3 cards each and show 2 targets. On your turn roll a die
(1-4: draw one card, 5-6: draw two; an empty draw pile is reshuffled from the discards), then claim a displayed
target whose cards you hold, or pass; then discard down to the hand limit. The game ends when every target is
claimed or after `max_rounds` rounds. Broken variants (LEAKY, STALLING, CHEATING, NO_LIMIT) let tests prove the
harness catches what it must catch.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from generator.project import Project
from generator.rules.base import CHANCE, TERMINAL, ChanceOutcome, ChanceRequest, Engine, IllegalAction, State

GAME_YAML = """\
title: Sum Up
code: SUM
players: {min: 2, max: 4}
engine: toy_engine
decks: [numbers, targets]
settings:
  start_hand: 3
  hand_limit: 5
  display: 2
  max_rounds: 12
"""

NUMBERS_YAML = """\
deck: numbers
name: Number deck
code: NUM
fields:
  value: {type: int, min: 1}
cards:
  - {id: one, name: One, copies: 6, value: 1}
  - {id: two, name: Two, copies: 5, value: 2}
  - {id: three, name: Three, copies: 4, value: 3}
  - {id: four, name: Four, copies: 2, value: 4}
"""

TARGETS_YAML = """\
deck: targets
name: Target deck
code: TGT
fields:
  needs: {type: counts, to: numbers}
  points: {type: int, min: 1}
cards:
  - {id: pair-of-ones, name: Pair of ones, copies: 1, needs: {one: 2}, points: 1}
  - {id: one-two, name: One two, copies: 1, needs: {one: 1, two: 1}, points: 1}
  - {id: two-threes, name: Two threes, copies: 1, needs: {three: 2}, points: 2}
  - {id: straight, name: Straight, copies: 1, needs: {one: 1, two: 1, three: 1}, points: 3}
  - {id: big-seven, name: Big seven, copies: 1, needs: {four: 1, three: 1}, points: 2}
"""


LAYOUT_YAML = """boxes:
  background: {shape: rect, fill: "#ffffff"}
  name: {x: 4mm, y: 4mm, width: 55.5mm, height: 10mm, text: "{{ card.name if card else game.title }}", size: 12pt}
"""


def make_toy_project(root: Path) -> Project:
    """Write cards/toy/ (game.yaml, numbers.yaml, targets.yaml and plain layouts) under `root`; return the project."""
    folder = root / "cards" / "toy"
    (folder / "scripts").mkdir(parents=True, exist_ok=True)
    (folder / "layouts").mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    (folder / "numbers.yaml").write_text(NUMBERS_YAML, encoding="utf-8")
    (folder / "targets.yaml").write_text(TARGETS_YAML, encoding="utf-8")
    for name in ("numbers", "numbers-back", "targets", "targets-back"):
        (folder / "layouts" / f"{name}.yaml").write_text(LAYOUT_YAML, encoding="utf-8")
    return Project(root)


def static_checks(game):
    """No composition checks beyond the shared ones."""
    return [("targets use known numbers", [])]


class SumUp(State):
    """The state of one game of Sum Up."""

    leak = False  # LEAKY: a claim loses one card (breaks conservation)
    enforce_limit = True  # NO_LIMIT: skips the discard phase (breaks the hand-limit invariant)

    def __init__(self, game, players: int, options: dict):
        if players not in (2, 3, 4):
            raise ValueError(f"Sum Up is for 2-4 players, not {players}")
        numbers = game.decks["numbers"].cards
        targets = game.decks["targets"].cards
        self.values = {c.id: c.value for c in numbers}
        self.needs = {c.id: dict(c.needs) for c in targets}
        self.points = {c.id: c.points for c in targets}
        self.number_items = tuple(c.id for c in numbers for _ in range(c.copies))
        self.target_items = tuple(c.id for c in targets for _ in range(c.copies))
        self.start_hand = game.setting("start_hand", 3)
        self.hand_limit = game.setting("hand_limit", 5)
        self.display_size = game.setting("display", 2)
        self.max_rounds = options.get("max_rounds") or game.setting("max_rounds", 12)
        self.n = players
        self.log: list[str] = []
        self.draw: list[str] = list(self.number_items)  # in file order until the setup shuffle
        self.discards: list[str] = []
        self.target_pile: list[str] = list(self.target_items)
        self.display: list[str] = []
        self.shown_at: dict[str, int] = {}
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.claimed: list[list[str]] = [[] for _ in range(players)]
        self.score = [0] * players
        self.seat = 0
        self.round = 1
        self.turns = 0
        self.to_draw = 0
        self.phase = "shuffle-numbers"
        self.ended_by = ""
        self.usage: Counter = Counter()
        self.dwell: dict[str, list[int]] = {}
        self.limit_discards = 0
        self.dead_turns = 0

    # -- the engine API -------------------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("shuffle-numbers", "shuffle-targets", "roll", "reshuffle"):
            return CHANCE
        return self.seat

    def chance_request(self) -> ChanceRequest:
        if self.phase == "shuffle-numbers":
            return ChanceRequest("shuffle", "number-deck", items=self.number_items)
        if self.phase == "shuffle-targets":
            return ChanceRequest("shuffle", "target-deck", items=self.target_items)
        if self.phase == "reshuffle":
            return ChanceRequest("shuffle", "reshuffle", items=tuple(sorted(self.discards)))
        return ChanceRequest("dice", "roll", count=1, sides=6)

    def legal_actions(self) -> list:
        if self.phase == "act":
            hand = Counter(self.hands[self.seat])
            claims = [f"claim {t}" for t in self.display if self._covers(hand, t)]
            return claims + ["pass"]
        if self.phase == "discard":
            return [f"discard {c}" for c in sorted(set(self.hands[self.seat]))]
        return []

    def parse_action(self, text: str):
        words = text.split()
        if words == ["pass"] or (len(words) == 2 and words[0] in ("claim", "discard")):
            return " ".join(words)
        raise IllegalAction(f"cannot read '{text}'; expected 'claim TARGET', 'discard CARD' or 'pass'")

    def apply(self, action) -> None:
        if isinstance(action, ChanceOutcome):
            self._apply_chance(action)
            return
        if self.current_player() < 0:
            raise IllegalAction("no player acts now")
        if action not in self.legal_actions():
            raise IllegalAction(self._why_not(action))
        verb, _, arg = action.partition(" ")
        hand = self.hands[self.seat]
        if verb == "claim":
            for card, count in self.needs[arg].items():
                for _ in range(count):
                    hand.remove(card)
                    self.discards.append(card)
                    self.usage[card] += 1
            if self.leak:
                self.discards.pop()
            self.display.remove(arg)
            self.dwell.setdefault(arg, []).append(self.turns - self.shown_at.pop(arg))
            self.claimed[self.seat].append(arg)
            self.score[self.seat] += self.points[arg]
            self.log.append(f"Seat {self.seat} claims {arg} for {self.points[arg]}")
            self._refill()
        elif verb == "pass":
            self.dead_turns += 1
            self.log.append(f"Seat {self.seat} passes")
        else:
            hand.remove(arg)
            self.discards.append(arg)
            self.limit_discards += 1
            self.log.append(f"Seat {self.seat} discards {arg}")
        self._after_action()

    def scores(self) -> list[float]:
        return list(self.score)

    def winners(self) -> list[int]:
        best = max(self.score)
        return [i for i, s in enumerate(self.score) if s == best]

    def card_count(self) -> dict[str, int]:
        return {
            "numbers": len(self.draw) + len(self.discards) + sum(len(h) for h in self.hands),
            "targets": len(self.target_pile) + len(self.display) + sum(len(c) for c in self.claimed),
        }

    def invariant_problems(self) -> list[str]:
        found = []
        if self.phase in ("roll", "over"):  # the limit holds between turns; a draw may exceed it until discards
            for seat, hand in enumerate(self.hands):
                if len(hand) > self.hand_limit:
                    found.append(f"seat {seat} holds {len(hand)} cards, over the hand limit of {self.hand_limit}")
        return found

    def snapshot(self) -> dict:
        return {
            "current_player": self.current_player(), "terminal": self.phase == "over", "scores": self.scores(),
            "winners": self.winners() if self.phase == "over" else [], "round": self.round, "phase": self.phase,
            "display": list(self.display), "draw_pile": len(self.draw), "discard_pile": len(self.discards),
            "players": [{"hand": sorted(h), "claimed": list(c), "score": s}
                        for h, c, s in zip(self.hands, self.claimed, self.score, strict=True)],
        }

    def metrics(self) -> dict:
        return {
            "turns": self.turns, "rounds": self.round, "ended_by": self.ended_by,
            "completed_goals": [t for c in self.claimed for t in c],
            "dwell": {k: list(v) for k, v in sorted(self.dwell.items())},
            "card_usage": dict(sorted(self.usage.items())),
            "hand_limit_discards": self.limit_discards, "dead_hand_turns": self.dead_turns,
            "extra": {"cards_left": len(self.draw)},
        }

    # -- the rules ----------------------------------------------------------------------------------------------------
    def _covers(self, hand: Counter, target: str) -> bool:
        return all(hand[card] >= n for card, n in self.needs[target].items())

    def _why_not(self, action) -> str:
        verb, _, arg = str(action).partition(" ")
        if verb == "claim":
            if arg not in self.display:
                return f"target '{arg}' is not on display"
            return f"your hand does not hold the cards for {arg}"
        if verb == "discard":
            return "you may discard only when your hand is over the limit" if self.phase != "discard" else f"you hold no {arg}"
        return "discard down to the hand limit first" if self.phase == "discard" else f"'{action}' is not an action"

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        request = self.chance_request() if self.current_player() == CHANCE else None
        if request is None or outcome.label != request.label:
            raise IllegalAction(f"no chance event '{outcome.label}' is pending")
        values = list(outcome.values)
        if request.kind == "shuffle" and sorted(values) != sorted(request.items):
            raise IllegalAction(f"'{request.label}' must be a permutation of its cards")
        if self.phase == "shuffle-numbers":
            self.draw = values
            for seat in range(self.n):
                self.hands[seat] = [self.draw.pop(0) for _ in range(self.start_hand)]
            self.phase = "shuffle-targets"
        elif self.phase == "shuffle-targets":
            self.target_pile = values
            self._refill()
            self.phase = "roll"
        elif self.phase == "reshuffle":
            self.draw, self.discards = values, []
            self._draw_cards()
        else:
            roll = values[0]
            self.to_draw = 1 if roll <= 4 else 2
            self.log.append(f"Seat {self.seat} rolls {roll}")
            self._draw_cards()

    def _refill(self) -> None:
        while len(self.display) < self.display_size and self.target_pile:
            card = self.target_pile.pop(0)
            self.display.append(card)
            self.shown_at[card] = self.turns

    def _draw_cards(self) -> None:
        while self.to_draw:
            if not self.draw:
                if self.discards:
                    self.phase = "reshuffle"
                    return
                break
            self.hands[self.seat].append(self.draw.pop(0))
            self.to_draw -= 1
        self.to_draw = 0
        self.phase = "act"

    def _after_action(self) -> None:
        if self.enforce_limit and len(self.hands[self.seat]) > self.hand_limit:
            self.phase = "discard"
            return
        self.turns += 1
        if not self.display:
            self._end("all-done")
            return
        self.seat = (self.seat + 1) % self.n
        if self.seat == 0:
            self.round += 1
            if self.round > self.max_rounds:
                self.round = self.max_rounds
                self._end("round-limit")
                return
        self.phase = "roll"

    def _end(self, why: str) -> None:
        for card, since in sorted(self.shown_at.items()):
            self.dwell.setdefault(card, []).append(self.turns - since)
        self.shown_at = {}
        self.ended_by = why
        self.phase = "over"
        self.log.append(f"Game over ({why}): scores {self.score}")


def random_bot(state: State, rng):
    """Any legal action."""
    return rng.choice(state.legal_actions())


def greedy_bot(state: State, rng):
    """Claim the best target; discard the card least needed by the display; else pass."""
    legal = state.legal_actions()
    claims = [a for a in legal if a.startswith("claim ")]
    if claims:
        return max(claims, key=lambda a: (state.points[a.split()[1]], a))
    if legal[0].startswith("discard "):
        wanted = Counter()
        for target in state.display:
            wanted.update(state.needs[target])
        return min(legal, key=lambda a: (wanted[a.split()[1]], a))
    return "pass"


def _engine(state_class, **changes) -> Engine:
    fields = dict(name="toy_engine", new_state=state_class, player_counts=(2, 3, 4),
                  bots={"random": random_bot, "greedy": greedy_bot}, options={"max_rounds": None},
                  turn_cap=400, goals=lambda game: [c.id for c in game.decks["targets"].cards],
                  static_checks=static_checks)
    fields.update(changes)
    return Engine(**fields)


ENGINE = _engine(SumUp)


class _Leaky(SumUp):
    leak = True


class _NoLimit(SumUp):
    enforce_limit = False


LEAKY = _engine(_Leaky)
# Claims to play 2-5 players, but setup refuses 5.
WIDE = _engine(SumUp, player_counts=(2, 3, 4, 5))
NO_LIMIT = _engine(_NoLimit)
# Nobody ever claims and the round limit is far away: the turn cap must stop the game.
STALLING = _engine(SumUp, bots={"random": lambda s, r: "pass" if "pass" in s.legal_actions() else s.legal_actions()[0],
                                "greedy": lambda s, r: "pass" if "pass" in s.legal_actions() else s.legal_actions()[0]},
                   options={"max_rounds": 10_000}, turn_cap=60)
# A bot that plays an action the rules do not offer.
CHEATING = _engine(SumUp, bots={"random": lambda s, r: "claim straight", "greedy": greedy_bot})
