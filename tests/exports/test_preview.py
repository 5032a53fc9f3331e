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
