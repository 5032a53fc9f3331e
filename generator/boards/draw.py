"""Drawing a board plan with ReportLab: `draw_board(canvas, game, board, x, y, scale)` for any board-bearing
game."""

from __future__ import annotations

import math

from reportlab.lib.colors import HexColor

from generator.boards.plan import (
    BoardFonts,
    BoardPlan,
    Label,
    SpaceShape,
    card_rect_in,
    plan_board,
    wrap,
)
from generator.core.colours import brightness, mix
from generator.core.fonts import draw_string, register_fonts, string_width
from generator.core.geometry import Rect
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import MM
from generator.data.game import Board, Game

BACKGROUND = "#f6f1e3"
INK = "#262730"
FRAME = "#3d405b"
ASPHALT = "#5f5f66"


def measure(text: str, font: str, size: float) -> float:
    """Width of `text` in points in one of the embedded faces (fallback faces included)."""
    register_fonts()
    return string_width(text, font, size)


def board_fonts(game: Game) -> BoardFonts:
    """The game's title font and body font (regular and bold) as a board is set in them."""
    body = game.fonts["body"]
    return BoardFonts(title=game.fonts["title"].name, body=body.name, bold=body.face("bold").name)


def board_plan(game: Game, board: Board) -> BoardPlan:
    """The board's layout with real font metrics and the game's card size for card areas."""
    plan = plan_board(board.model, measure, game.card_size_pt, board_fonts(game))
    # the words the board itself prints (legend heading, START) in the game's language
    plan.phrases = game.phrases
    return plan


def draw_board(canvas, game: Game, board: Board, x: float, y: float, scale: float = 1.0,
               bleed: float = 0.0, plan: BoardPlan | None = None) -> BoardPlan:
    """Draw the board's trim area with its lower-left corner at (x, y); `bleed` extends the background."""
    register_fonts()
    plan = plan or board_plan(game, board)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(scale, scale)
    _fill(canvas, BACKGROUND)
    canvas.rect(-bleed, -bleed, plan.width + 2 * bleed, plan.height + 2 * bleed, stroke=0, fill=1)
    inset = 2.5 * MM
    canvas.setStrokeColor(HexColor(FRAME))
    canvas.setLineWidth(1.2)
    canvas.roundRect(inset, inset, plan.width - 2 * inset, plan.height - 2 * inset, 3 * MM, stroke=1, fill=0)
    _draw_zones(canvas, plan)
    _draw_roads(canvas, plan)
    for shape in plan.spaces.values():
        _draw_space(canvas, plan, shape)
    for label in plan.labels:
        _draw_label(canvas, plan, label)
    title = board.model.title or game.title
    if plan.title_box:
        _draw_title(
            canvas, plan.title_box, title, board.model.name if board.model.name != title else "", plan.fonts
        )
    if plan.legend_box:
        _draw_legend(canvas, plan, board, plan.legend_box)
    if plan.notes_box and board.model.notes:
        _draw_notes(canvas, plan.notes_box, board.model.notes, plan.fonts)
    canvas.restoreState()
    return plan


def _fill(canvas, color: str) -> None:
    canvas.setFillColor(HexColor(color))


def _stroke(canvas, color: str, width: float) -> None:
    canvas.setStrokeColor(HexColor(color))
    canvas.setLineWidth(width)


def _centred(canvas, text: str, cx: float, baseline: float, font: str, size: float, color: str = INK) -> None:
    canvas.setFont(font, size)
    _fill(canvas, color)
    draw_string(canvas, cx, baseline, text, font, size, "center")


def _fit(text: str, font: str, size: float, width: float, smallest: float = 5.0) -> float:
    """The largest size <= `size` at which `text` fits `width`."""
    while size > smallest and measure(text, font, size) > width:
        size -= 0.5
    return size


def _draw_zones(canvas, plan: BoardPlan) -> None:
    card_w, card_h = plan.card_size
    for zone, rect in plan.zones:
        if zone.kind in ("cards", "area"):
            outline = (card_rect_in(rect, card_w, card_h) if zone.kind == "cards" else None) or rect
            _fill(canvas, "#fffdf7")
            _stroke(canvas, "#7a7a85", 1.2)
            canvas.setDash(6, 4)
            canvas.roundRect(outline.x, outline.y, outline.w, outline.h, 3 * MM, stroke=1, fill=1)
            canvas.setDash()
            lines = wrap(zone.caption, outline.w - 12, plan.fonts.bold, 11, measure)
            top = outline.cy + (len(lines) - 1) * 7
            for i, line in enumerate(lines):
                _centred(canvas, line, outline.cx, top - i * 14 - 4, plan.fonts.bold, 11, "#6b6b75")
        elif zone.kind == "text":
            _centred(canvas, zone.caption, rect.cx, rect.y2 - 14, plan.fonts.bold, 10)
            if zone.text:
                _draw_notes(
                    canvas, Rect(rect.x + 4, rect.y + 4, rect.w - 8, rect.h - 22), [zone.text], plan.fonts
                )


def _draw_roads(canvas, plan: BoardPlan) -> None:
    canvas.setLineCap(1)
    streets = {shape.streets[0]: shape.fill for shape in plan.spaces.values() if len(shape.streets) == 1}
    for road in plan.roads:
        color = mix(streets[road.street], "#000000", 0.25) if road.street in streets else ASPHALT
        _stroke(canvas, color, plan.cell * 0.34)
        canvas.line(*road.start, *road.end)
    canvas.setLineCap(0)


def _clip_round(canvas, r: Rect, radius: float) -> None:
    path = canvas.beginPath()
    path.roundRect(r.x, r.y, r.w, r.h, radius)
    canvas.clipPath(path, stroke=0, fill=0)


def draw_pattern(canvas, r: Rect, pattern: str, fill: str, radius: float = 0.0) -> None:
    """Fill `r` with a colour and a street pattern that survives greyscale printing."""
    _fill(canvas, fill)
    canvas.roundRect(r.x, r.y, r.w, r.h, radius, stroke=0, fill=1)
    if pattern == "plain":
        return
    ink = mix(fill, "#ffffff", 0.6) if brightness(fill) < 0.6 else mix(fill, "#000000", 0.4)
    canvas.saveState()
    _clip_round(canvas, r, radius)
    _stroke(canvas, ink, 1.6)
    _fill(canvas, ink)
    step = 6.0
    span = r.w + r.h
    if pattern in ("stripes", "grid"):
        for i in range(int(span / step) + 2):
            d = i * step
            canvas.line(r.x + d - r.h, r.y, r.x + d, r.y2)
            if pattern == "grid":
                canvas.setLineWidth(1.0)
                canvas.line(r.x + d - r.h, r.y2, r.x + d, r.y)
    elif pattern == "bars":
        canvas.setLineWidth(1.8)
        for i in range(int(r.h / 4.5) + 1):
            canvas.line(r.x, r.y + 2 + i * 4.5, r.x2, r.y + 2 + i * 4.5)
    elif pattern == "dots":
        for i in range(int(r.w / step) + 1):
            for j in range(int(r.h / step) + 1):
                canvas.circle(r.x + 3 + i * step, r.y + 3 + j * step, 1.4, stroke=0, fill=1)
    elif pattern == "checks":
        for i in range(int(r.w / 5) + 1):
            for j in range(int(r.h / 5) + 1):
                if (i + j) % 2 == 0:
                    canvas.rect(r.x + i * 5, r.y + j * 5, 5, 5, stroke=0, fill=1)
    canvas.restoreState()


def draw_star(canvas, cx: float, cy: float, radius: float, fill: str) -> None:
    """A five-pointed star with a dark outline."""
    path = canvas.beginPath()
    for i in range(10):
        rr = radius if i % 2 == 0 else radius * 0.45
        angle = math.pi / 2 + i * math.pi / 5
        point = (cx + rr * math.cos(angle), cy + rr * math.sin(angle))
        path.moveTo(*point) if i == 0 else path.lineTo(*point)
    path.close()
    _fill(canvas, fill)
    _stroke(canvas, INK, 1.0)
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1, fill=1)


def _draw_space(canvas, plan: BoardPlan, shape: SpaceShape) -> None:
    r, space = shape.rect, shape.space
    radius = r.w * 0.12
    if space.kind == "restaurant":
        color = space.color or "#888888"
        _fill(canvas, "#ffffff")
        _stroke(canvas, color, 3.0)
        canvas.roundRect(r.x + 1.5, r.y + 1.5, r.w - 3, r.h - 3, radius, stroke=1, fill=1)
        draw_star(canvas, r.cx, r.cy + r.h * 0.09, r.w * 0.3, color)
        name = (space.color_name or "").upper()
        if name:
            size = _fit(name, plan.fonts.bold, max(7.0, r.w * 0.16), r.w - 8)
            _centred(canvas, name, r.cx, r.y + r.h * 0.1, plan.fonts.bold, size)
        return
    draw_pattern(canvas, r, shape.pattern, shape.fill, radius)
    _stroke(canvas, mix(shape.fill, "#000000", 0.45), 0.9)
    canvas.roundRect(r.x, r.y, r.w, r.h, radius, stroke=1, fill=0)
    if space.kind == "junction":  # a crossroads sign: no house number here
        _fill(canvas, ASPHALT)
        _stroke(canvas, "#ffffff", 1.5)
        canvas.circle(r.cx, r.cy, r.w * 0.22, stroke=1, fill=1)
        arm = r.w * 0.13
        canvas.setLineWidth(2.2)
        canvas.line(r.cx - arm, r.cy, r.cx + arm, r.cy)
        canvas.line(r.cx, r.cy - arm, r.cx, r.cy + arm)
    if space.kind in ("track", "start", "end"):
        _draw_track_space(canvas, shape, plan.fonts, plan.phrases)
    elif space.color and space.color_name:
        _centred(
            canvas,
            space.color_name,
            r.cx,
            r.y + 4,
            plan.fonts.bold,
            7,
            INK if brightness(shape.fill) > 0.5 else "#ffffff",
        )


def _draw_track_space(canvas, shape: SpaceShape, fonts: BoardFonts, phrases: Phrases = ENGLISH) -> None:
    r, space = shape.rect, shape.space
    text_color = INK if brightness(shape.fill) > 0.5 else "#ffffff"
    band = 0.0
    if space.start_for:
        band = r.h * 0.3
        players = "/".join(phrases.t("board.start_players", count=n) for n in sorted(space.start_for))
        word = phrases.t("board.start")
        start = f"{players} {word}"
        _fill(canvas, FRAME)
        canvas.saveState()
        _clip_round(canvas, r, r.w * 0.12)
        canvas.rect(r.x, r.y, r.w, band, stroke=0, fill=1)
        canvas.restoreState()
        lines = [start] if measure(start, fonts.bold, 7) <= r.w - 4 else [players, word]
        size = min(_fit(line, fonts.bold, band / len(lines) * 0.72, r.w - 4) for line in lines)
        for i, line in enumerate(lines):
            _centred(canvas, line, r.cx, r.y + band - (i + 1) * band / len(lines) + band / len(lines) * 0.3,
                     fonts.bold, size, "#ffffff")
    text = space.label or space.id
    if space.kind == "end":
        text = text.upper()
    lines = wrap(text, r.w - 6, fonts.title, r.h * 0.22, measure)
    area_h = r.h - band
    size = min(r.h * (0.42 if len(lines) == 1 else 0.22), area_h / (len(lines) * 1.1))
    size = min(_fit(line, fonts.title, size, r.w - 6) for line in lines)
    top = r.y + band + area_h / 2 + (len(lines) * size * 1.05) / 2
    for i, line in enumerate(lines):
        _centred(canvas, line, r.cx, top - (i + 1) * size * 1.05 + size * 0.25, fonts.title, size, text_color)


def _draw_label(canvas, plan: BoardPlan, label: Label) -> None:
    r = label.rect
    if label.kind == "house":
        _fill(canvas, "#ffffff")
        _stroke(canvas, INK, 0.9)
        canvas.circle(r.cx, r.cy, r.w / 2, stroke=1, fill=1)
        _centred(canvas, label.text, r.cx, r.cy - label.size * 0.36, label.font, label.size)
        return
    color = INK
    if label.kind == "street":
        color = mix(plan.street_colors.get(label.ref, INK), "#000000", 0.55)
    canvas.setFont(label.font, label.size)
    _fill(canvas, color)
    if label.angle == 90:
        canvas.saveState()
        canvas.translate(r.x2 - label.size * 0.28, r.y)
        canvas.rotate(90)
        draw_string(canvas, 0, 0, label.text, label.font, label.size)
        canvas.restoreState()
    else:
        draw_string(canvas, r.x, r.y + label.size * 0.28, label.text, label.font, label.size)


def _draw_title(canvas, box: Rect, title: str, subtitle: str, fonts: BoardFonts) -> None:
    if subtitle and box.h < 40:  # a low band: title and subtitle on one line
        text = f"{title}  \u00b7  {subtitle}"
        size = _fit(text, fonts.title, min(18.0, box.h * 0.75), box.w, 6)
        _centred(canvas, text, box.cx, box.cy - size * 0.35, fonts.title, size, FRAME)
        return
    size = min(40.0, box.h * (0.5 if subtitle else 0.75))
    size = _fit(title, fonts.title, size, box.w, 8)
    sub = _fit(subtitle, fonts.bold, max(7.0, size * 0.38), box.w, 6) if subtitle else 0
    total = size + (sub * 1.5 if subtitle else 0)
    base = box.cy + total / 2 - size * 0.8
    _centred(canvas, title, box.cx, base, fonts.title, size, FRAME)
    if subtitle:
        _centred(canvas, subtitle, box.cx, base - sub * 1.6, fonts.bold, sub, INK)


def legend_rows(plan: BoardPlan, board: Board) -> list[tuple[str, str, str, str]]:
    """(kind, colour, pattern, text) per legend line: every street, then every coloured restaurant."""
    rows = [
        ("street", s.color, plan.street_patterns[s.id], f"{s.name} \u2013 {s.color_name}")
        for s in board.model.streets
    ]
    for space in board.model.spaces:
        if space.kind == "restaurant" and space.color:
            text = space.label or plan.phrases.t("board.restaurant", color=space.color_name)
            if space.color_name and space.color_name.lower() not in text.lower():
                text += f" \u2013 {space.color_name}"
            rows.append(("restaurant", space.color, "plain", text))
    return rows


def _draw_legend(canvas, plan: BoardPlan, board: Board, box: Rect) -> None:
    rows = legend_rows(plan, board)
    line = min(18.0, box.h / (len(rows) + 1.6))
    size = min(10.0, line * 0.62)
    swatch_w = line * 1.6
    fonts = plan.fonts
    widest = max(measure(text, fonts.body, size) for _, _, _, text in rows)
    size = min(size, size * (box.w - swatch_w - 6) / max(widest, 1))
    restaurants = any(k == "restaurant" for k, *_ in rows)
    heading = plan.phrases.t("board.legend_streets_restaurants" if restaurants else "board.legend_streets")
    y = box.y2 - line
    canvas.setFont(fonts.bold, size * 1.1)
    _fill(canvas, INK)
    draw_string(canvas, box.x, y + line * 0.25, heading, fonts.bold, size * 1.1)
    for kind, color, pattern, text in rows:
        y -= line
        sw = Rect(box.x, y + line * 0.12, swatch_w, line * 0.76)
        if kind == "restaurant":
            draw_star(canvas, sw.cx, sw.cy, sw.h * 0.55, color)
        else:
            draw_pattern(canvas, sw, pattern, color, 2)
            _stroke(canvas, INK, 0.6)
            canvas.roundRect(sw.x, sw.y, sw.w, sw.h, 2, stroke=1, fill=0)
        canvas.setFont(fonts.body, size)
        _fill(canvas, INK)
        draw_string(canvas, sw.x2 + 6, y + line * 0.5 - size * 0.35, text, fonts.body, size)


def _draw_notes(canvas, box: Rect, notes: list[str], fonts: BoardFonts) -> None:
    size = 10.0
    while True:
        lines = [line for note in notes for line in wrap(note, box.w, fonts.body, size, measure)]
        if len(lines) * size * 1.25 <= box.h or size <= 5.5:
            break
        size -= 0.5
    y = box.y2 - size
    if len(lines) * size * 1.25 < box.h:  # centre a short text vertically
        y -= (box.h - len(lines) * size * 1.25) / 2
    for line in lines:
        _centred(canvas, line, box.cx, y, fonts.body, size)
        y -= size * 1.25
