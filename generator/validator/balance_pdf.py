"""build/<game>/balance.pdf: the simulation's balance figures as charts, with a line of explanation each."""

from __future__ import annotations

import math
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.graphics import renderPDF
from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing, Line, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.core.fonts import (
    BODY,
    TITLE,
    chart_string,
    draw_string,
    fallback_for_face,
    register_fonts,
    runs,
)
from generator.core.write import atomic_write

PAGE_W, PAGE_H = letter
MARGIN = 50
WIDTH = PAGE_W - 2 * MARGIN
SERIES = [colors.HexColor(c) for c in ("#2a6f97", "#e07a1f", "#3a9d5d", "#b23a48", "#7b5ea7", "#8c6d46")]
BAR_PITCH = 13  # points per bar in the horizontal charts
MAX_BINS = 14


class Flow:
    """A top-down cursor over pages: headings, paragraphs and drawings, a new page when one does not fit."""

    def __init__(self, canvas: Canvas, title: str):
        self.c, self.title, self.page = canvas, title, 1
        self.y = PAGE_H - MARGIN
        self.body = ParagraphStyle(
            "body", fontName=BODY, fontSize=9.5, leading=12.5, textColor=colors.HexColor("#333333")
        )

    def new_page(self) -> None:
        self.footer()
        self.c.showPage()
        self.page += 1
        self.y = PAGE_H - MARGIN

    def footer(self) -> None:
        self.c.setFont(BODY, 8)
        self.c.setFillColor(colors.grey)
        draw_string(
            self.c,
            PAGE_W / 2,
            MARGIN / 2,
            f"{self.title}: balance report, page {self.page}",
            BODY,
            8,
            "center",
        )

    def need(self, height: float) -> None:
        if self.y - height < MARGIN:
            self.new_page()

    def section(self, title: str, text: str, first: Drawing | None = None) -> None:
        """A heading and its explanation, kept on one page with the first chart that follows."""
        _, h = Paragraph(fallback_for_face(text, BODY), self.body).wrap(WIDTH, PAGE_H)
        self.need(22 + h + 6 + (first.height + 14 if first is not None else 0))
        self.heading(title)
        self.para(text)
        if first is not None:
            self.drawing(first)

    def heading(self, text: str, size: float = 14) -> None:
        self.need(size + 60)
        self.c.setFont(TITLE, size)
        self.c.setFillColor(colors.HexColor("#1d3557"))
        draw_string(self.c, MARGIN, self.y - size, text, TITLE, size)
        self.y -= size + 8

    def para(self, text: str) -> None:
        p = Paragraph(fallback_for_face(text, BODY), self.body)
        _, h = p.wrap(WIDTH, PAGE_H)
        self.need(h)
        p.drawOn(self.c, MARGIN, self.y - h)
        self.y -= h + 6

    def drawing(self, d: Drawing) -> None:
        self.need(d.height)
        renderPDF.draw(d, self.c, MARGIN, self.y - d.height)
        self.y -= d.height + 14


def _style_axis_labels(chart) -> None:
    for axis in (chart.categoryAxis, chart.valueAxis):
        axis.labels.fontName = BODY
        axis.labels.fontSize = 8
        axis.strokeColor = colors.grey
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#dddddd")


def _legend(x: float, y: float, names: list[str]) -> Legend:
    legend = Legend()
    legend.x, legend.y = x, y
    legend.fontName, legend.fontSize = BODY, 8
    legend.alignment = "right"
    legend.columnMaximum = 8
    legend.colorNamePairs = [(SERIES[i % len(SERIES)], n) for i, n in enumerate(names)]
    return legend


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering low..high (steps of 1, 2, 2.5 or 5 times a power of ten)."""
    span = (high - low) or abs(high) or 1.0
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step + 1e-9) * step
    ticks = [round(first, 10)]
    while ticks[-1] < high - step * 1e-6 or len(ticks) < 2:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _bins(values: list[int]) -> tuple[int, int]:
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // MAX_BINS))
    return low - low % width, width


def length_chart(by_players: dict, key: str) -> Drawing | None:
    """Share of games by length (binned), one series per player count."""
    hists = {p: f[key]["histogram"] for p, f in by_players.items() if f[key].get("n")}
    if not hists:
        return None
    values = [int(v) for h in hists.values() for v, _ in h]
    start, width = _bins(values)
    nbins = (max(values) - start) // width + 1
    data = []
    for h in hists.values():
        row = [0.0] * nbins
        total = sum(count for _, count in h)
        for v, count in h:
            row[(int(v) - start) // width] += 100 * count / total
        data.append(row)
    d = Drawing(WIDTH, 198, initialFontName=BODY)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 40, 35, WIDTH - 120, 140
    chart.data = data
    chart.categoryAxis.categoryNames = [
        f"{start + i * width}" if width == 1 else f"{start + i * width}-{start + (i + 1) * width - 1}"
        for i in range(nbins)
    ]
    _style_axis_labels(chart)
    chart.categoryAxis.labels.angle = 30 if nbins > 8 and width > 1 else 0
    chart.categoryAxis.labels.boxAnchor = "ne" if chart.categoryAxis.labels.angle else "n"
    # the tallest bar below a labelled line, not at the top
    ticks = nice_ticks(0, max(max(row) for row in data))
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, ticks[-1]
    chart.valueAxis.valueStep = ticks[1] - ticks[0]
    chart.valueAxis.labelTextFormat = lambda share: f"{share:g}%"  # steps of 2.5 show as such
    for i in range(len(data)):
        chart.bars[i].fillColor = SERIES[i % len(SERIES)]
        chart.bars[i].strokeColor = None
    chart.groupSpacing, chart.barSpacing = 4, 0
    d.add(chart)
    d.add(_legend(WIDTH - 62, 170, [f"{p} players" for p in hists]))
    d.add(String(0, 188, "share of games", fontName=BODY, fontSize=8, fillColor=colors.grey))
    d.add(
        String(
            chart.x + chart.width / 2,
            0,
            key,
            fontName=BODY,
            fontSize=8,
            fillColor=colors.grey,
            textAnchor="middle",
        )
    )
    return d


def seat_chart(by_players: dict) -> Drawing | None:
    """Win rate by turn position (1st = the first player) with 95% whiskers and a dashed fair-share line per
    player count."""
    rows = {
        p: f["position_wins_greedy_mirror"] for p, f in by_players.items() if f["position_wins_greedy_mirror"]
    }
    if not rows:
        return None
    seats = max(len(r) for r in rows.values())
    data = [[100 * (r[s]["rate"] if s < len(r) else 0) for s in range(seats)] for r in rows.values()]
    top = min(100, max(100 * s["high"] for r in rows.values() for s in r) * 1.15 + 5)
    d = Drawing(WIDTH, 200, initialFontName=BODY)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 40, 25, WIDTH - 120, 160
    chart.data = data
    chart.categoryAxis.categoryNames = [_ordinal(s + 1) for s in range(seats)]
    _style_axis_labels(chart)
    chart.valueAxis.valueMin, chart.valueAxis.valueMax = 0, top
    chart.valueAxis.labelTextFormat = "%d%%"
    for i in range(len(data)):
        chart.bars[i].fillColor = SERIES[i % len(SERIES)]
        chart.bars[i].strokeColor = None
    chart.groupSpacing, chart.barSpacing = 10, 2
    d.add(chart)
    # whiskers: bar geometry as VerticalBarChart lays it out (equal groups, equal bars, spacing in points)
    series = len(data)
    group = chart.width / seats
    bar_w = (group - chart.groupSpacing - chart.barSpacing * (series - 1)) / series
    scale = chart.height / top
    for i, r in enumerate(rows.values()):
        players = len(r)
        for s, seat in enumerate(r):
            x = chart.x + s * group + chart.groupSpacing / 2 + i * (bar_w + chart.barSpacing) + bar_w / 2
            lo, hi = chart.y + 100 * seat["low"] * scale, chart.y + 100 * seat["high"] * scale
            for line in (Line(x, lo, x, hi), Line(x - 2.5, lo, x + 2.5, lo), Line(x - 2.5, hi, x + 2.5, hi)):
                line.strokeColor, line.strokeWidth = colors.black, 0.7
                d.add(line)
        fair = chart.y + 100 / players * scale
        line = Line(chart.x, fair, chart.x + chart.width, fair, strokeDashArray=[3, 2])
        line.strokeColor, line.strokeWidth = SERIES[i % len(SERIES)], 0.8
        d.add(line)
    d.add(_legend(WIDTH - 62, 180, [f"{p} players" for p in rows]))
    d.add(String(0, 192, "wins (all-greedy games)", fontName=BODY, fontSize=8, fillColor=colors.grey))
    return d


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'} to play"


def _role_text(by_players: dict) -> str:
    """Win rate per seat where seats differ (a restaurant), per player count, with 95% intervals."""
    parts = []
    for p, f in by_players.items():
        roles = f.get("role_wins") or {}
        if roles:
            rates = ", ".join(f"{role} {100 * r['rate']:.0f}% ({100 * r['low']:.0f}-{100 * r['high']:.0f}%)"
                              for role, r in roles.items())
            parts.append(f"<b>{p} players</b> (fair: {100 / int(p):.0f}%): {rates}.")
    return "<br/>".join(parts)


def _dealt_text(by_players: dict, goals: dict) -> str:
    """Win rate of each goal when dealt, per player count (the fair share is 1 / players)."""
    parts = []
    for p, f in by_players.items():
        dealt = {g: r for g, r in (f.get("win_rate_when_dealt") or {}).items() if r is not None}
        if dealt:
            rates = ", ".join(
                f"{_label(goals.get(g, {}), g)} {100 * r:.0f}%" for g, r in sorted(dealt.items())
            )
            parts.append(f"<b>{p} players</b> (fair: {100 / int(p):.0f}%): {rates}.")
    return "<br/>".join(parts)


def hbar_chart(labels: list[str], values: list[float], fmt: str, color) -> Drawing:
    """Horizontal bars, one per label, top to bottom in the given order."""
    height = len(labels) * BAR_PITCH + 30
    d = Drawing(WIDTH, height, initialFontName=BODY)
    chart = HorizontalBarChart()
    label_w = 150
    chart.x, chart.y, chart.width, chart.height = label_w, 18, WIDTH - label_w - 40, len(labels) * BAR_PITCH
    chart.data = [list(reversed(values))]
    shown = list(reversed(labels))
    own_face = all(runs(label, BODY) == [(BODY, label)] for label in shown)
    # the axis sets its labels in one face; labels with characters it lacks are set here, with fallback faces
    chart.categoryAxis.categoryNames = shown if own_face else [""] * len(shown)
    _style_axis_labels(chart)
    chart.categoryAxis.labels.fontSize = 7.5
    if not own_face:
        pitch = chart.height / max(1, len(shown))
        for i, label in enumerate(shown):
            d.add(
                chart_string(chart.x - 5, chart.y + (i + 0.5) * pitch - 7.5 * 0.35, label, BODY, 7.5, "end")
            )
    chart.valueAxis.valueMin = 0
    chart.valueAxis.valueMax = max(max(values) * 1.15, 1e-9) if values else 1
    chart.valueAxis.labelTextFormat = fmt
    chart.bars[0].fillColor, chart.bars[0].strokeColor = color, None
    chart.barLabelFormat = fmt
    chart.barLabels.fontName, chart.barLabels.fontSize = BODY, 7
    chart.barLabels.boxAnchor, chart.barLabels.dx = "w", 3
    chart.groupSpacing = 3
    d.add(chart)
    return d


def _label(entry: dict, key: str) -> str:
    name = entry.get("name") or key
    return name if len(name) <= 34 else name[:33] + "…"


def _bar_section(
    flow: Flow, title: str, text: str, labels: list[str], values: list[float], fmt: str, color
) -> None:
    """A horizontal bar chart, split over pages in parts of at most 45 bars."""
    parts = [(labels[i:i + 45], values[i:i + 45]) for i in range(0, len(labels), 45)]
    charts = [hbar_chart(part_labels, part_values, fmt, color) for part_labels, part_values in parts]
    flow.section(title, text, charts[0] if charts else None)
    for chart in charts[1:]:
        flow.drawing(chart)


def _ending_text(by_players: dict) -> str:
    parts = []
    for p, f in by_players.items():
        ends = (
            ", ".join(f"{k.replace('-', ' ')} {100 * v['share']:.0f}%" for k, v in f["ended_by"].items())
            or "no finished games"
        )
        extra = ""
        if f["hand_limit_discards_per_game"] is not None:
            extra += f"; hand-limit discards {f['hand_limit_discards_per_game']:.2f} per game"
        if f["dead_hand_turns_per_game"] is not None:
            extra += (f"; dead-hand turns {f['dead_hand_turns_per_game']:.2f} per game "
                      f"(in {100 * f['games_with_dead_hands']:.0f}% of games)")
        bots = ", ".join(
            f"{b} bots held {100 * v['seat_share']:.0f}% of the seats and took {100 * v['win_share']:.0f}% "
            f"of the wins"
            for b, v in f["bot_strength"].items()
        )
        parts.append(
            f"<b>{p} players</b>: {ends}{extra}" + (f"; in mixed games {bots}" if bots else "") + "."
        )
    return "<br/>".join(parts)


def draw_report(path: Path, figures: dict) -> None:
    """Draw the balance report of one game into `path`."""
    register_fonts()
    c = Canvas(str(path), pagesize=letter, invariant=1, initialFontName=BODY)
    c.setTitle(f"{figures['title']}: balance report")
    flow = Flow(c, figures["title"])
    by_players = figures["by_players"]
    s = figures["settings"]
    flow.heading(f"{figures['title']}: balance report", 22)
    counts = ", ".join(str(p) for p in s["player_counts"])
    flow.para(
        f"{s['games_per_count']} simulated games per player count ({counts} players), base seed {s['seed']}. "
        f"Bots: {s['bots']}. These figures describe the balance; they never fail the validator. "
        "Composition problems (stalls, broken rules, goals never completed) are printed by <i>pnp "
        "validate</i>."
    )
    if s.get("changes"):  # pnp validate --option/--set: say what was played is not the game as written
        flow.para(
            "<b>Played with changes to the game as written</b> (--option/--set): "
            + escape("; ".join(s["changes"]))
            + "."
        )
    for key, words in (("turns", "turns"), ("rounds", "rounds")):
        chart = length_chart(by_players, key)
        if chart is not None:
            flow.section(
                f"Game length in {words}",
                f"How many {words} a game lasts, as a share of the games at each "
                f"player count. A long tail to the right means some games drag on.",
                chart,
            )
    chart = seat_chart(by_players)
    if chart is not None:
        flow.section(
            "Win rate by turn position",
            "Games where every seat is played by the greedy bot, counted by "
            "the order in which players take their turns (the 1st is the first player, whoever that was "
            "in each game). With no advantage each bar sits near its dashed line (1 / players); whiskers "
            "are 95% confidence intervals, so a whisker that misses the line shows a real advantage or "
            "disadvantage of playing in that position.",
            chart,
        )
    roles = _role_text(by_players)
    if roles:
        flow.section(
            "Win rate by seat",
            "Where seats differ (each player's restaurant), the share of the games "
            "played from that seat that it won, all games, with 95% intervals in brackets.<br/>" + roles,
        )
    flow.section("How games end", _ending_text(by_players))
    dealt = _dealt_text(by_players, figures["goals"])
    if dealt:
        flow.section(
            "Win rate when dealt",
            "How often a goal dealt to a player was the one completed in that "
            "round, per player count (the fair share is one in as many as there are players).<br/>" + dealt,
        )
    cards = figures["cards"]
    if cards:
        ids = sorted(cards, key=lambda k: (-cards[k]["per_game"], k))
        _bar_section(
            flow,
            "Card usage",
            "Times each card was played or spent per game (all player counts). Cards "
            "near zero do little; cards far above the rest may be too strong or too cheap.",
            [_label(cards[k], k) for k in ids],
            [cards[k]["per_game"] for k in ids],
            "%.2f",
            SERIES[0],
        )
    goals = figures["goals"]
    if goals:
        ids = sorted(goals, key=lambda k: (-goals[k]["completed_games"], k))
        _bar_section(
            flow,
            "Goal completion",
            "Share of games in which each goal was completed. A goal near 0% is "
            "hard to complete with the deck as composed; the validator fails only when one is never "
            "completed.",
            [_label(goals[k], k) for k in ids],
            [100 * goals[k]["completed_games"] for k in ids],
            "%.0f%%",
            SERIES[2],
        )
        shown = sorted(
            (k for k in ids if goals[k]["times_shown"]), key=lambda k: (-goals[k]["dwell_mean"], k)
        )
        if shown:
            _bar_section(
                flow,
                "Goal time on display",
                "Mean number of turns a goal stays on display each time it is "
                "shown. Goals that linger clog the display; goals that vanish at once may be too easy.",
                [_label(goals[k], k) for k in shown],
                [goals[k]["dwell_mean"] for k in shown],
                "%.1f",
                SERIES[1],
            )
    flow.footer()
    c.save()


def write_balance_pdf(path: Path, figures: dict) -> Path:
    """Write the balance report atomically."""
    return atomic_write(path, lambda tmp: draw_report(tmp, figures))
