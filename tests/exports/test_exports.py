"""PNG, print-shop and Tabletop Simulator exports: exact pixel sizes, page order, page boxes, sheet grids,
JSON."""

from __future__ import annotations

import csv
import dataclasses
import json

import pytest
from PIL import Image
from pypdf import PdfReader

from generator.data.expand import expand_deck
from generator.exports.png import export_deck_png
from generator.exports.pod import load_preset, pixel_size, write_deck_pdf, write_deck_pngs
from generator.exports.tts import MAX_TYPES, deck_object, export_tts, plan_sheets
from generator.pipeline.gather import gather
from tests.conftest import run_pnp


@pytest.fixture(scope="module")
def trading(repo_project):
    games, _ = gather(repo_project, ["order-up-trading"])
    return games[0]


def test_png_export_has_exact_sizes_with_bleed_and_trimmed(trading, tmp_path):
    deck = trading.decks["rules"]
    export_deck_png(trading, deck, tmp_path)
    card = deck.cards[0]
    with Image.open(tmp_path / f"{card.code}.png") as image:
        assert image.size == (825, 1125) and image.mode == "RGB"  # poker + 1/8 in bleed at 300 dpi
        corner = image.getpixel((0, 0))
    with Image.open(tmp_path / f"{card.code}-trim.png") as image:
        assert image.size == (750, 1050)
    with Image.open(tmp_path / "back.png") as image:
        assert image.size == (825, 1125)
        assert image.getpixel((1, 1)) != (255, 255, 255)  # the back's colour runs into the bleed
    assert corner != (255, 255, 255)  # the front's background is drawn into the bleed too (not left white)
    rows = list(csv.DictReader((tmp_path / "cards.csv").open(encoding="utf-8")))
    assert rows == [{"file": f"{card.code}.png", "trim_file": f"{card.code}-trim.png", "code": card.code,
                     "name": card.name, "copies": str(card.copies), "back_file": "back.png"}]


def test_png_export_cli_writes_every_deck(tmp_project):
    result = run_pnp("export", "png", "order-up-trading", "--dpi", "100", project=tmp_project)
    assert result.exit_code == 0, result.output
    game_dir = tmp_project.build_dir / "order-up-trading" / "png"
    assert sorted(p.name for p in game_dir.iterdir()) == ["ingredients", "recipes", "rules"]
    with Image.open(game_dir / "recipes" / "OUT-REC-01.png") as image:
        assert image.size == (275, 375)  # 2.75 x 3.75 in at 100 dpi


@pytest.mark.parametrize("shop, size", [("gamecrafter", (825, 1125)), ("makeplayingcards", (816, 1110))])
def test_pod_png_presets_give_the_shop_pixel_size(trading, tmp_path, shop, size):
    preset = load_preset(shop)
    deck = trading.decks["rules"]
    written = write_deck_pngs(trading, deck, preset, tmp_path)
    pngs = [p for p in written if p.suffix == ".png"]
    assert {p.name for p in pngs} == {"back.png", f"{deck.cards[0].code}.png"}
    for path in pngs:
        with Image.open(path) as image:
            assert image.size == size


def test_gamecrafter_size_table_covers_other_card_sizes(trading, tmp_path):
    preset = load_preset("gamecrafter")
    deck = trading.decks["rules"]
    expected = {(57.15, 88.9): (750, 1125), (70.0, 120.0): (900, 1500), (89.0, 89.0): (1125, 1125),
                (44.5, 63.5): (600, 825)}
    for size_mm, pixels in expected.items():
        assert pixel_size(preset, dataclasses.replace(deck, size_mm=size_mm)) == pixels
    tarot = dataclasses.replace(deck, size_mm=(70.0, 120.0))
    written = write_deck_pngs(trading, tarot, preset, tmp_path)  # drawn for real at the tarot template size
    with Image.open(written[0]) as image:
        assert image.size == (900, 1500)
    with pytest.raises(Exception, match="no card template for size euro"):
        pixel_size(preset, dataclasses.replace(deck, size_mm=(59.0, 92.0)))


def test_unknown_shop_lists_the_known_ones(repo_project):
    result = run_pnp("export", "pod", "--shop", "gamecrafters", "order-up-trading", project=repo_project)
    assert result.exit_code == 1
    assert "did you mean 'gamecrafter'" in result.output
    assert "drivethrucards, gamecrafter, makeplayingcards" in result.output


def test_drivethrucards_pdf_alternates_back_and_front_with_boxes(trading, tmp_path):
    """The shop's page order and boxes, on the RGB file a PDF preset without `pdfx:` gives (its text can be
    read back); the PDF/X file (tests/exports/test_pdfx.py) has the same pages as pictures."""
    deck = trading.decks["recipes"]
    preset = dataclasses.replace(load_preset("drivethrucards"), pdfx=None)
    path = write_deck_pdf(trading, deck, preset, tmp_path / "recipes.pdf")
    reader = PdfReader(path)
    cards = expand_deck(deck)
    assert len(reader.pages) == 2 * len(cards)
    for number, card in enumerate(cards):
        back, front = reader.pages[2 * number], reader.pages[2 * number + 1]
        assert card.code in front.extract_text()
        assert "OUT-REC" not in back.extract_text() and "SECRET RECIPE" in back.extract_text()
    for page in reader.pages[:2]:
        assert "/TrimBox" in page and "/BleedBox" in page and "/ArtBox" not in page
        assert [round(float(v), 3) for v in page.trimbox] == [9, 9, 189, 261]      # 2.5 x 3.5 in trim
        assert [round(float(v), 3) for v in page.bleedbox] == [0, 0, 198, 270]     # + 1/8 in bleed
        assert [round(float(v), 3) for v in page.mediabox] == [0, 0, 198, 270]
    for font in reader.pages[1]["/Resources"]["/Font"].values():
        descriptor = font.get_object().get("/FontDescriptor") or \
            font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()  # every font embedded


# `pnp export pod --shop drivethrucards` through the CLI (its PDF/X note, its files): tested with the images
# of those files in tests/exports/test_no_stray_images.py, one export for both


def test_tts_sheets_hidden_cell_and_saved_object(trading, tmp_path):
    export_tts(trading, tmp_path)
    folder = tmp_path / "order-up-trading" / "tts"
    save = json.loads((folder / "order-up-trading.json").read_text())
    objects = save["ObjectStates"]
    assert len(objects) == len(trading.decks)
    for obj, deck in zip(objects, trading.decks.values(), strict=True):
        (key, custom), = obj["CustomDeck"].items()  # one sheet per deck here
        sheet_path = folder / f"{deck.id}-sheet-1.png"
        assert custom["FaceURL"] == sheet_path.resolve().as_uri()
        assert custom["BackURL"] == (folder / f"{deck.id}-back.png").resolve().as_uri()
        cols, rows = custom["NumWidth"], custom["NumHeight"]
        assert cols <= 10 and rows <= 7 and cols * rows - 1 >= len(deck.cards)
        with Image.open(sheet_path) as sheet:
            assert sheet.mode == "RGB" and sheet.width <= 4096 and sheet.height <= 4096
            cell_w, cell_h = sheet.width // cols, sheet.height // rows
            assert (sheet.width, sheet.height) == (cols * cell_w, rows * cell_h)
            hidden = sheet.crop((sheet.width - cell_w, sheet.height - cell_h, sheet.width, sheet.height))
            with Image.open(folder / f"{deck.id}-back.png") as back:
                assert back.size == (cell_w, cell_h)
                assert hidden.tobytes() == back.convert("RGB").tobytes()  # back in the hidden cell
        if deck.copies == 1:
            assert obj["Name"] == "Card"
            continue
        assert obj["Name"] == "DeckCustom"
        expected = [
            int(key) * 100 + index for index, card in enumerate(deck.cards) for _ in range(card.copies)
        ]
        assert obj["DeckIDs"] == expected and len(expected) == deck.copies
        assert [c["CardID"] for c in obj["ContainedObjects"]] == expected
        assert all(c["Name"] == "Card" and key in c["CustomDeck"] for c in obj["ContainedObjects"])
        assert len({c["GUID"] for c in obj["ContainedObjects"]}) == deck.copies


def test_tts_url_prefix(trading, tmp_path):
    export_tts(trading, tmp_path, url_prefix="https://example.org/decks/")
    save = json.loads((tmp_path / "order-up-trading" / "tts" / "recipes.json").read_text())
    custom = next(iter(save["ObjectStates"][0]["CustomDeck"].values()))
    assert custom["FaceURL"] == "https://example.org/decks/recipes-sheet-1.png"


def test_tts_splits_decks_over_69_card_types(trading):
    deck = trading.decks["ingredients"]
    base = deck.cards[0]
    cards = [
        dataclasses.replace(base, id=f"c{i}", code=f"OUT-X-{i}", index=i + 1, copies=1 + i % 2)
        for i in range(75)
    ]
    big = dataclasses.replace(deck, cards=cards)
    sheets = plan_sheets(big)
    assert [len(s.cards) for s in sheets] == [MAX_TYPES, 6]
    assert [(s.cols, s.rows) for s in sheets] == [(10, 7), (7, 1)]
    assert sheets[0].hidden_index == 69 and all(s.size[0] <= 4096 and s.size[1] <= 4096 for s in sheets)
    obj = deck_object(trading, big, sheets, ["face1", "face2"], "back", first_key=3)
    assert sorted(obj["CustomDeck"]) == ["3", "4"]
    assert obj["DeckIDs"][:3] == [300, 301, 301] and obj["DeckIDs"][-1] == 405
    assert len(obj["DeckIDs"]) == sum(c.copies for c in cards)


def test_tts_single_card_deck_is_a_card_object(trading):
    deck = trading.decks["rules"]
    single = dataclasses.replace(deck, cards=[dataclasses.replace(deck.cards[0], copies=1)])
    obj = deck_object(trading, single, plan_sheets(single), ["face"], "back", first_key=2)
    assert obj["Name"] == "Card" and obj["CardID"] == 200
    assert obj["CustomDeck"]["2"]["NumWidth"] == 2 and obj["CustomDeck"]["2"]["NumHeight"] == 1


def test_corner_radius_rounds_trimmed_pngs_tts_and_previews(trading, tmp_path):
    from generator.core.units import mm
    from generator.exports.preview import contact_sheet

    config = trading.config.model_copy(update={"corner_radius": "3mm"})
    rounded = dataclasses.replace(trading, config=config)
    deck = rounded.decks["rules"]
    export_deck_png(rounded, deck, tmp_path / "png")
    card = deck.cards[0]
    radius = round(mm(3) / 72 * 300)  # 35 px at 300 dpi
    with Image.open(tmp_path / "png" / f"{card.code}-trim.png") as image:
        assert image.mode == "RGBA" and image.size == (750, 1050)
        assert image.getpixel((0, 0))[3] == 0 and image.getpixel((749, 1049))[3] == 0  # cut away
        assert image.getpixel((radius, radius))[3] == 255 and image.getpixel((375, 0))[3] == 255  # the card
        assert image.getpixel((radius // 4, radius // 4))[3] == 0  # inside the corner's curve
    with Image.open(tmp_path / "png" / f"{card.code}.png") as image:
        assert image.mode == "RGB"  # the print-shop image with bleed stays square: shops round the cards
    export_tts(rounded, tmp_path)
    with Image.open(tmp_path / rounded.id / "tts" / "rules-sheet-1.png") as image:
        assert image.mode == "RGBA" and image.getpixel((0, 0))[3] == 0
        assert image.getpixel((image.width // 20, image.height // 2))[3] == 255
    sheet = contact_sheet(rounded, deck)
    plain = contact_sheet(trading, deck)
    assert sheet.size == plain.size and sheet.tobytes() != plain.tobytes()


def test_a_length_without_its_unit_is_refused_by_every_flag_alike(tmp_project):
    # `pnp export png --bleed 3` took 3 pt silently while `pnp build --gap 3` asked for the unit: one rule,
    # one message
    png = run_pnp("export", "png", "order-up-trading", "--bleed", "3", project=tmp_project)
    gap = run_pnp("build", "order-up-trading", "--gap", "3", project=tmp_project)
    assert png.exit_code == gap.exit_code == 1
    assert "--bleed 3: expected a length with its unit, e.g. '3mm'" in png.output
    assert "--gap 3: expected a length with its unit, e.g. '3mm'" in gap.output
    assert not (tmp_project.build_dir / "order-up-trading" / "png").exists()
    ok = run_pnp("export", "png", "order-up-trading", "--bleed", "3mm", "--dpi", "60", project=tmp_project)
    assert ok.exit_code == 0, ok.output
    with Image.open(
        tmp_project.build_dir / "order-up-trading" / "png" / "recipes" / "OUT-REC-01.png"
    ) as image:
        assert image.size == (round((2.5 * 25.4 + 6) / 25.4 * 60), round((3.5 * 25.4 + 6) / 25.4 * 60))


def test_export_counts_its_files_in_words_that_agree(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    result = run_pnp("export", "csv", "demo", project=tmp_project)  # one deck: one file
    assert result.exit_code == 0, result.output
    assert "OK  demo: 1 file (" in result.output, result.output
    from generator.core.words import counted

    assert (counted(1, "check"), counted(0, "file"), counted(7, "card type")) == (
        "1 check",
        "0 files",
        "7 card types",
    )


def test_the_pod_help_and_an_overflow_name_what_is_true(tmp_project):
    from generator.data.project import PRESETS_DIR

    helped = run_pnp("export", "pod", "--help")
    assert "generator/assets/presets/*.yaml" in " ".join(helped.output.split())
    assert PRESETS_DIR.as_posix().endswith("generator/assets/presets") and any(PRESETS_DIR.glob("*.yaml"))
    # the overflow hint names the legibility floor the checks apply (6 pt), not another number
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    layout = tmp_project.cards_dir / "demo" / "layouts" / "actions.yaml"
    text = layout.read_text()
    assert "    size: 10pt\n    min_size: 7pt\n" in text
    layout.write_text(
        text.replace("    size: 10pt\n    min_size: 7pt\n", "    size: 40pt\n    min_size: 40pt\n")
    )
    result = run_pnp("validate", "demo", "--no-sim", project=tmp_project)
    assert "or a smaller min_size (not below 6 pt)" in result.output, result.output
