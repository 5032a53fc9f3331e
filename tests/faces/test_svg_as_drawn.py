"""SVG icons and pictures print as drawn: opacity, fill-opacity, stroke-opacity and transparent fills are
honoured (game-icons.net's icons put a transparent square behind their path), each pixel compared with the
colour the SVG asks for over the card; what the SVG renderer cannot draw is a located warning."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pypdfium2
import pytest

from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for

GAME = "title: Icons\ncode: ICO\nplayers: {min: 2, max: 4}\ndecks: [things]\n"
DECK = "deck: things\nname: Things\ncode: THG\ncards:\n  - {id: alpha, name: Alpha, copies: 1}\n"
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
YELLOW = (255, 255, 0)
# game-icons.net's form: a 512 x 512 square with fill-opacity 0 behind the icon's path
GAME_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" '
             'style="height: 512px; width: 512px;"><path d="M0 0h512v512H0z" fill="#000" fill-opacity="0">'
             '</path><g class="" transform="translate(0,0)" style=""><path d="M128 128h256v256H128z" '
             'fill="#c00000" fill-opacity="1"></path></g></svg>')
# quarters of a 100 x 100 icon: opacity on a shape, on a group, stroke-opacity, a transparent fill stated
# opaque with fill-opacity (svglib alone lets the opacity replace the colour's alpha)
QUARTERS = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <rect x="0" y="0" width="50" height="50" fill="#0000ff" opacity="0.5"/>
  <g opacity="0.5"><g style="opacity: 0.5"><rect x="50" y="0" width="50" height="50" fill="#000000"/></g></g>
  <rect x="10" y="60" width="30" height="30" fill="none" stroke="#ff0000" stroke-width="20"
        stroke-opacity="0.5"/>
  <rect x="50" y="50" width="50" height="50" fill="transparent" fill-opacity="1"/>
</svg>
"""
FILTERED = """\
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <defs><filter id="blur"><feGaussianBlur stdDeviation="3"/></filter></defs>
  <rect width="100" height="100" fill="#00aa00" filter="url(#blur)"/>
</svg>
"""


def _game(root: Path, front: str, icons: dict[str, str]):
    folder = root / "cards" / "icons"
    files = {"game.yaml": GAME, "things.yaml": DECK, "layouts/things.yaml": front,
             "layouts/things-back.yaml": BACK, **{f"icons/{name}.svg": svg for name, svg in icons.items()}}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(Project(root), "icons")


def _pixels(game, path: Path, scale: float = 4.0):
    """The card face rendered at `scale` px per pt, and a reader of its pixel at a point of the trim (mm from
    the top-left corner)."""
    pdf = render_card_pdf(game, game.decks["things"].cards[0], path)
    document = pypdfium2.PdfDocument(str(pdf))
    image = document[0].render(scale=scale).to_pil().convert("RGB")
    bleed = renderer_for(game).bleed

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return image.getpixel((round((bleed + x_mm * 72 / 25.4) * scale),
                               round((bleed + y_mm * 72 / 25.4) * scale)))

    return at


def _close(found, wanted, tolerance: int = 3) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))


def _over(colour, alpha: float, under=YELLOW) -> tuple[int, int, int]:
    """The reference: `colour` at `alpha` over `under`, as the SVG specification composites it."""
    return tuple(round(c * alpha + u * (1 - alpha)) for c, u in zip(colour, under, strict=True))


FRONT = """\
boxes:
  ground: {shape: rect, fill: "#ffff00"}
  icon: {x: 10mm, y: 10mm, width: 40mm, height: 40mm, icon: %s}
"""


@pytest.mark.parametrize("again", [False, True])
def test_a_game_icons_net_icon_prints_its_path_and_not_its_transparent_square(tmp_path, again):
    game = _game(tmp_path, FRONT % "skull", {"skull": GAME_ICON})
    if again:  # the icon's operators as kept from the first drawing
        _pixels(game, tmp_path / "first.pdf")
    at = _pixels(game, tmp_path / "card.pdf")
    assert _close(at(12, 12), YELLOW), at(12, 12)  # the transparent square: the card shows through
    assert _close(at(48, 48), YELLOW)
    assert _close(at(30, 30), (0xC0, 0, 0)), at(30, 30)  # the path, as drawn
    assert _close(at(5, 5), YELLOW)


def test_opacity_of_shapes_and_groups_stroke_opacity_and_transparent_fills_are_honoured(tmp_path):
    game = _game(tmp_path, FRONT % "quarters", {"quarters": QUARTERS})
    at = _pixels(game, tmp_path / "card.pdf")
    # the icon is 40 mm for 100 units: a unit is 0.4 mm
    assert _close(at(10 + 0.4 * 25, 10 + 0.4 * 25), _over((0, 0, 255), 0.5))
    assert _close(at(10 + 0.4 * 75, 10 + 0.4 * 25), _over((0, 0, 0), 0.25))  # two groups at 0.5
    assert _close(at(10 + 0.4 * 25, 10 + 0.4 * 60), _over((255, 0, 0), 0.5))  # on the stroke
    assert _close(at(10 + 0.4 * 25, 10 + 0.4 * 75), YELLOW)  # inside the stroked square: no fill
    assert _close(at(10 + 0.4 * 75, 10 + 0.4 * 75), YELLOW)  # transparent, whatever its fill-opacity


def test_an_icon_with_a_filter_is_drawn_with_a_warning_naming_its_file_line_and_element(tmp_path):
    front = FRONT % "glow" + '  words: {x: 10mm, y: 55mm, width: 40mm, height: 10mm, text: "a :glow: b"}\n'
    game = _game(tmp_path, front, {"glow": FILTERED})
    renderer = renderer_for(game)
    renderer.check()
    found = [line for line in renderer.warnings if "<filter>" in line]
    assert len(found) == 2, renderer.warnings
    assert found[0].startswith("cards/icons/icons/glow.svg:2: icon 'glow' uses <filter>, a filter effect")
    assert "box 'icon' of cards/icons/layouts/things.yaml:3" in found[0]
    assert found[1].startswith("cards/icons/icons/glow.svg:2: inline icon 'glow' uses <filter>")
    assert "box 'words'" in found[1]
    at = _pixels(game, tmp_path / "card.pdf")
    assert _close(at(30, 30), (0, 0xAA, 0))  # drawn without its blur
