"""The pictures of docs/layouts.md: small real cards drawn by the card renderer from the example layouts below.

`make docs` (docs/make_figures.py) calls `write_pictures()`; tests/docs/test_layouts_doc.py checks that every
example still loads and draws, that every picture is checked in and that every box key is documented. Each
picture is a strip of cards with a caption under each: the YAML of the boxes it shows is the text of the page.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "images" / "layouts"
CARD_PX = 160  # width of one card in the pictures (poker: 160 x 224 px)

PAPER = {"shape": "rect", "fill": "#fff8ec"}

# picture -> [(caption, boxes[, top-level keys of the layout file])]; every card also gets the paper (a light
# background) unless its boxes replace it
EXAMPLES: dict[str, list[tuple[str, dict]]] = {
    "geometry": [
        ("x, y, width, height in mm", {"box": {"x": "8mm", "y": "20mm", "width": "30mm", "height": "40mm",
                                               "shape": "rect", "fill": "#f2b134"}}),
        ("in % of the card", {"box": {"x": "10%", "y": "50%", "width": "80%", "height": "25%",
                                      "shape": "rect", "fill": "#3a86ff"}}),
        ("defaults: to the edges", {"box": {"x": "20mm", "y": "40mm", "shape": "rect", "fill": "#2e9e44"}}),
    ],
    "pixels": [
        ("x: 90px ... at dpi: 300", {"box": {"x": "90px", "y": "240px", "width": "500px", "height": "300px",
                                             "shape": "rect", "fill": "#7b3fa0"}}, {"dpi": 300}),
        ("the same with origin: bleed", {"box": {"x": "90px", "y": "240px", "width": "500px",
                                                 "height": "300px", "shape": "rect", "fill": "#7b3fa0"}},
         {"dpi": 300, "origin": "bleed"}),
    ],
    "text-align": [
        ("align: left", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "62mm", "align": "left",
                               "text": "{{ card.text }}", "fill": "#eef3f8"}}),
        ("align: center, valign: middle", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "62mm",
                                                 "align": "center", "valign": "middle", "text": "{{ card.text }}",
                                                 "fill": "#eef3f8"}}),
        ("align: right, valign: bottom", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "62mm",
                                                "align": "right", "valign": "bottom", "text": "{{ card.text }}",
                                                "fill": "#eef3f8"}}),
    ],
    "text-fit": [
        ("size: 14pt, short text", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "30mm",
                                          "size": "14pt", "min_size": "7pt", "text": "Draw two cards.",
                                          "fill": "#eef3f8"}}),
        ("long text shrinks to fit", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "30mm",
                                            "size": "14pt", "min_size": "7pt", "text": "{{ card.text }} " * 2,
                                            "fill": "#eef3f8"}}),
        ("leading: 1.6", {"t": {"x": "5mm", "y": "18mm", "width": "53.5mm", "height": "30mm", "size": "9pt",
                                "leading": 1.6, "text": "{{ card.text }}", "fill": "#eef3f8"}}),
    ],
    "rich-text": [
        ("**bold**, *italic*, new lines", {"t": {"x": "5mm", "y": "12mm", "width": "53.5mm", "height": "60mm",
                                                 "size": "11pt", "text": "**Bold** and *italic*\nA new line"}}),
        (":icon: and icon('star')", {"t": {"x": "5mm", "y": "12mm", "width": "53.5mm", "height": "60mm",
                                           "size": "11pt",
                                           "text": "Pay :dollar: :dollar:\nand take {{ icon('star') }}"}}),
        ("color, font: title, chip()", {"t": {"x": "5mm", "y": "12mm", "width": "53.5mm", "height": "60mm",
                                              "size": "12pt", "font": "title", "color": "#b8401f",
                                              "text": "Title face\n{{ chip('#1f5fbf', 'BLUE') }}"}}),
    ],
    "shapes": [
        ("rect, rounded (radius)", {
            "a": {"x": "6mm", "y": "18mm", "width": "22mm", "height": "30mm", "shape": "rect", "fill": "#f2b134"},
            "b": {"x": "34mm", "y": "18mm", "width": "22mm", "height": "30mm", "shape": "rounded", "radius": "4mm",
                  "fill": "#3a86ff"}}),
        ("circle, ellipse", {
            "a": {"x": "6mm", "y": "18mm", "width": "22mm", "height": "30mm", "shape": "circle", "fill": "#2e9e44"},
            "b": {"x": "34mm", "y": "18mm", "width": "22mm", "height": "30mm", "shape": "ellipse", "fill": "#d62828"}}),
        ("stroke, stroke_width", {
            "a": {"x": "8mm", "y": "20mm", "width": "47mm", "height": "40mm", "shape": "rounded", "radius": "3mm",
                  "stroke": "#243b55", "stroke_width": "2pt"}}),
    ],
    "more-shapes": [
        ("line, polygon with dash", {
            "l": {"x": "8mm", "y": "12mm", "width": "47mm", "height": "10mm", "shape": "line",
                  "stroke": "#243b55", "stroke_width": "2pt"},
            "p": {"x": "10mm", "y": "30mm", "width": "43mm", "height": "45mm", "shape": "polygon",
                  "points": [[0.5, 0], [1, 0.4], [0.8, 1], [0.2, 1], [0, 0.4]], "stroke": "#d62828",
                  "stroke_width": "1.5pt", "dash": ["3pt", "2pt"]}}),
        ("star, hexagon", {
            "s": {"x": "14mm", "y": "10mm", "width": "35mm", "height": "35mm", "shape": "star",
                  "fill": "#f2b134"},
            "h": {"x": "14mm", "y": "50mm", "width": "35mm", "height": "30mm", "shape": "hexagon",
                  "fill": "#2e9e44"}}),
        ("gradient: linear, radial", {
            "g": {"x": "6mm", "y": "10mm", "width": "51.5mm", "height": "30mm", "shape": "rounded",
                  "gradient": {"colors": ["#3a86ff", "#7b3fa0"], "angle": 0}},
            "r": {"x": "14mm", "y": "46mm", "width": "35mm", "height": "35mm", "shape": "circle",
                  "gradient": {"kind": "radial", "colors": ["#ffffff", "#d62828"]}}}),
    ],
    "rotate-opacity": [
        ("rotate: 180 (a corner index)", {
            "top": {"x": "3mm", "y": "3mm", "width": "9mm", "height": "12mm", "text": "7", "font": "title",
                    "size": "22pt", "align": "center", "color": "#d62828"},
            "bottom": {"x": "51.5mm", "y": "73.9mm", "width": "9mm", "height": "12mm", "text": "7",
                       "font": "title", "size": "22pt", "align": "center", "color": "#d62828",
                       "rotate": 180}}),
        ("rotate: 90 (a sideways label)", {
            "side": {"x": "50mm", "y": "10mm", "width": "8mm", "height": "66mm", "text": "{{ card.name }}",
                     "size": "11pt", "align": "center", "valign": "middle", "rotate": 90},
            "disc": {"x": "8mm", "y": "28mm", "width": "32mm", "height": "32mm", "shape": "circle",
                     "fill": "#f2b134"},
            "id": {"x": "12mm", "y": "40mm", "width": "24mm", "height": "8mm", "text": "C-17", "size": "14pt",
                   "align": "center", "valign": "middle", "rotate": 30}}),
        ("opacity: 0.5", {
            "under": {"x": "8mm", "y": "20mm", "width": "30mm", "height": "30mm", "shape": "rect",
                      "fill": "#3a86ff"},
            "over": {"x": "22mm", "y": "34mm", "width": "30mm", "height": "30mm", "shape": "circle",
                     "fill": "#d62828", "opacity": 0.5}}),
    ],
    "corner-index": [
        ("index: icon and text", {
            "band": {"height": "15mm", "shape": "band", "fill": "#d62828"},
            "title": {"x": "12.5mm", "y": "3.5mm", "width": "38.5mm", "height": "10mm", "text": "Pizza Slice",
                      "font": "title", "size": "15pt", "min_size": "10pt", "color": "#ffffff", "align": "center",
                      "valign": "middle"},
            "picture": {"x": "17mm", "y": "24mm", "width": "30mm", "height": "30mm", "icon": "{{ card.icon }}"}},
         {"index": {"icon": "{{ card.icon }}", "text": "Pizza Slice", "color": "#d62828", "top": "17mm"}}),
        ("text only, bottom: 80mm", {
            "picture": {"x": "17mm", "y": "24mm", "width": "30mm", "height": "30mm", "icon": "{{ card.icon }}"}},
         {"index": {"text": "Pizza Slice · 3 coins", "size": "9pt", "bottom": "80mm"}}),
        ("icon only, fill", {
            "band": {"height": "15mm", "shape": "band", "fill": "#243b55"},
            "picture": {"x": "17mm", "y": "24mm", "width": "30mm", "height": "30mm", "icon": "{{ card.icon }}"}},
         {"index": {"icon": "{{ card.icon }}", "fill": "#f2b134", "icon_size": "8mm"}}),
    ],
    "text-effects": [
        ("halo", {"t": {"x": "5mm", "y": "30mm", "width": "53.5mm", "height": "20mm", "text": "Halo",
                        "font": "title", "size": "26pt", "align": "center", "color": "#ffffff",
                        "halo": {"color": "#243b55", "width": "1.5pt"}}}),
        ("outline", {"t": {"x": "5mm", "y": "30mm", "width": "53.5mm", "height": "20mm", "text": "Outline",
                           "font": "title", "size": "24pt", "min_size": "20pt", "align": "center",
                           "color": "#f2b134", "outline": {"color": "#243b55", "width": "1pt"}}}),
        ("shadow", {"t": {"x": "5mm", "y": "30mm", "width": "53.5mm", "height": "20mm", "text": "Shadow",
                          "font": "title", "size": "24pt", "align": "center", "color": "#d62828",
                          "shadow": {"color": "#999999", "dx": "1.5pt", "dy": "1.5pt"}}}),
    ],
    "band-bleed": [
        ("shape: band (runs into the bleed)", {"band": {"height": "16mm", "shape": "band", "fill": "#d62828"}}),
        ("a shape at the edge: bleed", {"side": {"width": "10mm", "shape": "rect", "fill": "#3a86ff"}}),
        ("bleed: false stops at the trim", {"side": {"width": "10mm", "shape": "rect", "fill": "#3a86ff",
                                                     "bleed": False}}),
    ],
    "icon-image": [
        ("icon", {"i": {"x": "12mm", "y": "20mm", "width": "40mm", "height": "40mm", "icon": "{{ card.icon }}"}}),
        ("image, fit: contain (default)", {"i": {"x": "6mm", "y": "25mm", "width": "51.5mm", "height": "30mm",
                                                 "image": "images/stripes.png"},
                                           "frame": {"x": "6mm", "y": "25mm", "width": "51.5mm", "height": "30mm",
                                                     "shape": "rect", "stroke": "#999999", "z": 1}}),
        ("image, fit: cover", {"i": {"x": "6mm", "y": "25mm", "width": "51.5mm", "height": "30mm",
                                     "image": "images/stripes.png", "fit": "cover"},
                               "frame": {"x": "6mm", "y": "25mm", "width": "51.5mm", "height": "30mm",
                                         "shape": "rect", "stroke": "#999999", "z": 1}}),
    ],
    "art": [
        ("image: auto", {"art": {"image": "auto", "fit": "cover"}}),
        ("missing art: a placeholder", {"art": {"x": "6mm", "y": "20mm", "width": "51.5mm", "height": "40mm",
                                                "image": "auto"}}),
        ("bleed: mirror", {"art": {"image": "images/stripes.png", "fit": "cover",
                                                           "bleed": "mirror"}}),
    ],
    "z-when": [
        ("z: the higher is drawn later", {
            "top": {"x": "16mm", "y": "26mm", "width": "30mm", "height": "30mm", "shape": "circle",
                    "fill": "#f2b134", "z": 1},
            "under": {"x": "8mm", "y": "20mm", "width": "30mm", "height": "30mm", "shape": "rect",
                      "fill": "#3a86ff"}}),
        ("when: card.special is true", {"star": {"x": "16mm", "y": "24mm", "width": "30mm", "height": "30mm",
                                                 "icon": "star", "when": "{{ card.special }}"}}),
        ("when: ... false: not drawn", {"star": {"x": "16mm", "y": "24mm", "width": "30mm", "height": "30mm",
                                                 "icon": "star", "when": "{{ card.special }}"}}),
    ],
}
BLEEDING = ("band-bleed", "art")  # pictures drawn with their bleed around the trim
TEXT = "Roll the die. On 4 or more, score the card's points twice."


def example_project(folder: Path) -> tuple[Path, list[tuple[str, str, str]]]:
    """A project whose one game draws every example: (project root, [(picture, caption, card id)])."""
    from PIL import Image, ImageDraw

    game = folder / "cards" / "layouts-demo"
    (game / "layouts").mkdir(parents=True)
    (game / "images").mkdir()
    stripes = Image.new("RGB", (400, 400), "#ffffff")  # square: contain leaves room, cover crops
    draw = ImageDraw.Draw(stripes)
    for i, colour in enumerate(("#d62828", "#f2b134", "#2e9e44", "#3a86ff", "#7b3fa0")):
        draw.rectangle((0, i * 80, 399, i * 80 + 79), fill=colour)
    stripes.save(game / "images" / "stripes.png")
    (game / "images" / "examples").mkdir()
    stripes.save(game / "images" / "examples" / "art-1.png")  # found by `image: auto`; art-2 has none
    (game / "game.yaml").write_text("title: Layouts\ncode: LAY\nplayers: {min: 2, max: 4}\ndecks: [examples]\n")
    cards, shown = [], []
    for picture, examples in EXAMPLES.items():
        for number, (caption, boxes, *head) in enumerate(examples, start=1):
            card_id = f"{picture}-{number}"
            layout = (head[0] if head else {}) | {"boxes": {"paper": PAPER} | boxes}
            (game / "layouts" / f"{card_id}.yaml").write_text(yaml.safe_dump(layout, sort_keys=False, allow_unicode=True))
            cards.append({"id": card_id, "name": caption, "copies": 1,
                          "layout": card_id, "icon": "pizza-slice", "text": TEXT, "special": number == 2})
            shown.append((picture, caption, card_id))
    deck = {"deck": "examples", "name": "Examples", "code": "EX", "fields": {"text": {"type": "text"},
                                                                           "special": {"type": "bool"}},
            "cards": cards}
    (game / "examples.yaml").write_text(yaml.safe_dump(deck, sort_keys=False))
    (game / "layouts" / "examples-back.yaml").write_text(yaml.safe_dump({"boxes": {"paper": PAPER}}))
    return folder, shown


def render(folder: Path):
    """The example game loaded and checked, and its cards as images (with bleed for the bleed examples)."""
    from generator.faces.face import renderer_for
    from generator.data.load import load_game
    from generator.data.project import Project
    from generator.exports.png import Face, face_images

    root, shown = example_project(folder)
    game = load_game(Project(root), "layouts-demo")
    renderer_for(game).check()
    deck = game.decks["examples"]
    tw, th = deck.size_pt
    faces, sizes = [], []
    for picture, _caption, card_id in shown:
        card = deck.card(card_id)
        if picture in BLEEDING:  # show the bleed around the trim
            b = game.bleed_pt
            faces.append(Face(card, tw + 2 * b, th + 2 * b))
            sizes.append((round(CARD_PX * (tw + 2 * b) / tw), round(CARD_PX * (th + 2 * b) / tw)))
        else:
            faces.append(Face(card, tw, th, trimmed=True))
            sizes.append((CARD_PX, round(CARD_PX * th / tw)))
    return game, shown, list(face_images(game, deck, faces, sizes=sizes))


def write_pictures() -> list[Path]:
    """docs/images/layouts/<picture>.png: each example strip, captioned."""
    from PIL import Image, ImageDraw, ImageFont

    from generator.core.fonts import font_files
    from generator.core.write import atomic_write

    with tempfile.TemporaryDirectory() as folder:
        game, shown, images = render(Path(folder))
        caption_font = ImageFont.truetype(str(font_files()["Body"]), 12)
        written = []
        for picture in EXAMPLES:
            parts = [(caption, image) for (name, caption, _), image in zip(shown, images, strict=True) if name == picture]
            gap, label = 14, 30
            width = sum(image.width for _, image in parts) + gap * (len(parts) + 1)
            height = max(image.height for _, image in parts) + label + gap
            strip = Image.new("RGB", (width, height), "#ffffff")
            draw = ImageDraw.Draw(strip)
            x = gap
            for caption, image in parts:
                strip.paste(image, (x, gap // 2))
                if picture in BLEEDING:  # the trim line, where the card is cut
                    b = round(CARD_PX * game.bleed_pt / game.decks["examples"].size_pt[0])
                    draw.rectangle((x + b, gap // 2 + b, x + image.width - b, gap // 2 + image.height - b),
                                   outline="#999999")
                else:
                    draw.rectangle((x - 1, gap // 2 - 1, x + image.width, gap // 2 + image.height), outline="#bbbbbb")
                draw.text((x, gap // 2 + image.height + 6), caption, font=caption_font, fill="#333333")
                x += image.width + gap
            path = PICTURES / f"{picture}.png"
            written.append(atomic_write(path, lambda tmp, strip=strip: strip.save(tmp, format="PNG", optimize=True)))
        return written


if __name__ == "__main__":
    for written in write_pictures():
        print(f"wrote {written.relative_to(ROOT)}")
