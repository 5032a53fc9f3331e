"""`pnp preview`: one contact sheet per deck with every card type once."""

from __future__ import annotations

from PIL import Image

from generator.exports.preview import contact_sheet
from generator.pipeline.gather import gather
from tests.conftest import run_pnp


def test_preview_writes_a_sheet_per_deck(tmp_project):
    result = run_pnp("preview", "order-up-trading", project=tmp_project)
    assert result.exit_code == 0, result.output
    folder = tmp_project.build_dir / "order-up-trading" / "preview"
    assert sorted(p.name for p in folder.iterdir()) == ["ingredients.png", "recipes.png", "rules.png"]
    with Image.open(folder / "recipes.png") as image:
        assert image.mode == "RGB" and image.width > 700


def test_contact_sheet_shows_every_card_type_once(repo_project):
    games, _ = gather(repo_project, ["order-up-trading"])
    game = games[0]
    deck = game.decks["recipes"]
    sheet = contact_sheet(game, deck, card_width=100)
    # the grid holds every card type plus the back: count the card-sized cells that are not background
    cols = (sheet.width - 16) // 116
    cells = 0
    for index in range(cols * ((sheet.height - 58) // (140 + 22 + 16) + 1)):
        x = 16 + (index % cols) * 116 + 50
        y = 58 + (index // cols) * (140 + 22 + 16) + 70
        if y < sheet.height and sheet.getpixel((x, y)) != (236, 234, 228):
            cells += 1
    assert cells == len(deck.cards) + 1


def _ink_box(image: Image.Image, threshold: int = 128) -> tuple[int, int, int, int] | None:
    """The bounding box of the dark pixels (the text) of an image."""
    return image.convert("L").point(lambda v: 255 if v < threshold else 0).getbbox()


def _pdf_text_width(text: str, font_name: str, size: float) -> int:
    """The ink width of `text` as the PDFs set it (draw_string, with fallback faces), rendered at 72 dpi."""
    import io

    import pypdfium2 as pdfium
    from reportlab.pdfgen.canvas import Canvas

    from generator.core.fonts import draw_string

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(600, 60))
    canvas.setFont(font_name, size)
    draw_string(canvas, 10, 20, text, font_name, size)
    canvas.save()
    image = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=1).to_pil()
    box = _ink_box(image)
    return box[2] - box[0]


def test_the_header_draws_every_letter_with_the_pdfs_fallback(tmp_project):
    # Fredoka (the title font) has no Cyrillic: the header sets it in its fallback face, as the PDFs do
    game_yaml = tmp_project.cards_dir / "order-up-trading" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("title: Order Up", "title: Йож", 1))
    games, _ = gather(tmp_project, ["order-up-trading"])
    game = games[0]
    deck = game.decks["recipes"]
    deck.name = "Żółw Звёзды"
    sheet = contact_sheet(game, deck, card_width=100)
    header = sheet.crop((0, 0, sheet.width * 2 // 3, 50))  # the title, not the summary on the right
    box = _ink_box(header)
    expected = _pdf_text_width("Йож \u00b7 Żółw Звёзды", game.fonts["title"].name, 26)
    assert abs((box[2] - box[0]) - expected) <= 3, (box, expected)
    assert box[1] < 14 + 4  # the breve of the 'Й' reaches above the other letters


def test_a_header_letter_no_font_draws_is_a_located_problem(tmp_project):
    import pytest

    from generator.core.errors import InputError

    games, _ = gather(tmp_project, ["order-up-trading"])
    game = games[0]
    deck = game.decks["recipes"]
    deck.name = "Recipes \u4e80"
    with pytest.raises(InputError) as caught:
        contact_sheet(game, deck, card_width=60)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == (deck.file, deck.key_lines.get("name", deck.line))
    assert "'\u4e80' (U+4E80)" in problem.message and "preview's header" in problem.message
