"""`pnp export tts`: Tabletop Simulator deck sheets, the back image(s) and a saved-object JSON per deck;
tokens (Custom_Tile of the matching shape), standees (Figurine_Custom) and dice (Custom_Dice) in bags; each
board as a Custom_Board (`board-<id>.png`, drawn by the code of board-full.pdf).

A sheet holds at most 10 x 7 cells; the last cell of the grid is TTS's "hidden card" (shown for cards in other
players' hands), so a sheet carries at most 69 card types and bigger decks are split over several sheets, each
a `CustomDeck` entry of its own. Card ids are `key * 100 + cell index`; `DeckIDs` lists one id per physical
copy.

A deck whose cards all show one back gets one back image (`<deck>-back.png`). A deck with card backs gets a
back sheet per face sheet (`<deck>-backs-N.png`, the same grid, each cell the back of the card in that cell)
and `UniqueBack: true`, which is how TTS gives every card its own back.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.boards.draw import board_plan, draw_board
from generator.core.write import atomic_write
from generator.data.components import Component
from generator.data.game import Card, Deck, Game
from generator.exports.components import die_texture, face_pngs
from generator.exports.png import Face, deck_backs, face_images, remove_stale, write_png
from generator.exports.raster import corner_mask, render_pages, round_corners

MAX_COLS, MAX_ROWS = 10, 7
MAX_TYPES = MAX_COLS * MAX_ROWS - 1  # 69: the last cell is the hidden card
MAX_SIDE = 4096                     # TTS guideline: keep images within 4096 x 4096 px
DEFAULT_CELL_WIDTH = MAX_SIDE // MAX_COLS  # 409 px: a full 10-wide sheet is just under 4096 px
# Custom Tile types: Box, Hex, Circle, Rounded
TILE_TYPES = {"square": 0, "hex": 1, "circle": 2, "rounded": 3}
COMPONENT_DPI = 200
BOARD_DPI = 150  # a board image: at most MAX_SIDE px on its long side


@dataclass(frozen=True)
class SheetPlan:
    """One deck sheet: its card types (in cell order), the grid and the cell size in pixels."""

    number: int
    cards: list[Card]
    cols: int
    rows: int
    cell: tuple[int, int]

    @property
    def hidden_index(self) -> int:
        """The last cell of the grid, which TTS uses for hidden cards."""
        return self.cols * self.rows - 1

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell[0], self.rows * self.cell[1]


def grid_for(types: int) -> tuple[int, int]:
    """Columns and rows for `types` faces plus the hidden cell (at most 10 x 7)."""
    cells = types + 1
    cols = min(MAX_COLS, cells)
    return cols, math.ceil(cells / cols)


def cell_size(trim_w: float, trim_h: float, cols: int, rows: int, cell_width: int) -> tuple[int, int]:
    """The pixel size of one cell: `cell_width` wide (shrunk so the sheet stays within 4096 px both ways)."""
    width = min(cell_width, MAX_SIDE // cols)
    height = round(width * trim_h / trim_w)
    if height * rows > MAX_SIDE:
        height = MAX_SIDE // rows
        width = min(width, math.floor(height * trim_w / trim_h))
    return width, height


def plan_sheets(deck: Deck, cell_width: int = DEFAULT_CELL_WIDTH) -> list[SheetPlan]:
    """The deck's card types in chunks of at most 69 per sheet."""
    tw, th = deck.size_pt
    sheets = []
    for number, start in enumerate(range(0, len(deck.cards), MAX_TYPES), start=1):
        cards = deck.cards[start:start + MAX_TYPES]
        cols, rows = grid_for(len(cards))
        sheets.append(SheetPlan(number, cards, cols, rows, cell_size(tw, th, cols, rows, cell_width)))
    return sheets


def guid(*parts: object) -> str:
    """A stable 6-hex-digit TTS object GUID derived from names (the same export gives the same JSON)."""
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:6]


def transform(x: float = 0.0) -> dict:
    """A TTS transform: face down on the table at x."""
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def deck_object(
    game: Game,
    deck: Deck,
    sheets: list[SheetPlan],
    face_urls: list[str],
    back_url: str | list[str],
    first_key: int = 1,
    x: float = 0.0,
) -> dict:
    """The saved object of a deck: a DeckCustom with one contained Card per physical copy (a Card if only
    one). `back_url` is one image for every card, or one back sheet per face sheet (unique backs)."""
    custom = {}
    ids: list[tuple[int, Card, str]] = []
    unique = isinstance(back_url, list)
    back_urls = back_url if unique else [back_url] * len(sheets)
    for offset, (sheet, url, back) in enumerate(zip(sheets, face_urls, back_urls, strict=True)):
        key = str(first_key + offset)
        custom[key] = {"FaceURL": url, "BackURL": back, "NumWidth": sheet.cols, "NumHeight": sheet.rows,
                       "BackIsHidden": True, "UniqueBack": unique, "Type": 0}
        for index, card in enumerate(sheet.cards):
            ids += [(int(key) * 100 + index, card, key)] * card.copies
    cards = [
        {
            "Name": "Card",
            "Nickname": card.name,
            "Description": card.code,
            "CardID": card_id,
            "CustomDeck": {key: custom[key]},
            "Transform": transform(x),
            "GUID": guid(game.id, deck.id, n, card.id),
            "Locked": False,
            "Tooltip": True,
            "Hands": True,
            "SidewaysCard": False,
        }
        for n, (card_id, card, key) in enumerate(ids)
    ]
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Nickname": deck.name, "Description": f"{game.title}: {deck.copies} cards",
            "Transform": transform(x), "GUID": guid(game.id, deck.id), "Locked": False, "Tooltip": True,
            "Hands": False, "SidewaysCard": False, "DeckIDs": [card_id for card_id, _, _ in ids],
            "CustomDeck": custom, "ContainedObjects": cards}


def saved_object(objects: list[dict], name: str) -> str:
    """A TTS saved-object file (Saved Objects folder) holding the given objects."""
    save = {
        "SaveName": name,
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    return json.dumps(save, indent=2, ensure_ascii=False) + "\n"


def url_for(path: Path, url_prefix: str | None) -> str:
    """file:// URL of an exported image, or the prefix (a web folder holding the images) plus its file
    name."""
    if url_prefix:
        return url_prefix.rstrip("/") + "/" + path.name
    return path.resolve().as_uri()


def draw_sheet(game: Game, deck: Deck, sheet: SheetPlan, dpi: float, back: Image.Image,
               backs: bool = False) -> Image.Image:
    """Paste the trimmed faces (with backs=True: the back of each card), and the back image into the hidden
    cell, onto one RGB sheet."""
    tw, th = deck.size_pt
    faces = [Face(card, tw, th, trimmed=True, back=backs) for card in sheet.cards]
    images = face_images(game, deck, faces, dpi, sizes=[sheet.cell] * len(faces))
    radius = game.corner_radius_pt / 72 * dpi
    # rounded corners (game.yaml corner_radius) are transparent; square cards keep a plain RGB sheet
    image = (
        Image.new("RGBA", sheet.size, (255, 255, 255, 0)) if radius else Image.new("RGB", sheet.size, "white")
    )
    mask = corner_mask(sheet.cell, radius) if radius else None
    cells = list(range(len(sheet.cards))) + [sheet.hidden_index]
    for cell, face in zip(cells, [*images, back], strict=True):
        image.paste(
            face.convert("RGB"),
            ((cell % sheet.cols) * sheet.cell[0], (cell // sheet.cols) * sheet.cell[1]),
            mask,
        )
    return image


def export_tts(game: Game, build_dir: Path, url_prefix: str | None = None,
               cell_width: int = DEFAULT_CELL_WIDTH) -> list[Path]:
    """Deck sheets, back images and saved-object JSONs (one per deck and one with every deck) in
    build/<game>/tts/."""
    folder = build_dir / game.build_path / "tts"
    written: list[Path] = []
    objects = []
    key = 1
    for position, deck in enumerate(game.decks.values()):
        sheets = plan_sheets(deck, cell_width)
        tw, th = deck.size_pt
        dpi = sheets[0].cell[0] / (tw / 72)
        # the back is rasterised once per cell size (a short last sheet may have larger cells than a full one)
        cells = list(dict.fromkeys(sheet.cell for sheet in sheets))
        faces = [Face(None, tw, th, trimmed=True)] * len(cells)
        backs = dict(zip(cells, face_images(game, deck, faces, dpi, sizes=cells), strict=True))
        sheet_paths = []
        for sheet in sheets:
            path = folder / f"{deck.id}-sheet-{sheet.number}.png"
            sheet_paths.append(write_png(draw_sheet(game, deck, sheet, dpi, backs[sheet.cell]), path, dpi))
        if len(deck_backs(game, deck)) > 1:  # card backs: a back sheet per face sheet, UniqueBack
            back_paths = [write_png(draw_sheet(game, deck, sheet, dpi, backs[sheet.cell], backs=True),
                                    folder / f"{deck.id}-backs-{sheet.number}.png", dpi) for sheet in sheets]
            back_url: str | list[str] = [url_for(p, url_prefix) for p in back_paths]
        else:
            back_image = round_corners(backs[sheets[0].cell], game.corner_radius_pt / 72 * dpi)
            back_paths = [write_png(back_image, folder / f"{deck.id}-back.png", dpi)]
            back_url = url_for(back_paths[0], url_prefix)
        obj = deck_object(game, deck, sheets, [url_for(p, url_prefix) for p in sheet_paths], back_url,
                          first_key=key, x=position * 3.0)
        key += len(sheets)
        objects.append(obj)
        deck_json = folder / f"{deck.id}.json"
        written += (
            sheet_paths
            + back_paths
            + [atomic_write(deck_json, saved_object([obj], f"{game.title}: {deck.name}"))]
        )
    files, bags = export_component_tts(game, folder, lambda p: url_for(p, url_prefix), x0=len(objects) * 3.0)
    written += files
    objects += bags
    for board in game.boards.values():
        path = write_png(board_image(game, board), folder / f"board-{board.id}.png", BOARD_DPI)
        written.append(path)
        objects.append(board_object(game, board, url_for(path, url_prefix)))
    written.append(atomic_write(folder / f"{game.id}.json", saved_object(objects, game.title)))
    remove_stale(folder, {p.name for p in written}, ("*.png", "*.json"))
    return written


# --- boards
# ---------------------------------------------------------------------------------------------------

def board_image(game: Game, board) -> Image.Image:
    """The board's trim area as an image, drawn as board-full.pdf draws it, at most MAX_SIDE px long."""
    import io

    plan = board_plan(game, board)
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(plan.width, plan.height), invariant=1)
    draw_board(canvas, game, board, 0, 0, plan=plan)
    canvas.showPage()
    canvas.save()
    scale = min(BOARD_DPI / 72, MAX_SIDE / max(plan.width, plan.height))
    size = (max(1, round(plan.width * scale)), max(1, round(plan.height * scale)))
    return next(render_pages(buffer.getvalue(), sizes=[size]))


def board_object(game: Game, board, url: str) -> dict:
    """A Custom_Board beside the decks, face up, at TTS's own board size (the image gives its proportions)."""
    obj = _piece("Custom_Board", board.model.name or game.title, guid(game.id, "board", board.id), 0.0,
                 {"CustomImage": {"ImageURL": url, "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                  "WidthScale": 0.0}})
    obj["Transform"] |= {"posZ": -10.0, "rotY": 0.0}
    return obj


# --- components: tokens, standees, dice
# -------------------------------------------------------------------------

def _piece(name: str, nickname: str, guid_text: str, x: float, custom: dict) -> dict:
    obj = {
        "Name": name,
        "Nickname": nickname,
        "Description": "",
        "Transform": transform(x),
        "GUID": guid_text,
        "Locked": False,
        "Tooltip": True,
        "Hands": False,
    }
    obj["Transform"]["rotZ"] = 0.0  # face up
    obj.update(custom)
    return obj


def _tile(component: Component, image: dict) -> dict:
    tile = {"Type": TILE_TYPES[component.shape.kind], "Thickness": 0.1, "Stackable": True, "Stretch": True}
    return {"CustomImage": {**image, "CustomTile": tile}}


def _figurine(component: Component, image: dict) -> dict:  # noqa: ARG001 - an ITEM_OBJECTS builder
    return {"CustomImage": image}


DICE = "Custom_Dice"
ITEM_OBJECTS = {"Custom_Tile": _tile, "Figurine_Custom": _figurine}
"""The TTS objects of a component's items (a kind's model names its `tts_object`), and what each one holds."""


def tts_objects(game: Game, component: Component, urls: dict[str, str], x: float) -> dict:
    """A bag holding one TTS object per printed copy of the component (tokens, standees, dice)."""
    contained = []
    name = component.model.tts_object
    if name == DICE:
        image = {"ImageURL": urls["texture"], "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                 "CustomDice": {"Type": 1}}
        for n in range(component.copies):
            contained.append(_piece(DICE, component.name, guid(game.id, component.id, n), x,
                                   {"CustomImage": image}))
    else:
        custom_of = ITEM_OBJECTS[name]
        n = 0
        for item in component.items:
            back = urls.get("back", urls[item.code])
            for _ in range(item.copies):
                image = {"ImageURL": urls[item.code], "ImageSecondaryURL": back, "ImageScalar": 1.0,
                         "WidthScale": 0.0}
                contained.append(_piece(name, item.name, guid(game.id, component.id, n), x,
                                        custom_of(component, image)))
                n += 1
    return _piece("Bag", component.name, guid(game.id, component.id, "bag"), x,
                 {"Description": f"{game.title}: {len(contained)} pieces", "ContainedObjects": contained})


def export_component_tts(game: Game, folder: Path, url_for, x0: float) -> tuple[list[Path], list[dict]]:
    """Images and TTS bags of the game's tokens, standees and dice in the TTS folder; (files, objects)."""
    written: list[Path] = []
    objects = []
    x = x0
    for component in game.components.values():
        urls: dict[str, str] = {}
        if component.model.tts_object is None:
            continue
        if component.model.tts_object == DICE:
            path = write_png(die_texture(game, component), folder / f"{component.id}-texture.png")
            urls["texture"] = url_for(path)
            written.append(path)
        else:
            for name, image in face_pngs(game, component, dpi=COMPONENT_DPI):
                path = write_png(image, folder / f"{component.id}-{name}", COMPONENT_DPI)
                urls["back" if name == "back.png" else name.removesuffix(".png")] = url_for(path)
                written.append(path)
        obj = tts_objects(game, component, urls, x)
        objects.append(obj)
        written.append(atomic_write(folder / f"{component.id}-bag.json",
                                    saved_object([obj], f"{game.title}: {component.name}")))
        x += 3.0
    return written, objects
