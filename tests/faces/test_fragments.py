"""Card text given its fragments without ReportLab's markup parser (plain text and line breaks, or lines of
markup parsed before) lays out and draws exactly as a parsed Paragraph: the same fragments, line breaks and
PDF operators."""

from __future__ import annotations

import io
import random

import pytest
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.core.fonts import BODY, TITLE, register_fonts
from generator.faces.fragments import make_paragraph
from generator.faces.text import paragraph_style

CHARS = "abc XYZ,.!?'\"-0123456789\u00e9\u00fc\u2212  \t"


def _markups(count: int) -> list[str]:
    rng = random.Random(14)
    found = []
    for _ in range(count):
        segments = [
            "".join(rng.choice(CHARS) for _ in range(rng.randint(0, 40))) for _ in range(rng.randint(1, 5))
        ]
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
        style = paragraph_style(
            face,
            rng.choice([7.5, 9, 11]),
            1.15,
            rng.choice(["left", "center", "right", "justify"]),
            "#222222",
        )
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


def _frag_facts(frags) -> list[dict]:
    """A fragment's attributes, its callback (an inline icon's spacer image and drawing) compared by value."""
    facts = []
    for frag in frags:
        fact = dict(frag.__dict__)
        if "cbDefn" in fact:
            fact["cbDefn"] = {key: (value.getSize() if key == "image" else value)
                              for key, value in frag.cbDefn.__dict__.items()}
        facts.append(fact)
    return facts


def _markup_lines() -> list[str]:
    from generator.faces.icons import inline_icon_image

    icon = inline_icon_image("pepperoni", 11.7)
    return [
        "plain words",
        f"{icon} <b>2 \u00d7</b> Pepperoni",
        f"{icon} <b>1 \u00d7</b> Ham",
        "<i>tip:</i> draw a card",
        "fish &amp; chips &lt;3",
        '<font backColor="#c0392b" color="#ffffff">&nbsp;<b>HOT</b>&nbsp;</font> sauce',
        "<b>bold <i>and italic</i></b> end",
        "<u>under</u> lined",
        '<a href="https://example.org">a link</a>',
        "<b>opened here",
        "closed there</b>",
        "x<super>2</super> raised",
        "",
        " spaced out ",
        "\u2212 2 coins \u2013 3",
    ]


@pytest.mark.parametrize("face", [BODY, TITLE])
def test_markup_put_together_from_lines_parsed_before_is_the_parsed_paragraph(face, monkeypatch):
    """Paragraphs put together from lines of markup (bold, italic, entities, chips, inline icons) parsed
    before in other paragraphs, or parsed on their own, give the very fragments and PDF operators a freshly
    parsed Paragraph gives; paragraphs with lines whose tags run on, links, underlines or raised text are
    parsed whole as always."""
    from reportlab.platypus.paraparser import ParaParser

    from generator.faces import fragments
    from generator.faces.icons import enable_inline_icons

    parses = []
    parse = ParaParser.parse
    monkeypatch.setattr(ParaParser, "parse", lambda self, *args: parses.append(1) or parse(self, *args))
    alone = []
    parsed_line = fragments._parsed_line  # noqa: SLF001
    monkeypatch.setattr(fragments, "_parsed_line", lambda *args: alone.append(1) or parsed_line(*args))
    register_fonts()
    rng = random.Random(5)
    lines = _markup_lines()
    fragments._LINES.clear()  # noqa: SLF001
    joined = 0
    for _ in range(160):
        markup = "<br/>".join(rng.choice(lines) for _ in range(rng.randint(1, 4)))
        style = paragraph_style(face, rng.choice([7.5, 11]), 1.15,
                                rng.choice(["left", "center", "right"]), "#222222")
        width = rng.choice([60, 110, 160])
        try:
            parsed = Paragraph(markup, style)
        except ValueError:  # a bold run closed before it opens: an error either way
            with pytest.raises(ValueError):
                make_paragraph(markup, style)
            continue
        before = len(parses)
        fast = make_paragraph(markup, style)
        joined += len(parses) == before and "<" in markup.replace("<br/>", "")
        assert _frag_facts(fast.frags) == _frag_facts(parsed.frags), markup
        codes = []
        for para in (fast, parsed):
            canvas = Canvas(io.BytesIO(), pageCompression=0)
            enable_inline_icons(canvas)
            _, height = para.wrap(width, 500)
            para.drawOn(canvas, 10, 20)
            codes.append((canvas._code, height))  # noqa: SLF001
        assert codes[0] == codes[1], markup
    assert joined >= 10  # many paragraphs were put together from lines parsed before
    assert len(alone) >= 30  # and many lines were parsed on their own
