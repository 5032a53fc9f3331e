"""A face's shapes written from the operators recorded on their first drawing give the same PDF as drawing
each."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from benchmarks.unique_deck import write_game
from generator.cards import sheets
from generator.core.contract import BuildOptions
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces import face
from generator.faces.boxes import shape
from generator.faces.face import renderer_for


def _sheets(root: Path, out: Path, monkeypatch) -> tuple[bytes, int]:
    game = load_game(Project(root), "unique")
    renderer = renderer_for(game)
    renderer.check()
    canvases = []

    class Kept(Canvas):  # the sheet's canvas, kept to look at the renderer's memo for it afterwards
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            canvases.append(self)

    monkeypatch.setattr(sheets, "Canvas", Kept)
    monkeypatch.setattr(face, "Canvas", Kept)  # the faces are drawn once on a canvas of their own (FaceList)
    sheets.write_sheets(game, "a4", BuildOptions(papers=["a4"]), out)
    # the memo under test, on whichever canvas drew the faces
    recorded = sum(len(renderer.panels._shapes.get(canvas, {})) for canvas in canvases)  # noqa: SLF001
    return out.read_bytes(), recorded


def test_recorded_shapes_write_the_same_pdf(tmp_path, monkeypatch):
    write_game(tmp_path / "memo", 30)  # 8 colours over 30 cards: most borders and dots are written again
    write_game(tmp_path / "drawn", 30)
    remembered, recorded = _sheets(tmp_path / "memo", tmp_path / "memo.pdf", monkeypatch)
    monkeypatch.setattr(shape, "SHAPE_MEMO", 0)  # nothing recorded: every shape drawn by ReportLab
    drawn, none = _sheets(tmp_path / "drawn", tmp_path / "drawn.pdf", monkeypatch)
    assert recorded == 8 * 2 + 3 and none == 0  # a border and a dot per colour, the frame, two backgrounds
    assert remembered == drawn
