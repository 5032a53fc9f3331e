"""Any card shape to any shop (issue 34): landscape cards go into The Game Crafter's portrait template,
turned a quarter (and the export says so); a size the shop cannot make at all is refused in one line."""

from __future__ import annotations

import textwrap

from PIL import Image, ImageChops

from generator.core.units import INCH
from generator.data.load import load_game
from generator.data.project import Project
from generator.exports.png import Face, face_images
from generator.exports.pod import load_preset, pixel_size, turned
from tests.conftest import run_pnp

FILES = {
    "game.yaml": "title: Wide\ncode: WID\nplayers: {min: 2, max: 4}\ndecks: [wide]\n",
    "wide.yaml": """\
        deck: wide
        name: Wide cards
        code: WCD
        size: {width: 63.5mm, height: 44.5mm}
        layout: wide
        back: wide-back
        cards:
          - {id: one, name: One, copies: 3}
        """,
    "layouts/wide.yaml": """\
        boxes:
          background: {shape: rect, fill: "#fff4d6"}
          band: {height: 10mm, shape: band, fill: "#c0392b"}
          title: {x: 5mm, y: 15mm, width: 40mm, height: 8mm, text: "{{ card.name }}", size: 12pt}
        """,
    "layouts/wide-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#1f4e79\"}\n",
}


def _project(tmp_path, files=FILES) -> Project:
    for name, text in files.items():
        path = tmp_path / "cards" / "wide" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Project(tmp_path)


def near(a, b, tol=12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def test_landscape_cards_are_turned_into_the_gamecrafter_portrait_template(tmp_path):
    project = _project(tmp_path)
    result = run_pnp("export", "pod", "wide", "--shop", "gamecrafter", project=project)
    assert result.exit_code == 0, result.output
    assert "deck 'wide': landscape cards turned a quarter into The Game Crafter's portrait mini template" \
        in result.output
    folder = project.build_dir / "wide" / "pod" / "gamecrafter" / "wide"
    game = load_game(project, "wide")
    deck = game.decks["wide"]
    preset = load_preset("gamecrafter")
    assert turned(preset, deck) and pixel_size(preset, deck) == (600, 825)
    with Image.open(folder / "WID-WCD-01.png") as front, Image.open(folder / "back.png") as back:
        assert front.size == back.size == (600, 825)  # the portrait mini template (1.75 x 2.5 in + bleed)
        front = front.convert("RGB")
        # counter-clockwise: the card's top band runs down the template's left edge
        assert near(front.getpixel((20, 412)), (0xC0, 0x39, 0x2B)) and near(front.getpixel((580, 412)),
                                                                             (0xFF, 0xF4, 0xD6))
        assert near(back.convert("RGB").getpixel((300, 412)), (0x1F, 0x4E, 0x79))
        # exactly the landscape face, drawn at its own size with the same bleed and turned
        page = (825 / 300 * INCH, 600 / 300 * INCH)
        landscape = next(face_images(game, deck, [Face(deck.cards[0], *page)], 300, sizes=[(825, 600)]))
        assert ImageChops.difference(landscape.convert("RGB").transpose(Image.Transpose.ROTATE_90),
                                     front).getbbox() is None


def test_a_size_the_shop_cannot_make_is_one_line(tmp_path):
    files = dict(FILES, **{"wide.yaml": FILES["wide.yaml"].replace("{width: 63.5mm, height: 44.5mm}",
                                                                   "{width: 100mm, height: 60mm}")})
    result = run_pnp("export", "pod", "wide", "--shop", "gamecrafter", project=_project(tmp_path, files))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "cards/wide/wide.yaml:4: deck 'wide': The Game Crafter has no card template for size 100 x 60 mm" \
        in result.output, result.output
