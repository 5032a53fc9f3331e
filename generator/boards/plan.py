"""Board geometry without ReportLab: where spaces, roads and labels go, and how a board tiles over paper."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from generator.core.geometry import Rect
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import MM, to_pt
from generator.data.models import BoardFile, BoardSpace, Street, Zone

# Font names as registered by generator.core.fonts (kept as strings so this module needs no ReportLab).
TITLE_FONT, BODY_FONT, BOLD_FONT = "Title", "Body", "Body-Bold"
Measure = Callable[[str, str, float], float]  # (text, font, size) -> width in points


@dataclass(frozen=True)
class BoardFonts:
    """The faces a board is set in (ReportLab names): the game's title font and its body font, regular and
    bold."""

    title: str = TITLE_FONT
    body: str = BODY_FONT
    bold: str = BOLD_FONT

SPACE_FILL = 0.88  # a space square is this share of its cell; the gap shows the road between spaces
SAFE = 4 * MM  # labels stay this far inside the trim (cut tolerance + the frame)
HOUSE_MIN_PT = 9.0  # house numbers must be found at a glance
STREET_PT = (8.5, 7.5, 6.5)  # street-name sizes tried in turn
# one per street, for greyscale and colour-blind play
PATTERNS = ("plain", "stripes", "dots", "grid", "bars", "checks")
POKER_MM = (63.5, 88.9)


def approx_measure(text: str, font: str, size: float) -> float:  # noqa: ARG001 - a font metrics signature
    """A font-free width estimate (used by checks and unit tests; the renderer passes real metrics)."""
    return 0.56 * size * len(text)


@dataclass(frozen=True)
class Label:
    """A piece of text placed on the board; `rect` is its bounding box, angle 90 reads bottom to top."""

    kind: str  # house | street | space
    text: str
    rect: Rect
    size: float
    font: str
    angle: int = 0
    ref: str = ""  # the space or street it belongs to


@dataclass
class SpaceShape:
    """A space as drawn: its square, fill, street pattern and house number."""

    space: BoardSpace
    rect: Rect
    fill: str
    streets: list[str] = field(default_factory=list)
    pattern: str = "plain"
    house: str = ""  # house number printed on it

    @property
    def id(self) -> str:
        return self.space.id


@dataclass(frozen=True)
class Road:
    """A road (or track link) between two space centres."""

    a: str
    b: str
    start: tuple[float, float]
    end: tuple[float, float]
    street: str | None


@dataclass
class BoardPlan:
    """Everything the renderer draws, decided up front so checks and tests can inspect it."""

    width: float
    height: float
    cell: float
    margin: float
    spaces: dict[str, SpaceShape]
    roads: list[Road]
    labels: list[Label]
    zones: list[tuple[Zone, Rect]]
    title_box: Rect | None = None
    legend_box: Rect | None = None
    notes_box: Rect | None = None
    street_patterns: dict[str, str] = field(default_factory=dict)
    street_colors: dict[str, str] = field(default_factory=dict)
    card_size: tuple[float, float] = (POKER_MM[0] * MM, POKER_MM[1] * MM)
    fonts: BoardFonts = field(default_factory=BoardFonts)
    dropped: list[str] = field(default_factory=list)  # labels that found no free room
    warnings: list[str] = field(default_factory=list)  # things a designer may want to fix in the data
    phrases: Phrases = ENGLISH  # the language of the words the board itself prints (set by boards.draw)

    @property
    def trim(self) -> Rect:
        return Rect(0, 0, self.width, self.height)

    def house_labels(self) -> dict[str, str]:
        """Space id -> house number text, for every house number drawn."""
        return {label.ref: label.text for label in self.labels if label.kind == "house"}

    def street_labels(self) -> dict[str, int]:
        """Street id -> how many times its name is printed along it."""
        counts: dict[str, int] = {}
        for label in self.labels:
            if label.kind == "street":
                counts[label.ref] = counts.get(label.ref, 0) + 1
        return counts


def card_rect_in(zone: Rect, card_w: float, card_h: float) -> Rect | None:
    """The card outline centred in a zone (turned landscape if only that fits), or None if no card fits."""
    for w, h in ((card_w, card_h), (card_h, card_w)):
        if w <= zone.w + 0.5 and h <= zone.h + 0.5:
            return Rect(zone.cx - w / 2, zone.cy - h / 2, w, h)
    return None


class _Geometry:
    """Grid cells to board points: (col, row) with row 0 at the top; points with y upwards."""

    def __init__(self, model: BoardFile):
        self.cell = to_pt(model.grid.cell)
        self.margin = to_pt(model.grid.margin)
        self.width = model.grid.cols * self.cell + 2 * self.margin
        self.height = model.grid.rows * self.cell + 2 * self.margin

    def cell_rect(self, col: float, row: float, cols: float = 1, rows: float = 1) -> Rect:
        return Rect(self.margin + col * self.cell, self.height - self.margin - (row + rows) * self.cell,
                    cols * self.cell, rows * self.cell)


def plan_spaces(model: BoardFile, card_size: tuple[float, float] = (POKER_MM[0] * MM, POKER_MM[1] * MM),
                fonts: BoardFonts | None = None) -> BoardPlan:
    """The part of a board's plan that needs no text measured: the space squares and their house numbers (what
    the board checks read); `plan_board` adds the roads, areas, names and boxes."""
    geo = _Geometry(model)
    plan = BoardPlan(geo.width, geo.height, geo.cell, geo.margin, {}, [], [], [])
    plan.fonts = fonts or BoardFonts()
    plan.street_patterns = {s.id: PATTERNS[i % len(PATTERNS)] for i, s in enumerate(model.streets)}
    plan.street_colors = {s.id: s.color for s in model.streets}
    plan.card_size = card_size
    streets_of: dict[str, list[Street]] = {}
    for street in model.streets:
        for sid in street.spaces:
            streets_of.setdefault(sid, []).append(street)
    houses = {sid: str(number) for street in model.streets for number, sid in sorted(street.houses.items())}

    for space in model.spaces:
        square = geo.cell_rect(*space.at).inset(geo.cell * (1 - SPACE_FILL) / 2)
        own = streets_of.get(space.id, [])
        fill, pattern = _space_fill(space, own, plan.street_patterns)
        plan.spaces[space.id] = SpaceShape(
            space, square, fill, [s.id for s in own], pattern, houses.get(space.id, "")
        )

    house_size = max(HOUSE_MIN_PT, min(13.0, geo.cell * 0.25))
    for shape in plan.spaces.values():
        if shape.house:
            d = house_size * 2.2
            plan.labels.append(
                Label(
                    "house",
                    shape.house,
                    Rect(shape.rect.cx - d / 2, shape.rect.cy - d / 2, d, d),
                    house_size,
                    plan.fonts.bold,
                    ref=shape.id,
                )
            )
    return plan


def plan_board(model: BoardFile, measure: Measure = approx_measure,
               card_size: tuple[float, float] = (POKER_MM[0] * MM, POKER_MM[1] * MM),
               fonts: BoardFonts | None = None) -> BoardPlan:
    """Lay out a board: space squares, roads, house numbers, street names at both ends, title/legend/notes
    boxes."""
    geo = _Geometry(model)
    plan = plan_spaces(model, card_size, fonts)
    allowed = plan.trim.inset(SAFE)

    neighbours = model.road_graph()
    for a in sorted(neighbours):
        for b in neighbours[a]:
            if a < b and a in plan.spaces and b in plan.spaces:
                ra, rb = plan.spaces[a].rect, plan.spaces[b].rect
                shared = set(plan.spaces[a].streets) & set(plan.spaces[b].streets)
                plan.roads.append(Road(a, b, (ra.cx, ra.cy), (rb.cx, rb.cy), min(shared) if shared else None))

    for zone in model.zones:
        rect = geo.cell_rect(zone.at[0], zone.at[1], zone.size[0], zone.size[1])
        plan.zones.append((zone, rect))
        if zone.kind == "cards" and card_rect_in(rect, *card_size) is None:
            plan.warnings.append(
                f"card area '{zone.id}' is {rect.w / MM:.0f} x {rect.h / MM:.0f} mm, smaller than a card "
                f"({card_size[0] / MM:.1f} x {card_size[1] / MM:.1f} mm); its own outline is drawn instead")

    obstacles = [shape.rect for shape in plan.spaces.values()]
    obstacles += [rect for zone, rect in plan.zones if zone.kind in ("cards", "area")]

    centre = (geo.width / 2, geo.height / 2)
    room = _Room(allowed, obstacles, plan.labels)
    for street in model.streets:
        rects = [plan.spaces[sid].rect for sid in street.spaces if sid in plan.spaces]
        ends = [(rects, "start"), (rects, "end")] if len(rects) > 1 else [(rects, "start")]
        for chain, end in ends:
            label = _place_street_name(
                street,
                chain,
                end,
                measure,
                room,
                centre,
                geo.cell,
                plan.fonts.bold,
            )
            if label is None:
                plan.dropped.append(f"street name '{street.name}' at the {end}")
            else:
                plan.labels.append(label)

    for shape in plan.spaces.values():
        text = shape.space.label
        if text and shape.space.kind in ("road", "junction", "restaurant"):
            label = _place_beside(text, shape, measure, room, plan.fonts.bold)
            if label is None:
                plan.dropped.append(f"label '{text}' of space '{shape.id}'")
            else:
                plan.labels.append(label)

    _place_boxes(plan, model, geo, obstacles, allowed)
    return plan


def _space_fill(space: BoardSpace, own: list[Street], patterns: dict[str, str]) -> tuple[str, str]:
    if space.color:
        return space.color, "plain"
    if space.kind == "restaurant":
        return "#ffffff", "plain"
    if space.kind in ("track", "start"):
        return "#ffffff" if space.kind == "track" else "#d8f3dc", "plain"
    if space.kind == "end":
        return "#ffd166", "plain"
    if len(own) == 1:
        return own[0].color, patterns[own[0].id]
    if space.kind == "junction" or own:
        return "#9a9a9a", "plain"
    return "#d9d4c5", "plain"


@dataclass(frozen=True)
class _Room:
    """Where a label may go: inside `allowed`, clear of the `obstacles` and of the `labels` placed so far
    (the board's own list, growing as labels are placed)."""

    allowed: Rect
    obstacles: list[Rect]
    labels: list[Label]

    def free(self, rect: Rect, pad: float = 1.5) -> bool:
        return self.allowed.contains(rect) and not any(rect.overlaps(o, pad) for o in self.obstacles) \
            and not any(rect.overlaps(label.rect, pad) for label in self.labels)


def _place_street_name(street: Street, rects: list[Rect], end: str, measure: Measure, room: _Room,
                       centre: tuple[float, float], cell: float, font: str = BOLD_FONT) -> Label | None:
    """The street name beside one end space, running inwards along the street, on the freer side."""
    here = rects[0] if end == "start" else rects[-1]
    nxt = (rects[1] if end == "start" else rects[-2]) if len(rects) > 1 else None
    dx, dy = ((nxt.cx - here.cx), (nxt.cy - here.cy)) if nxt else (1.0, 0.0)
    horizontal = abs(dx) >= abs(dy)
    gap = 2.0
    for size in STREET_PT:
        tw, th = measure(street.name, font, size), size * 1.15
        shifts = (0.0, 0.5 * cell, 1.0 * cell)
        if horizontal:
            xs = [here.x + s if dx >= 0 else here.x2 - tw - s for s in shifts]
            sides = [
                [Rect(x, here.y2 + gap, tw, th) for x in xs],
                [Rect(x, here.y - gap - th, tw, th) for x in xs],
            ]
            # prefer the side towards the board centre (more open than the margin)
            sides.sort(key=lambda rs: abs(rs[0].cy - centre[1]))
        else:
            ys = [here.y + s if dy >= 0 else here.y2 - tw - s for s in shifts]
            sides = [
                [Rect(here.x - gap - th, y, th, tw) for y in ys],
                [Rect(here.x2 + gap, y, th, tw) for y in ys],
            ]
            sides.sort(key=lambda rs: abs(rs[0].cx - centre[0]))
        for rect in sides[0] + sides[1]:
            if room.free(rect):
                return Label("street", street.name, rect, size, font, 0 if horizontal else 90, street.id)
    return None


def _place_beside(text: str, shape: SpaceShape, measure: Measure, room: _Room,
                  font: str = BOLD_FONT) -> Label | None:
    """A space's own label just outside its square, wherever there is room."""
    r = shape.rect
    for size in (8.0, 7.0):
        tw, th = measure(text, font, size), size * 1.15
        spots = [(r.cx - tw / 2, r.y - 2 - th), (r.cx - tw / 2, r.y2 + 2), (r.x2 + 3, r.cy - th / 2),
                 (r.x - 3 - tw, r.cy - th / 2), (r.x2 + 2, r.y - 2 - th), (r.x - 2 - tw, r.y - 2 - th),
                 (r.x2 + 2, r.y2 + 2), (r.x - 2 - tw, r.y2 + 2)]
        for x, y in spots:
            rect = Rect(x, y, tw, th)
            if room.free(rect):
                return Label("space", text, rect, size, font, 0, shape.id)
    return None


def free_cell_blocks(cols: int, rows: int, used: set[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Every empty rectangle of cells (col, row, width, height), biggest first, then top-left first."""
    blocks = []
    for r0 in range(rows):
        for c0 in range(cols):
            if (c0, r0) in used:
                continue
            max_w = cols - c0
            for r1 in range(r0, rows):
                w = 0
                while w < max_w and (c0 + w, r1) not in used:
                    w += 1
                max_w = min(max_w, w)
                if max_w == 0:
                    break
                blocks.append((c0, r0, max_w, r1 - r0 + 1))
    blocks.sort(key=lambda b: (-b[2] * b[3], b[1], b[0]))
    return blocks


def _shrink_clear(box: Rect, obstacles: list[Rect], pad: float = 3.0) -> Rect:
    """Cut the box back from whichever side costs least until no obstacle overlaps it."""
    for _ in range(50):
        hit = next((o for o in obstacles if box.overlaps(o, pad)), None)
        if hit is None or box.w <= 0 or box.h <= 0:
            return box
        options = [
            Rect(hit.x2 + pad, box.y, box.x2 - hit.x2 - pad, box.h),  # keep the part right of it
            Rect(box.x, box.y, hit.x - pad - box.x, box.h),  # left of it
            Rect(box.x, hit.y2 + pad, box.w, box.y2 - hit.y2 - pad),  # above it
            Rect(box.x, box.y, box.w, hit.y - pad - box.y),  # below it
        ]
        box = max(options, key=lambda r: max(r.w, 0) * max(r.h, 0))
    return box


def _boxes_in_zones(plan: BoardPlan, model: BoardFile) -> None:
    """The title, legend and notes in the first zone of their kind (notes: a text zone of no text)."""
    for zone, rect in plan.zones:
        if zone.kind == "title" and plan.title_box is None:
            plan.title_box = rect.inset(3)
        elif zone.kind == "legend" and plan.legend_box is None:
            plan.legend_box = rect.inset(3)
        elif zone.kind == "text" and not zone.text and model.notes and plan.notes_box is None:
            plan.notes_box = rect.inset(3)


def _used_cells(plan: BoardPlan, model: BoardFile) -> set[tuple[int, int]]:
    """The grid cells (col, row) with a space or under a zone."""
    used = {(round(s.at[0]), round(s.at[1])) for s in model.spaces}
    cols, rows = model.grid.cols, model.grid.rows
    for zone, _rect in plan.zones:  # only cells of the grid: a zone reaching far outside costs nothing
        for c in range(max(0, math.floor(zone.at[0])), min(cols, math.ceil(zone.at[0] + zone.size[0]))):
            for r in range(max(0, math.floor(zone.at[1])), min(rows, math.ceil(zone.at[1] + zone.size[1]))):
                used.add((c, r))
    return used


def _place_boxes(
    plan: BoardPlan, model: BoardFile, geo: _Geometry, obstacles: list[Rect], allowed: Rect
) -> None:
    """Title, legend and notes: into zones of that kind, else into the largest empty blocks, else the
    margins."""
    _boxes_in_zones(plan, model)
    used = _used_cells(plan, model)
    blockers = obstacles + [label.rect for label in plan.labels]
    legend_rows = len(model.streets) + sum(1 for s in model.spaces if s.kind == "restaurant" and s.color)
    wanted = [
        ("title_box", 60.0, 30.0, 90.0),
        ("legend_box", 110.0, 60.0 if model.streets else 0, (legend_rows + 2) * 15.0),
        ("notes_box", 110.0, 40.0, 25.0 + 14.0 * len(model.notes)),
    ]
    for attr, min_w, min_h, desired_h in wanted:
        if getattr(plan, attr) is not None or min_h == 0 or (attr == "notes_box" and not model.notes):
            continue
        for col, row, w, h in free_cell_blocks(model.grid.cols, model.grid.rows, used):
            h = min(h, max(1, math.ceil((desired_h + 8) / geo.cell)))  # take only the rows it needs
            box = _shrink_clear(geo.cell_rect(col, row, w, h).inset(4), blockers)
            if box.w >= min_w and box.h >= min_h and allowed.contains(box):
                setattr(plan, attr, box)
                used |= {(c, r) for c in range(col, col + w) for r in range(row, row + h)}
                blockers.append(box)
                break
    # Fallback for strips such as a round tracker: the title above the grid, the notes below it, in the
    # band between the frame and the space squares.
    edge = 3.2 * MM
    room = geo.margin + geo.cell * (1 - SPACE_FILL) / 2 - edge - 1.5
    if plan.title_box is None and room >= 12:
        plan.title_box = _shrink_clear(
            Rect(edge, geo.height - edge - room, geo.width - 2 * edge, room), blockers
        )
    if plan.notes_box is None and model.notes and room >= 12:
        plan.notes_box = _shrink_clear(Rect(edge, edge, geo.width - 2 * edge, room), blockers)
    for attr, what in (("title_box", "title"), ("notes_box", "notes"), ("legend_box", "legend")):
        needed = what != "notes" or model.notes
        needed = needed and (what != "legend" or model.streets)
        if needed and getattr(plan, attr) is None:
            plan.dropped.append(what)


def wrap(text: str, width: float, font: str, size: float, measure: Measure) -> list[str]:
    """Greedy word wrap to `width` points."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}".strip()
            if line and measure(trial, font, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
