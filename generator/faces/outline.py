"""A shaped face's boxes inside its outline: a round card's corners are cut away, so its text keeps off
them."""

from __future__ import annotations

from generator.core.errors import Problems
from generator.core.shapes import Shape
from generator.core.units import mm
from generator.faces.boxes import kind_of
from generator.faces.layout import Layout

INSIDE = mm(1.5)  # text and icons keep this far inside a shaped card's outline


def check_inside(shape: Shape, layout: Layout, what: str, problems: Problems, margin: float = INSIDE) -> None:
    """Text and icon boxes of a shaped face lie inside its outline (a round card's corners are cut away)."""
    for box in layout.boxes:
        if kind_of(box).inside_safe and box.get("safe") is not False \
                and not shape.holds_rect(box.x, box.y, box.w, box.h, margin):
            problems.add(box.file, box.line, f"{box.kind} box '{box.name}' of {what} reaches outside its "
                         f"{shape.describe()} outline; expected it {margin / mm(1):.1f} mm inside the shape "
                         "(a smaller or more central box)")
