"""The art deck of the picture benchmark, written three times: as a pnp game, as a bare ReportLab script (the
floor) and as a protograf script (when protograf is installed, bench_art runs it too).

Every card is different: its own full-bleed picture (1500 x 2100 px, a JPEG or, for the PNG variant, a PNG), a
title and two lines of text, on poker cards (3 mm bleed) 9-up on A4 with a shared back. The floor is tuned: its
picture is placed straight from the file by ReportLab's drawImage (the C accelerator loaded, no ASCII85, so a
JPEG is copied in as it is), its text drawn with drawString; nothing is laid out or fitted. The protograf
script (ours, written from protograf's documentation: Create, Data from a list of lists, Deck, Card and
CardBack with T() templates, Save) draws the same cards 9-up on A4 with a back page after each front page,
each picture at card size, its text in protograf's default face (Helvetica, not embedded).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from PIL import Image, ImageDraw

from benchmarks.unique_deck import BARE_IMPOSITION

PICTURE = (1500, 2100)
WORDS = ["pepper", "basil", "oven", "crust", "slice", "olive", "onion", "cheese", "tomato", "garlic", "dough",
         "fresh", "spicy", "golden", "crispy", "rustic"]


def picture(index: int) -> Image.Image:
    """A picture like a painted card illustration: soft colour fields, strokes and a little grain (a JPEG of
    it at quality 90 is about half a megabyte); each index gives another picture."""
    rnd = random.Random(index)
    w, h = PICTURE
    base = Image.frombytes("RGB", (12, 16), rnd.randbytes(12 * 16 * 3)).resize(PICTURE, Image.Resampling.BICUBIC)
    draw = ImageDraw.Draw(base)
    for _ in range(30):
        x, y, r = rnd.randrange(w), rnd.randrange(h), rnd.randrange(20, 300)
        draw.ellipse((x - r, y - r, x + r, y + r), outline=tuple(rnd.randbytes(3)), width=rnd.randrange(2, 12))
    grain = Image.frombytes("L", (w // 3, h // 3), rnd.randbytes(w // 3 * (h // 3))).resize(PICTURE)
    return Image.blend(base, grain.convert("RGB"), 0.03)


def card_data(n: int) -> list[dict]:
    """The deck: n different cards."""
    cards = []
    for i in range(n):
        w = [WORDS[(i * k + k) % len(WORDS)] for k in range(1, 6)]
        cards.append({"id": f"c{i:04d}", "name": f"{w[0].title()} {w[1].title()} {i}",
                      "lines": [f"Play with a {w[2]} {w[3]}.", f"Take {1 + i % 5} {w[4]} cards."]})
    return cards


def write_pictures(folder: Path, n: int, suffix: str) -> list[Path]:
    """n pictures images/deck/c0000.<suffix>... in `folder` (JPEG at quality 90, PNG at Pillow's fastest)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, card in enumerate(card_data(n)):
        path = folder / f"{card['id']}.{suffix}"
        if suffix == "jpg":
            picture(i).save(path, quality=90)
        else:
            picture(i).save(path, compress_level=1)
        paths.append(path)
    return paths


GAME = """\
title: Art bench
code: ART
players: {min: 2, max: 4}
card_size: poker
bleed: 3mm
safe: 3mm
decks: [deck]
"""

FRONT = """\
boxes:
  art: {image: auto, fit: cover}
  title: {x: 5mm, y: 6mm, width: 53mm, height: 9mm, text: "{{ card.name }}", font: title, size: 14pt,
          min_size: 9pt, align: center, valign: middle, color: "#ffffff"}
  body: {x: 6mm, y: 68mm, width: 51mm, height: 14mm, size: 10pt, min_size: 7pt, color: "#ffffff",
         text: "{{ card.lines | join('\\n') }}"}
"""

BACK = """\
boxes:
  background: {shape: rect, fill: "#1f5fbf"}
  title: {x: 5mm, y: 38mm, width: 53mm, height: 12mm, text: "ART", font: title, size: 24pt, align: center,
          color: "#ffffff", valign: middle}
"""


def write_game(root: Path, pictures: list[Path], n: int) -> None:
    """A pnp project at `root` with one game, cards/art/, of n cards whose art is `pictures` (linked in)."""
    game = root / "cards" / "art"
    (game / "layouts").mkdir(parents=True, exist_ok=True)
    (game / "images" / "deck").mkdir(parents=True, exist_ok=True)
    for path in pictures[:n]:
        (game / "images" / "deck" / path.name).hardlink_to(path)
    (game / "game.yaml").write_text(GAME)
    lines = ["deck: deck", "name: Art", "code: ART", "fields:", "  lines: {type: list}", "cards:"]
    for card in card_data(n):
        body = ", ".join(json.dumps(line) for line in card["lines"])
        lines.append(f"  - {{id: {card['id']}, name: {card['name']}, copies: 1, lines: [{body}]}}")
    (game / "deck.yaml").write_text("\n".join(lines) + "\n")
    (game / "layouts" / "deck.yaml").write_text(FRONT)
    (game / "layouts" / "deck-back.yaml").write_text(BACK)


FLOOR = r'''"""The floor: the art deck drawn straight onto a ReportLab canvas (9-up A4, fronts then mirrored backs)."""
import json
import sys

from reportlab import rl_config

rl_config.useA85 = 0  # a JPEG copied in as it is, everything else plain Flate
from reportlab.lib import rl_accel  # noqa: E402
from reportlab.lib.colors import HexColor  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

assert rl_accel.fp_str.__module__ == "_rl_accel", "ReportLab's C accelerator (rl_accel) is not installed"
data, out, fonts = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
for name, path in fonts.items():
    pdfmetrics.registerFont(TTFont(name, path))
cards = json.load(open(data))
W, H, B = 63 * mm, 88 * mm, 3 * mm
PW, PH = 1500, 2100
pw, ph = A4
x0, y0 = (pw - 3 * W) / 2, (ph - 3 * H) / 2
canvas = Canvas(out, pagesize=A4, invariant=1, pageCompression=1)


def front(c, card, x, y):
    scale = max((W + 2 * B) / PW, (H + 2 * B) / PH)  # cover the bleed box
    c.drawImage(card["picture"], x + W / 2 - PW * scale / 2, y + H / 2 - PH * scale / 2, PW * scale, PH * scale)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont("Title", 14)
    c.drawCentredString(x + W / 2, y + H - 12 * mm, card["name"])
    c.setFont("Body", 10)
    for k, line in enumerate(card["lines"]):
        c.drawString(x + 6 * mm, y + H - 72 * mm - k * 11.5, line)


def back(c, x, y):
    c.setFillColor(HexColor("#1f5fbf"))
    c.rect(x - B, y - B, W + 2 * B, H + 2 * B, stroke=0, fill=1)
    c.setFillColor(HexColor("#ffffff"))
    c.setFont("Title", 24)
    c.drawCentredString(x + W / 2, y + H / 2, "ART")


''' + BARE_IMPOSITION

def write_floor(root: Path, pictures: list[Path], n: int) -> tuple[Path, Path]:
    """The floor script and its data (the same cards with their pictures) in `root`; returns (script, data)."""
    cards = card_data(n)
    for card, path in zip(cards, pictures, strict=False):
        card["picture"] = str(path)
    root.mkdir(parents=True, exist_ok=True)
    data = root / "cards.json"
    data.write_text(json.dumps(cards))
    floor = root / "floor.py"
    floor.write_text(FLOOR)
    return floor, data


# protograf reads its own command line (argparse): the script is told its data and output by the environment
PROTOGRAF = r'''"""The art deck in protograf: 9-up A4 pages of fronts, each followed by its page of backs."""
import json
import os

from protograf import Card, CardBack, Create, Data, Deck, Save, T, image, rectangle, text

cards = json.load(open(os.environ["ART_DATA"]))
rows = [["Name", "One", "Two", "Picture"]] + [[c["name"], *c["lines"], c["picture"]] for c in cards]
Create(filename=os.environ["ART_OUT"], paper="A4", units="mm", margin=10)
Data(data_list=rows)
Deck(cards=len(cards), width=63, height=88, stroke=None)
Card("*",
     image(T("{{Picture}}"), x=0, y=0, width=63, height=88),
     text(text=T("{{Name}}"), x=31.5, y=12, font_size=14, stroke="#ffffff"),
     text(text=T("{{One}}"), x=31.5, y=72, font_size=10, stroke="#ffffff"),
     text(text=T("{{Two}}"), x=31.5, y=76, font_size=10, stroke="#ffffff"))
CardBack("*",
         rectangle(x=0, y=0, width=63, height=88, fill="#1f5fbf", stroke=None),
         text(text="ART", x=31.5, y=44, font_size=24, stroke="#ffffff"))
Save()
'''


def write_protograf(root: Path, data: Path) -> tuple[Path, dict[str, str]]:
    """The protograf script in `root` for the floor's data file `data`; returns (script, the environment it
    reads: ART_DATA, ART_OUT)."""
    root.mkdir(parents=True, exist_ok=True)
    script = root / "deck.py"
    script.write_text(PROTOGRAF)
    return script, {"ART_DATA": str(data), "ART_OUT": str(root / "cards.pdf")}
