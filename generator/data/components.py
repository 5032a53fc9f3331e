"""Components: the printable pieces of a game that are not cards (tokens, standees, dice, tuck boxes, sheets).

A component file (`component:` as its top-level key) is loaded into a `Component`. Items of tokens and
standees (and the six faces of a die) are `Card`s of the component's own face set, so the card face renderer
draws them with the same layout language. What differs between kinds is asked of the kind's model
(generator.data.component_models), never of the kind's name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import Problems, where
from generator.core.phrases import ENGLISH, Phrases
from generator.core.pydantic_errors import validate
from generator.core.shapes import Shape
from generator.core.units import mm
from generator.core.yamlio import YDict, YList
from generator.data.component_models import ComponentFile, DieFace, DieFile, ItemsFile, TuckboxSize
from generator.data.game import Card, Deck
from generator.data.models import CARD_KEYS, FieldSpec, row_model

# a card's own keys; an item of a component has no back of its own
ITEM_KEYS = tuple(key for key in CARD_KEYS if key != "back")


@dataclass
class Component:
    """One component file: its kind, typed model and, for tokens, standees and dice, the pieces as cards."""

    id: str
    kind: str
    name: str
    code: str
    file: str
    line: int
    model: Any  # the kind's model from generator.data.component_models (a ComponentFile)
    items: list[Card] = field(default_factory=list)
    key_lines: dict = field(default_factory=dict, repr=False)
    field_lines: dict = field(default_factory=dict, repr=False)

    def line_of(self, key: str) -> int:
        """Line of a top-level key of the file (the file's first line when absent)."""
        return self.key_lines.get(key, self.line)

    @property
    def shape(self) -> Shape | None:
        """A token's outline."""
        return self.model.outline()

    @property
    def two_sided(self) -> bool:
        """Tokens with a `back:` layout have two printed faces."""
        return self.model.two_sided()

    def face_size(self) -> tuple[float, float]:
        """Width and height in points of one face as the layout sees it (tokens: the box around the shape)."""
        return self.model.face_size()

    def face_deck(self) -> Deck:
        """The items as a deck of their face size, for the card face renderer."""
        w, h = self.face_size()
        model: ComponentFile = self.model
        return Deck(id=self.id, name=self.name, code=self.code, file=self.file, line=self.line,
                    size_mm=(w / mm(1), h / mm(1)), layout=model.face_layout(),
                    back=getattr(model, "back", None),
                    total=None, description=model.description, field_specs=getattr(model, "fields", {}),
                    cards=self.items, key_lines=self.key_lines, field_lines=self.field_lines)

    @property
    def copies(self) -> int:
        """Printed pieces (tuck boxes: see `tuckbox_plan`, which needs the decks)."""
        return self.model.printed_copies(self.items)


def default_code(component_id: str) -> str:
    """A code for item codes when the file gives none: the id's letters and digits, upper case, at most 6."""
    letters = re.sub(r"[^A-Z0-9]", "", component_id.upper())[:6]
    return letters if len(letters) >= 2 else (letters + "CP")[:2]


def _items(
    model: ItemsFile, rows: tuple[YList, str], code: str, game_code: str, problems: Problems
) -> list[Card]:
    """The items of a token or standee file, typed against its fields (like a deck's cards); `rows` are
    the raw items and the file they are written in (the component file, or its `cards_from:` sheet)."""
    item_model = row_model(model.component.title().replace("-", ""), model.fields, card=True)
    items: list[Card] = []
    first: dict[str, int] = {}
    raw_items, shown = rows
    for index, item_raw in enumerate(raw_items, start=1):
        record = validate(item_model, item_raw, shown, problems)
        if record is None:
            continue
        if record.id in first:
            problems.add(
                shown,
                item_raw.line_of("id"),
                f"duplicate item id '{record.id}' (first defined at {where(first[record.id])}); expected "
                "unique ids",
            )
            continue
        first[record.id] = item_raw.line_of("id")
        data = record.model_dump()
        core = {key: data.pop(key) for key in ITEM_KEYS}
        if core["players"] is not None:  # never ignored without a word
            why = (f"item '{record.id}' has `players:`, which only cards take (the deal follows them); "
                   "expected no player range on a component's items")
            problems.add(shown, item_raw.line_of("players"), why)
        items.append(
            Card(
                id=core["id"],
                name=core["name"],
                fields=data,
                file=shown,
                line=item_raw.line,
                key_lines=dict(item_raw.key_lines),
                deck=model.component,
                index=index,
                code=f"{game_code}-{code}-{index:02d}",
                copies=core["copies"],
                layout=core["layout"] or model.layout,
                icon=core["icon"],
                image=core["image"],
            )
        )
    return items


# the columns of a die's sheet (`cards_from:`): one face per row, the keys of a face of `faces:`
DIE_FACE_COLUMNS = {key: FieldSpec(type=kind, required=False) for key, kind in (
    ("pips", "int"), ("text", "text"), ("icon", "icon"), ("layout", "text"), ("fill", "color"),
    ("color", "color"))}


def die_faces_from_rows(rows: YList, shown: str, problems: Problems) -> list[DieFace] | None:
    """The six faces of a die read from a sheet's rows (one face per row, checked as `faces:` items are,
    each problem at its cell); None when they do not make a die."""
    faces = []
    for row in rows:
        face = validate(DieFace, row, shown, problems)
        if face is not None:
            faces.append(face)
    if len(faces) != len(rows):
        return None
    if len(faces) != 6:
        problems.add(shown, rows.line, f"the sheet gives {len(faces)} face{'s' if len(faces) != 1 else ''} "
                                       "(one per row); expected exactly 6 rows below the header")
        return None
    return faces


def _die_faces(model: DieFile, raw: YDict, shown: str, code: str, game_code: str,
               sheet: tuple[YList, str] | None = None) -> list[Card]:
    """The six faces of a die as cards (number 1-6 in file order), so face layouts see `face`."""
    faces = []
    raw_faces, shown = sheet if sheet is not None else (raw.get("faces"), shown)
    for number, face in enumerate(model.faces or [], start=1):
        line = raw_faces.line_of(number - 1) if isinstance(raw_faces, YList) else raw.line
        faces.append(Card(
            id=f"face-{number}", name=f"Face {number}", fields={"number": number, **face.model_dump()},
            file=shown, line=line, deck=model.component, index=number, code=f"{game_code}-{code}-F{number}",
            copies=model.copies, layout=face.layout or model.layout))
    return faces


def load_component(model, raw: YDict, shown: str, game_code: str, problems: Problems,
                   rows: tuple[YList, str] | None = None) -> Component:
    """A component from its validated file model (items typed and located like a deck's cards); `rows`: the
    raw items and their file, when they are read from a spreadsheet."""
    code = model.code or default_code(model.component)
    fields = raw.get("fields")
    field_lines = dict(fields.key_lines) if isinstance(fields, YDict) else {}
    items: list[Card] = []
    if isinstance(model, ItemsFile):
        items = _items(model, rows or (raw["items"], shown), code, game_code, problems)
    elif isinstance(model, DieFile):
        items = _die_faces(model, raw, shown, code, game_code, rows)
    return Component(
        id=model.component,
        kind=model.kind,
        name=model.name,
        code=code,
        file=shown,
        line=raw.line,
        model=model,
        items=items,
        key_lines=dict(raw.key_lines),
        field_lines=field_lines,
    )


# --- tuck boxes
# ------------------------------------------------------------------------------------------------

def tuckbox_plan(component: Component, decks: dict[str, Deck]) -> list[TuckboxSize] | None:
    """The boxes of a tuck box component (None when its decks are unknown or nothing fits the paper)."""
    return component.model.plan(decks)


def component_size(
    component: Component, decks: dict[str, Deck], phrases: Phrases = ENGLISH
) -> tuple[str, list[float]]:
    """The size of one piece in words and in mm (tuck boxes: the inside), for the rules and the manifest."""
    return component.model.size_text(decks, phrases)


def tuckbox_count(component: Component, decks: dict[str, Deck]) -> int:
    """How many boxes a tuck box component prints (0 when its decks are unknown)."""
    plan = tuckbox_plan(component, decks)
    return len(plan) if plan else 0
