"""Legibility of card text: WCAG contrast against what lies under the text, and a minimum size."""

from __future__ import annotations

import pytest

from generator.core.colours import contrast, contrast_ratio, luminance
from generator.core.units import mm
from generator.data.load import load_game
from generator.faces.face import renderer_for
from generator.faces.legibility import check_legibility, text_layout
from tests.cards.test_sheets import REAL_GAMES
from tests.conftest import run_pnp


def test_relative_luminance_and_contrast_ratio_follow_wcag():
    assert luminance("#000000") == 0 and luminance("#ffffff") == pytest.approx(1)
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert contrast_ratio("#ffffff", "#000000") == contrast_ratio("#000000", "#ffffff")
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the well-known near miss
    assert contrast_ratio("#ffffff", "#f28c28") == pytest.approx(2.45, abs=0.01)  # the orange
    assert contrast("#f28c28") == "#222222" and contrast("#1f5fbf") == "#ffffff"


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_the_bundled_games_are_legible(repo_project, game_id):
    game = load_game(repo_project, game_id)
    renderer = renderer_for(game)
    renderer.check()
    assert check_legibility(renderer) == []
    assert check_legibility(renderer, ink="saver") == []  # the ink saver keeps every text readable


def _scaffold(project, extra: str):
    assert run_pnp("new", "demo", project=project).exit_code == 0
    layout = project.cards_dir / "demo" / "layouts" / "actions.yaml"
    layout.write_text(layout.read_text() + extra)
    return layout


HELD_OUT = """\
  note_panel: {x: 4mm, y: 60mm, width: 55.5mm, height: 10mm, shape: rounded, fill: "#f28c28"}
  note:
    x: 6mm
    y: 62mm
    width: 50mm
    height: 5mm
    text: "Keep this card"
    size: 7pt
    color: "#ffffff"
"""


def test_a_low_contrast_layout_warns_and_fails_strict_with_a_located_line(tmp_project):
    layout = _scaffold(tmp_project, HELD_OUT)
    line = layout.read_text().splitlines().index("  note:") + 1
    plain = run_pnp("validate", "demo", "--no-sim", project=tmp_project)
    assert plain.exit_code == 0, plain.output
    expected = (
        f"cards/demo/layouts/actions.yaml:{line}: card DEM-ACT-01 (draw-two): box 'note': contrast 2.45:1 "
        "(#ffffff on #f28c28 of box 'note_panel') at 7 pt; expected at least 4.5:1"
    )
    assert f"warning: {expected}" in plain.output and "(and 3 more faces)" in plain.output
    strict = run_pnp("validate", "demo", "--no-sim", "--strict", project=tmp_project)
    assert strict.exit_code == 1 and expected in strict.output


def test_tiny_text_chip_backgrounds_and_text_over_pictures(tmp_project):
    _scaffold(tmp_project, """\
  tiny: {x: 6mm, y: 60mm, width: 50mm, height: 3mm, text: "small print", size: 5pt, min_size: 5pt}
  chips: {x: 6mm, y: 64mm, width: 50mm, height: 5mm, text: "{{ chip('#3aa655', 'GREEN') }}", size: 8pt}
  over: {x: 20mm, y: 30mm, width: 20mm, height: 5mm, text: "over the icon", size: 9pt, z: 5}
""")
    game = load_game(tmp_project, "demo")
    renderer = renderer_for(game)
    renderer.check()
    messages = [p.message for p in check_legibility(renderer)]
    assert any("box 'tiny': text at 5 pt; expected at least 6 pt" in m for m in messages)
    assert any("box 'over': text lies over the picture of box 'picture'" in m for m in messages)
    # a chip picks whichever of dark or white text reads better on its colour: dark on this green
    assert not any("box 'chips'" in m for m in messages)


def test_the_short_order_hero_back_title_keeps_clear_of_its_frame(repo_project):
    game = load_game(repo_project, "short-order-hero")
    renderer = renderer_for(game)
    renderer.check()
    for deck in game.decks.values():
        resolved = dict((box.name, (box, data)) for box, data in renderer.resolved(deck, None, back=True))
        box, data = resolved["title"]
        area, _ = text_layout(renderer, box, data, deck, None, back=True)
        frame, _ = resolved["frame"]
        x, _y, w, _h = renderer._placed_rect(frame, *renderer.size(deck))
        assert area.x - x >= mm(3) and (x + w) - area.x2 >= mm(3), (deck.id, area, x, w)
