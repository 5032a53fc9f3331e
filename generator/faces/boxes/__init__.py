"""The box kinds of the card layouts, one module each, behind the protocol of `generator.faces.boxes.base`.

BOX_KINDS is the one table of kinds: a layout box is of the kind whose key it has (`text:`, `icon:`, ...). A
kind that is not listed is a located error at its box, never a default. Adding a kind: a module here (its
typed value, its drawing, its checks) listed below, and its keys in the layout model
(generator.faces.layout.BoxSpec).
"""

from __future__ import annotations

from generator.core.errors import InputError
from generator.faces.boxes.base import Box, BoxKind, unlisted
from generator.faces.boxes.icon import IconBox
from generator.faces.boxes.image import ImageBox
from generator.faces.boxes.shape import ShapeBox
from generator.faces.boxes.text import TextBox

BOX_KINDS: dict[str, type[BoxKind]] = {
    "text": TextBox,
    "icon": IconBox,
    "image": ImageBox,
    "shape": ShapeBox,
}


def kind_of(box: Box) -> type[BoxKind]:
    """The kind of a box; InputError at the box when no module of BOX_KINDS draws it."""
    kind = BOX_KINDS.get(box.kind)
    if kind is None:
        raise InputError(unlisted(box, BOX_KINDS))
    return kind
