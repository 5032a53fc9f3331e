"""How each component is made from paper: one short paragraph for the rules, written from the data.

A component file's own `assembly:` text wins; otherwise the paragraph of its kind is filled with its numbers, in
the game's language (generator.core.phrases).
"""

from __future__ import annotations

from generator.core.units import mm
from generator.data.components import Component, tuckbox_plan
from generator.data.game import Game


def _names(name: str) -> dict[str, str]:
    """A component's name as written and in lower case (English writes it in lower case mid-sentence; German
    keeps the capital of a noun): a catalogue picks {name} or {name_lower}."""
    return {"name": name, "name_lower": name.lower()}


def _token(game: Game, component: Component) -> str:
    say = game.phrases.t
    shape = component.shape
    one = component.copies == 1
    shared = ("" if one else say("assembly.tokens_shared")
              if component.model.gap is None and shape.kind in ("hex", "square") else "")
    backs = say("assembly.token_back" if one else "assembly.tokens_back") if component.two_sided else ""
    return say("assembly.token" if one else "assembly.tokens", **_names(component.name)) + shared + backs


def _die(game: Game, component: Component) -> str:
    copies = component.copies
    return game.phrases.t("assembly.dice", count=copies) if copies > 1 else game.phrases.t("assembly.die")


def _depth(game: Game, plan: list, fallback: str) -> str:
    return game.phrases.t("assembly.depth_mm", depth=f"{plan[0].depth / mm(1):.0f}") if plan else fallback


def _tuckbox(game: Game, component: Component) -> str:
    say = game.phrases.t
    plan = tuckbox_plan(component, game.decks) or []
    names = game.phrases.join_and([game.decks[d].name for d in component.model.deck_ids if d in game.decks])
    share = (say("assembly.tuckbox_share", decks=names, boxes=len(plan), cards=plan[0].cards)
             if len(plan) > 1 else "")
    return say("assembly.tuckbox", depth=_depth(game, plan, say("assembly.depth_unknown")), share=share)


def _sheet(game: Game, component: Component) -> str:
    key = "assembly.sheet_page" if component.model.size == "page" else "assembly.sheet_pad"
    return game.phrases.t(key, **_names(component.name))


def assembly_text(game: Game, component: Component) -> str:
    """The paragraph that explains how to make the component (its own `assembly:` text when given); a second
    tuck box, die or standee is made like the first, so its paragraph says so instead of repeating it."""
    if component.model.assembly:
        return component.model.assembly.strip()
    say = game.phrases.t
    first = next(c for c in game.components.values() if c.kind == component.kind)
    if first is not component and component.kind in ("tuckbox", "die", "standee"):
        extra = ""
        if component.kind == "tuckbox":
            plan = tuckbox_plan(component, game.decks) or []
            extra = say("assembly.same_depth", depth=_depth(game, plan, "")) + (
                say("assembly.same_times", boxes=len(plan)) if len(plan) > 1 else "")
        return say("assembly.same_way", **_names(first.name), extra=extra)
    if component.kind == "token":
        return _token(game, component)
    if component.kind == "standee":
        return say("assembly.standee")
    if component.kind == "die":
        return _die(game, component)
    if component.kind == "tuckbox":
        return _tuckbox(game, component)
    return _sheet(game, component)
