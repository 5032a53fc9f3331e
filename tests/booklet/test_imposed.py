"""The imposed booklets: each reading page's content compressed once for every booklet of the rules, the booklets
the same bytes as with pypdf compressing each page form itself."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.filters import FlateDecode

from generator.booklet import imposed
from generator.booklet.imposed import ReadingPages, impose
from generator.booklet.pdf import render_reading
from generator.booklet.text import render_rules
from generator.data.load import load_game


def _pypdf_page_form(writer, pages: ReadingPages, number: int):
    """A page form as pypdf makes it: the decoded content, compressed by its own flate_encode."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    page = pages.reader.pages[number - 1]
    form = DecodedStreamObject()
    form.set_data(pages.contents[number - 1])
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        NameObject("/Resources"): page["/Resources"].get_object().clone(writer),
    })
    return writer._add_object(form.flate_encode())


def test_booklets_compress_each_page_once_into_the_same_bytes(repo_project, tmp_path, monkeypatch):
    game = load_game(repo_project, "order-up-pizza")
    reading = render_reading(game, render_rules(game))
    pages = ReadingPages.of(reading.pdf, reading.contents)
    compressed = []
    original = FlateDecode.encode
    monkeypatch.setattr(FlateDecode, "encode", staticmethod(lambda data, level=-1: compressed.append(data)
                                                             or original(data, level)))
    sides = {paper: impose(pages, paper, tmp_path / f"{paper}.pdf", back=reading.back_pages, phrases=game.phrases)
             for paper in ("letter", "a4")}
    page_streams = [data for data in compressed if data in reading.contents]
    assert sorted(page_streams) == sorted(reading.contents)  # every page once, for both booklets
    monkeypatch.setattr(imposed, "_page_form", _pypdf_page_form)
    for paper, count in sides.items():
        impose(ReadingPages.of(reading.pdf, reading.contents), paper, tmp_path / f"{paper}-pypdf.pdf",
               back=reading.back_pages, phrases=game.phrases)
        ours = (tmp_path / f"{paper}.pdf").read_bytes()
        assert ours == (tmp_path / f"{paper}-pypdf.pdf").read_bytes()
        booklet = PdfReader(io.BytesIO(ours))
        assert len(booklet.pages) == count
        forms = booklet.pages[0]["/Resources"]["/XObject"]
        for name, form in forms.items():  # the cover's pages: the reading pages' own content
            assert form.get_object().get_data() == reading.contents[int(name.removeprefix("/Pg")) - 1]


def test_a_reading_pdf_without_laid_out_contents_is_decoded(repo_project, tmp_path):
    game = load_game(repo_project, "short-order-hero")
    reading = render_reading(game, render_rules(game))
    with_contents, decoded = tmp_path / "laid-out.pdf", tmp_path / "decoded.pdf"
    impose(ReadingPages.of(reading.pdf, reading.contents), "a4", with_contents, back=reading.back_pages)
    impose(PdfReader(io.BytesIO(reading.pdf)), "a4", decoded, back=reading.back_pages)
    assert with_contents.read_bytes() == decoded.read_bytes()
