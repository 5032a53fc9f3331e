"""How each component is made from paper: one short paragraph for the rules, written from the data.

A component file's own `assembly:` text wins; otherwise the paragraph of its kind is filled with its numbers.
"""

from __future__ import annotations

from generator.core.units import mm
from generator.core.words import join_and
from generator.data.components import Component, tuckbox_plan
from generator.data.game import Game


def _token(component: Component) -> str:
    shape = component.shape
    one = component.copies == 1
    shared = ("" if one else " Neighbouring tokens share their cut lines, so one cut frees two sides."
              if component.model.gap is None and shape.kind in ("hex", "square") else "")
    backs = (f" {'Its back is' if one else 'Their backs are'} on the page after the fronts: print double-sided as "
             "the page says, or glue the back page behind the front page before cutting." if component.two_sided else "")
    return (f"Print the {component.name.lower()} on card stock (or glue the page to thin card), then cut "
            f"{'it' if one else 'them'} out along the solid {'line' if one else 'lines'}.{shared}{backs}")


def _standee(component: Component) -> str:
    return ("Cut out each figure and its base along the solid lines, and cut the narrow slots. Fold the figure "
            "on the dashed line so both pictures face outwards and glue the halves together. Fold the base on its "
            "dashed line and glue it too. Slide the slot of the figure's feet into the slot of the base so they "
            "cross: the figure now stands on its own.")


def _die(component: Component) -> str:
    copies = component.copies
    return (f"For each of the {copies} dice, cut out the cross along the solid lines and crease every dashed line. "
            "Fold the six faces into a cube and glue each tab under the face it meets; opposite faces "
            "are the ones two squares apart on the cross." if copies > 1 else
            "Cut out the cross along the solid lines and crease every dashed line. Fold the six faces into a "
            "cube and glue each tab under the face it meets.")


def _tuckbox(game: Game, component: Component) -> str:
    plan = tuckbox_plan(component, game.decks) or []
    names = join_and([game.decks[d].name for d in component.model.deck_ids if d in game.decks])
    share = (f" The {names} is shared between {len(plan)} boxes of {plan[0].cards} cards or so, so each box "
             "closes well." if len(plan) > 1 else "")
    depth = f"{plan[0].depth / mm(1):.0f} mm" if plan else "its"
    return (f"Cut out the box along the solid lines, with the round thumb notch, and crease every dashed line. "
            f"Glue the narrow glue flap inside the far side panel, close the bottom by tucking its flap in, slide "
            f"the cards in and tuck the lid flap behind the front. The box is {depth} deep.{share}")


def _sheet(component: Component) -> str:
    model = component.model
    if model.size == "page":
        return f"Print as many pages of the {component.name.lower()} as you need."
    return (f"Print as many pages of the {component.name.lower()} as you need and cut them apart along the marks; "
            "stapled together at the top they make a pad.")


def assembly_text(game: Game, component: Component) -> str:
    """The paragraph that explains how to make the component (its own `assembly:` text when given); a second
    tuck box, die or standee is made like the first, so its paragraph says so instead of repeating it."""
    if component.model.assembly:
        return component.model.assembly.strip()
    first = next(c for c in game.components.values() if c.kind == component.kind)
    if first is not component and component.kind in ("tuckbox", "die", "standee"):
        extra = ""
        if component.kind == "tuckbox":
            plan = tuckbox_plan(component, game.decks) or []
            depth = f"{plan[0].depth / mm(1):.0f} mm" if plan else ""
            extra = f" It is {depth} deep." + (f" It comes {len(plan)} times, one for each share of the deck."
                                              if len(plan) > 1 else "")
        return f"Make it the same way as the {first.name.lower()}.{extra}"
    if component.kind == "token":
        return _token(component)
    if component.kind == "standee":
        return _standee(component)
    if component.kind == "die":
        return _die(component)
    if component.kind == "tuckbox":
        return _tuckbox(game, component)
    return _sheet(component)
