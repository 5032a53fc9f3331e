"""Components: the printable pieces of a game that are not cards (tokens, standees, dice, tuck boxes, sheets).

A component file (`component:` as its top-level key) is loaded into a `Component`. Items of tokens and standees
(and the six faces of a die) are `Card`s of the component's own face set, so the card face renderer draws them
with the same layout language. How many tuck boxes a deck needs is worked out here (`tuckbox_plan`): it is a
fact of the box's contents that the rules and `pnp list` print, not only of the sheets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.core.errors import Problems
from generator.core.geometry import PAPERS
from generator.core.phrases import ENGLISH, Phrases
from generator.core.pydantic_errors import validate
from generator.core.shapes import Shape
from generator.core.units import mm, to_pt
from generator.core.yamlio import YDict
from generator.data.component_models import DieFile, ItemsFile, SheetFile, StandeeFile, TokenFile, TuckboxFile
from generator.data.game import Card, Deck
from generator.data.models import row_model

# Room on a sheet: nothing within 6 mm of the paper edge, and a strip at the foot for the sheet's labels.
SHEET_MARGIN = mm(6)
LABEL_STRIP = mm(5)
# Tuck box parts that do not depend on the deck (shared/design/print.md section 7).
GLUE_FLAP = mm(9)
TUCK_FLAP_MIN, TUCK_FLAP_MAX = mm(10), mm(20)


@dataclass
class Component:
    """One component file: its kind, typed model and, for tokens, standees and dice, the pieces as cards."""

    id: str
    kind: str
    name: str
    code: str
    file: str
    line: int
    model: Any  # the kind's model from generator.data.component_models
    items: list[Card] = field(default_factory=list)
    key_lines: dict = field(default_factory=dict, repr=False)
    field_lines: dict = field(default_factory=dict, repr=False)

    def line_of(self, key: str) -> int:
        """Line of a top-level key of the file (the file's first line when absent)."""
        return self.key_lines.get(key, self.line)

    @property
    def shape(self) -> Shape | None:
        """A token's outline."""
        return self.model.to_shape() if isinstance(self.model, TokenFile) else None

    @property
    def two_sided(self) -> bool:
        """Tokens with a `back:` layout have two printed faces."""
        return isinstance(self.model, TokenFile) and self.model.back is not None

    def face_size(self) -> tuple[float, float]:
        """Width and height in points of one face as the layout sees it (tokens: the box around the shape)."""
        model = self.model
        if isinstance(model, TokenFile):
            shape = model.to_shape()
            return shape.width, shape.height
        if isinstance(model, StandeeFile):
            return to_pt(model.width), to_pt(model.height)
        if isinstance(model, DieFile):
            return to_pt(model.size), to_pt(model.size)
        return 0.0, 0.0

    def face_deck(self) -> Deck:
        """The items as a deck of their face size, for the card face renderer."""
        w, h = self.face_size()
        model = self.model
        layout = getattr(model, "layout", None) or (self.id if self.kind in ("token", "standee") else None)
        return Deck(id=self.id, name=self.name, code=self.code, file=self.file, line=self.line,
                    size_mm=(w / mm(1), h / mm(1)), layout=layout, back=getattr(model, "back", None),
                    total=None, description=model.description, field_specs=getattr(model, "fields", {}),
                    cards=self.items, key_lines=self.key_lines, field_lines=self.field_lines)

    @property
    def copies(self) -> int:
        """Printed pieces (tuck boxes: see `tuckbox_plan`, which needs the decks)."""
        if self.items and self.kind in ("token", "standee"):
            return sum(item.copies for item in self.items)
        return int(getattr(self.model, "copies", 1))


def default_code(component_id: str) -> str:
    """A code for item codes when the file gives none: the id's letters and digits, upper case, at most 6."""
    letters = re.sub(r"[^A-Z0-9]", "", component_id.upper())[:6]
    return letters if len(letters) >= 2 else (letters + "CP")[:2]


def _items(model: ItemsFile, raw: YDict, shown: str, code: str, game_code: str, problems: Problems) -> list[Card]:
    """The items of a token or standee file, typed against its fields (like a deck's cards)."""
    item_model = row_model(model.component.title().replace("-", ""), model.fields, card=True)
    items: list[Card] = []
    first: dict[str, int] = {}
    for index, item_raw in enumerate(raw["items"], start=1):
        record = validate(item_model, item_raw, shown, problems)
        if record is None:
            continue
        if record.id in first:
            problems.add(shown, item_raw.line_of("id"), f"duplicate item id '{record.id}' (first defined at line "
                                                        f"{first[record.id]}); expected unique ids")
            continue
        first[record.id] = item_raw.line_of("id")
        data = record.model_dump()
        core = {key: data.pop(key) for key in ("id", "name", "copies", "layout", "icon", "image")}
        items.append(Card(
            id=core["id"], name=core["name"], fields=data, file=shown, line=item_raw.line,
            key_lines=dict(item_raw.key_lines), deck=model.component, index=index,
            code=f"{game_code}-{code}-{index:02d}", copies=core["copies"], layout=core["layout"] or model.layout,
            icon=core["icon"], image=core["image"]))
    return items


def _die_faces(model: DieFile, raw: YDict, shown: str, code: str, game_code: str) -> list[Card]:
    """The six faces of a die as cards (number 1-6 in file order), so face layouts see `face`."""
    faces = []
    raw_faces = raw.get("faces")
    for number, face in enumerate(model.faces, start=1):
        line = raw_faces.line_of(number - 1) if hasattr(raw_faces, "line_of") else raw.line
        faces.append(Card(
            id=f"face-{number}", name=f"Face {number}", fields={"number": number, **face.model_dump()},
            file=shown, line=line, deck=model.component, index=number, code=f"{game_code}-{code}-F{number}",
            copies=model.copies, layout=face.layout or model.layout))
    return faces


def load_component(model, raw: YDict, shown: str, game_code: str, problems: Problems) -> Component:
    """A component from its validated file model (items typed and located like a deck's cards)."""
    code = model.code or default_code(model.component)
    fields = raw.get("fields")
    field_lines = dict(fields.key_lines) if isinstance(fields, YDict) else {}
    items: list[Card] = []
    if isinstance(model, ItemsFile):
        items = _items(model, raw, shown, code, game_code, problems)
    elif isinstance(model, DieFile):
        items = _die_faces(model, raw, shown, code, game_code)
    return Component(id=model.component, kind=model.kind, name=model.name, code=code, file=shown, line=raw.line,
                     model=model, items=items, key_lines=dict(raw.key_lines), field_lines=field_lines)


# --- tuck boxes ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TuckboxSize:
    """One tuck box: the inside (width x height x depth, points), its cards and the parts of its net."""

    number: int          # 1-based
    boxes: int           # boxes the deck is shared between
    cards: int           # cards this box holds
    width: float
    height: float
    depth: float
    glue: float = GLUE_FLAP
    tuck: float = 0.0

    @property
    def net_size(self) -> tuple[float, float]:
        """Width and height of the flat net: glue flap, front, side, back, side; flaps above and below."""
        return self.glue + 2 * self.width + 2 * self.depth, self.height + 2 * (self.depth + self.tuck)


def sheet_room(paper: str) -> tuple[float, float]:
    """Width and height of a portrait sheet that pieces may use (margins and the label strip left free)."""
    w, h = PAPERS[paper].size
    return w - 2 * SHEET_MARGIN, h - 2 * SHEET_MARGIN - LABEL_STRIP


def fits_every_paper(width: float, height: float) -> bool:
    """True when a piece fits every paper upright or turned a quarter."""
    for paper in PAPERS:
        room_w, room_h = sheet_room(paper)
        if not ((width <= room_w + 1e-6 and height <= room_h + 1e-6)
                or (height <= room_w + 1e-6 and width <= room_h + 1e-6)):
            return False
    return True


def tuckbox_sizes(model: TuckboxFile, card_w: float, card_h: float, cards: int, boxes: int) -> list[TuckboxSize]:
    """The boxes that share `cards` cards of card_w x card_h points (the first boxes take the spare cards)."""
    clearance, thickness = to_pt(model.clearance), to_pt(model.thickness)
    per_box = [cards // boxes + (1 if i < cards % boxes else 0) for i in range(boxes)]
    sizes = []
    for number, count in enumerate(per_box, start=1):
        depth = count * thickness + clearance
        tuck = max(TUCK_FLAP_MIN, min(depth + mm(5), TUCK_FLAP_MAX))
        sizes.append(TuckboxSize(number, boxes, count, card_w + clearance, card_h + clearance, depth, tuck=tuck))
    return sizes


def tuckbox_plan(component: Component, decks: dict[str, Deck]) -> list[TuckboxSize] | None:
    """The boxes of a tuck box component (None when its decks are unknown or nothing fits the paper).

    With `boxes: auto` the deck is shared between the fewest boxes whose net fits Letter and A4, so the same
    number of boxes is printed whatever the paper."""
    model = component.model
    held = [decks[d] for d in model.deck_ids if d in decks]
    if len(held) != len(model.deck_ids):
        return None
    card_w = max(d.size_pt[0] for d in held)
    card_h = max(d.size_pt[1] for d in held)
    cards = sum(d.copies for d in held)
    counts = range(1, cards + 1) if model.boxes == "auto" else [model.boxes]
    for boxes in counts:
        sizes = tuckbox_sizes(model, card_w, card_h, cards, boxes)
        if all(fits_every_paper(*size.net_size) for size in sizes):
            return sizes
    return None


def shape_words(shape: Shape, phrases: Phrases = ENGLISH) -> str:
    """'25.4 mm flat hex' or '20.0 mm circle' in the language of `phrases`."""
    size = phrases.number(shape.across / (72 / 25.4), 1)
    if shape.kind == "hex":
        return phrases.t("sizes.hex", size=size, orientation=phrases.t(f"sizes.{shape.orientation}"))
    return phrases.t("sizes.shape", size=size, shape=phrases.t(f"sizes.{shape.kind}"))


def component_size(component: Component, decks: dict[str, Deck], phrases: Phrases = ENGLISH) -> tuple[str, list[float]]:
    """The size of one piece in words and in mm (tuck boxes: the inside), for the rules and the manifest."""
    model = component.model
    say = phrases.t

    def mms(*values: float) -> list[float]:
        return [round(v / mm(1), 2) for v in values]

    if isinstance(model, TokenFile):
        shape = model.to_shape()
        return shape_words(shape, phrases), mms(shape.width, shape.height)
    if isinstance(model, StandeeFile):
        w, h = to_pt(model.width), to_pt(model.height)
        return say("sizes.mm", width=f"{w / mm(1):.0f}", height=f"{h / mm(1):.0f}"), mms(w, h)
    if isinstance(model, DieFile):
        edge = to_pt(model.size)
        return say("sizes.cube", edge=f"{edge / mm(1):.0f}"), mms(edge, edge, edge)
    if isinstance(model, TuckboxFile):
        plan = tuckbox_plan(component, decks)
        if not plan:
            return "", []
        box = plan[0]
        return (say("sizes.inside", width=phrases.number(box.width / mm(1), 1),
                    height=phrases.number(box.height / mm(1), 1), depth=phrases.number(box.depth / mm(1), 1)),
                mms(box.width, box.height, box.depth))
    if isinstance(model, SheetFile):
        if model.size == "page":
            return say("sizes.page"), []
        w, h = to_pt(model.size.width), to_pt(model.size.height)
        return say("sizes.mm", width=f"{w / mm(1):.0f}", height=f"{h / mm(1):.0f}"), mms(w, h)
    return "", []


def tuckbox_count(component: Component, decks: dict[str, Deck]) -> int:
    """How many boxes a tuck box component prints (0 when its decks are unknown)."""
    plan = tuckbox_plan(component, decks)
    return len(plan) if plan else 0
