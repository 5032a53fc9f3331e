"""How each component is made from paper: one short paragraph for the rules, written from the data.

A component file's own `assembly:` text wins; otherwise its kind's model writes the paragraph of its kind with
its numbers (generator.data.component_models), in the game's language (generator.core.phrases).
"""

from __future__ import annotations

from generator.data.component_models import name_words
from generator.data.components import Component
from generator.data.game import Game


def assembly_text(game: Game, component: Component) -> str:
    """The paragraph that explains how to make the component (its own `assembly:` text when given); a second
    piece made up from a net (tuck box, die, standee) is made like the first, so its paragraph says so."""
    model = component.model
    if model.assembly:
        return model.assembly.strip()
    first = next(c for c in game.components.values() if c.kind == component.kind)
    if first is not component and model.made_up:
        extra = model.made_alike(game, component)
        return game.phrases.t("assembly.same_way", **name_words(first.name), extra=extra)
    return model.assembly_text(game, component)
