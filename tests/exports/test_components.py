"""Component exports: token and standee faces as PNGs cut out by transparency, and TTS objects for tokens
(Custom_Tile of the matching shape), standees (Figurine_Custom) and dice (Custom_Dice)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from PIL import Image

from generator.data.load import load_game
from generator.exports.components import die_texture, export_component_pngs
from generator.exports.tts import export_component_tts, export_tts
from tests.components.conftest import write_project

HEX_TOKENS = """\
    component: chits
    kind: token
    name: Coins
    shape: hex
    across: 1in
    layout: chit
    back: chit-back
    fields: {value: {type: int}}
    items:
      - {id: coin, name: Coin, copies: 3, value: 1}
      - {id: big-coin, name: Big coin, copies: 2, value: 5}
    """


def test_token_pngs_are_cut_out_by_transparency(tmp_path):
    game = load_game(write_project(tmp_path / "p", {"chits.yaml": HEX_TOKENS}), "chits")
    written = export_component_pngs(game, tmp_path / "out", dpi=300)
    folder = tmp_path / "out" / "chits" / "png" / "chits"
    assert {p.name for p in written} == {"CHT-CHITS-01.png", "CHT-CHITS-02.png", "back.png", "components.csv"}
    with Image.open(folder / "CHT-CHITS-01.png") as image:
        # a flat 1 in hexagon: 2 / sqrt(3) in wide, 1 in high at 300 dpi
        assert image.mode == "RGBA" and image.size == (346, 300)
        assert image.getpixel((2, 2))[3] == 0                      # outside the hexagon: transparent
        assert image.getpixel((173, 150))[3] == 255                # the middle is drawn
        assert image.getpixel((60, 150))[:3] == (0xf4, 0xc4, 0x30)        # the background colour
    with Image.open(folder / "back.png") as image:
        assert image.getpixel((173, 10))[:3] == (0x24, 0x3b, 0x55)
    rows = list(csv.DictReader((folder / "components.csv").open(encoding="utf-8")))
    assert [(r["code"], r["copies"]) for r in rows] == [("CHT-CHITS-01", "3"), ("CHT-CHITS-02", "2")]


def test_tts_export_puts_every_token_copy_in_a_bag_of_hex_tiles(tmp_path):
    game = load_game(write_project(tmp_path / "p", {"chits.yaml": HEX_TOKENS}), "chits")
    export_tts(game, tmp_path / "out")
    folder = tmp_path / "out" / "chits" / "tts"
    save = json.loads((folder / "chits-bag.json").read_text(encoding="utf-8"))
    bag = save["ObjectStates"][0]
    assert bag["Name"] == "Bag" and len(bag["ContainedObjects"]) == 5
    tiles = bag["ContainedObjects"]
    assert {t["Name"] for t in tiles} == {"Custom_Tile"}
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in tiles} == {1}  # hexagon
    assert len({t["GUID"] for t in tiles}) == 5
    for tile in tiles:
        for key in ("ImageURL", "ImageSecondaryURL"):
            assert Path(tile["CustomImage"][key].removeprefix("file://")).is_file()
    assert [t["Nickname"] for t in tiles].count("Big coin") == 2
    whole = json.loads((folder / "chits.json").read_text(encoding="utf-8"))  # the game: its deck and the bag
    assert [o["Name"] for o in whole["ObjectStates"]] == ["DeckCustom", "Bag"]
    assert whole["ObjectStates"][1] == bag


def test_tts_standees_are_figurines_and_dice_are_custom_d6(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-pizza")
    files, bags = export_component_tts(game, tmp_path, lambda p: p.resolve().as_uri(), x0=0.0)
    by_name = {bag["Nickname"]: bag for bag in bags}
    cars = by_name["Delivery cars"]["ContainedObjects"]
    assert [c["Name"] for c in cars] == ["Figurine_Custom"] * 4
    assert [c["Nickname"] for c in cars] == ["Red car", "Yellow car", "Blue car", "Green car"]
    dice = by_name["Dice"]["ContainedObjects"]
    assert len(dice) == 2 and all(d["Name"] == "Custom_Dice" and d["CustomImage"]["CustomDice"]["Type"] == 1
                                  for d in dice)
    texture = Path(dice[0]["CustomImage"]["ImageURL"].removeprefix("file://"))
    with Image.open(texture) as image:
        assert image.size == (1024, 1024)
    assert all(p.is_file() for p in files)


def test_die_texture_holds_six_faces_with_their_pips(repo_project):
    game = load_game(repo_project, "order-up-pizza")
    image = die_texture(game, game.components["dice"])
    # the face with one pip (bottom row, left) has its red pip in the middle of its cell
    cell = 1024 / 3
    centre = (int(cell / 2), int(512 + cell / 2))
    assert image.getpixel(centre)[0] > 180 and image.getpixel(centre)[1] < 80


def test_tts_export_holds_the_board_as_drawn_for_print(repo_project, tmp_path):
    from generator.exports.raster import render_pages

    game = load_game(repo_project, "order-up-pizza")
    written = export_tts(game, tmp_path)
    [board] = game.boards.values()
    png = tmp_path / "order-up-pizza" / "tts" / f"board-{board.id}.png"
    assert png in written
    whole = json.loads((png.parent / "order-up-pizza.json").read_text(encoding="utf-8"))
    [placed] = [o for o in whole["ObjectStates"] if o["Name"] == "Custom_Board"]
    assert Path(placed["CustomImage"]["ImageURL"].removeprefix("file://")) == png.resolve()
    assert placed["Transform"]["rotZ"] == 0.0  # face up
    with Image.open(png) as image:
        shown = image.convert("RGB")
    assert max(shown.size) <= 4096
    # the same picture as the print PDF's trim area: compared with board-full.pdf rendered at that size
    from generator.boards.pdf import render_full

    pdf = tmp_path / "board-full.pdf"
    render_full(game, board, pdf)
    printed = next(render_pages(pdf, dpi=72))
    edge = round(game.bleed_pt)  # the full board has the game's bleed around its trim
    trim = printed.crop((edge, edge, printed.size[0] - edge, printed.size[1] - edge))
    from PIL import ImageChops, ImageStat

    small = shown.resize(trim.size, Image.Resampling.LANCZOS)
    mean = ImageStat.Stat(ImageChops.difference(small, trim)).mean
    assert max(mean) < 12, mean  # per channel, out of 255 (resampling blurs the lines a little)
    flipped = ImageStat.Stat(ImageChops.difference(small.transpose(Image.Transpose.ROTATE_180), trim)).mean
    assert max(flipped) > 2 * max(mean), (flipped, mean)  # the comparison tells pictures apart
