"""Fixtures of the card tests: a small synthetic game with a poker deck and an 18-up mini deck."""

from __future__ import annotations

import textwrap

import pytest

from generator.data.load import load_game
from generator.data.project import Project

FILES = {
    "game.yaml": "title: Demo\ncode: DEM\nplayers: {min: 2, max: 4}\ndecks: [things, minis]\n",
    "things.yaml": """\
        deck: things
        name: Things
        code: THG
        cards:
          - {id: alpha, name: Alpha, copies: 7, icon: pepperoni}
          - {id: beta, name: Beta, copies: 4, icon: mushrooms}
        """,
    "minis.yaml": """\
        deck: minis
        name: Minis
        code: MIN
        size: mini
        layout: things
        back: things-back
        cards:
          - {id: gamma, name: Gamma, copies: 20, icon: pepperoni}
        """,
    "layouts/things.yaml": """\
        boxes:
          background: {shape: rect, fill: "#fff4d6"}
          band: {height: 10mm, shape: band, fill: "#c0392b"}
          title: {x: 4mm, y: 3.5mm, width: 36mm, height: 6mm, text: "**{{ card.name }}** :pepperoni:", size: 9pt}
          picture: {x: 10mm, y: 14mm, width: 24mm, height: 24mm, icon: "{{ card.icon }}"}
          code: {x: 4mm, y: 50mm, width: 30mm, height: 4mm, text: "{{ card.code }}", size: 7pt}
        """,
    "layouts/things-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#c0392b\"}\n",
}


@pytest.fixture
def demo(tmp_path):
    for name, text in FILES.items():
        path = tmp_path / "cards" / "demo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(Project(tmp_path), "demo")


