"""The studio in a real browser: the games, the deck grids, live updates on save, errors in place, filters."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from generator.data.load import load_game
from generator.faces.face import renderer_for
from tests.patience import PATIENCE_MS
from tests.studio.conftest import skip_without_browser, wait_until_idle, write_and_settle

skip_without_browser()

GAME = "order-up-trading"
FACE = '[data-face="recipes/burrito"]'


def _edit(path, old: str, new: str) -> str:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text


def _fetch(studio, page, src: str) -> bytes:
    response = page.request.get(studio.url + src.lstrip("/"))
    assert response.ok, src
    return response.body()


def _line_of(path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), start=1) if needle in line)


def test_the_index_lists_every_game(studio, page):
    page.goto(studio.url)
    games = page.locator("[data-game-card]")
    names = sorted(games.evaluate_all("cards => cards.map(c => c.dataset.gameCard)"))
    assert names == studio.project.game_ids() == [
        "crazy-eights", "go-fish", "order-up-pizza", "order-up-trading", "short-order-hero"]
    for name in names:  # each with its title, counts and drawn thumbnails
        card = page.locator(f'[data-game-card="{name}"]')
        assert load_game(studio.project, name).title in card.inner_text()
        assert card.locator(".badge.ok").count() == 1
        assert card.locator("img").count() >= min(2, len(load_game(studio.project, name).decks))
        assert card.locator("img").evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")


def test_a_deck_grid_shows_every_face_with_codes_and_copies(studio, page):
    game = load_game(studio.project, "order-up-pizza")
    page.goto(studio.url + "g/order-up-pizza")
    # the bundled decks each have one back, but for its version stamp (the grid shows it once, unstamped)
    backs = {deck.id: len(renderer_for(game).unstamped_backs(deck)) for deck in game.decks.values()}
    assert set(backs.values()) == {1}
    for deck in game.decks.values():
        tiles = page.locator(f'[data-deck-section="{deck.id}"] .face')
        assert tiles.count() == len(deck.cards) + 1                    # every card type, and the back
        assert page.locator(f'[data-deck-section="{deck.id}"] .face.back').count() == 1
        assert (
            f"shared by {deck.copies}"
            in page.locator(f'[data-deck-section="{deck.id}"] .face.back').inner_text()
        )
        first = deck.cards[0]
        tile = page.locator(f'[data-face="{deck.id}/{first.id}"]')
        assert first.code in tile.inner_text() and f"\u00d7 {first.copies}" in tile.inner_text()
    images = page.locator(".face img")
    assert images.count() == sum(len(d.cards) + 1 for d in game.decks.values())
    assert images.evaluate_all("imgs => imgs.every(i => i.complete && i.naturalWidth > 0)")
    # the image is trim + bleed at the grid resolution (poker 63.5 x 88.9 mm + 2 x 3 mm at 120 dpi)
    size = Image.open(io.BytesIO(_fetch(studio, page, images.first.get_attribute("src")))).size
    assert size == (328, 448)


def test_editing_a_card_name_changes_its_image_on_the_open_page(studio, page):
    recipes = studio.project.cards_dir / GAME / "recipes.yaml"
    page.goto(studio.url + f"g/{GAME}?deck=recipes")
    old_src = page.locator(f"{FACE} img").get_attribute("src")
    others = {key: src for key, src in page.locator(".face").evaluate_all(
        "tiles => tiles.map(t => [t.dataset.face, t.querySelector('img').getAttribute('src')])")}
    good = _edit(recipes, "name: Burrito", "name: Wrap Star")
    try:
        page.wait_for_function(  # the new image is in place (and loaded) after the save
            """([selector, old]) => { const img = document.querySelector(selector + ' img');
                 return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0; }""",
            arg=[FACE, old_src], timeout=PATIENCE_MS)
        assert "Wrap Star" in page.locator(FACE).inner_text()
        new_src = page.locator(f"{FACE} img").get_attribute("src")
        before = Image.open(io.BytesIO(_fetch(studio, page, old_src))).convert("RGB")
        after = Image.open(io.BytesIO(_fetch(studio, page, new_src))).convert("RGB")
        assert ImageChops.difference(before, after).getbbox() is not None  # the drawn card changed
        # the faces that print the name follow: the recipe, and its set's ingredients ("Burrito set")
        game = load_game(studio.project, GAME)
        printing = ["recipes/burrito"] + [f"ingredients/{card.id}" for card in game.decks["ingredients"].cards
                                          if card.recipe == "burrito"]
        page.wait_for_function(
            """([keys, before]) => keys.every(k => {
                 const img = document.querySelector(`[data-face="${k}"] img`);
                 return img && img.getAttribute('src') !== before[k] && img.complete; })""",
            arg=[printing, others], timeout=PATIENCE_MS)
        wait_until_idle(studio.url)
        page.reload()  # everything the studio re-drew for this save
        now = {key: src for key, src in page.locator(".face").evaluate_all(
            "tiles => tiles.map(t => [t.dataset.face, t.querySelector('img').getAttribute('src')])")}
        assert sorted(key for key in others if now[key] != others[key]) == sorted(printing)  # only those
        assert len(printing) == 8 and len(others) == 52
    finally:
        write_and_settle(studio.url, GAME, recipes, good)


def test_broken_yaml_shows_a_located_banner_and_the_fix_clears_it(studio, page):
    recipes = studio.project.cards_dir / GAME / "recipes.yaml"
    line = _line_of(recipes, "copies: 1")  # the burrito's copies
    page.goto(studio.url + f"g/{GAME}")
    assert page.locator("#banner").count() == 0
    images = page.locator(".face img").evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
    lines = recipes.read_text(encoding="utf-8").splitlines(keepends=True)
    good = "".join(lines)
    lines[line - 1] = lines[line - 1].replace("copies: 1", "copies: 1: 2")
    recipes.write_text("".join(lines), encoding="utf-8")
    try:
        banner = page.locator("#banner")
        banner.wait_for(state="visible", timeout=PATIENCE_MS)
        text = banner.inner_text()
        assert f"cards/{GAME}/recipes.yaml:{line}" in text and "broken YAML" in text
        link = banner.locator("a.where").first
        # opens the editor there
        assert link.get_attribute("href").endswith(f"cards/{GAME}/recipes.yaml:{line}")
        assert link.get_attribute("href").startswith("vscode://file/")
        # the last good images stay on the page
        assert (
            page.locator(".face img").evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))") == images
        )
    finally:
        write_and_settle(studio.url, GAME, recipes, good)
    page.locator("#banner").wait_for(state="detached", timeout=PATIENCE_MS)
    assert page.locator(".face img").count() == len(images)


def test_filters_by_deck_text_and_field_value(studio, page):
    game = load_game(studio.project, GAME)
    page.goto(studio.url + f"g/{GAME}")
    visible = "tiles => tiles.filter(t => !t.hidden).map(t => t.dataset.face)"
    page.select_option("#f-deck", "recipes")
    assert len(page.locator(".face").evaluate_all(visible)) == len(game.decks["recipes"].cards) + 1
    page.select_option("#f-deck", "")
    page.fill("#f-text", "tortilla")
    expected = [f"{deck.id}/{card.id}" for deck in game.decks.values() for card in deck.cards
                if "tortilla" in (card.name + str(card.fields)).lower()]
    assert page.locator(".face").evaluate_all(visible) == expected and len(expected) >= 2
    page.fill("#f-text", "")
    page.select_option("#f-field", "group")
    page.select_option("#f-value", "dairy")
    dairy = [f"ingredients/{card.id}" for card in game.decks["ingredients"].cards if card.group == "dairy"]
    assert page.locator(".face").evaluate_all(visible) == dairy and 2 <= len(dairy) < len(
        game.decks["ingredients"].cards
    )
    assert "field=group" in page.url and "value=dairy" in page.url  # a filtered view can be shared


def test_the_print_guides_show_bleed_trim_and_safe_zone(studio, page):
    page.goto(studio.url + f"g/{GAME}/card/recipes/burrito")
    art = page.locator(".large .art")
    trimmed = art.bounding_box()
    page.check("#t-guides")
    guided = art.bounding_box()
    # with guides the whole drawn face shows: trim + 3 mm bleed on each side (63.5 x 88.9 -> 69.5 x 94.9 mm)
    assert abs(guided["width"] / guided["height"] - 69.5 / 94.9) < 0.01
    assert abs(trimmed["width"] / trimmed["height"] - 63.5 / 88.9) < 0.01
    trim = art.evaluate("a => { const s = getComputedStyle(a, '::before'); return [s.width, s.left]; }")
    assert abs(float(trim[0].removesuffix("px")) / guided["width"] - 63.5 / 69.5) < 0.01
    assert abs(float(trim[1].removesuffix("px")) / guided["width"] - 3 / 69.5) < 0.01
    # the large view is the print resolution image: 300 dpi of trim + bleed
    image = _fetch(studio, page, page.locator(".large img").get_attribute("src"))
    assert Image.open(io.BytesIO(image)).size == (821, 1121)


def _darkness(data: bytes) -> float:
    """Mean ink of an image: 0 for white paper, 1 for solid black."""
    from PIL import ImageStat

    return 1 - ImageStat.Stat(Image.open(io.BytesIO(data)).convert("L")).mean[0] / 255


def test_the_ink_saver_toggle_shows_the_faces_as_the_ink_saver_prints_them(studio, page):
    page.goto(studio.url + f"g/{GAME}?deck=recipes")
    back = page.locator('[data-face="recipes/@back"] img')
    normal = back.get_attribute("src")
    page.check("#t-ink")
    page.wait_for_function(
        "img => img.getAttribute('src').includes('ink=saver') && img.complete && img.naturalWidth > 0",
        arg=back.element_handle(),
        timeout=PATIENCE_MS,
    )
    saver = back.get_attribute("src")
    assert _darkness(_fetch(studio, page, saver)) < 0.5 * _darkness(_fetch(studio, page, normal))
    assert page.locator(".face img").evaluate_all(
        "imgs => imgs.every(i => i.getAttribute('src').includes('ink=saver'))"
    )
    page.goto(studio.url + f"g/{GAME}/card/recipes/@back")  # the choice follows to the large view
    assert "ink=saver" in page.locator(".large img").get_attribute("src")
    page.uncheck("#t-ink")
    assert "ink=saver" not in page.locator(".large img").get_attribute("src")
