"""What Short Order Hero's card plays do to the table: cooking, spices, sabotage, drawing and stealing."""

from __future__ import annotations

from collections import Counter

from generator.engines.base import ChanceRequest, IllegalAction
from generator.engines.short_order_hero.actions import Action, canonical_cook
from generator.engines.short_order_hero.data import ANY_MEAT
from generator.engines.short_order_hero.results import Cooked


class Plays:
    """Cook and play actions of a SOHState (mixed into it; reads and changes its zones and counters)."""

    def _need(self, card: str, count: int = 1) -> None:
        if self.hands[self.cur].get(card, 0) < count:
            have = self.hands[self.cur].get(card, 0)
            raise IllegalAction(f"you hold {have} {card}, need {count}")

    def _cook(self, action: Action) -> None:
        recipe = self.r.recipes.get(action.card)
        if recipe is None or recipe.id not in self.display:
            raise IllegalAction(f"recipe '{action.card}' is not on display; available: {', '.join(r for r in self.display if r)}")
        wilds, meats = self.r.wilds, self.r.meats
        action = canonical_cook(recipe, action.slots, action.bonus, wilds)
        if len(action.slots) != len(recipe.slots):
            raise IllegalAction(f"{recipe.id} needs one card for each of {' '.join(recipe.slots)}; got {len(action.slots)}")
        for slot, card in zip(recipe.slots, action.slots, strict=True):
            if card in wilds:
                continue
            if slot == ANY_MEAT and card not in meats:
                raise IllegalAction(f"{card} cannot be Any Meat; expected {', '.join(sorted(meats))} or a wild")
            if slot != ANY_MEAT and card != slot:
                raise IllegalAction(f"{card} cannot stand for {slot}")
        if len(action.bonus) > len(recipe.bonus):
            raise IllegalAction(f"{recipe.id} has only {len(recipe.bonus)} bonus ingredients")
        for (wanted, _), card in zip(recipe.bonus, action.bonus, strict=False):
            if card != wanted and card not in wilds:
                raise IllegalAction(f"bonus ingredients go on in the printed order: {wanted} comes next, not {card}")
        for card, count in Counter(action.slots + action.bonus).items():
            self._need(card, count)
        for card in action.slots:
            self._take(self.cur, card)
            self.discard.append(card)
        bonus = []
        for (_, points), card in zip(recipe.bonus, action.bonus, strict=False):
            self._take(self.cur, card)
            bonus.append((card, points))
        self.usage.update(action.slots + action.bonus)
        self.display[self.display.index(recipe.id)] = None
        self.completed[self.cur].append(Cooked(recipe, bonus))
        self.owner[recipe.id] = self.cur
        self.goals.append(recipe.id)
        self.dwell.setdefault(recipe.id, []).append(self.turns - self.shown_at[recipe.id])
        self.acted = True
        if len(self.completed[self.cur]) >= self.trigger_count and self.trigger is None:
            self.trigger = "fifth-recipe"  # C.2: the round is played out, then the game ends

    def _play(self, action: Action) -> None:
        card, me = action.card, self.cur
        what = self.r.kind.get(card)
        self._need(card)
        if what in ("spice", "sabotage"):
            if not action.target:
                raise IllegalAction(f"say which recipe: play {card} on <recipe>")
            owner = self.owner.get(action.target)
            if owner is None:
                raise IllegalAction(f"'{action.target}' is not a completed recipe")
            if what == "spice" and owner != me:
                raise IllegalAction("spices and seasonings go on your own completed recipes")
            if what == "sabotage" and owner == me:
                raise IllegalAction("sabotage goes on an opponent's completed recipe, not your own")
            cooked = next(c for c in self.completed[owner] if c.recipe.id == action.target)
            self._take(me, card)
            if cooked.add(card, self.r.points[card], self.floor, self.floor_mode):
                self.floor_hits += 1
        elif what == "acquire":
            if card in self.r.draw and action.seat < 0 and not action.target:
                self._take(me, card)
                self.discard.append(card)
                self.phase = "draw"
                self._draw(me, self.r.draw[card], self._back_to_actions)
            elif card in self.r.steal and action.seat >= 0:
                victim = action.seat
                if victim == me or not 0 <= victim < self.n:
                    raise IllegalAction(f"steal from an opponent's seat, not {victim}")
                size = sum(self.hands[victim].values())
                if not size:
                    raise IllegalAction(f"seat {victim} has no cards to take")
                self._take(me, card)
                self.discard.append(card)
                self.steals += 1
                count = min(self.r.steal[card], size)
                self._ask(ChanceRequest("pick", "steal", count=count, n=size), lambda v: self._stolen(victim, v))
            else:
                form = f"play {card} from <seat>" if card in self.r.steal else f"play {card}"
                raise IllegalAction(f"write it as '{form}'")
        else:
            raise IllegalAction(f"{card} is not played on its own; cook with it instead")
        self.usage[card] += 1
        self.acted = True

    def _stolen(self, victim: int, values) -> None:
        cards = sorted(Counter(self.hands[victim]).elements())
        for index in values:
            card = cards[int(index)]
            self._take(victim, card)
            self._give(self.cur, card)
        self.phase = "actions"
