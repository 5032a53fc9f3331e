"""Card layouts, text and faces: layout loading with extends, located errors, rich text and one-card PDFs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.core.units import mm
from generator.data.load import load_game
from generator.data.project import BUILTIN_ICONS, Project
from generator.faces.face import render_card_pdf, renderer_for
from generator.faces.text import rich_markup

GAME = """\
title: Demo
code: DEM
players: {min: 2, max: 4}
decks: [things]
"""
DECK = """\
deck: things
name: Things
code: THG
fields:
  text: {type: text}
cards:
  - {id: alpha, name: Alpha, copies: 5, icon: pepperoni, text: "Some **bold** with :mushrooms: inside"}
  - {id: beta, name: Beta & Co, copies: 4, icon: mushrooms, text: "Line one\\nLine two"}
"""
BASE = """\
boxes:
  background: {shape: rect, fill: "#fff4d6"}
  code: {z: 5, x: 4mm, y: 80mm, width: 30mm, height: 4mm, text: "{{ card.code }}", size: 7pt}
"""
FRONT = """\
extends: base
boxes:
  band: {height: 14mm, shape: band, fill: "#c0392b"}
  title: {x: 5mm, y: 4mm, width: 53.5mm, height: 9mm, text: "{{ card.name }}", font: title, size: 16pt}
  picture: {x: 16mm, y: 18mm, width: 31.5mm, height: 31.5mm, icon: "{{ card.icon }}"}
  body: {x: 5mm, y: 52mm, width: 53.5mm, height: 26mm, text: "{{ card.text }}", size: 10pt}
"""
BACK = """\
boxes:
  background: {shape: rect, fill: "#c0392b"}
  name: {x: 5mm, y: 35mm, width: 53.5mm, height: 20mm, text: "{{ game.title }}", font: title, size: 24pt}
"""


def make_game(root: Path, deck: str = DECK, front: str = FRONT, extra: dict[str, str] | None = None):
    """A small synthetic game in `root` (cards/demo with layouts base, things, things-back)."""
    files = {"game.yaml": GAME, "things.yaml": deck, "layouts/base.yaml": BASE, "layouts/things.yaml": front,
             "layouts/things-back.yaml": BACK, **(extra or {})}
    for name, text in files.items():
        path = root / "cards" / "demo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(Project(root), "demo")


def problems_of(game) -> list[str]:
    with pytest.raises(InputError) as info:
        renderer_for(game).check()
    return [str(p) for p in info.value.problems]


def test_extends_merges_boxes_and_z_orders_them(tmp_path):
    child = "extends: things\nboxes:\n  code: {y: 78mm}\n  band: ~\n"
    game = make_game(tmp_path, deck=DECK.replace("icon: mushrooms,", "icon: mushrooms, layout: child,"),
                     extra={"layouts/child.yaml": child})
    layout = renderer_for(game).front_layout(game.decks["things"].cards[1])
    names = [b.name for b in layout.boxes]
    assert names == ["background", "title", "picture", "body", "code"]  # band removed, code (z 5) last
    code = next(b for b in layout.boxes if b.name == "code")
    assert code.y == pytest.approx(mm(78)) and code.x == pytest.approx(mm(4))  # child changed y, kept x
    assert code.file.endswith("layouts/child.yaml")


def test_unknown_layout_key_is_reported_with_file_and_line(tmp_path):
    game = make_game(tmp_path, front=FRONT + "  extra: {x: 5mm, y: 5mm, width: 5mm, height: 5mm, txet: hi}\n")
    [message] = problems_of(game)
    assert message.startswith("cards/demo/layouts/things.yaml:7: unknown key 'txet'")
    assert "did you mean 'text'" in message


def test_missing_layout_file_names_the_card_line_and_the_expected_file(tmp_path):
    deck = DECK.replace("icon: mushrooms,", "icon: mushrooms, layout: fancy,")
    game = make_game(tmp_path, deck=deck)
    [message] = problems_of(game)
    assert message.startswith("cards/demo/things.yaml:8: layout 'fancy' not found")
    assert "cards/demo/layouts/fancy.yaml" in message


def test_text_outside_the_safe_zone_is_located(tmp_path):
    game = make_game(tmp_path, front=FRONT.replace("body: {x: 5mm", "body: {x: 1mm"))
    [message] = problems_of(game)
    assert message.startswith("cards/demo/layouts/things.yaml:6: text box 'body'")
    assert "leaves the safe zone" in message


def test_text_that_cannot_shrink_enough_names_card_box_and_layout(tmp_path):
    long_text = "word " * 300
    game = make_game(tmp_path, deck=DECK.replace("Line one\\nLine two", long_text))
    with pytest.raises(InputError) as info:
        render_card_pdf(game, game.decks["things"].cards[1], tmp_path / "beta.pdf")
    message = str(info.value)
    assert "cards/demo/layouts/things.yaml:6" in message
    assert "card DEM-THG-02 (beta)" in message and "box 'body'" in message and "does not fit" in message


def test_text_shrinks_before_it_fails(tmp_path):
    medium = "A fairly long sentence that needs a smaller size to fit. " * 5
    game = make_game(tmp_path, deck=DECK.replace("Line one\\nLine two", medium))
    path = render_card_pdf(game, game.decks["things"].cards[1], tmp_path / "beta.pdf")
    text = pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range()
    assert "A fairly long sentence" in text


def test_missing_image_and_image_outside_the_game_fail_clearly(tmp_path):
    front = FRONT + "  art: {x: 0, y: 14mm, height: 30mm, image: \"{{ 'art/' + card.id + '.png' }}\"}\n"
    game = make_game(tmp_path, front=front)
    messages = problems_of(game)
    assert any("card DEM-THG-01 (alpha): box 'art': image 'art/alpha.png' not found" in m for m in messages)
    game = make_game(tmp_path, front=FRONT + "  art: {image: ../../secret.png}\n")
    messages = problems_of(game)
    assert any("image '../../secret.png' is outside the game folder" in m for m in messages)


def test_unknown_icon_and_template_errors_are_located(tmp_path):
    game = make_game(tmp_path, front=FRONT.replace('"{{ card.icon }}"', '"{{ card.icon }}-x"')
                     .replace("{{ card.text }}", "{{ card.nope }}"))
    messages = problems_of(game)
    assert any("box 'picture': icon 'pepperoni-x' does not exist" in m for m in messages)
    assert any("box 'body': template error" in m and "nope" in m for m in messages)


def test_templates_are_sandboxed(tmp_path):
    game = make_game(tmp_path, front=FRONT.replace("{{ card.text }}", "{{ card.__class__.__mro__ }}"))
    assert any("box 'body'" in m for m in problems_of(game))


def test_each_template_is_compiled_once(tmp_path):
    game = make_game(tmp_path)
    renderer = renderer_for(game)
    renderer.check()
    renderer.check()
    sources = {
        b.spec[k]
        for layout in renderer._layouts.values()
        for b in layout.boxes
        for k in ("text", "icon", "fill", "color")
        if isinstance(b.spec.get(k), str) and "{{" in b.spec[k]
    }
    assert set(renderer.templates._cache) == sources


def test_rich_text_shorthand():
    markup = rich_markup(
        "**Bold** and *it* :olive: :nope:\nnext", lambda n: "<ICON/>" if n == "olive" else None
    )
    assert markup == "<b>Bold</b> and <i>it</i> <ICON/> :nope:<br/>next"
    assert rich_markup("2 * 3 * 4", lambda _name: None) == "2 * 3 * 4"


def test_data_is_escaped_so_ampersands_print(tmp_path):
    game = make_game(tmp_path)
    path = render_card_pdf(game, game.decks["things"].cards[1], tmp_path / "beta.pdf")
    assert "Beta & Co" in pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range()


def test_render_card_pdf_has_trim_and_bleed_boxes(tmp_path):
    game = make_game(tmp_path)
    w, h, bleed = *game.decks["things"].size_pt, game.bleed_pt
    assert (w, h, bleed) == pytest.approx((mm(63.5), mm(88.9), mm(3)))
    front = render_card_pdf(game, game.decks["things"].cards[0], tmp_path / "a.pdf")
    back = render_card_pdf(game, game.decks["things"], tmp_path / "b.pdf", side="back")
    for path in (front, back):
        page = PdfReader(path).pages[0]
        assert "/TrimBox" in page and "/BleedBox" in page
        assert [float(v) for v in page.mediabox] == pytest.approx(
            [0, 0, w + 2 * bleed, h + 2 * bleed], abs=0.01
        )
        assert [float(v) for v in page["/TrimBox"]] == pytest.approx(
            [bleed, bleed, bleed + w, bleed + h], abs=0.01
        )
    text = pypdfium2.PdfDocument(str(front))[0].get_textpage().get_text_range()
    assert "DEM-THG-01" in text and "Alpha" in text
    no_bleed = render_card_pdf(game, game.decks["things"].cards[0], tmp_path / "c.pdf", bleed_pt=0)
    assert [float(v) for v in PdfReader(no_bleed).pages[0].mediabox] == pytest.approx([0, 0, w, h], abs=0.01)


def _wide_png(path: Path, width: int) -> None:
    """A 2:1 picture, left half red and right half blue."""
    from PIL import Image

    image = Image.new("RGB", (width, width // 2), (255, 0, 0))
    image.paste((0, 0, 255), (width // 2, 0, width, width // 2))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


NO_ICON = "".join(line for line in FRONT.splitlines(keepends=True) if "picture:" not in line)
ART = "  art: {x: 16mm, y: 18mm, width: 30mm, height: 30mm, image: art/wide.png, fit: FIT}\n"


def _art_pixels(tmp_path: Path, fit: str, width: int = 800) -> dict[str, tuple[int, int, int]]:
    """Colours at the middle of the art box's left, right, top and bottom edges (just inside) and its
    centre."""
    game = make_game(tmp_path, front=NO_ICON + ART.replace("FIT", fit))
    _wide_png(tmp_path / "cards" / "demo" / "art" / "wide.png", width)
    pdf = render_card_pdf(game, game.decks["things"].cards[0], tmp_path / f"{fit}.pdf")
    scale = 4
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=scale).to_pil().convert("RGB")
    bleed = mm(3)

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:  # trim coordinates, top-left origin
        return image.getpixel((round((bleed + mm(x_mm)) * scale), round((bleed + mm(y_mm)) * scale)))

    return {
        "left": at(17, 33),
        "right": at(45, 33),
        "top": at(24, 19),
        "bottom": at(24, 47),
        "centre": at(24, 33),
    }


def test_image_boxes_show_the_whole_picture_or_fill_the_box_cropped(tmp_path):
    contain = _art_pixels(tmp_path / "contain", "contain")
    assert contain["left"] == (255, 0, 0) and contain["right"] == (0, 0, 255)
    assert contain["top"] == contain["bottom"] == (255, 244, 214)  # the card's background above and below it
    cover = _art_pixels(tmp_path / "cover", "cover")
    # cropped to the box
    assert cover["left"] == cover["top"] == cover["bottom"] == cover["centre"] == (255, 0, 0)
    assert cover["right"] == (0, 0, 255)


def test_low_resolution_images_warn_and_svg_images_draw(tmp_path):
    front = NO_ICON + ART.replace("FIT", "contain")
    game = make_game(tmp_path, front=front)
    _wide_png(tmp_path / "cards" / "demo" / "art" / "wide.png", 200)  # 200 px over 30 mm: 169 dpi
    renderer = renderer_for(game)
    renderer.check()
    line = len(front.splitlines())
    assert renderer.warnings == [
        f"cards/demo/layouts/things.yaml:{line}: card DEM-THG-01 (alpha): box 'art': image 'art/wide.png' "
        "(200 x 100 px) prints at 169 dpi in its 30.0 x 30.0 mm box; expected at least 300 dpi for a sharp "
        "print",
        f"cards/demo/layouts/things.yaml:{line}: card DEM-THG-02 (beta): box 'art': image 'art/wide.png' "
        "(200 x 100 px) prints at 169 dpi in its 30.0 x 30.0 mm box; expected at least 300 dpi for a sharp "
        "print",
    ]
    sharp = make_game(tmp_path / "sharp", front=front)
    _wide_png(tmp_path / "sharp" / "cards" / "demo" / "art" / "wide.png", 400)  # 339 dpi
    renderer = renderer_for(sharp)
    renderer.check()
    assert renderer.warnings == []
    svg = (BUILTIN_ICONS / "pepperoni.svg").read_text(encoding="utf-8")
    vector = make_game(
        tmp_path / "svg", front=front.replace("wide.png", "pie.svg"), extra={"art/pie.svg": svg}
    )
    renderer = renderer_for(vector)
    renderer.check()
    assert renderer.warnings == []
    pdf = render_card_pdf(vector, vector.decks["things"].cards[0], tmp_path / "svg.pdf")
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=2).to_pil().convert("L")
    art = image.crop(tuple(round((mm(3) + mm(v)) * 2) for v in (16, 18, 46, 48)))
    assert art.getextrema()[0] < 128  # the vector picture is drawn into its box
    not_a_picture = make_game(
        tmp_path / "txt", front=front.replace("wide.png", "notes.txt"), extra={"art/notes.txt": "x"}
    )
    assert any("image 'art/notes.txt' is not a picture; expected a .png, .jpg or .svg file" in m
               for m in problems_of(not_a_picture))


def test_build_prints_image_warnings_and_lists_them_in_the_manifest(tmp_path):
    import json

    from tests.conftest import run_pnp

    make_game(tmp_path, front=FRONT + ART.replace("FIT", "cover"))
    _wide_png(tmp_path / "cards" / "demo" / "art" / "wide.png", 200)  # cover: 100 px over 30 mm, 85 dpi
    result = run_pnp("build", "demo", "--paper", "letter", project=tmp_path)
    assert result.exit_code == 0, result.output
    assert "warning: cards/demo/layouts/things.yaml:" in result.output
    # two cards
    assert result.output.count("box 'art': image 'art/wide.png' (200 x 100 px) prints at 85 dpi") == 2
    manifest = json.loads((tmp_path / "build" / "manifest.json").read_text(encoding="utf-8"))
    [cards] = [o for o in manifest["outputs"] if o["path"] == "demo/cards-letter.pdf"]
    assert len(cards["warnings"]) == 2 and all("prints at 85 dpi" in w for w in cards["warnings"])


def _text_lines(path) -> list[tuple[float, str]]:
    """(baseline y, text) of each line drawn on the card's page, top first."""
    page = pypdfium2.PdfDocument(str(path))[0]
    textpage = page.get_textpage()
    found: dict[float, str] = {}
    for index in range(textpage.count_chars()):
        char = textpage.get_text_range(index, 1)
        if char.strip():
            y = round(textpage.get_charbox(index)[1], 0)
            found[y] = found.get(y, "") + char
    return sorted(found.items(), reverse=True)


def test_a_box_with_wrap_false_shrinks_each_line_onto_one_line(tmp_path):
    listed = "Brot\\nSchwein\\nFleisch nach Wahl und noch mehr"  # the last line wraps at 10 pt in 53.5 mm
    front = FRONT.replace('size: 10pt}', 'size: 14pt, min_size: 6pt}')
    wrapping = make_game(tmp_path / "a", deck=DECK.replace("Line one\\nLine two", listed), front=front)
    path = render_card_pdf(wrapping, wrapping.decks["things"].cards[1], tmp_path / "wraps.pdf")
    assert "Fleisch nach Wahl und noch mehr" not in [text for _, text in _text_lines(path)]  # broken in two
    one_line = front.replace('min_size: 6pt}', 'min_size: 6pt, wrap: false}')
    kept = make_game(tmp_path / "b", deck=DECK.replace("Line one\\nLine two", listed), front=one_line)
    path = render_card_pdf(kept, kept.decks["things"].cards[1], tmp_path / "kept.pdf")
    lines = [text for _, text in _text_lines(path)]
    assert "Fleisch nach Wahl und noch mehr".replace(" ", "") in [t.replace(" ", "") for t in lines]
    too_long = listed + " " + "und noch viel mehr " * 6
    failing = make_game(tmp_path / "c", deck=DECK.replace("Line one\\nLine two", too_long), front=one_line)
    with pytest.raises(InputError) as info:
        render_card_pdf(failing, failing.decks["things"].cards[1], tmp_path / "fails.pdf")
    message = str(info.value)
    assert (
        "box 'body': text does not fit even at 6 pt (the line 'Fleisch nach Wahl und noch mehr und" in message
    )
    assert "still wraps at 6 pt (the box has wrap: false)" in message
