"""Pictures in the rules: real cards (with numbered callouts) and boards, drawn by the card and board
renderers."""

from __future__ import annotations

import math

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

from generator.boards.draw import board_plan, draw_board
from generator.booklet.document import ACCENT, INK, para, text_frame
from generator.booklet.figure_layout import (
    CARD_GAP,
    FOOT,
    LABEL_GAP,
    MIN_TEXT,
    card_grid,
    cover_grid,
    legible_width,
    split_rows,
)
from generator.booklet.references import card_text_areas, check_figure, picture_path, rules_icons
from generator.booklet.text import template_file
from generator.components.pictures import Picture
from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY_BOLD, draw_string
from generator.core.geometry import Rect
from generator.core.units import to_pt
from generator.data.game import Game
from generator.faces.face import draw_front

MARKER_R = 5.5        # pt, the numbered callout markers


class CardFigure(Flowable):
    """One or more real cards drawn by generator.faces.face (vector), with optional numbered callouts.

    The cards are never drawn so small that their smallest text falls below MIN_TEXT: cards that do not fit
    side by side at that size wrap onto more rows, and a figure taller than a page shrinks towards that size
    or goes over pages by rows (generator.booklet.figure_layout). A callout's marker sits next to the point it
    names, moved off the card's text, and a leader line joins it to its label wherever that line stays clear
    of the text.

    `caption` is its text, or the paragraph of the figure this part of a split figure continues; `reserve`
    (the cover) keeps that much of the text frame's remaining height free under the figure, whose cards then
    stay on one row and shrink as far as needed to fit."""

    def __init__(self, game: Game, cards: list, card_w: float, callouts: list, caption_style: ParagraphStyle,
                 caption: str | Paragraph | None = "", *, reserve: float | None = None):
        super().__init__()
        # Callouts are numbered top to bottom so their leader lines never cross.
        self.game, self.cards = game, cards
        self.callouts = sorted(callouts, key=lambda c: c[2])
        self.native = game.decks[cards[0].deck].size_pt
        self.areas = card_text_areas(game, cards)  # laid out once per game, split parts too
        smallest = min((size for areas in self.areas for _, size in areas), default=MIN_TEXT)
        self.legible = legible_width(self.native[0], smallest)  # the narrowest card whose text stays legible
        self.wanted = max(card_w, self.legible)
        self.page_h = text_frame()[1]
        self.reserve = reserve
        self.caption_style = caption_style
        self.caption = caption if isinstance(caption, Paragraph) else (
            para(caption, caption_style) if caption else None
        )
        self.label_style = ParagraphStyle(
            "callout", parent=caption_style, alignment=0, fontSize=7.5, leading=9, textColor=INK
        )

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        if self.reserve is None:
            grid = card_grid(self.native, self.wanted, self.legible, len(self.cards), avail_w, self.page_h,
                             self.cap_h, bool(self.callouts))
        else:  # the cover: one row, in the room left on its page
            grid = cover_grid(
                self.native, self.wanted, len(self.cards), avail_w, avail_h - self.reserve - self.cap_h
            )
        self.grid = grid
        self.card_w, self.card_h, self.per_row, self.rows, self.label_w = (
            grid.card_w, grid.card_h, grid.per_row, grid.rows, grid.label_w)
        self.scale = self.card_w / self.native[0]
        self.height = grid.cards_height() + self.cap_h + FOOT
        return self.width, self.height

    def split(self, avail_w, avail_h):
        """A figure taller than a page goes over pages by rows (the callouts with the first card, the caption
        under the last); one that fits a page moves whole to the next."""
        self.wrap(avail_w, avail_h)
        if self.height <= avail_h:
            return [self]
        rows = split_rows(self.grid, avail_h, self.page_h, self.height) if self.reserve is None else 0
        if rows == 0:
            return []
        count = rows * self.per_row
        first = CardFigure(self.game, self.cards[:count], self.card_w, self.callouts, self.caption_style)
        rest = CardFigure(
            self.game,
            self.cards[count:],
            self.card_w,
            [],
            self.caption_style,
            self.caption,
        )
        for part in (first, rest):
            part.wanted = part.legible = self.card_w  # every part at the size of the whole
        return [first, rest]

    def draw(self):
        canv = self.canv
        row_w = self.per_row * self.card_w + (self.per_row - 1) * CARD_GAP
        x0 = (self.width - row_w - self.label_w - (LABEL_GAP if self.label_w else 0)) / 2
        top = self.height - self.card_h
        for i, card in enumerate(self.cards):
            x = x0 + (i % self.per_row) * (self.card_w + CARD_GAP)
            y = top - (i // self.per_row) * (self.card_h + CARD_GAP)
            canv.saveState()
            canv.translate(x, y)
            canv.scale(self.scale, self.scale)
            _draw_card(canv, self.game, card)
            canv.restoreState()
        if self.callouts:
            self._draw_callouts(x0, top, x0 + row_w + LABEL_GAP)
        if self.caption:
            self.caption.drawOn(canv, 0, 0)

    def _obstacles(self, card_x: float, card_y: float) -> list[Rect]:
        """The first card's texts on the page, grown by a hair so markers and lines keep off them."""
        return [
            Rect(
                card_x + r.x * self.scale, card_y + r.y * self.scale, r.w * self.scale, r.h * self.scale
            ).inset(-1)
            for r, _ in (self.areas[0] if self.areas else [])
        ]

    def marker_spots(self, card_x: float, card_y: float) -> list[tuple[float, float]]:
        """Centres of the callout markers on the first card (lower-left at card_x, card_y): each nearest its
        point, off the card's text and off the markers placed before it."""
        card = Rect(card_x, card_y, self.card_w, self.card_h)
        obstacles = self._obstacles(card_x, card_y)
        markers: list[tuple[float, float]] = []
        for _label, fx, fy in self.callouts:
            target = (card_x + fx * self.card_w, card_y + (1 - fy) * self.card_h)
            spots = [Rect(x - MARKER_R, y - MARKER_R, 2 * MARKER_R, 2 * MARKER_R) for x, y in markers]
            markers.append(free_spot(target, card, obstacles + spots, MARKER_R))
        return markers

    def _draw_callouts(self, card_x: float, card_y: float, label_x: float) -> None:
        canv = self.canv
        card = Rect(card_x, card_y, self.card_w, self.card_h)
        obstacles = self._obstacles(card_x, card_y)
        markers = self.marker_spots(card_x, card_y)
        labels = [para(f"<b>{n}</b>&nbsp; {label}", self.label_style)
                  for n, (label, _fx, _fy) in enumerate(self.callouts, start=1)]
        heights = [label.wrap(self.label_w, 40)[1] for label in labels]
        centres = label_centres([y for _x, y in markers], heights, card_y, card_y + self.card_h)
        for n, ((px, py), label, h, ly) in enumerate(
            zip(markers, labels, heights, centres, strict=True), start=1
        ):
            canv.saveState()
            # the leader runs level with the marker to the card's edge, then to its label; drawn only when
            # that
            # stretch on the card stays clear of the card's text
            if not any(crosses((px + MARKER_R, py), (card.x2, py), box) for box in obstacles):
                canv.setStrokeColor(ACCENT)
                canv.setLineWidth(0.7)
                path = canv.beginPath()
                path.moveTo(px + MARKER_R, py)
                path.lineTo(card.x2 + 4, py)
                path.lineTo(label_x - 2, ly)
                canv.drawPath(path, stroke=1, fill=0)
            canv.setFillColor(ACCENT)
            canv.circle(px, py, MARKER_R, stroke=0, fill=1)
            canv.setFillColor(colors.white)
            canv.setFont(BODY_BOLD, 7)
            canv.drawCentredString(px, py - 2.4, str(n))
            canv.restoreState()
            label.drawOn(canv, label_x, ly - h / 2)


def label_centres(
    wanted: list[float], heights: list[float], low: float, high: float, gap: float = 3.0
) -> list[float]:
    """Label centres as close as possible to `wanted` (top to bottom), without overlapping, between low and
    high."""
    order = sorted(range(len(wanted)), key=lambda i: -wanted[i])
    centres = dict(zip(order, (wanted[i] for i in order), strict=True))
    previous_bottom = high
    for i in order:  # downwards: each label below the one above it
        centres[i] = min(centres[i], previous_bottom - heights[i] / 2)
        previous_bottom = centres[i] - heights[i] / 2 - gap
    next_top = low
    for i in reversed(order):  # upwards: nothing below the figure
        centres[i] = max(centres[i], next_top + heights[i] / 2)
        next_top = centres[i] + heights[i] / 2 + gap
    return [centres[i] for i in range(len(wanted))]


def free_spot(
    target: tuple[float, float], card: Rect, obstacles: list[Rect], r: float
) -> tuple[float, float]:
    """The point nearest `target` (on rings of growing radius) where a circle of radius r stays on the card
    and off every obstacle; the target itself when there is none."""
    tx, ty = target
    inner = card.inset(r)
    for ring in range(0, 40):
        steps = max(1, ring * 8)
        for k in range(steps):
            angle = 2 * math.pi * k / steps
            x, y = tx + ring * 2 * math.cos(angle), ty + ring * 2 * math.sin(angle)
            if not (inner.x <= x <= inner.x2 and inner.y <= y <= inner.y2):
                continue
            spot = Rect(x - r, y - r, 2 * r, 2 * r)
            if not any(spot.overlaps(box) for box in obstacles):
                return x, y
    return tx, ty


def crosses(a: tuple[float, float], b: tuple[float, float], box: Rect) -> bool:
    """True when the segment a-b passes through the rectangle (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box.x), (dx, box.x2 - x0), (-dy, y0 - box.y), (dy, box.y2 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


class BoardFigure(Flowable):
    """A board drawn by generator.boards.draw (vector), scaled to the text width and at most a page high."""

    def __init__(
        self, game: Game, board_id: str, width: float, caption_style: ParagraphStyle, caption: str = ""
    ):
        super().__init__()
        self.game, self.board = game, game.boards[board_id]
        self.plan = board_plan(game, self.board)  # planned once, drawn on every pass of the multi-pass build
        bw, bh = self.plan.width, self.plan.height
        self.scale = width / bw
        self.fig_w, self.fig_h = width, bh * self.scale
        self.caption = para(caption, caption_style) if caption else None

    def wrap(self, avail_w, avail_h):
        if self.fig_w > avail_w:
            self.scale *= avail_w / self.fig_w
            self.fig_h *= avail_w / self.fig_w
            self.fig_w = avail_w
        self.width = avail_w
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        room = text_frame()[1] - self.cap_h - 4  # a tall board is shrunk to a page, never left to overflow it
        if self.fig_h > room:
            self.scale *= room / self.fig_h
            self.fig_w *= room / self.fig_h
            self.fig_h = room
        self.height = self.fig_h + self.cap_h + 4
        return self.width, self.height

    def draw(self):
        x = (self.width - self.fig_w) / 2
        draw_board(self.canv, self.game, self.board, x, self.cap_h + 4, scale=self.scale, plan=self.plan)
        if self.caption:
            self.caption.drawOn(self.canv, 0, 0)


COMPONENT_HEIGHT = 2.1 * 72  # a component figure's height at most


class ComponentFigure(Flowable):
    """A component flat (as printed) and made up, drawn by generator.components.pictures, at most `max_h`
    high."""

    def __init__(self, game: Game, component_id: str, width: float, caption_style: ParagraphStyle,
                 caption: str = "", max_h: float = COMPONENT_HEIGHT):
        super().__init__()
        self.picture = Picture(game, game.components[component_id])
        self.fig_w, self.max_h = width, max_h
        self.caption = para(caption, caption_style) if caption else None

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        self.scale = min(min(self.fig_w, avail_w) / self.picture.width, self.max_h / self.picture.height, 1.0)
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        self.height = self.picture.height * self.scale + self.cap_h + 4
        return self.width, self.height

    def draw(self):
        x = (self.width - self.picture.width * self.scale) / 2
        self.picture.draw(self.canv, x, self.cap_h + 4, self.scale)
        if self.caption:
            self.caption.drawOn(self.canv, 0, 0)


def _draw_card(canv, game: Game, card) -> None:
    """A card's front as printed; a card whose layout is missing shows as a plain framed card with its
    data."""
    try:
        draw_front(canv, game, card, 0, 0, bleed=False)
        return
    except InputError:
        pass  # the missing layout is reported by the card-sheet outputs
    w, h = game.decks[card.deck].size_pt
    canv.setFillColor(colors.HexColor("#fffaf0"))
    canv.setStrokeColor(colors.HexColor("#444444"))
    canv.roundRect(0, 0, w, h, 8, stroke=1, fill=1)
    canv.setFillColor(colors.black)
    title, body = game.fonts["title"].name, game.fonts["body"].name
    canv.setFont(title, 14)
    draw_string(canv, w / 2, h - 24, card.name, title, 14, "center")
    canv.setFont(body, 8)
    y = h - 44
    for key, value in card.fields.items():
        if value not in (None, "", [], {}):
            draw_string(canv, 10, y, f"{key}: {value}"[:48], body, 8)
            y -= 11


def icon_markup(game: Game):
    """(icon name, size) -> Paragraph markup of the icon inline in running text, from the game's or the shared
    icons."""
    source = rules_icons(game)

    def markup(name: str, size: float) -> str:
        found = source.inline_markup(name, size)
        if found is None:  # checked when the rules were rendered; reaching this is a bug
            raise InputError(Problem(game.project.show(template_file(game)), 0, source.problem(name) or name))
        return found

    return markup


def picture_files(game: Game):
    """Markdown image src -> the picture file (inside the project; checked when the rules were rendered)."""
    shown = game.project.show(template_file(game))

    def resolve(src: str) -> str:
        return str(picture_path(game, src, file=shown))

    return resolve


def figure_factory(game: Game, styles: dict[str, ParagraphStyle], scale: float = 1.0):
    """Figures named in the rules text (```figure blocks) as Flowables of real cards, boards and
    components, `scale` times the size the text asks (the page balancing's smaller figures)."""
    def make(spec: dict, width: float) -> Flowable:
        try:
            # already checked with the rendered rules: a failure here is a bug
            spec = check_figure(game, spec)
        except ValueError as exc:
            raise InputError(Problem(game.project.show(template_file(game)), 0, str(exc))) from None
        kind = spec.get("kind")
        caption = spec.get("caption", "")
        if kind == "board":
            fraction = float(spec.get("fraction", 1.0))
            return BoardFigure(game, spec["board"], width * fraction * scale, styles["caption"], caption)
        if kind == "card":
            deck = game.decks[spec["deck"]]
            cards = []
            for ref in spec.get("cards") or [spec["card"]]:  # "id" in the figure's deck, or "deck/id"
                other, _, card_id = ref.rpartition("/")
                cards.append(game.decks[other or deck.id].card(card_id))
            # grown if the text would be too small; rows wrap
            card_w = to_pt(spec.get("width", "1.6in")) * scale
            return CardFigure(game, cards, card_w, spec.get("callouts", []), styles["caption"], caption)
        # kind checked
        return ComponentFigure(game, spec["component"], width * float(spec.get("fraction", 1.0)) * scale,
                               styles["caption"], caption, max_h=COMPONENT_HEIGHT * scale)

    return make
