"""Card text set without ReportLab's markup parser (plain text and line breaks) lays out and draws exactly as a
parsed Paragraph: the same fragments, the same line breaks, the same PDF operators."""

from __future__ import annotations

import io
import random

import pytest
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.cards.text import make_paragraph, paragraph_style
from generator.core.fonts import BODY, TITLE, register_fonts

CHARS = "abc XYZ,.!?'\"-0123456789\u00e9\u00fc\u2212  \t"


def _markups(count: int) -> list[str]:
    rng = random.Random(14)
    found = []
    for _ in range(count):
        segments = ["".join(rng.choice(CHARS) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(1, 5))]
        markup = "<br/>".join(segments)
        found.append(f"  {markup} " if rng.random() < 0.2 else markup)
    return found + ["", "<br/>", "<br/><br/>a", "a<br/>", "word", "a " * 60]


def _drawn(para: Paragraph, width: float) -> tuple[list[str], float]:
    canvas = Canvas(io.BytesIO(), pageCompression=0)
    _, height = para.wrap(width, 500)
    para.drawOn(canvas, 10, 20)
    return canvas._code, height  # noqa: SLF001 - the operators the paragraph wrote


@pytest.mark.parametrize("face", [BODY, TITLE])
def test_plain_text_draws_as_the_parsed_paragraph(face):
    register_fonts()
    rng = random.Random(7)
    for markup in _markups(150):
        style = paragraph_style(face, rng.choice([7.5, 9, 11]), 1.15, rng.choice(["left", "center", "right", "justify"]),
                                "#222222")
        width = rng.choice([40, 90, 150])
        fast, parsed = make_paragraph(markup, style), Paragraph(markup, style)
        assert [f.__dict__ for f in fast.frags] == [f.__dict__ for f in parsed.frags], markup
        assert _drawn(fast, width) == _drawn(parsed, width), markup


def test_markup_with_tags_or_entities_is_parsed():
    register_fonts()
    style = paragraph_style(BODY, 9, 1.15, "left", "#222222")
    for markup in ("<b>bold</b> text", "fish &amp; chips", "a<br/>b <i>c</i>"):
        para = make_paragraph(markup, style)
        assert [f.__dict__ for f in para.frags] == [f.__dict__ for f in Paragraph(markup, style).frags]
