"""A small project for component tests: one deck, written into a temporary folder with extra files."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from generator.data.project import Project

BASE = {
    "game.yaml": "title: Chits\ncode: CHT\nplayers: {min: 2, max: 4}\ndecks: [things]\n",
    "things.yaml": """\
        deck: things
        name: Things
        code: THG
        layout: thing
        back: thing-back
        cards:
          - {id: alpha, name: Alpha, copies: 30}
        """,
    "layouts/thing.yaml": "boxes:\n  background: {shape: rect, fill: \"#fff4d6\"}\n"
                          "  title: {x: 4mm, y: 4mm, width: 50mm, height: 8mm, text: \"{{ card.name }}\"}\n",
    "layouts/thing-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#c0392b\"}\n",
    "layouts/chit.yaml": """\
        boxes:
          background: {shape: rect, fill: "#f4c430"}
          value: {x: 30%, y: 30%, width: 40%, height: 40%, text: "{{ item.value }}", font: title, size: 12pt,
                  align: center, valign: middle}
        """,
    "layouts/chit-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#243b55\"}\n",
}


def write_project(root: Path, files: dict[str, str]) -> Project:
    """The base game plus `files` (name -> YAML text; None removes a base file) under root/cards/chits/."""
    merged = {**BASE, **files}
    for name, text in merged.items():
        if text is None:
            continue
        path = root / "cards" / "chits" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return Project(root)


@pytest.fixture
def chits(tmp_path: Path):
    """A function writing the chits project with extra files; returns the Project."""
    return lambda files: write_project(tmp_path / "project", files)
