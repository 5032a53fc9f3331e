"""Plain card text in explicit lines, drawn without a Paragraph: the same PDF operators, a fraction of the
work.

Most card texts are plain words with line breaks that fit their box at full size (a spreadsheet of 300
different cards, each with a few lines of rules). For those, ReportLab's Paragraph builds fragments, breaks
lines that need no breaking and walks a general drawing routine. `plain_lines` works out what it would lay out
(each explicit line as one line, its unused width measured word by word exactly as ReportLab sums it) and
`draw_plain` makes the text object calls ReportLab's paragraph drawing makes for such lines, in the same
order, so the page content is byte-identical. Anything else (markup, entities, odd spaces, a line too wide,
too many lines) returns None and goes through the Paragraph and its shrink-to-fit as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.paragraph import cleanBlockQuotedText

from generator.faces.fragments import fragment_prototypes
from generator.faces.text import TextStyle, paragraph_style

# A word has no character ReportLab splits on or treats specially (whitespace of any kind, the zero-width
# space,
# the soft hyphen that allows hyphenation); a line is words with one space between them.
_WORD = r"[^\s\u200b\xad<>&]+"
_LINE = re.compile(rf"{_WORD}(?: {_WORD})*")
BREAK = "<br/>"
FIT_SLACK = 0.01  # pt: the height tolerance of the shrink-to-fit (generator.faces.text.fit_text)


@dataclass(frozen=True)
class PlainLines:
    """Lines of plain text at the box's full size: each line's text and unused width, the paragraph style, the
    face, size and colour its text fragments get from ReportLab's parser, and the height of the block."""

    lines: tuple[tuple[str, float], ...]
    style: ParagraphStyle
    font: str
    size: float
    color: object
    height: float


def plain_lines(markup: str, style: TextStyle, width: float, height: float,
                per_size: Callable[[str, float], str] | None = None) -> PlainLines | None:
    """The lines of markup that is plain words and <br/> line breaks fitting `width` x `height` at style.size
    without any line breaking, or None (then the Paragraph lays it out)."""
    size = style.size
    text = per_size(markup, size) if per_size else markup
    segments = cleanBlockQuotedText(text).split(BREAK)
    # one line: a paragraph of one fragment, drawn differently (and by face.py directly)
    if len(segments) < 2:
        return None
    para_style = paragraph_style(style.face, size, style.leading, style.align, style.color)
    needed = len(segments) * para_style.leading
    if needed > height + FIT_SLACK:
        return None
    fragment = fragment_prototypes(para_style)[0]
    face, size = fragment.fontName, fragment.fontSize
    space = stringWidth(" ", face, size)
    lines = []
    for segment in segments:
        if not _LINE.fullmatch(segment):
            return None
        # summed as ReportLab's line breaker sums a line (word, space, word, ...), so the unused width, which
        # places centred and right-aligned lines, is the very same number
        used, gap = 0, 0
        for word in segment.split(" "):
            used = used + gap + stringWidth(word, face, size)
            gap = space
        if used > width:  # ReportLab would break the line (or squeeze its spaces): not plain
            return None
        lines.append((segment, width - used))
    return PlainLines(tuple(lines), para_style, face, size, fragment.textColor, needed)


def _move(tx, dx: float) -> None:
    """ReportLab's paragraph `setXPos`: moves smaller than a millionth of a point are not written."""
    if dx > 1e-6 or dx < -1e-6:
        tx.setXPos(dx)


def draw_plain(canvas: Canvas, plain: PlainLines, x: float, y: float) -> None:
    """Draw the lines with the lower-left corner of their block at (x, y): the calls Paragraph.drawOn
    makes."""
    style = plain.style
    canvas.saveState()
    canvas.translate(x, y)
    canvas.saveState()
    tx = canvas.beginText(0, plain.height - plain.size)
    tx._leading = None  # noqa: SLF001 - as the paragraph starts its text object
    tx._fontname, tx._fontsize = None, None  # noqa: SLF001
    last = len(plain.lines) - 1
    for index, (text, extra) in enumerate(plain.lines):
        shift = (
            0 + 0.5 * extra
            if style.alignment == TA_CENTER
            else 0 + extra
            if style.alignment == TA_RIGHT
            else 0
        )
        _move(tx, shift)
        if index == 0:
            tx.setLeading(style.leading)
            tx._setFont(plain.font, plain.size)  # noqa: SLF001
            tx.setFillColor(plain.color)
        if index == last:
            tx._textOut(text, 1)  # noqa: SLF001
        else:
            tx._textOut(text, 0)  # noqa: SLF001
            tx._textOut("", 1)  # noqa: SLF001 - the line break: a new line, no text
        _move(tx, -shift)
    canvas.drawText(tx)
    canvas.restoreState()
    canvas.restoreState()
