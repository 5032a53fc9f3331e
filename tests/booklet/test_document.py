"""The rules document's passes: a first pass that only lays out gives the same PDF as ReportLab's drawn
passes, and the page contents handed to the booklets are the pages' streams in that PDF."""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab.platypus import BaseDocTemplate, PageBreak, Paragraph

from generator.booklet.document import (
    PAGE_SIZE,
    RulesDocument,
    RulesParagraph,
    build_document,
    contents,
    make_styles,
    text_frame,
)
from generator.booklet.markdown import Converter
from generator.booklet.pdf import reading_story, render_reading
from generator.booklet.text import render_rules
from generator.data.load import load_game
from generator.faces.icons import enable_inline_icons

SETTINGS = {"title": "T", "header": "H", "page_size": PAGE_SIZE}


def _drawn_every_pass(path, story, **settings) -> None:
    """The document as ReportLab's own multiBuild makes it: every pass drawn."""
    doc = RulesDocument(str(path), **settings)
    BaseDocTemplate.multiBuild(doc, story, maxPasses=6)


def test_a_real_rulebook_is_the_same_pdf_as_with_every_pass_drawn(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-pizza")
    markdown = render_rules(game)
    settings = dict(SETTINGS, canvas_hooks=[enable_inline_icons], fonts=game.fonts)
    width = text_frame()[0]
    build_document(str(tmp_path / "sketched.pdf"), reading_story(game, markdown, width), **settings)
    _drawn_every_pass(tmp_path / "drawn.pdf", reading_story(game, markdown, width), **settings)
    sketched, drawn = (tmp_path / "sketched.pdf").read_bytes(), (tmp_path / "drawn.pdf").read_bytes()
    # cover, contents and pages of rules, pictures and icons
    assert len(PdfReader(io.BytesIO(sketched)).pages) > 4
    assert sketched == drawn


def test_a_story_without_headings_is_still_drawn(tmp_path):
    """The contents are settled after the first pass here, and that pass draws nothing: a drawn pass still
    follows."""
    styles = make_styles()
    text = "\n\n".join(
        f"Paragraph {n} of plain rules text, long enough to wrap over two lines or more." for n in range(80)
    )

    def story():
        return [contents(styles), PageBreak(), *Converter(width=300, styles=styles).convert(text)]

    build_document(str(tmp_path / "sketched.pdf"), story(), **SETTINGS)
    _drawn_every_pass(tmp_path / "drawn.pdf", story(), **SETTINGS)
    assert (tmp_path / "sketched.pdf").read_bytes() == (tmp_path / "drawn.pdf").read_bytes()
    words = " ".join(page.extract_text() for page in PdfReader(str(tmp_path / "sketched.pdf")).pages)
    assert "Paragraph 0 of plain rules" in words and "Paragraph 79 of plain rules" in words


def test_page_contents_handed_to_the_booklets_are_the_pdf_pages_streams(repo_project):
    game = load_game(repo_project, "short-order-hero")
    reading = render_reading(game, render_rules(game))
    reader = PdfReader(io.BytesIO(reading.pdf))
    assert reading.pages == len(reader.pages) > 4
    assert reading.contents == [page.get_contents().get_data() for page in reader.pages]


def test_paragraphs_break_their_lines_once_per_width_into_the_same_pdf(repo_project, tmp_path, monkeypatch):
    """ReportLab wraps a paragraph for every place it tries it and on every pass; the rules' paragraphs break
    their lines once per width, and the PDF is the one that breaking them anew every time gives."""
    game = load_game(repo_project, "order-up-pizza")
    markdown = render_rules(game)
    settings = dict(SETTINGS, canvas_hooks=[enable_inline_icons], fonts=game.fonts)
    width = text_frame()[0]
    breaks = []
    original = Paragraph.breakLines
    monkeypatch.setattr(
        Paragraph, "breakLines", lambda self, widths: breaks.append(self) or original(self, widths)
    )
    build_document(str(tmp_path / "once.pdf"), reading_story(game, markdown, width), **settings)
    once = len(breaks)
    breaks.clear()
    monkeypatch.setattr(RulesParagraph, "wrap", Paragraph.wrap)  # every wrap breaks the lines again
    build_document(str(tmp_path / "anew.pdf"), reading_story(game, markdown, width), **settings)
    assert (tmp_path / "once.pdf").read_bytes() == (tmp_path / "anew.pdf").read_bytes()
    assert once * 2 < len(breaks)  # tables, lists and boxes wrap their paragraphs several times per pass
