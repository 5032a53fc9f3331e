"""Re-make docs/images/sheet-options.png: the same corner of an Order Up card sheet with each sheet option.

Run from the repository root: .venv/bin/python docs/images/make_sheet_options.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw, ImageFont

from generator.cards.sheets import outputs
from generator.core.contract import BuildOptions
from generator.core.fonts import BODY_BOLD, font_files
from generator.data.load import load_game
from generator.data.project import Project

ROOT = Path(__file__).resolve().parents[2]
PANELS = [  # (label, game, build options, page index, crop box as fractions of the page)
    ("default: butted, crop marks", "order-up-pizza", {}, 2, (0.0, 0.0, 0.62, 0.42)),
    ("--gap 3mm (crop marks)", "order-up-pizza", {"gap": "3mm"}, 2, (0.0, 0.0, 0.5, 0.55)),
    ("--gap 2mm --marks lines", "short-order-hero", {"gap": "2mm", "marks": "lines"}, 2, (0.0, 0.0, 0.5, 0.55)),
    ("normal back page", "short-order-hero", {}, 3, (0.0, 0.0, 0.62, 0.42)),
    ("--ink saver: the same backs", "short-order-hero", {"ink": "saver"}, 3, (0.0, 0.0, 0.62, 0.42)),
    ("--pack: the next deck follows on", "order-up-pizza", {"pack": True}, 22, (0.0, 0.0, 0.62, 0.42)),
]
WIDTH = 300  # px per panel


def panel(project: Project, folder: Path, label: str, game_id: str, options: dict, page: int, box) -> Image.Image:
    game = load_game(project, game_id)
    [output] = outputs(game, BuildOptions(papers=("letter",), **options))
    path = folder / f"{len(list(folder.iterdir()))}.pdf"
    output.render(path)
    image = pypdfium2.PdfDocument(str(path))[page].render(scale=1.6).to_pil().convert("RGB")
    w, h = image.size
    crop = image.crop((round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h)))
    crop = crop.resize((WIDTH, round(crop.height * WIDTH / crop.width)), Image.Resampling.LANCZOS)
    tile = Image.new("RGB", (WIDTH, crop.height + 28), "white")
    tile.paste(crop, (0, 28))
    ImageDraw.Draw(tile).text((4, 6), label, font=ImageFont.truetype(str(font_files()[BODY_BOLD]), 14), fill="#222222")
    return tile


def main() -> None:
    project = Project(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        tiles = [panel(project, Path(folder), *spec) for spec in PANELS]
    cols, gap = 3, 10
    rows = [tiles[i:i + cols] for i in range(0, len(tiles), cols)]
    height = sum(max(t.height for t in row) for row in rows) + gap * (len(rows) + 1)
    sheet = Image.new("RGB", (cols * WIDTH + gap * (cols + 1), height), "#d9d6cf")
    y = gap
    for row in rows:
        for index, tile in enumerate(row):
            sheet.paste(tile, (gap + index * (WIDTH + gap), y))
        y += max(t.height for t in row) + gap
    sheet.quantize(192, dither=Image.Dither.NONE).save(ROOT / "docs" / "images" / "sheet-options.png", optimize=True)


if __name__ == "__main__":
    main()
