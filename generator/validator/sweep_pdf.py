"""build/<game>/sweep-<name>.pdf: one chart per metric against the varied values, each point with its 95%
interval."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, PolyLine, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.core.fonts import (
    BODY,
    chart_string,
    draw_string,
    fallback_for_face,
    register_fonts,
    string_width,
)
from generator.core.write import atomic_write
from generator.validator.balance_pdf import MARGIN, SERIES, WIDTH, Flow, nice_ticks

GREY = colors.HexColor("#777777")
GRID = colors.HexColor("#dddddd")
PLOT_LEFT, PLOT_RIGHT = 44, 96  # room for the value axis labels, and for the legend on the right
# variant labels along the bottom; slanted by SLANT degrees when they do not fit flat
LABEL_SIZE, SLANT = 7.5, 35
Point = tuple[float, float, float] | None  # value, low, high (None: not measured for this variant)


def interval_chart(categories: list[str], series: list[tuple[str, list[Point]]], fmt: str, axis: str, *,
                   percent: bool = False, reference: float | None = None, connect: bool = True,
                   height: float = 180) -> Drawing:
    """Points with 95% whiskers, one colour per series, the variants along the bottom (`axis` names them), and
    a dashed grey reference line (e.g. the fair share of wins)."""
    values = [v for _, points in series for p in points if p is not None for v in p]
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if percent:
        low, high = 0.0, min(1.0, max(high * 1.1, 0.05))
    elif high - low < 1e-9:
        low, high = low - 1, high + 1
    ticks = nice_ticks(low, high)
    low, high = ticks[0], ticks[-1]
    widest = max((string_width(c, BODY, LABEL_SIZE) for c in categories), default=0.0)
    long_labels = widest + 6 > (WIDTH - PLOT_LEFT - PLOT_RIGHT) / max(1, len(categories))
    bottom = 16 + (widest * math.sin(math.radians(SLANT)) + 14 if long_labels else 14)
    d = Drawing(WIDTH, height + (bottom - 30), initialFontName=BODY)
    x0, x1, y0, y1 = PLOT_LEFT, WIDTH - PLOT_RIGHT, bottom, d.height - 12
    scale = (y1 - y0) / (high - low)

    def y(v: float) -> float:
        return y0 + (v - low) * scale

    for t in ticks:
        d.add(Line(x0, y(t), x1, y(t), strokeColor=GRID, strokeWidth=0.5))
        d.add(String(x0 - 4, y(t) - 3, fmt % (100 * t if percent else t), fontName=BODY, fontSize=7.5,
                     fillColor=GREY, textAnchor="end"))
    pitch = (x1 - x0) / max(1, len(categories))
    for i, name in enumerate(categories):
        cx = x0 + pitch * (i + 0.5)
        d.add(Line(cx, y0, cx, y0 - 3, strokeColor=GREY, strokeWidth=0.5))
        if long_labels:  # slanted, so long labels of many variants do not run into each other
            group = Group(chart_string(0, 0, name, BODY, LABEL_SIZE, "end", fillColor=colors.black))
            group.translate(cx + 2, y0 - 8)
            group.rotate(SLANT)
            d.add(group)
        else:
            d.add(chart_string(cx, y0 - 12, name, BODY, LABEL_SIZE, "middle", fillColor=colors.black))
    d.add(chart_string((x0 + x1) / 2, 2, axis, BODY, 8, "middle", fillColor=GREY))
    if reference is not None and low <= reference <= high:
        d.add(
            Line(
                x0, y(reference), x1, y(reference), strokeColor=GREY, strokeWidth=0.8, strokeDashArray=[3, 2]
            )
        )
    dodge = min(7.0, pitch / (len(series) + 1))
    for s, (name, points) in enumerate(series):
        colour = SERIES[s % len(SERIES)]
        offset = (s - (len(series) - 1) / 2) * dodge
        path = []
        for i, point in enumerate(points):
            if point is None:
                continue
            value, lo, hi = point
            cx = x0 + pitch * (i + 0.5) + offset
            for line in (
                Line(cx, y(lo), cx, y(hi)),
                Line(cx - 2, y(lo), cx + 2, y(lo)),
                Line(cx - 2, y(hi), cx + 2, y(hi)),
            ):
                line.strokeColor, line.strokeWidth = colour, 0.8
                d.add(line)
            d.add(Circle(cx, y(value), 2.4, fillColor=colour, strokeColor=None))
            path += [cx, y(value)]
        if connect and len(path) > 2:
            d.add(PolyLine(path, strokeColor=colour, strokeWidth=0.6))
        ly = y1 - 10 - 12 * s
        d.add(Line(x1 + 10, ly + 3, x1 + 22, ly + 3, strokeColor=colour, strokeWidth=2))
        d.add(chart_string(x1 + 26, ly, name, BODY, 8, fillColor=colors.black))
    d.add(Line(x0, y0, x1, y0, strokeColor=GREY, strokeWidth=0.6))
    return d


def _simulated(report: dict) -> list[dict]:
    return [v for v in report["variants"] if v["status"] == "simulated"]


def _points(variants: list[dict], players: str, pick) -> list[Point]:
    out = []
    for v in variants:
        f = v["by_players"].get(players)
        point = pick(f) if f else None
        out.append(point if point is None or point[0] is not None else None)
    return out


def _interval(entry: dict | None, key: str = "share") -> Point:
    return (entry[key], entry["low"], entry["high"]) if entry else None


def _intro(flow: Flow, report: dict) -> None:
    s = report["settings"]
    axes = "; ".join(
        f"<b>{escape(v['name'])}</b> = {escape(', '.join(map(str, v['values'])))}" for v in s["vary"]
    )
    counts = ", ".join(map(str, s["player_counts"]))
    flow.para(
        f"Varied: {axes}. {s['games_per_count']} simulated games per variant and player count ({counts} "
        f"players), base seed {s['seed']}; every variant plays the same seeds, so differences between "
        "variants "
        f"come from the rules, not from luck. Bots: {escape(s['bots'])}. Whiskers are 95% confidence "
        "intervals: "
        f"two variants whose whiskers do not overlap differ for real."
    )
    fixed = [f"--option {o}" for o in s["fixed"]["options"]] + [f"--set {t}" for t in s["fixed"]["sets"]]
    if fixed:
        flow.para("Every variant also played with: " + escape(" ".join(fixed)) + ".")
    for v in report["variants"]:
        if v["status"] != "simulated":
            flow.para(f"<b>{escape(v['label'])}</b>: {v['status']}, not simulated: "
                      f"{escape(v['problems'][0] if v['problems'] else '')}")


class SweepFlow(Flow):
    """The balance report's page flow with the sweep's own footer, keeping each chart with its caption."""

    def footer(self) -> None:
        self.c.setFont(BODY, 8)
        self.c.setFillColor(colors.grey)
        draw_string(
            self.c,
            letter[0] / 2,
            MARGIN / 2,
            f"{self.title}: sweep report, page {self.page}",
            BODY,
            8,
            "center",
        )

    def captioned(self, text: str, chart: Drawing) -> None:
        """A caption and its chart on one page."""
        _, h = Paragraph(fallback_for_face(text, BODY), self.body).wrap(WIDTH, letter[1])
        self.need(h + 6 + chart.height + 14)
        self.para(text)
        self.drawing(chart)


def _category(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                  "tenth")


def seat_words(seat: int) -> str:
    """A turn position (0-based) in words, as a legend names it: 'first to play', ..., '11th to play'."""
    n = seat + 1
    if n <= len(_ORDINAL_WORDS):
        return f"{_ORDINAL_WORDS[n - 1]} to play"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix} to play"


def sweep_title(report: dict) -> str:
    """The report's title in words: 'Short Order Hero: how hand limit and dice change play' (the varied
    names with their separators read as spaces; the file's --name is for the file, not the reader)."""
    names = [" ".join(re.split(r"[._\-]+", v["name"])).strip() for v in report["settings"]["vary"]]
    if not names:
        return f"{report['title']}: sweep report"
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{report['title']}: how {joined} {'changes' if len(names) == 1 else 'change'} play"


def draw_sweep(path: Path, report: dict) -> None:
    """Draw the sweep report into `path`."""
    register_fonts()
    c = Canvas(str(path), pagesize=letter, invariant=1, initialFontName=BODY)
    title = sweep_title(report)
    c.setTitle(title)
    flow = SweepFlow(c, report["title"])
    flow.heading(title, 20)
    _intro(flow, report)
    variants = _simulated(report)
    vary = report["settings"]["vary"]
    labels = [" / ".join(_category(v["values"][axis["path"]]) for axis in vary) for v in variants]
    axis = " / ".join(a["name"] for a in vary)
    connect = len(vary) == 1
    counts = [str(p) for p in report["settings"]["player_counts"]]
    if variants:
        flow.heading("Win rate by turn position")
        for players in counts:
            seats = int(players)
            series = [
                (seat_words(s), _points(variants, players, lambda f, s=s: _interval(f["seat_wins"][s])))
                for s in range(seats)
            ]
            flow.captioned(
                f"<b>{players} players.</b> Share of the all-greedy games won by the player taking turns "
                f"1st, 2nd, ... (whoever started each game). With no advantage every point sits near the "
                f"dashed line (1 / players).",
                interval_chart(
                    labels, series, "%d%%", axis, percent=True, reference=1 / seats, connect=connect
                ),
            )
        unit = variants[0]["by_players"][counts[0]]["length"]["unit"] if counts else "turns"
        series = [
            (f"{p} players", _points(variants, p, lambda f: _interval(f["length"], "mean"))) for p in counts
        ]
        flow.section("Game length", f"Mean {unit} per game with its 95% interval, per player count.",
                     interval_chart(labels, series, "%g", axis, connect=connect))
        _endings(flow, variants, labels, axis, counts, connect)
        series = [
            (
                f"{p} players",
                _points(variants, p, lambda f: _interval(f["goal_completion"]["per_game"], "mean")),
            )
            for p in counts
        ]
        flow.section("Goal completion", "Goals (orders, recipes) completed per game, with 95% intervals. "
                     + _never_text(variants), interval_chart(labels, series, "%g", axis, connect=connect))
        series = [(f"{p} players", _points(variants, p, lambda f: _interval(f["scores"]["margin"], "mean")))
                  for p in counts]
        flow.section("Winning margin", "The winner's final score minus the best score of a seat that did not "
                     "win, mean per game with its 95% interval. A small margin means close games.",
                     interval_chart(labels, series, "%g", axis, connect=connect))
        series = [(f"{p} players", _points(variants, p,
                                           lambda f: _interval(f["scores"]["half_time_leader_wins"])))
                  for p in counts]
        flow.section("Half-time leader wins", "How often the seat leading after half the turns went on to "
                     "win (games tied for the lead at half time left out). Near 100%: the second half "
                     "decides little.",
                     interval_chart(labels, series, "%d%%", axis, percent=True, connect=connect))
    findings = [
        (v["label"], p) for v in report["variants"] if v["status"] == "simulated" for p in v["problems"]
    ]
    if findings:
        flow.section("Problems found by playing", "<br/>".join(f"<b>{escape(label)}</b>: {escape(p)}"
                                                               for label, p in findings))
    flow.footer()
    c.save()


def _endings(flow: SweepFlow, variants: list[dict], labels: list[str], axis: str, counts: list[str],
             connect: bool) -> None:
    reasons = sorted({r for v in variants for f in v["by_players"].values() for r in f["ended_by"]})
    if len(reasons) <= 1:
        flow.section(
            "How games end", f"Every finished game ended by {escape(reasons[0] if reasons else 'nothing')}."
        )
        return
    flow.heading("How games end")
    for players in counts:
        series = [(reason, _points(variants, players, lambda f, r=reason: _interval(f["ended_by"].get(r))
                                   or (0.0, 0.0, 0.0))) for reason in reasons]
        flow.captioned(f"<b>{players} players.</b> Share of the finished games that ended each way.",
                       interval_chart(labels, series, "%d%%", axis, percent=True, connect=connect))


def _never_text(variants: list[dict]) -> str:
    lines = []
    for v in variants:
        never = sorted({g for f in v["by_players"].values() for g in f["goal_completion"]["never_completed"]})
        if never:
            lines.append(f"{escape(v['label'])}: {escape(', '.join(never))}")
    return ("Never completed at some player count: " + "; ".join(lines) + ".") if lines else \
        "Every goal was completed at least once in every variant."


def write_sweep_pdf(path: Path, report: dict) -> Path:
    """Write the sweep report atomically."""
    return atomic_write(path, lambda tmp: draw_sweep(tmp, report))
