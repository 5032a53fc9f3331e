"""Plain card text in explicit lines is drawn without a Paragraph, with exactly the PDF operators the
shrink-to-fit Paragraph writes for it; anything else is left to the Paragraph."""

from __future__ import annotations

import io
import random

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.core.fonts import BODY, TITLE, register_fonts
from generator.faces.icons import sized_icons
from generator.faces.plain_text import draw_plain, plain_lines
from generator.faces.text import TextStyle, fit_text

WORDS = [
    "Play",
    "a",
    "card.",
    "Take",
    "3",
    "olive",
    "cards,",
    "score",
    "\u00e9t\u00e9",
    "\u2212",
    "12",
    "Z\u00fcrich",
    "(and)",
    "\"quoted\"",
    "x",
    "longer-word",
    "WWWW",
    "i",
]


def _text(rng: random.Random) -> str:
    return "<br/>".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(2, 5))
    )


def _width(line: str, face: str, size: float) -> float:
    """A line's width as ReportLab's line breaker adds it up."""
    used, gap = 0, 0
    for word in line.split(" "):
        used, gap = used + gap + stringWidth(word, face, size), stringWidth(" ", face, size)
    return used


def _canvas() -> Canvas:
    canvas = Canvas(io.BytesIO(), pageCompression=0)
    canvas.setFont(BODY, 9)  # as a face form starts
    return canvas


def _by_paragraph(markup: str, style: TextStyle, w: float, h: float) -> tuple[str, float]:
    canvas = _canvas()
    para, size, needed = fit_text(markup, style, w, h, sized_icons)
    assert size == style.size
    para.drawOn(canvas, 12.5, 30.25 + h - needed)
    return "\n".join(canvas._code), needed  # noqa: SLF001 - the operators written


def _plain(markup: str, style: TextStyle, w: float, h: float) -> tuple[str, float] | None:
    plain = plain_lines(markup, style, w, h, sized_icons)
    if plain is None:
        return None
    canvas = _canvas()
    draw_plain(canvas, plain, 12.5, 30.25 + h - plain.height)
    return "\n".join(canvas._code), plain.height  # noqa: SLF001


@pytest.mark.parametrize("face", [BODY, TITLE])
def test_plain_lines_draw_what_the_paragraph_draws(face):
    register_fonts()
    rng = random.Random(14)
    drawn_plain = 0
    for _ in range(150):
        markup = _text(rng)
        style = TextStyle(
            face,
            rng.choice([7, 9, 10.5, 14]),
            7 if rng.random() < 0.5 else 6.5,
            rng.choice([1.0, 1.15, 1.3]),
            rng.choice(["left", "center", "right", "justify"]),
            "top",
            rng.choice(["#222222", "#ffffff", "#1f5fbf"]),
        )
        widest = max(_width(line, face, style.size) for line in markup.split("<br/>"))
        # exactly as wide, wider, narrower
        width = rng.choice([widest, widest + 0.004, widest + 30, widest * 0.7])
        height = rng.choice([200.0, (markup.count("<br/>") + 1) * style.size * style.leading])
        found = _plain(markup, style, width, height)
        if found is None:
            continue
        drawn_plain += 1
        assert found == _by_paragraph(markup, style, width, height), (markup, style, width)
    assert drawn_plain > 60  # most of these are plain lines that fit


def test_everything_else_is_left_to_the_paragraph():
    register_fonts()
    style = TextStyle(BODY, 10, 7, 1.15, "left", "top", "#222222")
    wide = 500.0
    for markup in (
        "one line only",
        "<b>bold</b><br/>line",
        "fish &amp; chips<br/>b",
        "a <br/>b",
        "a<br/><br/>b",
        "a<br/>",
        "soft\xadhyphen<br/>b",
        "no\xa0break<br/>b",
        "zero\u200bwidth<br/>b",
    ):
        assert plain_lines(markup, style, wide, wide) is None, markup
    spaced = "  two  spaces<br/>b"  # spaces the paragraph collapses too
    assert _plain(spaced, style, wide, wide) == _by_paragraph(spaced, style, wide, wide)
    lines = "Play with a golden crust.<br/>Take 3 cards."
    assert plain_lines(lines, style, wide, wide) is not None
    # a line would be broken: the paragraph shrinks the text
    assert plain_lines(lines, style, 60, wide) is None
    assert plain_lines(lines, style, wide, 2 * 11.5 - 0.02) is None  # too tall at full size
    assert plain_lines(lines, style, wide, 2 * 11.5 - 0.005) is not None  # within fit_text's tolerance
