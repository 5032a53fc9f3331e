"""Typed models of the YAML files (pydantic): unknown keys, wrong types and missing fields are errors."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    create_model,
    field_validator,
    model_validator,
)

from generator.core.geometry import PaperError, paper_key
from generator.core.ids import SLUG
from generator.core.limits import (
    DEFAULT_IMAGE_DPI,
    LEAST_IMAGE_DPI,
    MAX_BLEED_PT,
    MAX_COPIES,
    MAX_GRID_CELLS,
    MAX_LENGTH_PT,
    MAX_SHEET_ROWS,
    MOST_IMAGE_DPI,
    LimitExceeded,
    in_range,
)
from generator.core.shapes import Shape
from generator.core.units import CARD_SIZES_MM, MM, to_pt

Slug = Annotated[
    str, Field(pattern=SLUG.pattern, description="lower-case id: a-z without accents, digits, - and _")
]
HexColor = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="colour as #rrggbb")]
Code = Annotated[str, Field(pattern=r"^[A-Z0-9]{2,6}$", description="short upper-case code for card codes")]
# Strict: `copies: true` or `count: "3"` is a mistake, not 1 or 3.
PositiveInt = Annotated[int, Field(ge=1, strict=True)]
Copies = Annotated[
    int, Field(ge=1, le=MAX_COPIES, strict=True, description=f"copies printed, 1 to {MAX_COPIES}")
]
Finite = Annotated[float, Field(allow_inf_nan=False, strict=True)]
LanguageCode = Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
                                    description="a language code such as en, de, cs or pt-BR")]


def _length_between(low: float | None, high: float | None, what: str):
    """A validator: the length is finite and within [low, high] points (shown in mm)."""
    def check(_cls, value):
        in_range(to_pt(value) / MM, None if low is None else low / MM, None if high is None else high / MM,
                 what, " mm")
        return value
    return classmethod(check)


class Strict(BaseModel):
    """Base model: every key must be known."""

    model_config = ConfigDict(extra="forbid", frozen=False)


Length = Annotated[str | int | float, Field(description="length such as '63mm', '2.5in' or '9pt'")]


class CardSize(Strict):
    """A custom card size."""

    width: Length
    height: Length

    _w = field_validator("width", "height")(_length_between(0.01 * MM, MAX_LENGTH_PT, "the card size"))


def positive_length(value: Any) -> Any:
    """A length that parses and is above zero (the message says which it is)."""
    points = to_pt(value)  # raises UnitError (a ValueError) for text that is not a length
    if points <= 0:
        raise ValueError(
            f"{value} is {'no size at all' if points == 0 else 'a negative size'}; expected a size above 0"
        )
    return value


# One card's thickness by name (game.yaml `card_thickness`): what the tuck boxes' depth is made of.
CARD_THICKNESS = {"standard": "0.32mm", "thick": "0.4mm", "sleeved": "0.5mm"}
CARD_THICKNESS_RANGE_MM = (0.1, 3.0)


def card_thickness(value: Any) -> str:
    """A card thickness: a preset name (standard, thick, sleeved) as its length, or a length between 0.1 and
    3 mm."""
    named = CARD_THICKNESS.get(str(value).strip().lower()) if isinstance(value, str) else None
    if named is not None:
        return named
    expected = (f"expected a length such as 0.32mm between {CARD_THICKNESS_RANGE_MM[0]:g} and "
                f"{CARD_THICKNESS_RANGE_MM[1]:g} mm, or one of: "
                + ", ".join(f"{name} ({length})" for name, length in CARD_THICKNESS.items()))
    try:
        points = to_pt(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a card thickness; {expected}") from None
    low, high = (v * MM for v in CARD_THICKNESS_RANGE_MM)
    if not low <= points <= high:
        raise ValueError(f"{value} is {'too thin' if points < low else 'too thick'} for a card; {expected}")
    return str(value)


class ShapeFields(Strict):
    """The outline of a token or of a round/hex card: shape and size."""

    shape: Literal["circle", "hex", "square", "rounded"]
    across: Length | None = Field(
        None, description="hex: across flats; circle: diameter; square/rounded: side"
    )
    diameter: Length | None = Field(None, description="circle: the same as `across`")
    orientation: Literal["flat", "pointy"] | None = Field(
        None, description="hex: flat top (default) or pointy top"
    )
    radius: Length | None = Field(None, description="rounded: corner radius (default 3mm)")

    _sizes = field_validator("across", "diameter", "radius")(
        classmethod(lambda _cls, v: v if v is None else positive_length(v))
    )

    @model_validator(mode="after")
    def _one_size(self):
        if (self.across is None) == (self.diameter is None):
            raise ValueError(
                f"a {self.shape} needs its size: give `across` (or `diameter` for a circle), not both"
            )
        if self.diameter is not None and self.shape != "circle":
            raise ValueError(f"`diameter` is for circles; a {self.shape} takes `across`")
        if self.orientation is not None and self.shape != "hex":
            raise ValueError(f"`orientation` is for hexagons; a {self.shape} has none")
        if self.radius is not None and self.shape != "rounded":
            raise ValueError(f"`radius` is for rounded squares; a {self.shape} has none")
        if (
            self.shape == "rounded"
            and self.radius is not None
            and to_pt(self.radius) * 2 > to_pt(self.across)
        ):
            raise ValueError(f"corner radius {self.radius} is more than half the side {self.across}")
        return self

    def to_shape(self) -> Shape:
        """The outline in points."""
        size = self.across if self.across is not None else self.diameter
        assert size is not None  # the model validator requires one of them
        across = to_pt(size)
        return Shape(self.shape, across, self.orientation or "flat", to_pt(self.radius or "3mm"))


class ShapedSize(ShapeFields):
    """A deck size of round, hexagonal or square cards: `{shape: hex, across: 2in}`."""


def _size_kind(value: Any) -> str | None:
    """Which kind of card size a value is: a preset name, {width, height} or {shape, ...}."""
    if isinstance(value, str):
        return "str"
    if isinstance(value, dict):
        return "ShapedSize" if "shape" in value else "CardSize"
    if isinstance(value, BaseModel):
        return type(value).__name__
    return None


SizeSpec = Annotated[
    Annotated[str, Tag("str")]
    | Annotated[CardSize, Tag("CardSize")]
    | Annotated[ShapedSize, Tag("ShapedSize")],
    Discriminator(
        _size_kind,
        custom_error_type="size_type",
        custom_error_message="expected a size name, {width, height} or {shape, across}",
    ),
]


def known_size(value):
    """A preset card size name must exist (sizes written as mappings are checked by their models)."""
    if isinstance(value, str) and value not in CARD_SIZES_MM:
        raise ValueError(f"unknown card size '{value}'; expected one of {', '.join(CARD_SIZES_MM)}, "
                         "{width, height} or {shape: circle|hex|square|rounded, across}")
    return value


class PlayerRange(Strict):
    """Supported player counts."""

    min: PositiveInt
    max: PositiveInt

    @model_validator(mode="after")
    def _possible(self):
        if self.min > self.max:
            raise ValueError(f"min {self.min} is more than max {self.max}, so no player count is possible; "
                             f"expected min <= max, e.g. {{min: {self.max}, max: {self.min}}}")
        return self


class Extra(Strict):
    """A physical component that is not printed (a bell, a pawn), listed in the rules' component list."""

    name: str
    count: PositiveInt
    note: str = ""


class EngineModule(Strict):
    """game.yaml `engine: {module: ...}` (the game's rules engine, Python written in the project) or
    `engine: {rules: ...}` (its rules described in the rules language, docs/rules-language.md): exactly
    one."""

    module: str | None = Field(
        None,
        description="a .py file or a package folder (with __init__.py), relative to "
        "the game folder, defining ENGINE = Engine(...); run by pnp "
        "validate, replay and sweep only",
    )
    rules: str | None = Field(
        None,
        validate_default=True,
        description="a rules file of the rules language (e.g. rules.yaml), relative to the "
        "game folder, played by pnp validate, replay and sweep",
    )

    @field_validator("rules")
    @classmethod
    def _one_door(cls, rules, info):
        # a field's check, not the model's: a union's message is reported at the key that is wrong
        module = info.data.get("module")
        if (module is None) == (rules is None):
            raise ValueError(
                f"engine has {'both module and rules' if module else 'neither module nor rules'}; "
                "expected exactly one: {module: engine.py} (Python) or {rules: rules.yaml} (the rules "
                "language)"
            )
        return rules


class PrintSettings(Strict):
    """game.yaml `print:`: how the home-print card sheets are made; the same `pnp build` flags win over it."""

    gap: Length = Field("0mm", description="space between cards on the sheet (0: butted, shared cut lines)")
    marks: Literal["crop", "lines", "both"] = Field(
        "crop", description="crop: marks in the margins; lines: full-length cut lines outside the cards; both"
    )
    pack: bool = Field(False, description="decks of the same card size continue on the same sheet")
    ink: Literal["normal", "saver"] = Field(
        "normal", description="saver: backs and large fills as light tints"
    )
    cut_file: Literal["svg", "none"] = Field("none", description="svg: one cut file per sheet beside the PDF")
    cut_machine: Literal["none", "cricut", "silhouette", "scanncut"] = Field(
        "none", description="sheets for a print-and-cut machine: its cut area and marks, and cut files"
    )
    colour: Literal["rgb", "cmyk"] = Field(
        "rgb", description="cmyk: card sheets as PDF/X in press CMYK (cards-<paper>-cmyk.pdf)"
    )

    @field_validator("gap")
    @classmethod
    def _gap_range(cls, value):
        return _check_range(value, 50)


class StampSettings(Strict):
    """game.yaml `stamp:` as a mapping: where the small version stamp is printed and what it says."""

    side: Literal["back", "front", "both"] = Field(
        "back", description="the side of each card it is printed on"
    )
    corner: Literal["top-left", "top", "top-right", "bottom-left", "bottom", "bottom-right"] = Field(
        "bottom-right", description="where on that side: a corner, or the middle of the top or bottom edge"
    )
    inset: Length | None = Field(
        None, description="from the trim edge to the stamp (default: the safe margin, `safe:`)"
    )
    text: str = Field(
        "{{ card.revision }}",
        description="what it says, a card template (build.revision, build.date and card.revision may be "
                    "used)",
    )
    color: HexColor | Literal["auto"] = Field(
        "auto",
        description="its colour; auto: dark or white, whichever reads best on the layout's fills under it",
    )
    size: Length = Field("6pt", description="its font size (6pt at least)")

    @field_validator("inset")
    @classmethod
    def _inset_range(cls, value):
        return value if value is None else _check_range(value, 20)

    @field_validator("size")
    @classmethod
    def _readable_size(cls, value):
        if to_pt(value) < 6 or to_pt(value) > 24:
            raise ValueError(f"{value} is no size for a stamp; expected 6pt to 24pt")
        return value


def _check_range(value: Any, most_mm: float) -> Any:
    """A length from 0 to `most_mm` millimetres."""
    points = to_pt(value)
    if not 0 <= points <= most_mm * to_pt("1mm"):  # also refuses NaN
        raise ValueError(f"'{value}' is out of range; expected 0 to {most_mm:g} mm")
    return value


class FontSpec(Strict):
    """A font family: a .ttf or .otf file per style (paths inside the game folder or templates/)."""

    regular: str | None = Field(None, description="the face of plain text (required)")
    bold: str | None = Field(None, description="the face of **bold** text")
    italic: str | None = Field(None, description="the face of *italic* text")
    bold_italic: str | None = Field(None, description="the face of bold italic text")
    fallback: list[str] = Field(
        default_factory=list,
        description="fonts (by name) that draw the characters this one lacks, before the built-in Noto Sans",
    )


class CheckSpec(Strict):
    """A composition rule of the game, checked by `pnp build` and `pnp validate`
    (generator.data.game_checks)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(description="what the check makes sure of; problems name it")
    assert_: str = Field(alias="assert", description="an expression that must be true (for each item)")
    for_each: str | dict[str, str] | None = Field(
        None,
        description="an expression giving the items (each is `item`), or {name: expression, ...} for nested "
        "loops where later expressions may use earlier names",
    )
    let: dict[str, str] = Field(
        default_factory=dict, description="names for expressions, evaluated in order once, before `for_each`"
    )
    with_: dict[str, str] = Field(
        default_factory=dict,
        alias="with",
        description="names for expressions of each item, evaluated in order before `assert`",
    )
    message: str | None = Field(None, description="a template saying what is wrong, e.g. '{{ deck.id }} has "
                                                  "{{ deck.copies }} cards; expected 91'")


def _stamp_may_be_a_switch(schema: dict) -> None:
    """game.yaml's schema lets `stamp:` be true or false as well as a mapping (the validator turns them into
    one)."""
    choices = schema.get("anyOf")
    if isinstance(choices, list):
        choices.insert(0, {"type": "boolean"})


class GameConfig(Strict):
    """game.yaml: game-wide settings."""

    title: str
    subtitle: str = ""
    code: Code
    players: PlayerRange
    ages: str = ""
    play_time: str = ""
    designer_notes: str = ""
    card_size: SizeSpec = "poker"
    bleed: Length = "3mm"
    safe: Length = "3mm"
    corner_radius: Length | None = Field(
        None,
        description="rounded card corners in cut files and PNG, TTS and preview exports (printed sheets stay "
                    "square)",
    )
    card_thickness: Length = Field(
        CARD_THICKNESS["standard"],
        description="one card's thickness, which the tuck boxes' depth is made of: a length (0.32mm) or "
                    "standard (0.32mm, 250-300 gsm), thick (0.4mm, 350 gsm and more) or sleeved (0.5mm, a "
                    "card in a sleeve); a tuck box's own `thickness` wins",
    )
    print: PrintSettings = Field(
        default_factory=PrintSettings, description="card sheet options (pnp build flags win)"
    )
    stamp: StampSettings | None = Field(
        None,
        json_schema_extra=_stamp_may_be_a_switch,
        description="true: each card's revision ({{ card.revision }}) printed small in a corner of its "
                    "back; a mapping chooses {side, corner, inset, text, color, size}",
    )
    paper: str | list[str] | None = Field(
        None,
        description="the papers of the home-print sheets (card sheets, tiled boards, booklets, components) "
                    "when pnp build has no --paper: letter, a4, legal, tabloid, a3 or WIDTHxHEIGHT such as "
                    "300x450mm; default letter and a4",
    )
    engine: str | EngineModule | None = Field(
        None,
        description="the rules engine that pnp validate, replay and sweep play: the name of an installed "
                    "one, "
        "{module: engine.py} for Python in the game folder, or {rules: rules.yaml} for rules described "
        "in the rules language",
    )
    decks: list[Slug] = Field(description="deck ids in print order; each is <deck>.yaml in the game folder")
    settings: dict[str, Any] = Field(
        default_factory=dict, description="rule parameters read by the engine and rules text"
    )
    extras: list[Extra] = Field(default_factory=list, description="things in the box that are not printed")
    checks: list[CheckSpec] = Field(
        default_factory=list, description="composition rules as data: {name, assert, for_each, let, message}"
    )
    fonts: dict[Slug, str | FontSpec] = Field(
        default_factory=dict,
        description="fonts by name: a file (path.ttf) or {regular, bold, italic, bold_italic, "
        "fallback}; `title` and `body` may be redefined",
    )
    art: str | None = Field(
        None,
        description="where `image: auto` finds a card's art: a path in the game folder with {deck}, {id} "
                    "and {code} (default images/{deck}/{id}; .png, .jpg, .jpeg and .svg are tried)",
    )
    max_image_dpi: int = Field(
        DEFAULT_IMAGE_DPI,
        strict=True,
        description=f"the finest a raster picture is printed: one finer at the size it is printed is "
                    f"downsampled to it (Lanczos), so a big scan does not make a huge PDF; {LEAST_IMAGE_DPI} "
                    f"to {MOST_IMAGE_DPI} dots per inch, default {DEFAULT_IMAGE_DPI}",
    )
    typography: bool = Field(
        True,
        description="card texts get typographic dashes: a hyphen before a number is a minus sign (-2 to "
                    "\u22122), one between two numbers an en dash (2-5 to 2\u20135); false prints hyphens as "
                    "written",
    )
    languages: list[LanguageCode] = Field(
        default_factory=list,
        description="the game's languages, the source language (the one its files are written "
        "in) first; each other one is translated in i18n/<language>.yaml",
    )

    @field_validator("stamp", mode="before")
    @classmethod
    def _stamp_switch(cls, value):
        """`stamp: true` is the stamp with its defaults, `false` none; a mapping chooses its options."""
        if value is True:
            return {}
        if value is False or value is None:
            return None
        if not isinstance(value, dict):
            shown = "a list" if isinstance(value, list) else repr(value)
            raise ValueError(f"{shown} is no stamp; expected true, false or a mapping of side, corner, "
                             "inset, text, color, size")
        return value

    @field_validator("languages")
    @classmethod
    def _languages_once(cls, value):
        twice = sorted({code for code in value if value.count(code) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} listed twice; expected each language once")
        return value

    @field_validator("paper")
    @classmethod
    def _known_papers(cls, value):
        if value is None:
            return value
        names = [value] if isinstance(value, str) else value
        if not names:
            raise ValueError("no paper listed; expected one or more of letter, a4, legal, tabloid, a3 or "
                             "WIDTHxHEIGHT")
        try:
            return list(dict.fromkeys(paper_key(str(name).strip().lower()) for name in names))
        except PaperError as exc:
            raise ValueError(str(exc)) from None

    _bleed = field_validator("bleed", "safe")(_length_between(0.0, MAX_BLEED_PT, "the length"))
    _radius = field_validator("corner_radius")(
        classmethod(lambda _cls, v: v if v is None else _check_range(v, 20))
    )

    @field_validator("max_image_dpi")
    @classmethod
    def _image_dpi_range(cls, value):
        if not LEAST_IMAGE_DPI <= value <= MOST_IMAGE_DPI:
            raise ValueError(f"{value} dpi is out of range; expected {LEAST_IMAGE_DPI} to {MOST_IMAGE_DPI} "
                             f"dots per inch (below {LEAST_IMAGE_DPI} pictures print soft)")
        return value

    _known_size = field_validator("card_size")(classmethod(lambda _cls, v: known_size(v)))
    _card_thickness = field_validator("card_thickness")(classmethod(lambda _cls, v: card_thickness(v)))


FieldType = Literal[
    "text", "int", "number", "bool", "color", "choice", "ref", "refs", "counts", "address", "list", "icon"
]


class FieldSpec(Strict):
    """The declaration of one data field that cards (or table rows) of a deck may carry."""

    type: FieldType
    required: bool = True
    default: Any = None
    choices: list[str] | None = None
    to: str | None = Field(
        None, description="collection a ref/refs/counts points into: a deck, a table or <board>.spaces"
    )
    min: Finite | None = None
    max: Finite | None = None
    help: str = ""
    translate: bool | None = Field(
        None,
        description="translated in i18n/<language>.yaml (default: yes for text and "
        "list fields, which print words; no for the others)",
    )

    @model_validator(mode="after")
    def _translate_words(self):
        if self.translate and self.type not in ("text", "list"):
            raise ValueError(
                f"a {self.type} field is data, not words; expected `translate: true` only on text and "
                "list fields"
            )
        return self

    @property
    def translatable(self) -> bool:
        """Whether a translation may (and should) give this field in another language."""
        return self.translate if self.translate is not None else self.type in ("text", "list")


class CardSource(Strict):
    """A spreadsheet holding a deck's cards (or a table's rows, a component's items): one row per card type
    below a header row that names the columns (docs/data-format.md, "Cards in a spreadsheet")."""

    file: str | None = Field(None, description="a .csv, .xlsx or .ods file, relative to the game folder")
    url: str | None = Field(None, description="a live sheet: an https:// address (a published Google Sheet "
                                              "as CSV or XLSX) that `pnp pull` downloads into `cache`")
    cache: str | None = Field(None, description="with `url:`: the file the pulled sheet is kept in (builds "
                                                "read only it)")
    sheet: str | None = Field(None, description="the sheet of a workbook (default: the first)")
    header_row: int = Field(1, ge=1, le=MAX_SHEET_ROWS, strict=True,
                            description="the row that names the columns (2 for a title row above it)")
    columns: dict[str, str | None] = Field(
        default_factory=dict,
        description="header as written -> key it gives (id, name, copies, ... or a field); null ignores "
                    "the column",
    )
    id: str | None = Field(None, description="a template over the row for each id, such as 's{{ row }}' "
                                             "(default: the id column, else ids made from the names)")
    name: str | None = Field(None, description="a template over the row for each name, such as '{{ Unit }}'")
    where: str | None = Field(None, description="an expression over the row: only rows where it is true are "
                                                "read (`Type != 'back'`)")

    @model_validator(mode="after")
    def _one_place(self):
        if (self.file is None) == (self.url is None):
            raise ValueError("expected either `file:` (a spreadsheet in the game folder) or `url:` with "
                             "`cache:` (a live sheet), not both or neither")
        if (self.url is None) != (self.cache is None):
            raise ValueError("expected `url:` and `cache:` together: builds read the sheet `pnp pull` keeps "
                             "in the cache file")
        return self

    @property
    def read_from(self) -> str:
        """The file builds read: the spreadsheet, or the cache of a live sheet."""
        return str(self.file if self.file is not None else self.cache)


def sheet_source(cards_from: str | CardSource | None) -> CardSource | None:
    """The spreadsheet a `cards_from:` names (a file name alone or the mapping), None without one."""
    if cards_from is None:
        return None
    return CardSource(file=cards_from) if isinstance(cards_from, str) else cards_from


class DeckFile(Strict):
    """<deck>.yaml: one deck of cards, with its cards here (`cards:`) or in a spreadsheet (`cards_from:`)."""

    deck: Slug
    name: str
    code: Code
    size: SizeSpec | None = None
    layout: str | None = Field(None, description="default front layout (layouts/<name>.yaml)")
    back: str | None = Field(
        None, description="back layout of the deck's cards (a card may name its own `back:`)"
    )
    total: PositiveInt | None = Field(
        None, description="expected number of cards; checked against the copies"
    )
    description: str = ""
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    cards: list[dict] | None = Field(None, min_length=1, description="the card types (or `cards_from:`)")
    cards_from: str | CardSource | None = Field(
        None,
        description="a .csv, .xlsx or .ods file (or {file, sheet}) with one row per card type, instead of "
                    "`cards:`",
    )

    @property
    def source(self) -> CardSource | None:
        """The spreadsheet of the cards, or None when they are written in `cards:`."""
        return sheet_source(self.cards_from)

    _known_size = field_validator("size")(classmethod(lambda _cls, v: known_size(v)))


class TableFile(Strict):
    """<table>.yaml: named rows of data that are not cards (food groups, player colours)."""

    table: Slug
    name: str
    fields: dict[str, FieldSpec] = Field(default_factory=dict)
    rows: list[dict] | None = Field(None, min_length=1, description="the rows (or `cards_from:`)")
    cards_from: str | CardSource | None = Field(
        None, description="a .csv, .xlsx or .ods file (or {file, sheet, ...}) with one row per row, instead "
                          "of `rows:`"
    )

    @property
    def source(self) -> CardSource | None:
        """The spreadsheet of the rows, or None when they are written in `rows:`."""
        return sheet_source(self.cards_from)


class Grid(Strict):
    """A board grid: `cols` x `rows` cells of `cell` size, plus a margin around it."""

    cols: PositiveInt
    rows: PositiveInt
    cell: Length
    margin: Length = "10mm"

    _cell = field_validator("cell")(_length_between(1 * MM, MAX_LENGTH_PT, "the cell size"))
    _margin = field_validator("margin")(_length_between(0.0, MAX_LENGTH_PT, "the margin"))

    @model_validator(mode="after")
    def _bounded(self):
        if self.cols * self.rows > MAX_GRID_CELLS:
            raise LimitExceeded(
                f"the grid has {self.cols} x {self.rows} = {self.cols * self.rows:,} cells; expected "
                f"at most {MAX_GRID_CELLS:,} (pnp's limit for one board)"
            )
        for count, side in ((self.cols, "wide"), (self.rows, "high")):
            size = count * to_pt(self.cell) + 2 * to_pt(self.margin)
            if size > MAX_LENGTH_PT:
                raise LimitExceeded(f"the board would be {size / MM / 1000:.2f} m {side}; expected at most "
                                    f"{MAX_LENGTH_PT / MM / 1000:.2f} m")
        return self


class BoardSpace(Strict):
    """A space on a board, placed at grid cell (col, row)."""

    id: Slug
    at: tuple[Finite, Finite]
    kind: Literal["road", "junction", "restaurant", "track", "start", "end"] = "road"
    label: str = ""
    color: HexColor | None = None
    color_name: str = ""
    start_for: list[PositiveInt] = Field(
        default_factory=list, description="player counts that start here (trackers)"
    )


class Street(Strict):
    """A named, coloured street: its spaces in order and its house numbers."""

    id: Slug
    name: str
    color: HexColor
    color_name: str
    spaces: list[str] = Field(min_length=1)
    houses: dict[int, str] = Field(default_factory=dict, description="house number -> space id")


class Zone(Strict):
    """A decorative area of the board (card areas, title, legend)."""

    id: Slug
    caption: str
    at: tuple[Finite, Finite]
    size: tuple[Annotated[float, Field(gt=0, allow_inf_nan=False, strict=True)],
                Annotated[float, Field(gt=0, allow_inf_nan=False, strict=True)]]
    kind: Literal["cards", "area", "text", "title", "legend"] = Field(
        "cards",
        description="cards: a card-sized place (warned when smaller than a card); area: a labelled place of "
                    "its own size",
    )
    text: str = ""


class BoardFile(Strict):
    """<board>.yaml: a board or track as data."""

    board: Slug
    name: str
    title: str = ""
    grid: Grid
    spaces: list[BoardSpace] = Field(min_length=1)
    edges: list[tuple[str, str]] = Field(default_factory=list)
    connect_adjacent: bool = Field(False, description="join spaces in orthogonally adjacent cells")
    streets: list[Street] = Field(default_factory=list)
    zones: list[Zone] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def road_graph(self) -> dict[str, list[str]]:
        """Space id -> adjacent space ids (sorted, so iteration is deterministic)."""
        graph: dict[str, set[str]] = {space.id: set() for space in self.spaces}
        if self.connect_adjacent:
            at = {(round(s.at[0]), round(s.at[1])): s.id for s in self.spaces}
            for (col, row), sid in at.items():
                for other in ((col + 1, row), (col, row + 1)):
                    if other in at:
                        graph[sid].add(at[other])
                        graph[at[other]].add(sid)
        for a, b in self.edges:
            if a in graph and b in graph:
                graph[a].add(b)
                graph[b].add(a)
        return {sid: sorted(adj) for sid, adj in graph.items()}


def _python_type(spec: FieldSpec):
    if spec.type in ("text", "ref", "address", "icon"):
        return str
    if spec.type == "int":
        return Annotated[int, Field(ge=spec.min, le=spec.max, strict=True)]
    if spec.type == "number":
        return Annotated[float, Field(ge=spec.min, le=spec.max, allow_inf_nan=False, strict=True)]
    if spec.type == "bool":
        return bool
    if spec.type == "color":
        return HexColor
    if spec.type == "choice":
        return Literal[tuple(spec.choices or ("",))]
    if spec.type in ("refs", "list"):
        return list[str]
    if spec.type == "counts":
        return dict[str, PositiveInt]
    raise AssertionError(spec.type)


def _plain_default(value: Any) -> Any:
    """A default as plain lists and dicts: the loader's line-tracking YList/YDict are not JSON-serialisable in
    a schema (pydantic warns and drops the default)."""
    if isinstance(value, dict):
        return {k: _plain_default(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_default(v) for v in value]
    return value


# A card's own keys, beside the fields its deck declares: the required ones, then its layouts and files.
REQUIRED_CARD_KEYS = ("id", "name", "copies")
OPTIONAL_CARD_KEYS = ("layout", "back", "icon", "image", "players")
CARD_KEYS = REQUIRED_CARD_KEYS + OPTIONAL_CARD_KEYS


def row_model(name: str, fields: dict[str, FieldSpec], *, card: bool) -> type[BaseModel]:
    """Build the model of one card (or table row) from the deck's field declarations."""
    core: dict[str, Any] = {"id": (Slug, ...), "name": (str, ...)}
    if card:
        core |= {"copies": (Copies, ...)} | {key: (str | None, None) for key in OPTIONAL_CARD_KEYS}
        core["players"] = (str | int | None, None)  # '3+', '2-4' or 3: read by data.game.player_range
    for key, spec in fields.items():
        typ = _python_type(spec)
        core[key] = (
            (typ, ...)
            if spec.required and spec.default is None
            else (typ | None, _plain_default(spec.default))
        )
    return create_model(f"{name}Row", __config__=ConfigDict(extra="forbid"), **core)


def card_width_height_mm(size: str | CardSize | ShapedSize) -> tuple[float, float]:
    """Card size in mm from a preset name, a custom {width, height} or the box around a {shape, ...}."""
    if isinstance(size, str):
        return CARD_SIZES_MM[size]
    if isinstance(size, ShapedSize):
        shape = size.to_shape()
        return shape.width / to_pt("1mm"), shape.height / to_pt("1mm")
    return to_pt(size.width) / to_pt("1mm"), to_pt(size.height) / to_pt("1mm")


def card_shape(size: str | CardSize | ShapedSize) -> Shape | None:
    """The outline of round, hexagonal or square cards (None for ordinary rectangular cards)."""
    return size.to_shape() if isinstance(size, ShapedSize) else None
