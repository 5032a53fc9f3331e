"""The unique-card deck of the speed benchmark, written twice: as a pnp game and as a bare ReportLab script.

Every card is different: a rounded cut frame, a coloured rounded border (colour from the data), a bold title, three
body lines, a filled circle and the card number, on poker cards 9-up on A4 with a shared back. The bare script is
the floor: it reads the same data (JSON, C-speed) and draws the same things straight onto a canvas, with no layout
language, no templates and no text fitting. Both embed the same TrueType faces.
"""

from __future__ import annotations

import json
from pathlib import Path

COLORS = ["#d62828", "#f77f00", "#2e9e44", "#1f5fbf", "#7b3fa0", "#16697a", "#8c564b", "#e377c2"]
WORDS = ["pepper", "basil", "oven", "crust", "slice", "olive", "onion", "cheese", "tomato", "garlic", "dough",
         "fresh", "spicy", "golden", "crispy", "rustic"]


def card_data(n: int) -> list[dict]:
    """The deck: n different cards (names, colours and texts all vary)."""
    cards = []
    for i in range(n):
        w = [WORDS[(i * k + k) % len(WORDS)] for k in range(1, 10)]
        cards.append({
            "id": f"c{i:05d}",
            "name": f"{w[0].title()} {w[1].title()} {i}",
            "color": COLORS[i % len(COLORS)],
            "lines": [f"Play with a {w[2]} {w[3]}.", f"Take {1 + i % 5} {w[4]} cards.",
                      f"Score {i % 9 + 1} for {w[5]}, card {i}."],
        })
    return cards


GAME = """\
title: Unique bench
code: UNQ
players: {min: 2, max: 4}
card_size: poker
bleed: 3mm
safe: 3mm
corner_radius: 3mm
decks: [deck]
"""

FRONT = """\
boxes:
  background: {shape: rect, fill: "#ffffff"}
  frame: {x: 0mm, y: 0mm, width: 63mm, height: 88mm, shape: rounded, radius: 3mm, stroke: "#000000",
          stroke_width: 0.5pt, bleed: false}
  border: {x: 3mm, y: 3mm, width: 57mm, height: 82mm, shape: rounded, radius: 2.5mm, stroke: "{{ card.color }}",
           stroke_width: 3pt}
  title: {x: 5mm, y: 6mm, width: 53mm, height: 9mm, text: "{{ card.name }}", font: title, size: 14pt,
          min_size: 9pt, align: center, valign: middle}
  dot: {x: 21.5mm, y: 20mm, width: 20mm, height: 20mm, shape: circle, fill: "{{ card.color }}"}
  body: {x: 6mm, y: 50mm, width: 51mm, height: 20mm, size: 10pt, min_size: 7pt,
         text: "{{ card.lines | join('\\n') }}"}
  number: {x: 40mm, y: 78mm, width: 18mm, height: 5mm, text: "{{ card.index }}", size: 9pt, align: right}
"""

BACK = """\
boxes:
  background: {shape: rect, fill: "#1f5fbf"}
  title: {x: 5mm, y: 38mm, width: 53mm, height: 12mm, text: "UNIQUE", font: title, size: 24pt, align: center,
          color: "#ffffff", valign: middle}
"""


def write_game(root: Path, n: int) -> None:
    """A pnp project at `root` with one game, cards/unique/, of n unique cards."""
    game = root / "cards" / "unique"
    (game / "layouts").mkdir(parents=True, exist_ok=True)
    (game / "game.yaml").write_text(GAME)
    lines = ["deck: deck", "name: Unique", "code: UNI", "fields:", "  color: {type: color}",
             "  lines: {type: list}", "cards:"]
    for card in card_data(n):
        body = ", ".join(json.dumps(line) for line in card["lines"])
        lines.append(f"  - {{id: {card['id']}, name: {card['name']}, copies: 1, color: '{card['color']}', "
                     f"lines: [{body}]}}")
    (game / "deck.yaml").write_text("\n".join(lines) + "\n")
    (game / "layouts" / "deck.yaml").write_text(FRONT)
    (game / "layouts" / "deck-back.yaml").write_text(BACK)


# The floor scripts' imposition: 9-up, fronts then mirrored backs, each card clipped to its cut edge plus the
# bleed on the sheet's outer edges (what pnp's sheets print); appended to each floor script's drawing code.
BARE_IMPOSITION = r'''for start in range(0, len(cards), 9):
    page = cards[start:start + 9]
    for side in ("front", "back"):
        for k, card in enumerate(page):
            col, row = k % 3, k // 3
            if side == "back":
                col = 2 - col
            x, y = x0 + col * W, y0 + (2 - row) * H
            c = canvas
            c.saveState()
            p = c.beginPath()
            p.rect(x - B if col == 0 else x, y - B if row == 2 else y, W + 2 * B, H + 2 * B)
            c.clipPath(p, stroke=0, fill=0)
            front(c, card, x, y) if side == "front" else back(c, x, y)
            c.restoreState()
        canvas.showPage()
canvas.save()
'''


BARE = r'''"""The floor: the unique deck drawn straight onto a ReportLab canvas (9-up A4, fronts then mirrored backs)."""
import json
import sys

from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

data, out, fonts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for name, path in fonts.items():
    pdfmetrics.registerFont(TTFont(name, path))
cards = json.load(open(data))
W, H, B = 63 * mm, 88 * mm, 3 * mm
pw, ph = A4
x0, y0 = (pw - 3 * W) / 2, (ph - 3 * H) / 2
canvas = Canvas(out, pagesize=A4, invariant=1, pageCompression=1)


def front(c, card, x, y):
    c.setFillColor(HexColor("#ffffff"))
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setLineWidth(0.5)
    c.setStrokeColor(HexColor("#000000"))
    c.roundRect(x, y, W, H, 3 * mm, stroke=1, fill=0)
    c.setLineWidth(3)
    c.setStrokeColor(HexColor(card["color"]))
    c.roundRect(x + 3 * mm, y + 3 * mm, W - 6 * mm, H - 6 * mm, 2.5 * mm, stroke=1, fill=0)
    c.setFillColor(HexColor("#222222"))
    c.setFont("Title", 14)
    c.drawCentredString(x + W / 2, y + H - 13 * mm, card["name"])
    c.setFillColor(HexColor(card["color"]))
    c.circle(x + W / 2, y + H - 30 * mm, 10 * mm, stroke=0, fill=1)
    c.setFillColor(HexColor("#222222"))
    c.setFont("Body", 10)
    for k, line in enumerate(card["lines"]):
        c.drawString(x + 6 * mm, y + H - 54 * mm - k * 11.5, line)
    c.setFont("Body", 9)
    c.drawRightString(x + W - 5 * mm, y + 6 * mm, str(card["index"]))


def back(c, x, y):
    c.setFillColor(HexColor("#1f5fbf"))
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont("Title", 24)
    c.drawCentredString(x + W / 2, y + H / 2, "UNIQUE")


''' + BARE_IMPOSITION


def write_bare(root: Path, n: int) -> tuple[Path, Path]:
    """The bare script and its data (the same cards, with their numbers) in `root`; returns (script, data)."""
    cards = card_data(n)
    for index, card in enumerate(cards, start=1):
        card["index"] = index
    data = root / "cards.json"
    data.write_text(json.dumps(cards))
    script = root / "bare.py"
    script.write_text(BARE)
    return script, data
