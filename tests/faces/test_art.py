"""Art by convention (issue 33): `image: auto` finds images/<deck>/<id>.png|jpg|svg (or the game's `art:`
pattern), missing art is a located warning and a placeholder (`placeholder: none`: nothing) and fails `pnp
validate --strict`; `bleed: mirror | extend` makes the bleed from art drawn only to the trim."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for
from tests.conftest import run_pnp

GAME = "title: Art\ncode: ART\nplayers: {min: 2, max: 4}\ndecks: [things]\n"
DECK = """\
deck: things
name: Things
code: THG
cards:
  - {id: alpha, name: Alpha, copies: 1}
  - {id: beta, name: Beta, copies: 1}
  - {id: gamma, name: Gamma, copies: 1}
  - {id: delta, name: Delta, copies: 1}
"""
FRONT = """\
boxes:
  paper: {shape: rect, fill: "#ffffff"}
  art: {x: 5mm, y: 5mm, width: 53mm, height: 40mm, image: auto%s}
"""
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
RED, BLUE = (214, 40, 40), (58, 134, 255)


def _game(root: Path, front: str = FRONT % "", game: str = GAME, art: tuple[str, ...] = ("alpha", "gamma")):
    folder = root / "cards" / "art"
    for name, text in {"game.yaml": game, "things.yaml": DECK, "layouts/things.yaml": front,
                       "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    (folder / "images" / "things").mkdir(parents=True)
    for card in art:
        Image.new("RGB", (800, 800), RED).save(folder / "images" / "things" / f"{card}.png")
    return folder


def _pixel(game, card: int, x_mm: float, y_mm: float, path: Path):
    pdf = render_card_pdf(game, game.decks["things"].cards[card], path)
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=3).to_pil().convert("RGB")
    b = renderer_for(game).bleed
    return image.getpixel((round((b + x_mm * 72 / 25.4) * 3), round((b + y_mm * 72 / 25.4) * 3)))


def _close(found, wanted, tolerance=6):
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))


def test_a_deck_with_art_for_half_its_cards_builds_with_placeholders_and_warnings(tmp_path):
    _game(tmp_path)
    game = load_game(Project(tmp_path), "art")
    renderer = renderer_for(game)
    renderer.check()
    missing = [line for line in renderer.warnings if "not found, so a placeholder is printed" in line]
    assert [line.split(": box")[0] for line in missing] == [
        "cards/art/layouts/things.yaml:3: card ART-THG-02 (beta)",
        "cards/art/layouts/things.yaml:3: card ART-THG-04 (delta)"]
    assert "image 'images/things/beta' (.png, .jpg or .svg) not found" in missing[0]
    assert _close(_pixel(game, 0, 30, 25, tmp_path / "a.pdf"), RED)  # the art found by convention
    grey = _pixel(game, 1, 10, 40, tmp_path / "b.pdf")  # the placeholder's grey field
    assert _close(grey, (0xD9, 0xD9, 0xD9)), grey
    text = pypdfium2.PdfDocument(str(tmp_path / "b.pdf"))[0].get_textpage().get_text_range()
    assert "Beta" in text  # the card's name on it
    build = run_pnp("build", "art", "--force", project=tmp_path)
    assert build.exit_code == 0, build.output
    lax = run_pnp("validate", "art", "--no-sim", project=tmp_path)
    assert lax.exit_code == 0, lax.output
    strict = run_pnp("validate", "art", "--no-sim", "--strict", project=tmp_path)
    assert strict.exit_code == 1 and "card ART-THG-02 (beta)" in strict.output, strict.output


def test_placeholder_none_leaves_missing_art_empty(tmp_path):
    _game(tmp_path, FRONT % ", placeholder: none")
    game = load_game(Project(tmp_path), "art")
    renderer_for(game).check()
    assert _close(_pixel(game, 1, 10, 40, tmp_path / "b.pdf"), (255, 255, 255))


def test_the_art_pattern_of_the_game_is_used_and_may_not_leave_the_project(tmp_path):
    folder = _game(tmp_path / "own", game=GAME + "art: pictures/{code}\n", art=())
    (folder / "pictures").mkdir()
    Image.new("RGB", (800, 800), BLUE).save(folder / "pictures" / "ART-THG-03.jpg")
    game = load_game(Project(tmp_path / "own"), "art")
    renderer_for(game).check()
    assert _close(_pixel(game, 2, 30, 25, tmp_path / "c.pdf"), BLUE)
    _game(tmp_path / "out", game=GAME + "art: ../../../outside/{id}.png\n")
    result = run_pnp("build", "art", project=tmp_path / "out")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "outside" in result.output and "card ART-THG-01 (alpha)" in result.output, result.output


@pytest.mark.parametrize("mode", ["mirror", "extend"])
def test_bleed_mirror_and_extend_make_the_bleed_from_art_drawn_to_the_trim(tmp_path, mode):
    front = f"boxes:\n  art: {{image: images/half.png, fit: cover, bleed: {mode}}}\n"
    folder = _game(tmp_path, front, art=())
    half = Image.new("RGB", (630, 880), BLUE)  # red on its left tenth: the left bleed shows red
    half.paste(Image.new("RGB", (63, 880), RED), (0, 0))
    half.save(folder / "images" / "half.png")
    game = load_game(Project(tmp_path), "art")
    renderer_for(game).check()
    assert _close(_pixel(game, 0, -1.5, 40, tmp_path / "m.pdf"), RED)  # in the bleed: the art's red edge
    assert _close(_pixel(game, 0, 30, -1.5, tmp_path / "m.pdf"), BLUE)  # the top bleed: its blue edge


@pytest.mark.parametrize("front, message", [
    ('boxes:\n  s: {shape: rect, fill: "#ffffff", bleed: mirror}\n', "which only image boxes have"),
    ("boxes:\n  art: {image: auto, bleed: extend}\n", "expected fit: cover with it"),
])
def test_art_bleed_where_it_cannot_be_made_is_located(tmp_path, front, message):
    _game(tmp_path, front)
    with pytest.raises(InputError) as caught:
        renderer_for(load_game(Project(tmp_path), "art")).check()
    [found] = [str(p) for p in caught.value.problems]
    assert found.startswith("cards/art/layouts/things.yaml:2: box ") and message in found, found


def test_full_bleed_art_and_its_placement_hold_on_the_png_exports(tmp_path):
    from generator.exports.png import Face, face_images

    front = "boxes:\n  art: {image: images/half.png, fit: cover, bleed: mirror}\n"
    folder = _game(tmp_path, front, art=())
    half = Image.new("RGB", (630, 880), BLUE)
    half.paste(Image.new("RGB", (63, 880), RED), (0, 0))
    half.save(folder / "images" / "half.png")
    game = load_game(Project(tmp_path), "art")
    renderer_for(game).check()
    deck = game.decks["things"]
    tw, th = deck.size_pt
    b = game.bleed_pt
    [bled, trimmed] = face_images(game, deck, [Face(deck.cards[0], tw + 2 * b, th + 2 * b),
                                               Face(deck.cards[0], tw, th, trimmed=True)], dpi=100)
    px = 100 / 72
    assert _close(bled.getpixel((round(b * px / 2), bled.height // 2)), RED)  # the mirrored edge in the bleed
    assert _close(bled.getpixel((bled.width - 2, bled.height // 2)), BLUE)
    assert _close(trimmed.getpixel((1, trimmed.height // 2)), RED)  # the art starts at the trim
    assert _close(trimmed.getpixel((round(tw * px * 0.2), trimmed.height // 2)), BLUE)
