"""Round and hexagonal decks (`size: {shape: ...}`) on card sheets: packed like tokens, each face clipped to
its outline, the outlines cut, the backs mirrored, and text kept inside the outline."""

from __future__ import annotations

import math
import textwrap

import pytest
from pypdf import PdfReader

from generator.cards.sheets import outputs
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.units import INCH, mm
from generator.data.load import load_game
from generator.data.project import Project
from tests.components.pdf_lines import cuts_and_folds, loose_ends
from tests.components.test_sheets import _forms

FILES = {
    "game.yaml": "title: Tiles\ncode: TIL\nplayers: {min: 2, max: 4}\ndecks: [land, coins]\n",
    "land.yaml": """\
        deck: land
        name: Land tiles
        code: LND
        size: {shape: hex, across: 2in}
        layout: land
        back: plain-back
        cards:
          - {id: forest, name: Forest, copies: 10}
          - {id: lake, name: Lake, copies: 8}
        """,
    "coins.yaml": """\
        deck: coins
        name: Coins
        code: CNS
        size: {shape: circle, diameter: 30mm}
        layout: land
        back: plain-back
        cards:
          - {id: gold, name: Gold, copies: 30}
        """,
    "layouts/land.yaml": """\
        boxes:
          background: {shape: rect, fill: "#2e7d32"}
          name: {x: 25%, y: 40%, width: 50%, height: 20%, text: "{{ card.name }}",
                 align: center, valign: middle}
        """,
    "layouts/plain-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#8d6e63\"}\n",
}


def _project(tmp_path, changes=None) -> Project:
    for name, text in {**FILES, **(changes or {})}.items():
        path = tmp_path / "cards" / "tiles" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Project(tmp_path)


def test_hex_and_round_decks_are_packed_cut_and_backed(tmp_path):
    game = load_game(_project(tmp_path), "tiles")
    assert game.decks["land"].shape.kind == "hex"
    assert game.decks["land"].size_mm == (pytest.approx(2 * 50.8 / math.sqrt(3)), pytest.approx(50.8))
    output = next(
        o for o in outputs(game, BuildOptions(papers=("letter",))) if o.path.name == "cards-letter.pdf"
    )
    path = tmp_path / "cards.pdf"
    facts = output.render(path)
    assert facts["decks"]["land"] == {"fronts": 1, "backs": 1}
    texts = [page.extract_text() for page in PdfReader(str(path)).pages]
    land = next(i for i, t in enumerate(texts) if "Land tiles" in t and "fronts" in t)
    fronts, backs = _forms(path, land), _forms(path, land + 1)
    assert len(fronts) == len(backs) == 18
    width = 612.0
    assert sorted((round(width - x, 1), round(y, 1)) for x, y in fronts) == sorted(
        (round(x, 1), round(y, 1)) for x, y in backs
    )
    cuts, folds = cuts_and_folds(path, land, into_forms=True)
    side = 2 * INCH / math.sqrt(3)
    assert len(cuts) > 18 * 2 and all(math.dist(a, b) == pytest.approx(side, abs=0.05) for a, b, _ in cuts)
    assert len(cuts) < 18 * 6  # shared edges, one line each
    assert loose_ends(cuts, folds) == []
    coins = next(i for i, t in enumerate(texts) if "Coins" in t and "fronts" in t)
    cuts, _ = cuts_and_folds(path, coins, into_forms=True)
    assert cuts and all(kind == "curve" for _, _, kind in cuts)  # circles
    centres = _forms(path, coins)
    assert min(math.dist(a, b) for a in centres for b in centres if a is not b) >= mm(30) - 0.05


def test_text_outside_a_round_card_is_a_located_error(tmp_path):
    changes = {"layouts/land.yaml": """\
        boxes:
          background: {shape: rect, fill: "#2e7d32"}
          name: {x: 4mm, y: 4mm, width: 20mm, height: 6mm, text: "{{ card.name }}"}
        """}
    game = load_game(_project(tmp_path, changes), "tiles")
    with pytest.raises(InputError) as info:
        outputs(game, BuildOptions(papers=("letter",)))
    messages = [str(p) for p in info.value.problems]
    assert any(
        m.startswith(
            "cards/tiles/layouts/land.yaml:3: text box 'name' of deck 'coins' reaches outside its "
            "30.0 mm circle outline"
        )
        for m in messages
    ), messages


def test_a_game_wide_round_card_size(tmp_path):
    changes = {
        "game.yaml": "title: Tiles\ncode: TIL\nplayers: {min: 2, max: 4}\ndecks: [land, coins]\n"
        "card_size: {shape: circle, diameter: 40mm}\n",
        "coins.yaml": FILES["coins.yaml"].replace("        size: {shape: circle, diameter: 30mm}\n", ""),
    }
    game = load_game(_project(tmp_path, changes), "tiles")
    assert game.decks["coins"].shape.kind == "circle"
    assert game.decks["coins"].size_mm == (pytest.approx(40), pytest.approx(40))


def test_cut_files_of_hex_and_round_decks_follow_each_outline(tmp_path):
    import re
    import xml.etree.ElementTree as ET

    game = load_game(
        _project(tmp_path, {"game.yaml": FILES["game.yaml"] + "print: {cut_file: svg}\n"}), "tiles"
    )
    made = [o for o in outputs(game, BuildOptions(papers=("a4",))) if o.path.suffix == ".svg"]
    assert len(made) == 2  # a page of hexes and a page of coins
    ns = "{http://www.w3.org/2000/svg}"
    for output, (letters, count) in zip(made, (("MLLLLLZ", 18), ("MCCCCZ", None)), strict=True):
        path = tmp_path / output.path.name
        facts = output.render(path)
        pieces = ET.fromstring(path.read_text()).findall(f".//{ns}path")
        assert len(pieces) == facts["cards"] and (count is None or len(pieces) == count)
        assert all(re.sub(r"[^A-Z]", "", p.get("d")) == letters for p in pieces)  # six sides, or four arcs


def test_a_round_or_hex_deck_is_refused_for_a_cut_machine_at_its_file(tmp_path):
    game = load_game(_project(tmp_path), "tiles")
    with pytest.raises(InputError) as info:
        outputs(game, BuildOptions(papers=("letter",), cut_machine="silhouette"))
    text = str(info.value)
    assert "land.yaml:1: deck 'land': a round or hexagonal deck is not laid out for Silhouette" in text
    assert "expected --cut-machine none" in text
