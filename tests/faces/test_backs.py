"""Per-card backs: a card's own `back:`, back layouts that read `card`, and shared backs drawn once, in the
card sheets (duplex and fold) and in every export (PNG, print-on-demand PDF and PNG, Tabletop Simulator)."""

from __future__ import annotations

import csv
import dataclasses
import json

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from generator.cards.imposition import make_sheet
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.data.load import load_game
from generator.exports.png import export_png
from generator.exports.pod import export_pod, load_preset
from generator.exports.tts import export_tts
from generator.faces.face import renderer_for
from generator.pipeline.gather import check_game
from tests.conftest import run_pnp

GAME = "space-race"
PURPLE = (0x7B, 0x3F, 0xA0)  # captain-back.yaml
NAVY = (0x24, 0x3B, 0x55)    # crew-back.yaml, the deck's back


def near(pixel, colour, tolerance=6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel[:3], colour, strict=True))


@pytest.fixture
def game(designer_project):
    loaded = load_game(designer_project, GAME)
    check_game(loaded)
    return loaded


def test_backs_are_grouped_shared_once_and_per_card_when_the_layout_reads_card(game):
    renderer = renderer_for(game)
    crew = game.decks["crew"]
    faces = renderer.backs(crew)
    assert [
        (face.key, face.layout, face.card.id if face.card else None, [c.id for c in face.cards])
        for face in faces
    ] == [
        ("B", "crew-back", None, ["pilot", "engineer", "medic"]),
        ("B004", "captain-back", "captain", ["captain"]),
    ]
    assert renderer.back_of(crew, crew.card("medic")).key == "B"
    assert [face.key for face in renderer.backs(game.decks["events"])] == ["B"]


def _sample(pdf_path, page_index, sheet, slot_index, paper_h):
    """The colour 3 mm inside the top-left corner of a slot's trim on a rendered page."""
    pdf = pypdfium2.PdfDocument(str(pdf_path))
    image = pdf[page_index].render(scale=1).to_pil().convert("RGB")
    slot = sheet.backs[slot_index] if sheet.backs else sheet.fronts[slot_index]
    x, top = slot.trim.x + 8.5, paper_h - (slot.trim.y + slot.trim.h) + 8.5
    return image.getpixel((round(x), round(top)))


@pytest.mark.parametrize("layout", ["duplex", "fold"])
def test_each_card_shows_its_own_back_on_the_sheets(game, tmp_path, layout):
    from generator.cards.sheets import write_sheets

    # A4: 9-up poker (Letter is 8-up, to keep the full bleed)
    options = BuildOptions(papers=("a4",), layout=layout)
    path = tmp_path / "cards.pdf"
    write_sheets(game, "a4", options, path)
    crew = game.decks["crew"]
    w, h = crew.size_pt
    sheet = make_sheet("a4", (w, h), game.bleed_pt, layout)
    paper_h = sheet.page_h
    # the captain is the 9th card (3 pilots, 3 engineers, 2 medics): duplex puts 9 on a page (print check,
    # fronts, then backs), fold 4 (each page holds fronts and backs), so its back is in slot 8 or slot 0 of
    # page 3
    back_page, slot = (3, 8) if layout == "duplex" else (4, 0)
    assert near(_sample(path, back_page, sheet, slot, paper_h), PURPLE)
    first_page = 3 if layout == "duplex" else 2
    for other in range(min(8, sheet.per_page)):
        assert near(_sample(path, first_page, sheet, other, paper_h), NAVY)
    # the shared back is one form placed eight times; the captain's back, placed once, is drawn into its page
    # (no form of its own anywhere in the file)
    reader = PdfReader(str(path))
    page = reader.pages[3]
    forms = sorted(name for name in page["/Resources"]["/XObject"] if "CRW_B" in name)
    assert forms == ["/FormXob.card_SPR_CRW_B"]  # fold: page 2 holds four cards that share the back
    assert not any("CRW_B004" in name for p in reader.pages for name in p["/Resources"].get("/XObject", {}))


def test_an_unknown_card_back_is_located_at_its_cell(designer_project):
    path = designer_project.cards_dir / GAME / "crew.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("captain-back", "captin-back"), encoding="utf-8")
    result = run_pnp("validate", "--no-sim", project=designer_project)
    assert result.exit_code == 1
    assert (
        f"cards/{GAME}/crew.csv:5: layout 'captin-back' not found (did you mean 'captain-back'?); expected "
        f"cards/{GAME}/layouts/captin-back.yaml"
    ) in result.output


def test_a_back_template_error_names_the_card_whose_back_it_is(designer_project):
    path = designer_project.cards_dir / GAME / "layouts" / "captain-back.yaml"
    path.write_text(path.read_text().replace("{{ card.name }}", "{{ card.rank }}"))
    game = load_game(designer_project, GAME)
    with pytest.raises(InputError) as caught:
        renderer_for(game).check()
    assert [str(p) for p in caught.value.problems] == [
        f"cards/{GAME}/layouts/captain-back.yaml:4: the back of card SPR-CRW-04 (captain): box 'title': "
        "template "
        "error: no field 'rank' here; known: back, code, color, copies, deck, icon, id, image, index, "
        "layout, name, "
        "players, ..."  # a card's `players` range (None unless given) is one of its keys
    ]


def test_png_export_writes_each_back_and_names_it_per_card(game, tmp_path):
    export_png(game, tmp_path, dpi=60)
    folder = tmp_path / GAME / "png" / "crew"
    rows = {row["code"]: row for row in csv.DictReader((folder / "cards.csv").open(encoding="utf-8"))}
    assert (
        rows["SPR-CRW-04"]["back_file"] == "SPR-CRW-04-back.png"
        and rows["SPR-CRW-01"]["back_file"] == "back.png"
    )
    with Image.open(folder / "SPR-CRW-04-back.png") as own, Image.open(folder / "back.png") as shared:
        assert near(own.convert("RGB").getpixel((10, 10)), PURPLE) and near(
            shared.convert("RGB").getpixel((10, 10)), NAVY
        )
    assert not (tmp_path / GAME / "png" / "events" / "SPR-EVT-01-back.png").exists()


@pytest.mark.parametrize("kind", ["rgb", "pdfx"])
def test_print_on_demand_pdf_puts_each_cards_back_before_its_front(game, tmp_path, kind):
    """The RGB file of a PDF preset without `pdfx:` by its colours; DriveThruCards' PDF/X file (CMYK, which
    PDFium shows with other colours) by its pictures: eight pages show the shared back, the ninth its own."""
    preset = load_preset("drivethrucards")
    if kind == "rgb":
        preset = dataclasses.replace(preset, pdfx=None)
    elif preset.pdfx is None or not preset.pdfx.profile.is_file():
        pytest.skip("Ghostscript's CMYK profile is not installed")
    export_pod(game, preset, tmp_path)
    path = tmp_path / GAME / "pod" / "drivethrucards" / "crew.pdf"
    pdf = pypdfium2.PdfDocument(str(path))
    assert len(pdf) == 2 * 9
    if kind == "rgb":
        colours = [pdf[2 * n].render(scale=0.3).to_pil().convert("RGB").getpixel((5, 5)) for n in range(9)]
        assert [near(c, PURPLE) for c in colours] == [False] * 8 + [True]
        return
    pages = PdfReader(str(path)).pages
    backs = [pages[2 * n]["/Resources"]["/XObject"].raw_get("/Im0").idnum for n in range(9)]
    fronts = {pages[2 * n + 1]["/Resources"]["/XObject"].raw_get("/Im0").idnum for n in range(9)}
    assert len(set(backs[:8])) == 1 and backs[8] != backs[0] and not fronts & set(backs)


def test_print_on_demand_png_has_the_card_back(game, tmp_path):
    export_pod(game, load_preset("gamecrafter"), tmp_path)
    folder = tmp_path / GAME / "pod" / "gamecrafter" / "crew"
    with Image.open(folder / "SPR-CRW-04-back.png") as image:
        assert image.size == (825, 1125) and near(image.convert("RGB").getpixel((40, 40)), PURPLE)
    rows = list(csv.DictReader((folder / "cards.csv").open(encoding="utf-8")))
    assert [row["back_file"] for row in rows] == ["back.png"] * 3 + ["SPR-CRW-04-back.png"]


def test_tts_gives_a_deck_with_card_backs_unique_back_sheets(game, tmp_path):
    export_tts(game, tmp_path, cell_width=80)
    folder = tmp_path / GAME / "tts"
    crew = json.loads((folder / "crew.json").read_text())["ObjectStates"][0]
    custom = crew["CustomDeck"]["1"]
    assert (
        custom["UniqueBack"] is True and custom["BackURL"] == (folder / "crew-backs-1.png").resolve().as_uri()
    )
    with Image.open(folder / "crew-backs-1.png") as backs, Image.open(folder / "crew-sheet-1.png") as faces:
        assert backs.size == faces.size
        cell_w = backs.width // custom["NumWidth"]
        colours = [backs.convert("RGB").getpixel((c * cell_w + 4, 4)) for c in range(4)]
    assert [near(c, PURPLE) for c in colours] == [False, False, False, True]
    events = json.loads((folder / "events.json").read_text())["ObjectStates"][0]["CustomDeck"]["2"]
    assert events["UniqueBack"] is False and events["BackURL"].endswith("events-back.png")
