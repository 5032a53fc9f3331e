"""The layout keys designers use (issue 33): rotate, opacity, line/polygon/star/hexagon, dash, gradients,
text outline/halo/shadow and px lengths, each drawn (pixels read back from the rendered card) and each bad
value one located line, exit 1, no traceback."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pypdfium2
import pytest

from generator.core.errors import InputError
from generator.core.units import to_pt
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for
from tests.conftest import run_pnp

GAME = "title: Keys\ncode: KEY\nplayers: {min: 2, max: 4}\ndecks: [things]\n"
DECK = "deck: things\nname: Things\ncode: THG\ncards:\n  - {id: alpha, name: Alpha, copies: 1}\n"
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
WHITE = (255, 255, 255)


def _game(root: Path, boxes: str, head: str = ""):
    folder = root / "cards" / "keys"
    paper = 'boxes:\n  paper: {shape: rect, fill: "#ffffff"}\n'
    front = head + paper + textwrap.indent(textwrap.dedent(boxes), "  ")
    for name, text in {"game.yaml": GAME, "things.yaml": DECK, "layouts/things.yaml": front,
                       "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return load_game(Project(root), "keys")


def _card(game, path: Path, scale: float = 3.0):
    """A reader of the card's pixels at trim millimetres (from the top-left)."""
    renderer_for(game).check()
    pdf = render_card_pdf(game, game.decks["things"].cards[0], path)
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=scale).to_pil().convert("RGB")
    b = renderer_for(game).bleed

    def at(x_mm: float, y_mm: float):
        return image.getpixel((round((b + x_mm * 72 / 25.4) * scale), round((b + y_mm * 72 / 25.4) * scale)))

    at.image = image
    return at


def _close(found, wanted, tolerance: int = 8) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(found, wanted, strict=True))


def test_rotate_lays_a_text_out_in_the_turned_box(tmp_path):
    box = 'side: {x: 40mm, y: 10mm, width: 8mm, height: 60mm, text: "A sideways label", size: 12pt%s}\n'
    with pytest.raises(InputError) as caught:  # upright, 'sideways' is wider than 8 mm
        render_card_pdf(_game(tmp_path / "up", box % ""), _game(tmp_path / "up", box % "").decks["things"]
                        .cards[0], tmp_path / "up.pdf")
    assert "the word 'sideways'" in str(caught.value)
    at = _card(_game(tmp_path / "turned", box % ", rotate: 90"), tmp_path / "turned.pdf")
    # the millimetre rows holding ink (each row looked at in quarters: a thin letter falls between whole mm)
    inked = [y for y in range(10, 70)
             if any(at(x / 2, y + quarter / 4) != WHITE for x in range(80, 96) for quarter in range(4))]
    assert len(inked) > 25  # the line runs down the card


def test_opacity_shapes_dash_and_gradients_are_drawn(tmp_path):
    at = _card(_game(tmp_path, """\
        veil: {x: 5mm, y: 5mm, width: 20mm, height: 20mm, shape: rect, fill: "#0000ff", opacity: 0.5}
        star: {x: 30mm, y: 5mm, width: 25mm, height: 25mm, shape: star, fill: "#d62828"}
        hex: {x: 5mm, y: 30mm, width: 20mm, height: 17.3mm, shape: hexagon, fill: "#2e9e44"}
        tri: {x: 30mm, y: 32mm, width: 25mm, height: 20mm, shape: polygon, points: [[0.5, 0], [1, 1], [0, 1]],
              fill: "#3a86ff"}
        dashed: {x: 5mm, y: 55mm, width: 50mm, height: 0.5mm, shape: line, points: [[0, 0.5], [1, 0.5]],
                 stroke: "#000000", stroke_width: 1.5pt, dash: [4mm, 4mm]}
        fade: {x: 5mm, y: 60mm, width: 50mm, height: 10mm, shape: rect,
               gradient: {colors: ["#ff0000", "#0000ff"], angle: 0}}
        glow: {x: 5mm, y: 72mm, width: 20mm, height: 10mm, shape: ellipse,
               gradient: {kind: radial, colors: ["#ffffff", "#000000"]}}
        """), tmp_path / "card.pdf")
    assert _close(at(15, 15), (128, 128, 255))  # half transparent blue over white
    assert _close(at(42.5, 17.5), (0xD6, 0x28, 0x28)) and _close(at(31, 6), WHITE)  # star: middle, corner
    assert _close(at(15, 38.6), (0x2E, 0x9E, 0x44)) and _close(at(5.5, 31), WHITE)  # hexagon: cut corners
    assert _close(at(42.5, 48), (0x3A, 0x86, 0xFF)) and _close(at(31, 33), WHITE)  # triangle
    line = [at(5 + x / 4, 55.25) for x in range(0, 200)]
    assert sum(1 for p in line if p[0] < 100) > 40 and sum(1 for p in line if p == WHITE) > 40  # dashes, gaps
    left, right = at(6, 65), at(54, 65)
    assert left[0] > 200 > left[2] and right[2] > 200 > right[0]  # red to blue
    assert sum(at(15, 77)) > sum(at(6, 77)) + 200  # white in the middle of the radial gradient


def test_text_halo_outline_and_shadow_are_drawn_around_the_letters(tmp_path):
    at = _card(_game(tmp_path, """\
        halo: {x: 5mm, y: 5mm, width: 50mm, height: 15mm, text: "HALO", font: title, size: 28pt,
               color: "#ffffff", halo: {color: "#ff0000", width: 2pt}}
        shade: {x: 5mm, y: 25mm, width: 50mm, height: 15mm, text: "SHADE", font: title, size: 28pt,
                color: "#000000", shadow: {color: "#00ff00", dx: 2pt, dy: 2pt}}
        ring: {x: 5mm, y: 45mm, width: 50mm, height: 15mm, text: "RING", font: title, size: 28pt,
               min_size: 20pt, color: "#ffffff", outline: {color: "#0000ff", width: 1pt}}
        """), tmp_path / "card.pdf")
    data = at.image.tobytes()
    pixels = [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]
    assert sum(1 for p in pixels if _close(p, (255, 0, 0), 30)) > 200
    assert sum(1 for p in pixels if _close(p, (0, 255, 0), 30)) > 100
    assert sum(1 for p in pixels if _close(p, (0, 0, 255), 30)) > 100


def test_px_lengths_at_the_files_dpi_and_positions_from_the_bleed(tmp_path):
    box = 'box: {x: 150px, y: 150px, width: 300px, height: 300px, shape: rect, fill: "#000000"}\n'
    game = _game(tmp_path, box, head="dpi: 300\norigin: bleed\n")
    renderer = renderer_for(game)
    renderer.check()
    deck = game.decks["things"]
    [box] = [box for box, _data in renderer.resolved(deck, deck.cards[0]) if box.name == "box"]
    assert box.x == pytest.approx(36 - renderer.bleed, abs=0.01) and box.w == pytest.approx(72, abs=0.01)


BAD = [
    ("a: {shape: rect, fill: \"#000000\", rotate: 1e9}", "rotate"),
    ("a: {shape: rect, fill: \"#000000\", opacity: .nan}", "opacity"),
    ("a: {shape: polygon, fill: \"#000000\", points: [[0, 0]]}", "points"),
    ("a: {shape: polygon, fill: \"#000000\", points: [" + ", ".join(["[0, 0]"] * 1001) + "]}", "points"),
    ("a: {shape: polygon, fill: \"#000000\", points: [[0.5, 0], [1, 1]]}", "a polygon with 2 points"),
    ("a: {shape: rect, gradient: {colors: []}}", "gradient"),
    ("a: {shape: rect, gradient: {colors: [\"#ff0000\"]}}", "gradient"),
    ("a: {shape: rect, stroke: \"#000000\", dash: 0}", "is not above 0"),
    ("a: {shape: rect, stroke: \"#000000\", dash: [2pt, 0pt]}", "is not above 0"),
    ("a: {text: Hi, size: 9pt, min_size: 7pt, outline: {color: \"#000000\", width: 3pt}}",
     "fills the letters"),
    ("a: {shape: rect, fill: \"#000000\", x: 10px}", "has no `dpi:`"),
]


@pytest.mark.parametrize("box, words", BAD)
def test_each_bad_layout_value_is_one_located_line_and_exit_1(tmp_path, box, words):
    folder = tmp_path / "cards" / "keys"
    front = 'boxes:\n  ' + box + "\n"
    for name, text in {"game.yaml": GAME, "things.yaml": DECK, "layouts/things.yaml": front,
                       "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    result = run_pnp("build", "keys", project=tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines()
             if line.startswith("cards/keys/layouts/things.yaml:2")]
    assert len(lines) == 1 and words in lines[0], result.output


def test_every_new_key_is_in_the_layout_schema():
    from generator.faces.layout import BoxSpec, LayoutFile

    schema = LayoutFile.model_json_schema()
    box = schema["$defs"]["BoxSpec"]["properties"]
    for key in ("rotate", "opacity", "points", "star_points", "star_inner", "dash", "gradient", "outline",
                "halo", "shadow", "safe", "placeholder"):
        assert key in box and key in BoxSpec.model_fields
    assert {"dpi", "origin"} <= set(schema["properties"])
    assert to_pt("1in") == 72
