"""Typed models of component files (`component:` as the top-level key) and of shaped sizes (pydantic).

Every component file names its `kind`: token, standee, die, tuckbox or sheet; each kind has its own model
here, listed in `MODELS`. Items of tokens and standees are typed like a deck's cards, against the file's own
`fields`. A model owns what its kind means on the data side (`ComponentFile`'s abstract methods): the size of
its faces and pieces, its inventory line, its assembly paragraph, the texts a translation may give. How many
tuck boxes a deck needs is worked out here too (`TuckboxFile.plan`): it is a fact of the box's contents that
the rules and `pnp list` print, not only of the sheets.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from generator.core.geometry import PAPERS
from generator.core.limits import MAX_PAD_COLUMNS, MAX_PAD_ROWS, LimitExceeded
from generator.core.phrases import ENGLISH, Phrases
from generator.core.shapes import Shape
from generator.core.units import mm, to_pt
from generator.data.models import (
    CardSize,
    CardSource,
    Code,
    Copies,
    FieldSpec,
    HexColor,
    Length,
    PositiveInt,
    ShapeFields,
    Slug,
    Strict,
    positive_length,
    sheet_source,
)

if TYPE_CHECKING:
    from generator.data.components import Component
    from generator.data.game import Card, Deck, Game

# Room on a sheet: nothing within 6 mm of the paper edge, and a strip at the foot for the sheet's labels.
SHEET_MARGIN = mm(6)
LABEL_STRIP = mm(5)
# Tuck box parts that do not depend on the deck (shared/design/print.md section 7).
GLUE_FLAP = mm(9)
TUCK_FLAP_MIN, TUCK_FLAP_MAX = mm(10), mm(20)


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


def shape_words(shape: Shape, phrases: Phrases = ENGLISH) -> str:
    """'25.4 mm flat hex' or '20.0 mm circle' in the language of `phrases`."""
    size = phrases.number(shape.across / (72 / 25.4), 1)
    if shape.kind == "hex":
        return phrases.t("sizes.hex", size=size, orientation=phrases.t(f"sizes.{shape.orientation}"))
    return phrases.t("sizes.shape", size=size, shape=phrases.t(f"sizes.{shape.kind}"))


def name_words(name: str) -> dict[str, str]:
    """A component's name as written and in lower case (English writes it in lower case mid-sentence; German
    keeps the capital of a noun): a catalogue picks {name} or {name_lower}."""
    return {"name": name, "name_lower": name.lower()}


def _mms(*values: float) -> list[float]:
    return [round(v / mm(1), 2) for v in values]


class ComponentFile(Strict):
    """What every component file has: its id, kind, name and words for the rules; and what each kind's model
    answers about itself (the abstract methods, which every kind's model implements)."""

    component: Slug
    kind: str
    name: str
    code: Code | None = Field(None, description="short code of the item codes (default: from the id)")
    description: str = ""
    assembly: str | None = Field(
        None, description="how to make it, for the rules (default: written from the data)"
    )

    made_up: ClassVar[bool] = False
    """Folded and glued from a net: the rules picture it made up, and a second one 'is made the same way'."""
    lists_items: ClassVar[bool] = False
    """Its pieces are named items (`pnp list` lists them; the PNG and TTS exports picture each one)."""
    full_size_pages: ClassVar[bool] = False
    """Printed once more at its own size, one page each, in tuckboxes-full.pdf for a print shop."""
    tts_object: ClassVar[str | None] = None
    """The Tabletop Simulator object of one printed copy (none: not exported to TTS)."""
    face_aliases: ClassVar[tuple[str, ...]] = ()
    """More names a face layout sees its item under (besides `item` and `card`)."""
    text_keys: ClassVar[tuple[str, ...]] = ("name", "description", "assembly")
    """The top-level keys a translation may give a text for."""

    @property
    def deck_ids(self) -> list[str]:
        """The decks it holds (tuck boxes)."""
        return []

    def outline(self) -> Shape | None:
        """A token's outline (other kinds have none)."""
        return None

    def two_sided(self) -> bool:
        """Its pieces are printed on two faces, the backs on the following page (tokens with a `back:`)."""
        return False

    def has_back_face(self) -> bool:
        """One `back:` layout is drawn for every item (tokens with two faces, standees with a back layout)."""
        return False

    def drawn_by_layout(self, card: Card | None) -> bool:
        """The face of item `card` is drawn from a layout (die faces without one: pips, text or an icon)."""
        return True

    def folded_boxes(self, decks: dict[str, Deck]) -> list[TuckboxSize]:
        """The boxes it folds into (tuck boxes; none when its decks are unknown or nothing fits)."""
        return []

    @abstractmethod
    def face_size(self) -> tuple[float, float]:
        """Width and height in points of one face as the layout sees it (no faces: 0 x 0)."""

    @abstractmethod
    def face_layout(self) -> str | None:
        """The layout of its faces unless an item names its own."""

    @abstractmethod
    def printed_copies(self, items: list[Card]) -> int:
        """Printed pieces (tuck boxes: see `plan`, which needs the decks)."""

    @abstractmethod
    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        """The size of one piece in words and in mm (tuck boxes: the inside), for rules and manifest."""

    @abstractmethod
    def inventory_entry(self, game: Game, component: Component, size: str) -> tuple[int, str]:
        """Count and detail of its line in the inventory (`size`: its size in words)."""

    @abstractmethod
    def assembly_text(self, game: Game, component: Component) -> str:
        """The paragraph of its kind that explains how to make it, filled with its numbers."""

    def made_alike(self, game: Game, component: Component) -> str:
        """What a second one made the same way as the first adds to 'made the same way'."""
        return ""


def _printed(game: Game, component: Component, size: str) -> tuple[int, str]:
    """The inventory entry of a component printed as a whole: 'printed sheet, 210 x 297 mm'."""
    say = game.phrases.t
    kind = say(f"inventory.{component.kind}", count=1)
    return component.copies, say("inventory.printed", kind=kind, size=size)


class ItemsFile(ComponentFile):
    """A component whose pieces are items like a deck's cards: id, name, copies and the declared fields."""

    layout: str | None = Field(
        None, description="front layout (layouts/<name>.yaml); default: the component id"
    )
    back: str | None = Field(None, description="back layout")
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    items: list[dict] | None = Field(None, min_length=1, description="the pieces (or `cards_from:`)")
    cards_from: str | CardSource | None = Field(
        None, description="a .csv, .xlsx or .ods file (or {file, sheet, ...}) with one row per piece, "
                          "instead of `items:`"
    )

    lists_items: ClassVar[bool] = True

    @property
    def source(self) -> CardSource | None:
        """The spreadsheet of the items, or None when they are written in `items:`."""
        return sheet_source(self.cards_from)

    def face_layout(self) -> str | None:
        return self.layout or self.component

    def printed_copies(self, items: list[Card]) -> int:
        return sum(item.copies for item in items) if items else 1

    def inventory_entry(self, game: Game, component: Component, size: str) -> tuple[int, str]:
        say = game.phrases.t
        count = component.copies
        kind = say(f"inventory.{component.kind}", count=count)
        kinds = len(component.items)
        names = (", ".join(item.name for item in component.items) if kinds <= 6
                 else say("inventory.kinds", count=kinds))
        return count, say("inventory.pieces", kind=kind, size=size, names=names)


class TokenFile(ItemsFile, ShapeFields):
    """kind: token: round, hexagonal or square pieces, one or two faces, packed tightly on the sheets."""

    kind: Literal["token"]
    gap: Length | None = Field(None, description="space between tokens on the sheet (default: 0 for hex and "
                                                 "square, which share cut edges; 2mm for circle and rounded)")

    _gap = field_validator("gap")(
        classmethod(lambda _cls, v: v if v is None or to_pt(v) >= 0 else positive_length(v))
    )

    tts_object: ClassVar[str | None] = "Custom_Tile"

    def outline(self) -> Shape:
        return self.to_shape()

    def two_sided(self) -> bool:
        return self.back is not None

    def has_back_face(self) -> bool:
        return self.back is not None

    def face_size(self) -> tuple[float, float]:
        shape = self.to_shape()
        return shape.width, shape.height

    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        shape = self.to_shape()
        return shape_words(shape, phrases), _mms(shape.width, shape.height)

    def assembly_text(self, game: Game, component: Component) -> str:
        say = game.phrases.t
        one = component.copies == 1
        shared = ("" if one else say("assembly.tokens_shared")
                  if self.gap is None and self.shape in ("hex", "square") else "")
        backs = say("assembly.token_back" if one else "assembly.tokens_back") if self.two_sided() else ""
        words = say("assembly.token" if one else "assembly.tokens", **name_words(component.name))
        return words + shared + backs


class StandeeFile(ItemsFile):
    """kind: standee: a fold-over figure (front, fold, mirrored back) on feet that slot into a base."""

    kind: Literal["standee"]
    width: Length
    height: Length
    foot: Length = Field("12mm", description="height of the feet (and of the base) that hold it up")
    base: Length | None = Field(
        None, description="length of the base piece (default: 1.2 x width, at least 30mm)"
    )

    _sizes = field_validator("width", "height", "foot", "base")(
        classmethod(lambda _cls, v: v if v is None else positive_length(v)))

    made_up: ClassVar[bool] = True
    tts_object: ClassVar[str | None] = "Figurine_Custom"

    def has_back_face(self) -> bool:
        return bool(self.back)

    def face_size(self) -> tuple[float, float]:
        return to_pt(self.width), to_pt(self.height)

    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        w, h = self.face_size()
        return phrases.t("sizes.mm", width=f"{w / mm(1):.0f}", height=f"{h / mm(1):.0f}"), _mms(w, h)

    def assembly_text(self, game: Game, component: Component) -> str:
        return game.phrases.t("assembly.standee")


class DieFace(Strict):
    """One face of a printable die: pips, text, an icon or a layout of its own."""

    pips: int | None = Field(None, ge=1, le=6)
    text: str | None = None
    icon: str | None = None
    layout: str | None = None
    fill: HexColor | None = None
    color: HexColor | None = None

    @model_validator(mode="after")
    def _one_kind(self):
        given = [k for k in ("pips", "text", "icon", "layout") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                f"a face shows {', '.join(given) or 'nothing'}; expected exactly one of pips, text, icon, "
                "layout"
            )
        return self


class DieFile(ComponentFile):
    """kind: die: a cube net of six faces with glue tabs."""

    kind: Literal["die"]
    size: Length = Field(description="edge of the cube")
    copies: Copies = 1
    layout: str | None = Field(None, description="layout drawn on every face (templates see `face`)")
    fill: HexColor = "#ffffff"
    color: HexColor = "#222222"
    faces: list[DieFace] | None = Field(None, description="the six faces (or `cards_from:`)")
    cards_from: str | CardSource | None = Field(
        None, description="a .csv, .xlsx or .ods file (or {file, sheet, ...}) with one row per face "
                          "(columns pips, text, icon, layout, fill, color), instead of `faces:`")

    _size = field_validator("size")(classmethod(lambda _cls, v: positive_length(v)))

    @field_validator("faces")
    @classmethod
    def _six(cls, faces):
        if faces is not None and len(faces) != 6:
            raise ValueError(
                f"a die with {len(faces)} face{'s' if len(faces) != 1 else ''}; expected exactly 6"
            )
        return faces

    @property
    def source(self) -> CardSource | None:
        """The spreadsheet of the faces, or None when they are written in `faces:`."""
        return sheet_source(self.cards_from)

    made_up: ClassVar[bool] = True
    tts_object: ClassVar[str | None] = "Custom_Dice"
    face_aliases: ClassVar[tuple[str, ...]] = ("face",)

    def drawn_by_layout(self, card: Card | None) -> bool:
        return card is not None and card.layout is not None

    def face_size(self) -> tuple[float, float]:
        return to_pt(self.size), to_pt(self.size)

    def face_layout(self) -> str | None:
        return self.layout

    def printed_copies(self, items: list[Card]) -> int:
        return self.copies

    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        edge = to_pt(self.size)
        return phrases.t("sizes.cube", edge=f"{edge / mm(1):.0f}"), _mms(edge, edge, edge)

    def inventory_entry(self, game: Game, component: Component, size: str) -> tuple[int, str]:
        return _printed(game, component, size)

    def assembly_text(self, game: Game, component: Component) -> str:
        copies = component.copies
        return game.phrases.t("assembly.dice", count=copies) if copies > 1 else game.phrases.t("assembly.die")


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


class TuckboxFile(ComponentFile):
    """kind: tuckbox: a box folded from one sheet for a deck (or decks of one card size)."""

    kind: Literal["tuckbox"]
    deck: Slug | None = None
    decks: list[Slug] | None = None
    thickness: Length = Field(
        "0.32mm", description="thickness of one card (250-300 gsm cardstock: 0.28-0.35mm); default the "
                              "game's card_thickness"
    )
    clearance: Length = Field("2mm", description="room added to the card width, height and the deck depth")
    boxes: Copies | Literal["auto"] = Field(
        "auto", description="boxes the deck is shared between; auto: the fewest whose net fits Letter and A4"
    )
    color: HexColor = "#333333"
    label: str | None = Field(None, description="text on the front (default: the deck names)")

    _thickness = field_validator("thickness")(classmethod(lambda _cls, v: positive_length(v)))
    _clearance = field_validator("clearance")(
        classmethod(lambda _cls, v: v if to_pt(v) >= 0 else positive_length(v))
    )

    @model_validator(mode="after")
    def _which_decks(self):
        if (self.deck is None) == (self.decks is None):
            raise ValueError(
                "a tuck box holds `deck: ID` or `decks: [ID, ...]`; expected exactly one of them"
            )
        if self.decks is not None and not self.decks:
            raise ValueError("`decks` is empty; expected at least one deck id")
        return self

    text_keys: ClassVar[tuple[str, ...]] = (*ComponentFile.text_keys, "label")
    made_up: ClassVar[bool] = True
    full_size_pages: ClassVar[bool] = True

    @property
    def deck_ids(self) -> list[str]:
        return [self.deck] if self.deck is not None else list(self.decks or [])

    def plan(self, decks: dict[str, Deck]) -> list[TuckboxSize] | None:
        """The boxes (None when its decks are unknown or nothing fits the paper).

        With `boxes: auto` the deck is shared between the fewest boxes whose net fits Letter and A4, so the
        same number of boxes is printed whatever the paper."""
        held = [decks[d] for d in self.deck_ids if d in decks]
        if len(held) != len(self.deck_ids):
            return None
        card_w = max(d.size_pt[0] for d in held)
        card_h = max(d.size_pt[1] for d in held)
        cards = sum(d.copies for d in held)
        counts = range(1, cards + 1) if self.boxes == "auto" else [self.boxes]
        for boxes in counts:
            sizes = tuckbox_sizes(self, card_w, card_h, cards, boxes)
            if all(fits_every_paper(*size.net_size) for size in sizes):
                return sizes
        return None

    def folded_boxes(self, decks: dict[str, Deck]) -> list[TuckboxSize]:
        return self.plan(decks) or []

    def face_size(self) -> tuple[float, float]:
        return 0.0, 0.0

    def face_layout(self) -> str | None:
        return None

    def printed_copies(self, items: list[Card]) -> int:
        return 1

    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        plan = self.plan(decks)
        if not plan:
            return "", []
        box = plan[0]
        return (phrases.t("sizes.inside", width=phrases.number(box.width / mm(1), 1),
                          height=phrases.number(box.height / mm(1), 1),
                          depth=phrases.number(box.depth / mm(1), 1)),
                _mms(box.width, box.height, box.depth))

    def _deck_names(self, game: Game) -> str:
        return game.phrases.join_and([game.decks[d].name for d in self.deck_ids if d in game.decks])

    def inventory_entry(self, game: Game, component: Component, size: str) -> tuple[int, str]:
        say = game.phrases.t
        plan = self.folded_boxes(game.decks)
        names = self._deck_names(game)
        cards = sorted({box.cards for box in plan})
        held = say("inventory.cards_each", cards=cards[0]) if len(cards) == 1 and len(plan) > 1 else (
            say("inventory.cards_each", cards=f" {say('words.or')} ".join(map(str, cards))) if len(plan) > 1
            else say("inventory.cards", count=plan[0].cards) if plan else "")
        detail = (say("inventory.for_decks_held", decks=names, held=held) if held
                  else say("inventory.for_decks", decks=names))
        return len(plan), detail

    def _depth(self, game: Game, plan: list[TuckboxSize], fallback: str) -> str:
        return game.phrases.t("assembly.depth_mm", depth=f"{plan[0].depth / mm(1):.0f}") if plan else fallback

    def assembly_text(self, game: Game, component: Component) -> str:
        say = game.phrases.t
        plan = self.folded_boxes(game.decks)
        share = (say("assembly.tuckbox_share", decks=self._deck_names(game), boxes=len(plan),
                     cards=plan[0].cards) if len(plan) > 1 else "")
        depth = self._depth(game, plan, say("assembly.depth_unknown"))
        return say("assembly.tuckbox", depth=depth, share=share)

    def made_alike(self, game: Game, component: Component) -> str:
        say = game.phrases.t
        plan = self.folded_boxes(game.decks)
        return say("assembly.same_depth", depth=self._depth(game, plan, "")) + (
            say("assembly.same_times", boxes=len(plan)) if len(plan) > 1 else "")


def tuckbox_sizes(model: TuckboxFile, card_w: float, card_h: float, cards: int,
                  boxes: int) -> list[TuckboxSize]:
    """The boxes that share `cards` cards of card_w x card_h points (the first boxes take the spare cards)."""
    clearance, thickness = to_pt(model.clearance), to_pt(model.thickness)
    per_box = [cards // boxes + (1 if i < cards % boxes else 0) for i in range(boxes)]
    sizes = []
    for number, count in enumerate(per_box, start=1):
        depth = count * thickness + clearance
        tuck = max(TUCK_FLAP_MIN, min(depth + mm(5), TUCK_FLAP_MAX))
        sizes.append(TuckboxSize(number, boxes, count, card_w + clearance, card_h + clearance, depth,
                                 tuck=tuck))
    return sizes


class SheetColumn(Strict):
    """A column of a printed table."""

    header: str = ""
    width: Length | None = Field(
        None, description="default: the width left, shared with other columns without one"
    )
    text: str = Field("", description="template of each cell; sees `row` (and `number`, 1, 2, ...)")
    repeat: PositiveInt = Field(
        1, description="this column this many times (one per player); `n` counts them"
    )
    align: Literal["left", "center", "right"] = "center"

    _width = field_validator("width")(classmethod(lambda _cls, v: v if v is None else positive_length(v)))


class SheetRows(Strict):
    """Rows taken from a table or deck of the game: one row per table row (card type)."""

    source: Slug = Field(alias="from", description="a table id or deck id")


class SheetFile(ComponentFile):
    """kind: sheet: a printed table page, such as a score pad or a player aid."""

    kind: Literal["sheet"]
    title: str = Field("", description="template; default: the name")
    size: Literal["page"] | CardSize = Field(
        "page", description="page: one per printed page; else a pad size"
    )
    copies: Copies = 1
    columns: list[SheetColumn] = Field(min_length=1)
    rows: PositiveInt | SheetRows = Field(description="blank rows (a score pad) or {from: table}")
    total: str | None = Field(None, description="label of a last row for totals")
    notes: list[str] = Field(default_factory=list, description="lines printed under the table (templates)")

    @field_validator("rows")
    @classmethod
    def _rows_in_limit(cls, rows):
        if isinstance(rows, int) and rows > MAX_PAD_ROWS:  # checked before a row is laid out
            raise LimitExceeded(f"{rows:,} blank rows; expected at most {MAX_PAD_ROWS:,} (pnp's limit for "
                                "one sheet; a longer pad is several copies)")
        return rows

    @field_validator("columns")
    @classmethod
    def _columns_in_limit(cls, columns):
        count = sum(column.repeat for column in columns)
        if count > MAX_PAD_COLUMNS:
            raise LimitExceeded(f"{count:,} columns (repeats counted); expected at most {MAX_PAD_COLUMNS} "
                                "(pnp's limit for one sheet)")
        return columns

    text_keys: ClassVar[tuple[str, ...]] = (*ComponentFile.text_keys, "title", "total")

    def face_size(self) -> tuple[float, float]:
        return 0.0, 0.0

    def face_layout(self) -> str | None:
        return None

    def printed_copies(self, items: list[Card]) -> int:
        return self.copies

    def size_text(self, decks: dict[str, Deck], phrases: Phrases) -> tuple[str, list[float]]:
        if self.size == "page":
            return phrases.t("sizes.page"), []
        w, h = to_pt(self.size.width), to_pt(self.size.height)
        return phrases.t("sizes.mm", width=f"{w / mm(1):.0f}", height=f"{h / mm(1):.0f}"), _mms(w, h)

    def inventory_entry(self, game: Game, component: Component, size: str) -> tuple[int, str]:
        return _printed(game, component, size)

    def assembly_text(self, game: Game, component: Component) -> str:
        key = "assembly.sheet_page" if self.size == "page" else "assembly.sheet_pad"
        return game.phrases.t(key, **name_words(component.name))


MODELS: dict[str, type[ComponentFile]] = {
    "token": TokenFile, "standee": StandeeFile, "die": DieFile, "tuckbox": TuckboxFile, "sheet": SheetFile}
"""The model of each component kind, in print order (the component sheets and the rules take kinds so)."""

KINDS = tuple(MODELS)
