"""The studio's colour-vision view (issue 35) in a real browser: the select in the header shows every picture
as a player with protanopia, deuteranopia or tritanopia sees it, through SVG filters holding the matrices
`pnp validate` checks with; the choice is kept between pages. Colours are read back from screenshots."""

from __future__ import annotations

import io

from PIL import Image

from generator.core.colour_vision import DEFICIENCIES, simulate
from tests.studio.conftest import skip_without_browser

skip_without_browser()

TOPPING = '[data-face="toppings/pepperoni"] img'
RED = (0xD6, 0x28, 0x28)  # the topping band (cards/order-up-pizza/layouts/topping.yaml)


def _band_colour(page) -> tuple[int, int, int]:
    """The colour of the topping's band, as the page shows it (right of the title, above the crust)."""
    image = Image.open(io.BytesIO(page.locator(TOPPING).screenshot())).convert("RGB")
    return image.getpixel((int(image.width * 0.9), int(image.height * 0.1)))


def _near(found, wanted, tolerance: int = 5) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))


def test_the_colour_vision_select_shows_the_faces_as_each_deficiency_sees_them(studio, page):
    page.goto(studio.url + "g/order-up-pizza?deck=toppings")
    page.wait_for_function("s => { const i = document.querySelector(s); return i && i.complete && "
                           "i.naturalWidth > 0; }", arg=TOPPING)
    assert _near(_band_colour(page), RED)  # typical vision: the colour as printed
    matrices = page.locator("svg.vision-filters feColorMatrix").evaluate_all(
        "ms => ms.map(m => [m.parentElement.id, m.getAttribute('values')])")
    assert [name for name, _ in matrices] == [f"vision-{name}" for name in DEFICIENCIES]
    for (_, values), matrix in zip(matrices, DEFICIENCIES.values(), strict=True):
        numbers = [float(v) for v in values.split()]
        assert [numbers[row * 5:row * 5 + 3] for row in range(3)] == [list(row) for row in matrix]
    seen = {}
    for deficiency in DEFICIENCIES:
        page.select_option("#t-vision", deficiency)
        page.wait_for_function("d => document.body.dataset.vision === d", arg=deficiency)
        seen[deficiency] = _band_colour(page)
        # the browser applies the published matrix as `pnp validate` does (to linear RGB)
        assert _near(seen[deficiency], simulate(RED, deficiency)), (deficiency, seen[deficiency])
    assert len(set(seen.values())) == 3
    # kept between pages: the card's own page opens in the same view
    page.click('[data-face="toppings/pepperoni"]')
    page.wait_for_function("() => document.body.dataset.vision === 'tritanopia'")
    assert page.locator("#t-vision").input_value() == "tritanopia"
    page.select_option("#t-vision", "")
    page.wait_for_function("() => !('vision' in document.body.dataset)")
    page.go_back()
    page.wait_for_function("s => { const i = document.querySelector(s); return i && i.complete && "
                           "i.naturalWidth > 0; }", arg=TOPPING)
    assert page.locator("#t-vision").input_value() == ""
    assert _near(_band_colour(page), RED)
