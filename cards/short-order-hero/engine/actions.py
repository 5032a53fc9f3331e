"""Short Order Hero actions: their text form, parsing, every way to cook a recipe from a hand, the legal
actions and what applying each does to the table (cooking, spices, sabotage, drawing, stealing, discards)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement, repeat
from typing import TYPE_CHECKING, NamedTuple

from generator.engines.base import ChanceRequest, IllegalAction

from .data import ANY_MEAT, Cooked, Recipe, Rules

if TYPE_CHECKING:
    from .state import SOHState

WILD = "*"  # placeholder for "some wild card" while enumerating


class Action(NamedTuple):
    """One decision. Text forms: draw | end | redraw | discard <card> | cook <recipe>: <cards> [+ <bonus
    cards>]
    | play <card> | play <card> on <recipe> | play <card> from <seat>."""

    verb: str
    card: str = ""
    target: str = ""
    seat: int = -1
    slots: tuple = ()
    bonus: tuple = ()

    def __str__(self) -> str:
        if self.verb == "discard":
            return f"discard {self.card}"
        if self.verb == "cook":
            text = f"cook {self.card}: {' '.join(self.slots)}"
            return text + (f" + {' '.join(self.bonus)}" if self.bonus else "")
        if self.verb == "play":
            if self.target:
                return f"play {self.card} on {self.target}"
            if self.seat >= 0:
                return f"play {self.card} from {self.seat}"
            return f"play {self.card}"
        return self.verb


DRAW, END, REDRAW = Action("draw"), Action("end"), Action("redraw")


class ActionTable(dict):
    """Key -> its Action, made on first use: legal_actions() hands out the same few actions thousands of
    times."""

    def __init__(self, make):
        super().__init__()
        self.make = make

    def __missing__(self, key):
        action = self[key] = self.make(key)
        return action


DISCARD = ActionTable(lambda card: Action("discard", card))  # card -> discard <card>
PLAY = ActionTable(lambda card: Action("play", card))  # card -> play <card>
# (card, recipe) -> play <card> on <recipe>
PLAY_ON = ActionTable(lambda key: Action("play", key[0], target=key[1]))
# (card, seat) -> play <card> from <seat>
PLAY_FROM = ActionTable(lambda key: Action("play", key[0], seat=key[1]))
USAGE = (
    "expected draw, end, discard <card>, redraw, cook <recipe>: <card per required ingredient> [+ <bonus "
    "cards>], "
    "play <card>, play <card> on <recipe> or play <card> from <seat>"
)


def canonical_cook(recipe: Recipe, slots: tuple, bonus: tuple, wilds) -> Action:
    """The cook action with wilds listed after real cards among slots that ask for the same ingredient."""
    slots, bonus = list(slots), list(bonus)
    if len(slots) == len(recipe.slots):
        _sort_groups(slots, recipe.slots, wilds)
    if len(bonus) <= len(recipe.bonus):
        _sort_groups(bonus, tuple(b for b, _ in recipe.bonus[: len(bonus)]), wilds)
    return Action("cook", recipe.id, slots=tuple(slots), bonus=tuple(bonus))


def _sort_groups(fillers: list, names: tuple, wilds) -> None:
    groups: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        groups.setdefault(name, []).append(i)
    for positions in groups.values():
        if len(positions) > 1:
            ordered = sorted((fillers[i] for i in positions), key=lambda f: (f in wilds, f))
            for i, f in zip(positions, ordered, strict=True):
                fillers[i] = f


def parse_action(text: str, rules: Rules) -> Action:
    """The action written as `text` (the inverse of str(action))."""
    text = " ".join(str(text).split())
    if text in ("draw", "end", "redraw"):
        return Action(text)
    words = text.split(" ")
    if words[0] == "discard" and len(words) == 2:
        return Action("discard", words[1])
    if words[0] == "cook":
        head, sep, rest = text[5:].partition(":")
        if not sep:
            raise IllegalAction(
                f"cannot read '{text}'; expected cook <recipe>: <card per required ingredient> [+ <bonus "
                "cards>]"
            )
        required, _, extra = rest.partition("+")
        slots, bonus = tuple(required.split()), tuple(extra.split())
        recipe = rules.recipes.get(head.strip())
        if recipe is None:
            return Action("cook", head.strip(), slots=slots, bonus=bonus)
        return canonical_cook(recipe, slots, bonus, rules.wilds)
    if words[0] == "play":
        if len(words) == 2:
            return Action("play", words[1])
        if len(words) == 4 and words[2] == "on":
            return Action("play", words[1], target=words[3])
        if len(words) == 4 and words[2] == "from" and words[3].isdigit():
            return Action("play", words[1], seat=int(words[3]))
    raise IllegalAction(f"unknown action '{text}'; {USAGE}")


def can_cook(recipe: Recipe, hand: dict, rules: Rules, wilds: int | None = None) -> bool:
    """Quick test: the hand covers the required ingredients, with wilds filling the gaps."""
    if wilds is None:
        wilds = sum(hand.get(w, 0) for w in rules.wilds)
    short = 0
    get = hand.get
    for ing, count in recipe.need_items:
        have = get(ing, 0)
        if have < count:
            short += count - have
            if short > wilds:
                return False
    if short > wilds:
        return False
    if recipe.any_meat:
        spare = sum(max(0, hand.get(m, 0) - recipe.need.get(m, 0)) for m in rules.meats)
        short += max(0, recipe.any_meat - spare)
    return short <= wilds


def cook_options(recipe: Recipe, hand: dict, rules: Rules, wilds: int | None = None) -> list[Action]:
    """Every distinct way to cook `recipe` from `hand`: required fillers, then each obtainable bonus
    prefix."""
    if not can_cook(recipe, hand, rules, wilds):
        return []
    wild_pool = [w for w in rules.wilds for _ in range(hand.get(w, 0))]
    groups = list(recipe.need.items())
    meat_options = sorted(rules.meats) + [WILD]
    out: list[Action] = []

    def finish(choice: dict, meats: tuple, used: Counter, wilds_left: int) -> None:
        cursor = {ing: 0 for ing in choice}
        slots = []
        for ing in recipe.required:
            slots.append(choice[ing][cursor[ing]])
            cursor[ing] += 1
        slots.extend(meats)
        prefix: list[str] = []
        emit(slots, prefix, used, wilds_left)

    def emit(slots: list, prefix: list, used: Counter, wilds_left: int) -> None:
        fillers = iter(wild_pool)
        named = tuple(next(fillers) if f == WILD else f for f in slots)
        bonus = tuple(next(fillers) if f == WILD else f for f in prefix)
        out.append(Action("cook", recipe.id, slots=named, bonus=bonus))
        j = len(prefix)
        if j == len(recipe.bonus):
            return
        ing = recipe.bonus[j][0]
        if hand.get(ing, 0) - used[ing] > 0:
            used[ing] += 1
            emit(slots, prefix + [ing], used, wilds_left)
            used[ing] -= 1
        if wilds_left:
            emit(slots, prefix + [WILD], used, wilds_left - 1)

    def walk(index: int, choice: dict, used: Counter, wilds_left: int) -> None:
        if index == len(groups):
            if not recipe.any_meat:
                finish(choice, (), used, wilds_left)
                return
            for combo in combinations_with_replacement(meat_options, recipe.any_meat):
                need = Counter(c for c in combo if c != WILD)
                wild_need = recipe.any_meat - sum(need.values())
                if wild_need > wilds_left or any(hand.get(m, 0) - used[m] < k for m, k in need.items()):
                    continue
                used.update(need)
                finish(choice, combo, used, wilds_left - wild_need)
                used.subtract(need)
            return
        ing, count = groups[index]
        have = hand.get(ing, 0) - used[ing]
        for wild in range(0, min(count, wilds_left) + 1):
            real = count - wild
            if real > have:
                continue
            used[ing] += real
            walk(index + 1, {**choice, ing: [ing] * real + [WILD] * wild}, used, wilds_left - wild)
            used[ing] -= real

    walk(0, {}, Counter(), len(wild_pool))
    return out


class Cooks(NamedTuple):
    """Every way to cook one displayed recipe from a hand (legal-action order) and the best of them: the first
    with the highest cook_rank."""

    actions: tuple[Action, ...]
    best: Action | None
    rank: tuple | None


NO_COOKS = Cooks((), None, None)


def cooks_for(rules: Rules, recipe_id: str, hand: dict, wilds: int) -> Cooks:
    """cook_options() of a displayed recipe (`wilds`: the wild cards in the hand), remembered per game for the
    hands that can cook it, by the counts of the cards that decide how (cook_inputs, each capped at what it
    could fill)."""
    recipe = rules.recipes[recipe_id]
    if not can_cook(recipe, hand, rules, wilds):
        return NO_COOKS
    key = (
        recipe_id,
        *map(min, map(hand.get, rules.cook_inputs[recipe_id], repeat(0)), rules.cook_caps[recipe_id]),
    )
    found = rules.cook_memo.get(key)
    if found is None:
        actions = tuple(cook_options(recipe, hand, rules, wilds))
        best = best_rank = None
        for action in actions:
            rank = cook_rank(action, recipe, rules.wilds)
            if best_rank is None or rank > best_rank:
                best, best_rank = action, rank
        found = rules.cook_memo[key] = Cooks(actions, best, best_rank)
    return found


def cook_rank(action: Action, recipe: Recipe, wilds) -> tuple[int, int, int]:
    """How good a cook is: its points, then the longer bonus chain, then the fewer wilds spent."""
    spent = sum(1 for c in action.slots + action.bonus if c in wilds)
    return cook_points(action, recipe), len(action.bonus), -spent


def cook_points(action: Action, recipe: Recipe) -> int:
    """Points the recipe is worth when cooked this way (value plus the bonus prefix)."""
    return recipe.value + sum(points for _, points in recipe.bonus[: len(action.bonus)])


# ---- legal actions and applying them -----------------------------------------------------------------------


def legal_actions(state: SOHState) -> list[Action]:
    """Every legal action now, in a fixed order: the extra draw or end, cooks, card plays, discards."""
    if state.phase == "over" or state.pending_chance is not None:
        return []
    hand = state.hands[state.cur]
    cards = sorted(hand)
    if state.phase == "hand-limit":
        return list(map(DISCARD.__getitem__, cards))
    if state.phase == "discarding":
        return [REDRAW, *map(DISCARD.__getitem__, cards)]
    acts = [END if state.acted else DRAW]
    for cooks in state.displayed_cooks():
        acts += cooks.actions
    r = state.r
    playable = r.playable
    me, n = state.cur, state.n
    for card in sorted(playable.keys() & hand.keys()):  # in name order, like every card of the hand
        what = playable[card]
        if what == "spice":
            acts += [PLAY_ON[card, c.recipe.id] for c in state.completed[me]]
        elif what == "sabotage":
            for k in range(1, n):
                acts += [PLAY_ON[card, c.recipe.id] for c in state.completed[(me + k) % n]]
        else:  # acquire
            if card in r.draw:
                acts.append(PLAY[card])
            if card in r.steal:
                hands = state.hands
                acts += [PLAY_FROM[card, s] for s in ((me + k) % n for k in range(1, n)) if hands[s]]
    if not state.discard_used:
        acts += map(DISCARD.__getitem__, cards)
    return acts


def apply_action(state: SOHState, action: Action) -> None:
    """Apply a player's action at the current phase; IllegalAction (saying why) when the rules forbid it."""
    verb = action.verb
    if state.phase == "hand-limit":
        _discard_to_limit(state, action)
        return
    if state.phase == "discarding":
        _discard_and_draw(state, action)
        return
    if verb == "redraw":
        raise IllegalAction("redraw finishes a discard-and-draw; discard a card first")
    if verb == "draw":
        if state.acted:
            raise IllegalAction(
                "the extra draw (option B) is only allowed instead of actions, not after them"
            )
        state.acted = True
        state.draw(state.cur, 1, state.end_turn)
    elif verb == "end":
        if not state.acted:
            raise IllegalAction("take at least one action, or draw one more card to end your turn")
        state.end_turn()
    elif verb == "discard":
        if state.discard_used:
            raise IllegalAction("discard-and-draw is allowed only once per turn")
        need(state, action.card)
        state.take(state.cur, action.card)
        state.discard.append(action.card)
        state.acted, state.phase, state.discarding = True, "discarding", 1
    elif verb == "cook":
        cook(state, action)
    elif verb == "play":
        play(state, action)
    else:
        raise IllegalAction(f"unknown action '{action}'")


def _discard_to_limit(state: SOHState, action: Action) -> None:
    """At the end of a turn over the hand limit: discard one card; at the limit the turn ends."""
    if action.verb != "discard":
        raise IllegalAction(
            f"you hold more than {state.hand_limit} cards: discard down to the hand limit first"
        )
    need(state, action.card)
    state.take(state.cur, action.card)
    state.discard.append(action.card)
    state.hand_limit_discards += 1
    if sum(state.hands[state.cur].values()) <= state.hand_limit:
        state.finish_turn()


def _discard_and_draw(state: SOHState, action: Action) -> None:
    """Within a discard-and-draw action: discard another card, or `redraw` as many as were discarded."""
    if action.verb == "discard":
        need(state, action.card)
        state.take(state.cur, action.card)
        state.discard.append(action.card)
        state.discarding += 1
        return
    if action.verb != "redraw":
        raise IllegalAction("finish the discard-and-draw action first with 'redraw'")
    state.discard_used = True
    state.draw(state.cur, state.discarding, state.back_to_actions)


def need(state: SOHState, card: str, count: int = 1) -> None:
    """IllegalAction unless the cook at turn holds `count` of `card`."""
    if state.hands[state.cur].get(card, 0) < count:
        have = state.hands[state.cur].get(card, 0)
        raise IllegalAction(f"you hold {have} {card}, need {count}")


def cook(state: SOHState, action: Action) -> None:
    """Cook a displayed recipe from the hand: its slots to the discard pile, the bonus cards laid on it."""
    recipe = state.r.recipes.get(action.card)
    if recipe is None or recipe.id not in state.display:
        raise IllegalAction(
            f"recipe '{action.card}' is not on display; available: {', '.join(r for r in state.display if r)}"
        )
    wilds, meats = state.r.wilds, state.r.meats
    action = canonical_cook(recipe, action.slots, action.bonus, wilds)
    if len(action.slots) != len(recipe.slots):
        raise IllegalAction(
            f"{recipe.id} needs one card for each of {' '.join(recipe.slots)}; got {len(action.slots)}"
        )
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
            raise IllegalAction(
                f"bonus ingredients go on in the printed order: {wanted} comes next, not {card}"
            )
    for card, count in Counter(action.slots + action.bonus).items():
        need(state, card, count)
    for card in action.slots:
        state.take(state.cur, card)
        state.discard.append(card)
    bonus = []
    for (_, points), card in zip(recipe.bonus, action.bonus, strict=False):
        state.take(state.cur, card)
        bonus.append((card, points))
    state.usage.update(action.slots + action.bonus)
    state.display[state.display.index(recipe.id)] = None
    state.completed[state.cur].append(Cooked(recipe, bonus))
    state.owner[recipe.id] = state.cur
    state.goals.append(recipe.id)
    state.dwell.setdefault(recipe.id, []).append(state.turns - state.shown_at[recipe.id])
    state.acted = True
    if len(state.completed[state.cur]) >= state.trigger_count and state.trigger is None:
        state.trigger = "fifth-recipe"  # C.2: the round is played out, then the game ends


def play(state: SOHState, action: Action) -> None:
    """Play a spice or sabotage on a completed recipe, or an acquire card that draws or steals."""
    card, me = action.card, state.cur
    what = state.r.kind.get(card)
    need(state, card)
    if what in ("spice", "sabotage"):
        if not action.target:
            raise IllegalAction(f"say which recipe: play {card} on <recipe>")
        owner = state.owner.get(action.target)
        if owner is None:
            raise IllegalAction(f"'{action.target}' is not a completed recipe")
        if what == "spice" and owner != me:
            raise IllegalAction("spices and seasonings go on your own completed recipes")
        if what == "sabotage" and owner == me:
            raise IllegalAction("sabotage goes on an opponent's completed recipe, not your own")
        cooked = next(c for c in state.completed[owner] if c.recipe.id == action.target)
        state.take(me, card)
        if cooked.add(card, state.r.points[card], state.floor, state.floor_mode):
            state.floor_hits += 1
    elif what == "acquire":
        if card in state.r.draw and action.seat < 0 and not action.target:
            state.take(me, card)
            state.discard.append(card)
            state.phase = "draw"
            state.draw(me, state.r.draw[card], state.back_to_actions)
        elif card in state.r.steal and action.seat >= 0:
            victim = action.seat
            if victim == me or not 0 <= victim < state.n:
                raise IllegalAction(f"steal from an opponent's seat, not {victim}")
            size = sum(state.hands[victim].values())
            if not size:
                raise IllegalAction(f"seat {victim} has no cards to take")
            state.take(me, card)
            state.discard.append(card)
            state.steals += 1
            count = min(state.r.steal[card], size)
            state.victim = victim
            state.ask(ChanceRequest("pick", "steal", count=count, n=size))
        else:
            form = f"play {card} from <seat>" if card in state.r.steal else f"play {card}"
            raise IllegalAction(f"write it as '{form}'")
    else:
        raise IllegalAction(f"{card} is not played on its own; cook with it instead")
    state.usage[card] += 1
    state.acted = True
