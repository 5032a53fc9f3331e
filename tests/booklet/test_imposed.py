"""The imposed booklets: written by pnp itself from the reading PDF (no PDF library loaded), the same bytes as
pypdf imposing the same pages, for every bundled game and language; each reading page's content compressed
once."""

from __future__ import annotations

import io
import zlib

import pytest
from pypdf import PdfReader

from generator.booklet import imposed
from generator.booklet.imposed import ReadingPages, impose
from generator.booklet.pdf import render_reading
from generator.booklet.text import render_rules
from generator.data.load import load_game
from generator.pipeline.translations import translate_checked
from tests.booklet.pypdf_imposition import pypdf_impose


@pytest.mark.parametrize(("game_id", "language"), [("order-up-pizza", "en"), ("order-up-pizza", "cs"),
                                                   ("order-up-trading", "en"), ("short-order-hero", "de")])
def test_booklets_are_the_bytes_pypdf_wrote(repo_project, tmp_path, game_id, language):
    game = load_game(repo_project, game_id)
    if language != game.source_language:
        game = translate_checked(game, language)[0]
    reading = render_reading(game, render_rules(game))
    pages = ReadingPages.of(reading.pdf, reading.contents)
    for paper in ("letter", "a4"):
        ours, theirs = tmp_path / f"{paper}.pdf", tmp_path / f"{paper}-pypdf.pdf"
        sides = impose(pages, paper, ours, back=reading.back_pages, phrases=game.phrases)
        assert sides == pypdf_impose(
            reading.pdf, paper, theirs, back=reading.back_pages, phrases=game.phrases
        )
        assert ours.read_bytes() == theirs.read_bytes()
        booklet = PdfReader(io.BytesIO(ours.read_bytes()))
        assert len(booklet.pages) == sides
        assert game.title in booklet.metadata.title and paper in booklet.metadata.title
        forms = booklet.pages[0]["/Resources"]["/XObject"]
        for name, form in forms.items():  # the cover's pages: the reading pages' own content
            assert form.get_object().get_data() == reading.contents[int(name.removeprefix("/Pg")) - 1]


def test_each_reading_page_is_compressed_once_for_both_booklets(repo_project, tmp_path, monkeypatch):
    game = load_game(repo_project, "order-up-pizza")
    reading = render_reading(game, render_rules(game))
    compressed = []
    original = zlib.compress
    monkeypatch.setattr(imposed.zlib, "compress", lambda data, level=-1: compressed.append(data)
                        or original(data, level))
    pages = ReadingPages.of(reading.pdf, reading.contents)
    for paper in ("letter", "a4"):
        impose(pages, paper, tmp_path / f"{paper}.pdf", back=reading.back_pages, phrases=game.phrases)
    page_streams = [data for data in compressed if data in reading.contents]
    assert sorted(page_streams) == sorted(reading.contents)  # every page once, for both booklets


def test_a_reading_pdf_without_laid_out_contents_is_decoded(repo_project, tmp_path):
    game = load_game(repo_project, "short-order-hero")
    reading = render_reading(game, render_rules(game))
    with_contents, decoded = tmp_path / "laid-out.pdf", tmp_path / "decoded.pdf"
    impose(ReadingPages.of(reading.pdf, reading.contents), "a4", with_contents, back=reading.back_pages)
    impose(ReadingPages.of(reading.pdf), "a4", decoded, back=reading.back_pages)
    assert with_contents.read_bytes() == decoded.read_bytes()
