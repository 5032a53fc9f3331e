"""Typed models of component files (`component:` as the top-level key) and of shaped sizes (pydantic).

Every component file names its `kind`: token, standee, die, tuckbox or sheet; each kind has its own model
here. Items of tokens and standees are typed like a deck's cards, against the file's own `fields`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from generator.core.units import to_pt
from generator.data.models import (
    CardSize,
    Code,
    FieldSpec,
    HexColor,
    Length,
    PositiveInt,
    ShapeFields,
    Slug,
    Strict,
    positive_length,
)

KINDS = ("token", "standee", "die", "tuckbox", "sheet")


class ComponentFile(Strict):
    """What every component file has: its id, kind, name and words for the rules."""

    component: Slug
    kind: str
    name: str
    code: Code | None = Field(None, description="short code of the item codes (default: from the id)")
    description: str = ""
    assembly: str | None = Field(None, description="how to make it, for the rules (default: written from the data)")


class ItemsFile(ComponentFile):
    """A component whose pieces are items like a deck's cards: id, name, copies and the declared fields."""

    layout: str | None = Field(None, description="front layout (layouts/<name>.yaml); default: the component id")
    back: str | None = Field(None, description="back layout")
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    items: list[dict] = Field(min_length=1)


class TokenFile(ItemsFile, ShapeFields):
    """kind: token: round, hexagonal or square pieces, one or two faces, packed tightly on the sheets."""

    kind: Literal["token"]
    gap: Length | None = Field(None, description="space between tokens on the sheet (default: 0 for hex and "
                                                 "square, which share cut edges; 2mm for circle and rounded)")

    _gap = field_validator("gap")(classmethod(lambda cls, v: v if v is None or to_pt(v) >= 0 else positive_length(v)))


class StandeeFile(ItemsFile):
    """kind: standee: a fold-over figure (front, fold, mirrored back) on feet that slot into a base."""

    kind: Literal["standee"]
    width: Length
    height: Length
    foot: Length = Field("12mm", description="height of the feet (and of the base) that hold it up")
    base: Length | None = Field(None, description="length of the base piece (default: 1.2 x width, at least 30mm)")

    _sizes = field_validator("width", "height", "foot", "base")(
        classmethod(lambda cls, v: v if v is None else positive_length(v)))


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
            raise ValueError(f"a face shows {', '.join(given) or 'nothing'}; expected exactly one of pips, text, icon, layout")
        return self


class DieFile(ComponentFile):
    """kind: die: a cube net of six faces with glue tabs."""

    kind: Literal["die"]
    size: Length = Field(description="edge of the cube")
    copies: PositiveInt = 1
    layout: str | None = Field(None, description="layout drawn on every face (templates see `face`)")
    fill: HexColor = "#ffffff"
    color: HexColor = "#222222"
    faces: list[DieFace]

    _size = field_validator("size")(classmethod(lambda cls, v: positive_length(v)))

    @field_validator("faces")
    @classmethod
    def _six(cls, faces):
        if len(faces) != 6:
            raise ValueError(f"a die with {len(faces)} face{'s' if len(faces) != 1 else ''}; expected exactly 6")
        return faces


class TuckboxFile(ComponentFile):
    """kind: tuckbox: a box folded from one sheet for a deck (or decks of one card size)."""

    kind: Literal["tuckbox"]
    deck: Slug | None = None
    decks: list[Slug] | None = None
    thickness: Length = Field("0.32mm", description="thickness of one card (250-300 gsm cardstock: 0.28-0.35mm)")
    clearance: Length = Field("2mm", description="room added to the card width, height and the deck depth")
    boxes: PositiveInt | Literal["auto"] = Field("auto", description="boxes the deck is shared between; auto: "
                                                                    "the fewest whose net fits Letter and A4")
    color: HexColor = "#333333"
    label: str | None = Field(None, description="text on the front (default: the deck names)")

    _thickness = field_validator("thickness")(classmethod(lambda cls, v: positive_length(v)))
    _clearance = field_validator("clearance")(classmethod(lambda cls, v: v if to_pt(v) >= 0 else positive_length(v)))

    @model_validator(mode="after")
    def _which_decks(self):
        if (self.deck is None) == (self.decks is None):
            raise ValueError("a tuck box holds `deck: ID` or `decks: [ID, ...]`; expected exactly one of them")
        if self.decks is not None and not self.decks:
            raise ValueError("`decks` is empty; expected at least one deck id")
        return self

    @property
    def deck_ids(self) -> list[str]:
        return [self.deck] if self.deck is not None else list(self.decks or [])


class SheetColumn(Strict):
    """A column of a printed table."""

    header: str = ""
    width: Length | None = Field(None, description="default: the width left, shared with other columns without one")
    text: str = Field("", description="template of each cell; sees `row` (and `number`, 1, 2, ...)")
    repeat: PositiveInt = Field(1, description="this column this many times (one per player); `n` counts them")
    align: Literal["left", "center", "right"] = "center"

    _width = field_validator("width")(classmethod(lambda cls, v: v if v is None else positive_length(v)))


class SheetRows(Strict):
    """Rows taken from a table or deck of the game: one row per table row (card type)."""

    source: Slug = Field(alias="from", description="a table id or deck id")


class SheetFile(ComponentFile):
    """kind: sheet: a printed table page, such as a score pad or a player aid."""

    kind: Literal["sheet"]
    title: str = Field("", description="template; default: the name")
    size: Literal["page"] | CardSize = Field("page", description="page: one per printed page; else a pad size")
    copies: PositiveInt = 1
    columns: list[SheetColumn] = Field(min_length=1)
    rows: PositiveInt | SheetRows = Field(description="blank rows (a score pad) or {from: table}")
    total: str | None = Field(None, description="label of a last row for totals")
    notes: list[str] = Field(default_factory=list, description="lines printed under the table (templates)")


MODELS: dict[str, type[ComponentFile]] = {
    "token": TokenFile, "standee": StandeeFile, "die": DieFile, "tuckbox": TuckboxFile, "sheet": SheetFile}
