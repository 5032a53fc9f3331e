"""Card layouts as data: a YAML file of named boxes per card face, with `extends:` for shared parts.

A layout lives in `cards/<game>/layouts/<name>.yaml` (or, shared by every game,
`templates/layouts/<name>.yaml`). A deck's fronts use `layouts/<deck.layout or deck id>.yaml` (a card's own
`layout:` wins), its back `layouts/<deck.back or deck id + '-back'>.yaml`.

    extends: base                  # optional; the parent's boxes come first, same-named boxes are changed
    boxes:
      band: {height: 14mm, shape: band, fill: "{{ street(card.address).color }}"}
      title: {x: 4mm, y: 3.5mm, width: 55.5mm, height: 10mm, text: "{{ card.name }}", font: title, size: 16pt}
      picture: {x: 16mm, y: 18mm, width: 31.5mm, height: 31.5mm, icon: "{{ card.icon }}"}
      old_box: ~                   # removes a parent's box

Geometry: x, y, width, height from the top-left corner of the trim box, x right and y down, in mm/in/pt or %
of the trim size (defaults: 0, 0, to the right/bottom trim edge; for text and icon boxes the safe area's
edges). Shapes and images whose edge touches the trim edge run into the bleed (`bleed: false` to stop that);
text and icon boxes must lie inside the safe zone (`safe: false` on a box lets it leave).
Each box shows exactly one of `text` (rich text template: **bold**, *italic*, <b>/<i>, :icon: or {{
icon('name') }}, new lines), `icon`, `image` (PNG/JPG/SVG inside the game folder; `fit: contain` or `cover`,
see generator.faces.image) or `shape` (rect, rounded, circle, ellipse, band) with `fill`/`stroke`; text boxes
may also have a fill. Colours and `when` may be templates. Templates see `card`, `deck`, `game` and the
helpers of generator.data.templating (plus `icon` and `chip`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, field_validator

from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.limits import MAX_FONT_PT
from generator.core.pydantic_errors import validate
from generator.core.units import UnitError, to_pt
from generator.core.yamlio import YDict, load_yaml
from generator.data.models import Strict
from generator.data.project import Project
from generator.data.slips import comment_colours, unitless_lengths
from generator.faces.boxes import BOX_KINDS, kind_of
from generator.faces.boxes.base import Box

KINDS = tuple(BOX_KINDS)  # the keys that make a box of each kind
PLAIN_BACK = "none"  # `back: none`: a one-sided deck, its back plain paper (assets/layouts/none.yaml)
BUILT_IN_LAYOUTS = Path(__file__).resolve().parent.parent / "assets" / "layouts"
# lengths a bare number is rarely meant in points (font sizes are)
UNIT_KEYS = ("x", "y", "width", "height", "radius")
SHAPES = ("rect", "rounded", "circle", "ellipse", "band", "line", "polygon", "star", "hexagon")
SHAPE_NAMES = Literal["rect", "rounded", "circle", "ellipse", "band", "line", "polygon", "star", "hexagon"]
_PERCENT = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*%\s*$")
_PIXELS = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*px\s*$")  # pixels at the layout file's `dpi:`
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_POINTS = 1_000  # corners of a polygon
MAX_DASHES = 8

Length = str | int | float
LayoutWords = dict[str, dict[str, tuple[str, str, int]]]  # layout -> box -> (text, file, line)


def _check_length(value):
    if value is None or _PERCENT.match(str(value)) or _PIXELS.match(str(value)):
        return value
    to_pt(value)  # UnitError is a ValueError: pydantic reports it with the line; finite and bounded
    return value


def _check_font_size(value):
    """A font size is above 0 (0 pt draws nothing, a negative size draws upside down) and at most
    MAX_FONT_PT."""
    if value is None or _PIXELS.match(str(value)):
        return value
    points = to_pt(value)
    if not 0 < points <= MAX_FONT_PT:
        raise ValueError(
            f"font size {value!r} is {points:g} pt; expected above 0 and at most {MAX_FONT_PT:g} pt"
        )
    return value


def _check_not_negative(value):
    if value is not None and not _PERCENT.match(str(value)) and not _PIXELS.match(str(value)) \
            and to_pt(value) < 0:
        raise ValueError(f"{value!r} is negative; expected 0 or more")
    return value


def _check_colour(value):
    if value is not None and not _HEX.match(str(value)):
        raise ValueError(f"{value!r} is not a colour; expected #rrggbb")
    return value


def _check_positive_length(value):
    """A length above 0 (a dash of 0 draws a solid line forever, an outline of 0 nothing)."""
    if value is not None and not _PIXELS.match(str(value)) and to_pt(value) <= 0:
        raise ValueError(f"{value!r} is not above 0; expected a length above 0, e.g. '2pt'")
    return value


Point = Annotated[list[Annotated[float, Field(ge=-1, le=2, allow_inf_nan=False)]],
                  Field(min_length=2, max_length=2)]


class Gradient(Strict):
    """A gradient fill: colours spread evenly along a direction (linear) or out from the middle (radial)."""

    kind: Literal["linear", "radial"] = Field("linear", description="linear (along `angle`) or radial")
    colors: Annotated[list[str], Field(min_length=2, max_length=16)] = Field(
        description="two to sixteen #rrggbb colours, spread evenly"
    )
    angle: Annotated[float, Field(ge=-360, le=360, allow_inf_nan=False)] = Field(
        90, description="linear: the direction in degrees, 0 left to right, 90 top to bottom"
    )

    @field_validator("colors")
    @classmethod
    def _colours(cls, value):
        for colour in value:
            _check_colour(colour)
        return value


class TextEffect(Strict):
    """A text outline or halo: a line of `width` in `color` around every letter."""

    color: str = Field(description="#rrggbb")
    width: Length = Field(description="line width, e.g. 0.5pt")
    _colour = field_validator("color")(classmethod(lambda _cls, v: _check_colour(v)))
    _width = field_validator("width")(classmethod(lambda _cls, v: _check_positive_length(_check_length(v))))


class TextShadow(Strict):
    """A shadow: the text again in `color`, moved right by `dx` and down by `dy`, under the text."""

    color: str = Field("#000000", description="#rrggbb")
    dx: Length = Field("0.5pt", description="to the right")
    dy: Length = Field("0.5pt", description="down")
    _colour = field_validator("color")(classmethod(lambda _cls, v: _check_colour(v)))
    _shift = field_validator("dx", "dy")(classmethod(lambda _cls, v: _check_length(v)))


class BoxSpec(Strict):
    """One named box as written in a layout file; every key is optional so a child can change a parent's
    box."""

    x: Length | None = Field(
        None, description="left edge from the trim's left edge (mm/in/pt or %); default 0"
    )
    y: Length | None = Field(None, description="top edge from the trim's top edge; default 0")
    width: Length | None = Field(None, description="default: to the right trim edge")
    height: Length | None = Field(None, description="default: to the bottom trim edge")
    z: int | None = Field(
        None, description="drawing order: higher z is drawn later (default 0; ties keep file order)"
    )
    when: str | None = Field(
        None, description="template; the box is drawn only when it renders non-empty/true"
    )
    text: str | None = Field(
        None, description="Jinja template of rich text (**bold**, *italic*, :icon:, <br/>)"
    )
    icon: str | None = Field(None, description="icon name or a template giving one")
    image: str | None = Field(
        None, description="image path inside the game folder (PNG/JPG/SVG), may be a template; `auto`: the "
                          "card's art by the game's `art:` pattern (default images/{deck}/{id})"
    )
    fit: Literal["contain", "cover"] | None = Field(
        None,
        description="image: `contain` shows it whole inside the box (default), `cover` fills the box, "
                    "cropped",
    )
    shape: SHAPE_NAMES | None = Field(  # type: ignore[valid-type]
        None, description="rect, rounded, circle, ellipse, band; line (top-left to bottom-right, or "
                          "`points`), polygon (`points`), star, hexagon")
    points: Annotated[list[Point], Field(min_length=2, max_length=MAX_POINTS)] | None = Field(
        None, description="line and polygon: corners [x, y] as fractions of the box (0 to 1, from its "
                          "top-left corner); a polygon has at least 3"
    )
    star_points: Annotated[int, Field(ge=3, le=100)] | None = Field(None, description="star: its points (5)")
    star_inner: Annotated[float, Field(ge=0.05, le=0.95, allow_inf_nan=False)] | None = Field(
        None, description="star: the inner corners' distance from the middle, a fraction of the outer (0.45)"
    )
    dash: Length | Annotated[list[Length], Field(min_length=1, max_length=MAX_DASHES)] | None = Field(
        None, description="a dashed stroke: dash and gap lengths (one length: dashes and gaps alike)"
    )
    gradient: Gradient | None = Field(None, description="a gradient fill instead of `fill`")
    rotate: Annotated[float, Field(ge=-360, le=360, allow_inf_nan=False)] | None = Field(
        None, description="degrees about the box's centre, clockwise; 90 and 270 turn the content within "
                          "the box (its width and height swap)"
    )
    opacity: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)] | None = Field(
        None, description="0 (invisible) to 1 (opaque, the default): the whole box"
    )
    outline: TextEffect | None = Field(None, description="text: a line around every letter {color, width}")
    halo: TextEffect | None = Field(None, description="text: a band of colour behind the letters {color, "
                                                      "width}")
    shadow: TextShadow | None = Field(None, description="text: the text again under it {color, dx, dy}")
    fill: str | None = Field(None, description="fill colour #rrggbb (or a template giving one)")
    stroke: str | None = Field(None, description="outline colour #rrggbb (or a template)")
    stroke_width: Length | None = None
    radius: Length | None = Field(None, description="corner radius of `rounded` shapes")
    bleed: bool | Literal["mirror", "extend"] | None = Field(
        None, description="edges touching the trim run into the bleed (default: shapes, images); images: "
                          "`mirror` or `extend` make the bleed from raster art drawn only to the trim"
    )
    placeholder: Literal["name", "none"] | None = Field(
        None, description="images: missing art prints the card's name on a grey field with crossed lines "
                          "(`name`, the default) or nothing (`none`)"
    )
    safe: bool | None = Field(
        None,
        description="false: a text or icon box may leave the safe zone (it may be cut into); without "
                    "geometry such a box is then the whole trim, not the safe area",
    )
    font: str | None = Field(
        None,
        description="title (default for headings), body (the default) or a font declared "
        "under fonts: in game.yaml",
    )
    size: Length | None = Field(
        None, description="font size, shrunk down to min_size when the text does not fit"
    )
    min_size: Length | None = None
    leading: Annotated[float, Field(gt=0, le=10, allow_inf_nan=False)] | None = Field(
        None, description="line height as a multiple of the font size")
    align: Literal["left", "center", "right", "justify"] | None = None
    valign: Literal["top", "middle", "bottom"] | None = None
    wrap: bool | None = Field(
        None,
        description="false: each line of the text stays one line, the text shrinks "
        "instead of wrapping (lists of icons and names)",
    )
    color: str | None = Field(None, description="text colour #rrggbb (or a template)")

    _lengths = field_validator("x", "y", "width", "height")(classmethod(lambda _cls, v: _check_length(v)))
    _sizes = field_validator("size", "min_size")(classmethod(lambda _cls, v: _check_font_size(v)))
    _widths = field_validator("stroke_width", "radius")(
        classmethod(lambda _cls, v: _check_not_negative(_check_length(v))))

    @field_validator("dash")
    @classmethod
    def _dashes(cls, value):
        for length in value if isinstance(value, list) else [value]:
            _check_positive_length(_check_length(length))
        return value


class IndexSpec(Strict):
    """A corner index, what a fanned hand shows of a card: the card's icon on a disc in the top-left corner
    and its name written sideways down the left edge below it (reading top to bottom). It is drawn as boxes
    of its own (`index-disc`, `index-icon`, `index-name`), on top of the layout's boxes."""

    text: str | None = Field(None, description="template of the sideways name, e.g. '{{ card.name }}'")
    icon: str | None = Field(None, description="icon name or template for the corner: '{{ card.icon }}'")
    font: str | None = Field(None, description="font of the name (default title)")
    size: Length | None = Field(None, description="font size of the name (default 7.5pt; shrunk to fit)")
    color: str | None = Field(None, description="colour of the name #rrggbb or a template (default #222222)")
    fill: str | None = Field(None, description="colour of the disc behind the icon (default #ffffff)")
    icon_size: Length | None = Field(None, description="side of the corner icon (default 6.5mm)")
    width: Length | None = Field(None, description="width of the strip the name is in (default 4.5mm)")
    top: Length | None = Field(None, description="where the name starts, from the trim's top edge (default "
                                                 "just below the icon)")
    bottom: Length | None = Field(None, description="where the name ends at the latest (default 55%)")
    when: str | None = Field(None, description="template; the index is drawn only when it renders true")

    _lengths = field_validator("size", "icon_size", "width", "top", "bottom")(
        classmethod(lambda _cls, v: _check_not_negative(_check_length(v)))
    )


INDEX_DEFAULTS = {"font": "title", "size": "7.5pt", "color": "#222222", "fill": "#ffffff",
                  "icon_size": "6.5mm", "width": "4.5mm", "bottom": "55%"}
INDEX_PAD = to_pt("0.9mm")  # the disc's margin around the icon


def index_boxes(spec: dict, trim_h: float, safe: float) -> dict[str, dict]:
    """The boxes of a corner index (`index:` of a layout), in points, from the trim's top-left corner: a disc
    and the icon at the safe zone's corner, the name in a strip turned by 90 below it, at the same left
    edge."""
    spec = INDEX_DEFAULTS | spec
    when = {"when": spec["when"]} if spec.get("when") else {}
    boxes: dict[str, dict] = {}
    icon_size = _length(spec["icon_size"], trim_h, 0.0)
    below = safe
    if spec.get("icon"):
        disc = icon_size + 2 * INDEX_PAD
        corner = f"{safe - INDEX_PAD}pt"
        boxes["index-disc"] = {"x": corner, "y": corner, "width": f"{disc}pt", "height": f"{disc}pt",
                               "shape": "circle", "fill": spec["fill"], "z": 50, **when}
        boxes["index-icon"] = {"x": f"{safe}pt", "y": f"{safe}pt", "width": f"{icon_size}pt",
                               "height": f"{icon_size}pt", "icon": spec["icon"], "z": 50, **when}
        below = safe + icon_size + INDEX_PAD + to_pt("1mm")
    if spec.get("text"):
        strip = _length(spec["width"], trim_h, 0.0)
        top = _length(spec.get("top"), trim_h, below)
        bottom = _length(spec["bottom"], trim_h, 0.0)
        boxes["index-name"] = {"x": f"{safe}pt", "y": f"{top}pt", "width": f"{strip}pt",
                               "height": f"{bottom - top}pt", "text": spec["text"], "font": spec["font"],
                               "size": spec["size"], "min_size": "6pt", "color": spec["color"],
                               "align": "left", "valign": "middle", "wrap": False, "rotate": 90, "z": 50,
                               **when}
    return boxes


class LayoutFile(Strict):
    """A layout file: optional parent layout, then boxes drawn in order (a parent's boxes first)."""

    extends: str | None = Field(
        None, description="layout whose boxes come first; same-named boxes are changed"
    )
    description: str = ""
    dpi: Annotated[float, Field(ge=10, le=4800, allow_inf_nan=False)] | None = Field(
        None, description="the resolution `px` lengths of this file are in (layouts ported from Squib or "
                          "nanDECK: `dpi: 300`, `x: 75px`)"
    )
    origin: Literal["trim", "bleed"] | None = Field(
        None, description="where this file's x and y are measured from: the trim's corner (default) or the "
                          "bleed's (Squib, nanDECK)"
    )
    index: IndexSpec | None = Field(
        None, description="a corner index for cards held in a fanned hand: {text, icon, ...}; a child layout "
                          "changes the keys it names, `index: ~` removes it"
    )
    boxes: dict[str, BoxSpec | None] = Field(
        default_factory=dict, description="name: box; `name: ~` removes one"
    )


@dataclass
class Layout:
    """A card face layout: its boxes in drawing order and the files it came from (child first)."""

    name: str
    file: str
    boxes: list[Box]
    files: list[Path] = field(default_factory=list)


def find_layout(name: str, dirs: list[Path]) -> Path | None:
    """The file of layout `name`, or None."""
    for folder in dirs:
        for ext in (".yaml", ".yml"):
            if (folder / f"{name}{ext}").is_file():
                return folder / f"{name}{ext}"
    return None


def known_layouts(dirs: list[Path]) -> list[str]:
    """Every layout name in the lookup folders."""
    return sorted({p.stem for folder in dirs if folder.is_dir() for p in folder.glob("*.y*ml")})


def _length(value, ref: float, default: float) -> float:
    if value is None:
        return default
    match = _PERCENT.match(str(value))
    if match:
        return float(match.group(1)) / 100.0 * ref
    return to_pt(value)


def _kind(spec: dict) -> list[str]:
    return [k for k in KINDS if spec.get(k) is not None]


class LayoutLoader:
    """Loads layouts with `extends`, caching each file once, and resolves them for a trim size.

    With a `project`, a layout name must stay inside the project (`Project.inside`, links resolved) before any
    file is looked at, so `extends: ../../../x` never reads, or reports, a file from elsewhere. `words` are a
    translation's texts of boxes (layout -> box -> (text, file, line)), used instead of the layouts' own."""

    def __init__(
        self, dirs: list[Path], show, project: Project | None = None, words: LayoutWords | None = None
    ):
        self.dirs = dirs
        self.show = show
        self.project = project
        self.words = words
        self._raw: dict[str, tuple[LayoutFile, YDict, Path]] = {}
        self.warnings: dict[str, None] = {}  # located slips of the layout files read (data.slips), in order

    def _read(self, name: str, wanted_by: Problem) -> tuple[LayoutFile, YDict, Path]:
        if name in self._raw:
            return self._raw[name]
        if self.project is not None:
            for folder in self.dirs:
                for ext in (".yaml", ".yml"):
                    try:
                        self.project.inside(f"{name}{ext}", folder, what="layout")
                    except InputError as exc:  # named as written, without the extension pnp adds
                        message = exc.problems[0].message.replace(f"'{name}{ext}'", f"'{name}'", 1)
                        raise InputError(replace(wanted_by, message=message)) from None
        path = find_layout(name, self.dirs)
        if path is None and name == PLAIN_BACK:  # `back: none`: the built-in plain back
            path = BUILT_IN_LAYOUTS / f"{PLAIN_BACK}.yaml"
        if path is None:
            known = known_layouts(self.dirs)
            where = self.show(self.dirs[0] / f"{name}.yaml")
            raise InputError(
                replace(
                    wanted_by,
                    message=f"layout '{name}' not found{did_you_mean(name, known)}; expected {where} "
                    f"(known layouts: {known_list(known) or 'none'})",
                )
            )
        shown = self.show(path)
        raw = load_yaml(path, shown)
        problems = Problems()
        model = validate(LayoutFile, raw, shown, problems)
        slips = comment_colours(path, shown)
        if problems:  # a colour read as a comment may be what broke the file
            raise InputError(sorted(set(problems.sorted()) | set(slips)))
        boxes = raw.get("boxes") if isinstance(raw, YDict) else None
        for box_name, spec in (boxes.items() if isinstance(boxes, YDict) else []):
            if isinstance(spec, YDict):
                slips += unitless_lengths(shown, spec, UNIT_KEYS, f"box '{box_name}'")
        for slip in slips:
            self.warnings[str(slip)] = None
        self._raw[name] = (model, raw, path)
        return self._raw[name]

    def chain(self, name: str, wanted_by: Problem) -> list[tuple[str, LayoutFile, YDict, Path]]:
        """The layout and its ancestors, root first."""
        out: list[tuple[str, LayoutFile, YDict, Path]] = []
        seen: list[str] = []
        current, asker = name, wanted_by
        while current is not None:
            if current in seen:
                raise InputError(
                    replace(
                        asker,
                        message=f"layouts extend each other in a circle ({' -> '.join(seen + [current])}); "
                        "expected a chain that ends",
                    )
                )
            seen.append(current)
            model, raw, path = self._read(current, asker)
            out.append((current, model, raw, path))
            asker = Problem(self.show(path), raw.line_of("extends"), "")
            current = model.extends
        return list(reversed(out))

    def resolve(self, name: str, trim_w: float, trim_h: float, bleed: float, safe: float,
                wanted_by: Problem) -> Layout:
        """Merge the chain of `name` into boxes in points and check them against the bleed and safe zone."""
        merged: dict[str, tuple[dict, str, int]] = {}
        text_from: dict[str, tuple[str, str, int]] = {}
        translated: dict[str, tuple[str, int]] = {}
        files: list[Path] = []
        chain = self.chain(name, wanted_by)
        for layout_name, model, raw, path in chain:
            shown = self.show(path)
            files.append(path)
            raw_boxes = raw.get("boxes") or {}
            for box_name, spec in model.boxes.items():
                line = raw_boxes.line_of(box_name) if hasattr(raw_boxes, "line_of") else raw.line
                if spec is None:
                    merged.pop(box_name, None)
                    continue
                values = spec.model_dump(exclude_none=True)
                try:
                    values = _in_points(values, model.dpi, bleed if model.origin == "bleed" else 0.0)
                except UnitError as exc:
                    raise InputError(Problem(shown, line, f"box '{box_name}': {exc}")) from None
                if _kind(values):
                    text_from.pop(box_name, None)
                    translated.pop(box_name, None)
                for key in _kind(values):
                    if BOX_KINDS[key].worded:
                        text_from[box_name] = (layout_name, shown, line)
                        words = self.words.get(layout_name, {}).get(box_name) if self.words else None
                        if words is not None:  # the translation's words of this box
                            values[key] = words[0]
                            translated[box_name] = (words[1], words[2])
                if box_name in merged:
                    base = dict(merged[box_name][0])
                    if _kind(values):  # a new kind replaces the parent's content keys
                        for key in KINDS:
                            base.pop(key, None)
                    base.update(values)
                    values = base
                merged[box_name] = (values, shown, line)
        problems = Problems()
        self._add_index(chain, merged, trim_h, safe, problems)
        boxes = []
        for box_name, (spec, shown, line) in merged.items():
            kinds = _kind(spec)
            if len(kinds) != 1:
                what = "none" if not kinds else ", ".join(kinds)
                problems.add(
                    shown, line, f"box '{box_name}' shows {what}; expected exactly one of: {', '.join(KINDS)}"
                )
                continue
            # a text or icon box without geometry is the safe area (the whole trim for the other kinds)
            inset = safe if BOX_KINDS[kinds[0]].inside_safe and spec.get("safe") is not False else 0.0
            try:
                x = _length(spec.get("x"), trim_w, inset)
                y = _length(spec.get("y"), trim_h, inset)
                w = _length(spec.get("width"), trim_w, trim_w - inset - x)
                h = _length(spec.get("height"), trim_h, trim_h - inset - y)
            except UnitError as exc:
                problems.add(shown, line, f"box '{box_name}': {exc}")
                continue
            box = Box(box_name, kinds[0], x, y, w, h, spec, shown, line, text_from.get(box_name),
                      translated.get(box_name))
            _check_geometry(box, trim_w, trim_h, bleed, safe, problems)
            kind_of(box).check(box, problems)
            boxes.append(box)
        problems.raise_if_any()
        boxes.sort(key=lambda box: box.get("z", 0))  # stable: equal z keeps the merged file order
        return Layout(name, self.show(files[-1]), boxes, files)


    def _add_index(self, chain, merged: dict, trim_h: float, safe: float, problems: Problems) -> None:
        """The corner index's boxes, drawn last (over the layout's boxes) and checked as they are: the keys of
        `index:` merged down the chain (a child's `index: ~` removes it), located where last written."""
        index: tuple[dict, str, int] | None = None
        for _name, model, raw, path in chain:
            if isinstance(raw, YDict) and "index" in raw:
                own = model.index.model_dump(exclude_none=True) if model.index is not None else None
                index = None if own is None else ((index[0] if index else {}) | own, self.show(path),
                                                  raw.line_of("index"))
        if index is None:
            return
        if not index[0].get("text") and not index[0].get("icon"):
            problems.add(index[1], index[2], "`index:` (a corner index) shows nothing; expected `text:` (the "
                         "name written down the left edge) or `icon:` (the corner icon), or both")
        for box_name, values in index_boxes(index[0], trim_h, safe).items():
            merged[box_name] = (values, index[1], index[2])


_LENGTH_KEYS = ("x", "y", "width", "height", "radius", "stroke_width", "size", "min_size")


def _px(value, dpi: float | None):
    """A `px` length in points at the file's dpi; any other value as it is."""
    match = _PIXELS.match(str(value)) if isinstance(value, str) else None
    if match is None:
        return value
    if dpi is None:
        raise UnitError(f"'{value}' is in pixels, and the layout file has no `dpi:`; expected `dpi: 300` "
                        "(the resolution the layout was made at) at the top of the file, or mm/in/pt")
    return f"{float(match.group(1)) * 72 / dpi:.4f}pt"


def _in_points(values: dict, dpi: float | None, shift: float) -> dict:
    """A box's keys as written in one layout file with its `px` lengths in points and, for a file measured
    from the bleed's corner (`origin: bleed`), x and y moved to the trim's."""
    out = dict(values)
    for key in _LENGTH_KEYS:
        if key in out:
            out[key] = _px(out[key], dpi)
    if isinstance(out.get("dash"), list):
        out["dash"] = [_px(length, dpi) for length in out["dash"]]
    elif "dash" in out:
        out["dash"] = _px(out["dash"], dpi)
    for effect, keys in (("outline", ("width",)), ("halo", ("width",)), ("shadow", ("dx", "dy"))):
        if isinstance(out.get(effect), dict):
            out[effect] = {k: (_px(v, dpi) if k in keys else v) for k, v in out[effect].items()}
    if shift:
        for key in ("x", "y"):
            if key in out and not _PERCENT.match(str(out[key])):
                out[key] = f"{to_pt(out[key]) - shift:.4f}pt"
    return out


def _mm(value: float) -> str:
    return f"{value / to_pt('1mm'):.1f} mm"


def _check_geometry(box: Box, tw: float, th: float, bleed: float, safe: float, problems: Problems) -> None:
    """Text and icons stay inside the safe zone; nothing reaches beyond the bleed."""
    tol = 0.01
    if isinstance(box.get("bleed"), str) and box.kind != "image":
        problems.add(box.file, box.line, f"box '{box.name}' has bleed: {box.get('bleed')}, which only image "
                     "boxes have (it makes the bleed from the art's edges); expected true or false")
    if box.w <= 0 or box.h <= 0:
        problems.add(
            box.file, box.line, f"box '{box.name}' is {_mm(box.w)} x {_mm(box.h)}; expected a positive size"
        )
        return
    if kind_of(box).inside_safe and box.get("safe") is not False:
        if (box.x < safe - tol or box.y < safe - tol or box.x + box.w > tw - safe + tol
                or box.y + box.h > th - safe + tol):
            problems.add(
                box.file,
                box.line,
                f"{box.kind} box '{box.name}' (x {_mm(box.x)}, y {_mm(box.y)}, {_mm(box.w)} x {_mm(box.h)}) "
                f"leaves the safe zone; expected it within {_mm(safe)} of every trim edge "
                f"(x {_mm(safe)}..{_mm(tw - safe)}, y {_mm(safe)}..{_mm(th - safe)}: what is outside may be "
                "cut off; `safe: false` on the box lets it leave the zone)",
            )
    elif (box.x < -bleed - tol or box.y < -bleed - tol or box.x + box.w > tw + bleed + tol
          or box.y + box.h > th + bleed + tol):
        problems.add(
            box.file,
            box.line,
            f"box '{box.name}' reaches beyond the {_mm(bleed)} bleed; expected it "
            "inside the bleed box (set `bleed: true` to run an edge box into the bleed instead)",
        )
