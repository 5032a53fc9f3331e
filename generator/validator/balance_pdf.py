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
from generator.validator.odds import odds_tables

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


def seat_chart(by_players: dict, key: str = "position_wins_greedy_mirror",
               label: str = "wins (all-greedy games)") -> Drawing | None:
    """Win rate by turn position (1st = the first player) with 95% whiskers and a dashed fair-share line per
    player count, from each count's `key` figures."""
    rows = {p: f[key] for p, f in by_players.items() if f.get(key)}
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
    d.add(String(0, 192, label, fontName=BODY, fontSize=8, fillColor=colors.grey))
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


ROW = 13  # points per row of a table


def table_drawing(head: list[str], rows: list[list[str]], widths: list[float], marked: set[int] = frozenset()
                  ) -> Drawing:
    """A plain table: a bold head, one row per list (rows in `marked` bold too), the first column left-aligned
    and the others right-aligned in columns of `widths` points, a rule under the head."""
    d = Drawing(WIDTH, ROW * (len(rows) + 1) + 6, initialFontName=BODY)
    edges = [sum(widths[:i + 1]) for i in range(len(widths))]
    for r, row in enumerate([head, *rows]):
        y = d.height - ROW * (r + 1) + 3
        face = TITLE if r == 0 or r - 1 in marked else BODY
        for c, text in enumerate(row):
            x, anchor = (0, "start") if c == 0 else (edges[c] - 4, "end")
            d.add(chart_string(x, y, text, face, 8, anchor, fillColor=colors.HexColor("#333333")))
    rule = d.height - ROW - 1
    d.add(Line(0, rule, edges[-1], rule, strokeColor=colors.grey, strokeWidth=0.5))
    return d


def _mean_text(f: dict, digits: int = 1) -> str:
    if f["mean"] is None:
        return "-"
    if f["low"] is None:
        return f"{f['mean']:.{digits}f}"
    return f"{f['mean']:.{digits}f} ({f['low']:.{digits}f} to {f['high']:.{digits}f})"


def _share_text(f: dict) -> str:
    if f["share"] is None:
        return "-"
    return f"{100 * f['share']:.0f}% ({100 * f['low']:.0f}-{100 * f['high']:.0f}%)"


def score_table(by_players: dict) -> Drawing | None:
    """Margin, lead changes, drama, comebacks and half-time-leader wins per player count."""
    rows = []
    for p, f in by_players.items():
        s = f.get("scores")
        if not s or not s["games"]:
            continue
        rows.append([f"{p} players", _mean_text(s["margin"]), _mean_text(s["lead_changes"]),
                     _mean_text(s["drama"]), _share_text(s["comebacks"]),
                     _share_text(s["half_time_leader_wins"])])
    if not rows:
        return None
    head = ["", "winning margin", "lead changes", "winner at worst behind", "comebacks",
            "half-time leader wins"]
    return table_drawing(head, rows, [62, 82, 72, 102, 76, 118])


def _clear(f: dict) -> bool:
    a, b = f["played"], f["not_played"]
    return f["difference"] is not None and None not in (a["low"], b["low"]) and (
        a["low"] > b["high"] or b["low"] > a["high"])


def card_table(by_players: dict, cards: dict, shown: int = 8) -> tuple[str, Drawing] | None:
    """Per player count, the cards whose figure differs most between playing them and not (bold: the two
    intervals do not overlap); what the figure is depends on what the engine reports."""
    rows, marked, basis = [], set(), None
    for p, f in by_players.items():
        influence = f.get("card_influence") or {}
        found = [(card, c) for card, c in (influence.get("cards") or {}).items()
                 if c["difference"] is not None]
        if not found:
            continue
        basis = influence["basis"]
        found.sort(key=lambda kv: (not _clear(kv[1]), -abs(kv[1]["difference"]), kv[0]))
        text = _share_text if basis == "seat" else _mean_text
        for card, c in found[:shown]:
            if _clear(c):
                marked.add(len(rows))
            diff = f"{100 * c['difference']:+.0f} pts" if basis == "seat" else f"{c['difference']:+.1f}"
            rows.append([f"{p}p  {_label(cards.get(card, {}), card)}", text(c["played"]),
                         text(c["not_played"]), diff])
    if not rows:
        return None
    if basis == "seat":
        head = ["card", "win rate, seats playing it", "seats not playing it", "difference"]
    else:
        head = ["card", "margin, games it is played in", "the other games", "difference"]
    return basis, table_drawing(head, rows, [190, 120, 120, 82], marked)


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
    stopped = s.get("stopping")
    played = f"{s['games_per_count']} simulated games per player count ({counts} players)"
    if stopped:  # the default run: as many games as the stopping rule needed at each count
        played = ("Simulated games until every win rate by turn position was known to "
                  f"±{100 * stopped['half_width']:g} percentage points at 95 % (Wilson): "
                  + ", ".join(f"{r['games']} games at {p} players (±{100 * r['half_width']:.1f})"
                              for p, r in stopped["by_players"].items()))
    flow.para(
        f"{played}, base seed {s['seed']}. "
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
    if figures.get("strength"):
        _strength_section(flow, figures["strength"])
    roles = _role_text(by_players)
    if roles:
        flow.section(
            "Win rate by seat",
            "Where seats differ (each player's restaurant), the share of the games "
            "played from that seat that it won, all games, with 95% intervals in brackets.<br/>" + roles,
        )
    flow.section("How games end", _ending_text(by_players))
    _score_sections(flow, by_players, figures["cards"])
    if figures.get("playtests"):
        _playtest_section(flow, figures["playtests"])
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
    if figures.get("odds"):
        _odds_section(flow, figures["odds"])
    flow.footer()
    c.save()


def _strength_section(flow: Flow, strength: dict) -> None:
    """Seat fairness with the stronger (lookahead) bot in every seat, beside the greedy figures of the same
    deals (pnp validate --strength)."""
    by_players = strength["by_players"]
    chart = seat_chart(by_players, "position_wins", f"wins ({strength['bot']} in every seat)")
    if chart is None:
        return
    lines = []
    for players, f in by_players.items():
        strong = ", ".join(f"{100 * s['rate']:.0f}% ({100 * s['low']:.0f}-{100 * s['high']:.0f})"
                           for s in f["position_wins"])
        greedy = ", ".join(f"{100 * s['rate']:.0f}%" for s in f.get("greedy_position_wins", []))
        beside = f"; greedy: {greedy}" if greedy else ""
        lines.append(f"{players} players, {f['games']} games: {strong}{beside}")
    flow.section(
        "Win rate by turn position with stronger players",
        f"The same figure with the lookahead bot ({escape(strength['bot'])}) in every seat: it tries several "
        "moves against re-dealt hidden cards and plays each future out. An advantage that stays under "
        "better play is one the rules make, not the bots. By turn position, 1st first, with 95% "
        "intervals:<br/>" + "<br/>".join(lines),
        chart,
    )


ODDS_ROWS = 48  # rows of an odds table per drawing (a longer table goes on over the next page)
ODDS_NAME = 146  # points for the goal or card column
ODDS_LAST = 74  # points for the last column ("expected draws")


def _odds_section(flow: Flow, odds: dict) -> None:
    """The exact deck odds of the goals the engine declares, counted from the deck data (no simulation)."""
    tables = odds_tables(odds)
    for n, table in enumerate(tables):
        others = len(table["head"]) - 1
        last = max(ODDS_LAST, (WIDTH - ODDS_NAME) / others) if others > 1 else 90.0
        widths = [ODDS_NAME] + [min(90.0, (WIDTH - ODDS_NAME - last) / max(others - 1, 1))] * (others - 1)
        widths.append(min(90.0, last))
        chunks = [table["rows"][i:i + ODDS_ROWS] for i in range(0, len(table["rows"]), ODDS_ROWS)] or [[]]
        first = table_drawing(table["head"], chunks[0], widths)
        text = f"<b>{escape(table['title'])}</b>"
        if n == 0:
            drawn = (", that the hand and the next N cards drawn hold it, and the draws it takes on average "
                     "(over the whole deck after the hand; discards come back by reshuffles)"
                     if any(f["draws"] for f in odds["by_players"].values()) else "")
            text = ("Counted exactly from the deck data and the deals the engine declares, not simulated: "
                    "the chance that a seat's opening hand holds what each goal needs (wilds and 'any of' "
                    f"slots included){drawn}. Hardest goal first; <i>pnp odds</i> prints the same "
                    "tables.<br/>" + text)
            flow.section("Deck odds (exact)", text, first)
        else:  # the table's title kept on one page with its first rows
            _, h = Paragraph(fallback_for_face(text, BODY), flow.body).wrap(WIDTH, PAGE_H)
            flow.need(h + 6 + first.height + 14)
            flow.para(text)
            flow.drawing(first)
        for rows in chunks[1:]:
            flow.drawing(table_drawing(table["head"], rows, widths))
    if odds.get("problems"):
        flow.para("<b>Goals that can never be completed</b>: " + escape("; ".join(odds["problems"])))


def _score_sections(flow: Flow, by_players: dict, cards: dict) -> None:
    """Beyond seat fairness: the score-track figures, and the cards that go with winning."""
    scores = score_table(by_players)
    if scores is not None:
        flow.section(
            "Beyond seat fairness",
            "From every seat's score after every turn of the games where the greedy bot plays every seat "
            "(players of equal strength), with 95% intervals in brackets. "
            "<b>Winning margin</b>: the winner's final score minus the best score of a seat that did not win "
            "(small: close games). <b>Lead changes</b>: how often the lead passed to another seat (a tie for "
            "the top leads nobody). <b>Winner at worst behind</b>: how far behind the leading score the "
            "eventual winner fell, at worst; <b>comebacks</b>: the share of games whose winner was behind "
            "at some point. <b>Half-time leader wins</b>: how often the seat leading after half the turns "
            "won (near 100%: the second half decides little).",
            scores,
        )
    found = card_table(by_players, cards)
    if found is None:
        return
    basis, table = found
    if basis == "seat":
        text = ("In the all-greedy games, the win rate of the seats that played a card at least once "
                "against that of the seats that did not, per player count: the cards that differ most. Bold: "
                "the two 95% intervals do not overlap, so the difference is real.")
    else:
        text = ("This engine counts card use per game, not per seat, so no seat can be credited with a card: "
                "the table compares the winning margin of the all-greedy games a card was played in with "
                "that of the others (does the card go with lopsided games?), per player count, the cards "
                "that differ most. Bold: the two 95% intervals do not overlap. An engine that reports "
                "<i>seat_card_usage</i> gets each card's win rate instead.")
    flow.section("Cards and winning", text, table)


def _range_text(band: dict | None, unit: str = "") -> tuple[str, str]:
    if not band:
        return "-", "-"
    return (f"{band['real_mean']:.1f}{unit}",
            f"{band['simulated_mean']:.1f} ({band['simulated_p10']:g}-{band['simulated_p90']:g})")


def _playtest_section(flow: Flow, found: dict) -> None:
    """The real games of cards/<game>/playtests/ beside the simulation, and what players said about cards."""
    rows = []
    for g in found["games"]:
        length = " ".join(f"{g[k]} {k}" for k in ("rounds", "turns") if g[k] is not None)
        scores = ", ".join(f"{name} {score:g}" for name, score in zip(g["players"], g["scores"], strict=True))
        winner = " & ".join(g["players"][w - 1] for w in g["winners"])
        rows.append([g["date"], str(len(g["players"])), length, scores, winner])
    games = table_drawing(["date", "players", "length", "scores in turn order", "winner"], rows,
                          [70, 48, 70, 250, 72])
    text = ("Games played by people, from the files of <i>playtests/</i>, beside the simulated games of the "
            "same player count (the length and the winning margin: the real mean against the simulated mean "
            "and the range of the middle 80% of simulated games).")
    if found["findings"]:
        text += "<br/><b>Outside the simulation</b>: " + escape("; ".join(found["findings"])) + "."
    else:
        text += "<br/>Every real game falls within the simulated ranges."
    flow.section("Playtests", text, games)
    compared = []
    for p, entry in found["by_players"].items():
        if not entry["simulated"]:
            continue
        unit = entry["length"]["unit"] if entry["length"] else ""
        real_length, sim_length = _range_text(entry["length"])
        real_margin, sim_margin = _range_text(entry["margin"])
        compared.append([f"{p} players", str(entry["plays"]), f"{real_length} {unit}".strip(), sim_length,
                         real_margin, sim_margin])
    if compared:
        flow.drawing(table_drawing(["", "plays", "real length", "simulated (10-90%)", "real margin",
                                    "simulated (10-90%)"], compared, [62, 40, 90, 110, 80, 110]))
    if found["notes"]:
        flow.para("<b>What players said about single cards</b><br/>" + "<br/>".join(
            f"<b>{escape(note['name'])}</b> ({escape(card)}): {escape(' / '.join(note['said']))}"
            for card, note in found["notes"].items()))


def write_balance_pdf(path: Path, figures: dict) -> Path:
    """Write the balance report atomically."""
    return atomic_write(path, lambda tmp: draw_report(tmp, figures))
