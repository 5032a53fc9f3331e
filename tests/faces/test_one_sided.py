"""A one-sided deck: `back: none`, or a deck without a back layout (said once), prints plain backs."""

from __future__ import annotations

from pypdf import PdfReader

from generator.exports.raster import render_pages
from tests.conftest import run_pnp


def _without_back(root, explicit: bool) -> None:
    assert run_pnp("new", "demo", project=root).exit_code == 0
    game = root / "cards" / "demo"
    (game / "layouts" / "actions-back.yaml").unlink()
    deck = game / "actions.yaml"
    text = deck.read_text(encoding="utf-8")
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("back:")]
    if explicit:
        lines.insert(1, "back: none\n")
    deck.write_text("".join(lines), encoding="utf-8")


def test_a_deck_without_a_back_layout_builds_one_sided_and_says_so(tmp_path):
    _without_back(tmp_path, explicit=False)
    result = run_pnp("build", "--paper", "a4", project=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.output.count("deck 'actions' has no back layout") == 1
    assert "write `back: none` to say so" in result.output
    pdf = tmp_path / "build" / "demo" / "cards-a4.pdf"
    reader = PdfReader(pdf)
    backs = next(render_pages(pdf, dpi=30)) if len(reader.pages) < 2 else list(render_pages(pdf, dpi=30))[-1]
    inked = sum(1 for r, g, b in backs.convert("RGB").getdata() if r + g + b < 600)
    assert inked / (backs.size[0] * backs.size[1]) < 0.02  # the back page: plain paper, a few marks
    assert run_pnp("export", "tts", "demo", project=tmp_path).exit_code == 0


def test_back_none_says_it_on_purpose(tmp_path):
    _without_back(tmp_path, explicit=True)
    result = run_pnp("build", "--paper", "a4", project=tmp_path)
    assert result.exit_code == 0, result.output
    assert "no back layout" not in result.output
