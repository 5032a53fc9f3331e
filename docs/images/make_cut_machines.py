"""Re-make docs/images/cut-machines.png: the first page of fronts of Go Fish on Letter for each print-and-cut
machine, with the machine's cut area outlined (orange, dashed; not printed on the sheets).

Run from the repository root: .venv/bin/python docs/images/make_cut_machines.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw, ImageFont

from generator.cards.cut_machines import CUT_MACHINES, cut_area
from generator.cards.sheets import outputs
from generator.core.contract import BuildOptions
from generator.core.fonts import BODY_BOLD, font_files
from generator.data.load import load_game
from generator.data.project import Project

ROOT = Path(__file__).resolve().parents[2]
SCALE = 0.5  # px per point
FRONTS = 2   # the first page of fronts (after the two print-check pages)


def panel(project: Project, folder: Path, machine: str) -> Image.Image:
    game = load_game(project, "go-fish")
    sheets = next(o for o in outputs(game, BuildOptions(papers=("letter",), cut_machine=machine))
                  if o.kind == "cards")
    path = folder / f"{machine}.pdf"
    sheets.render(path)
    page = pypdfium2.PdfDocument(str(path))[FRONTS]
    w, h = page.get_size()
    image = page.render(scale=SCALE).to_pil().convert("RGB")
    draw = ImageDraw.Draw(image)
    area = cut_area(CUT_MACHINES[machine], w, h)
    box = [area.x * SCALE, (h - area.y2) * SCALE, area.x2 * SCALE, (h - area.y) * SCALE]
    for i, (a, b) in enumerate(((box[0], box[2]), (box[1], box[3]))):
        for start in range(int(a), int(b), 8):  # dashes along each pair of sides
            end = min(start + 4, b)
            if i == 0:
                draw.line([(start, box[1]), (end, box[1])], fill="#e07000", width=2)
                draw.line([(start, box[3]), (end, box[3])], fill="#e07000", width=2)
            else:
                draw.line([(box[0], start), (box[0], end)], fill="#e07000", width=2)
                draw.line([(box[2], start), (box[2], end)], fill="#e07000", width=2)
    tile = Image.new("RGB", (image.width + 2, image.height + 30), "white")
    tile.paste(image, (1, 29))
    ImageDraw.Draw(tile).rectangle((0, 28, tile.width - 1, tile.height - 1), outline="#999999")
    label = f"--cut-machine {machine}"
    ImageDraw.Draw(tile).text((4, 6), label, font=ImageFont.truetype(str(font_files()[BODY_BOLD]), 14),
                              fill="#222222")
    return tile


def main() -> None:
    project = Project(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        tiles = [panel(project, Path(folder), machine) for machine in CUT_MACHINES]
    gap = 10
    height = max(t.height for t in tiles) + 2 * gap
    sheet = Image.new("RGB", (sum(t.width for t in tiles) + gap * (len(tiles) + 1), height), "#d9d6cf")
    x = gap
    for tile in tiles:
        sheet.paste(tile, (x, gap))
        x += tile.width + gap
    sheet.quantize(192, dither=Image.Dither.NONE).save(ROOT / "docs" / "images" / "cut-machines.png",
                                                       optimize=True)


if __name__ == "__main__":
    main()
