"""Paragraph markup to the fragments ReportLab's markup parser makes, with as little parsing as can be.

Parsing card text costs as much as laying it out, and the same lines come back card after card (a topping with
its icon and count, a keyword, a cost). `make_paragraph` gives plain text and line breaks their fragments
directly, puts a paragraph whose every line was parsed before together from those lines (a line of
self-contained markup parses the same wherever it stands), and parses anything else as ReportLab always does,
keeping its lines for next time. The fragments are the parser's own, so the laid-out lines and the PDF
operators are the same (tests/faces/test_fragments.py checks random paragraphs against freshly parsed ones).
"""

from __future__ import annotations

import re

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import cleanBlockQuotedText
from reportlab.platypus.paraparser import ParaParser

_NOT_PLAIN = re.compile(r"[<&]")
# id(style) -> (style, text frag, line break)
_PROTOTYPES: dict[int, tuple[ParagraphStyle, object, object]] = {}
# Tags whose meaning ends with the line they are closed on (no counters, links or lines drawn under the text),
# so
# a line holding only these, each closed, parses the same wherever it stands in a paragraph.
_LINE_TAGS = frozenset({"b", "i", "strong", "em", "font", "img", "onDraw"})
_TAG_PARTS = re.compile(r"<(/?)([A-Za-z][\w]*)[^>]*?(/?)>")
LINE_MEMO = 4_096  # parsed lines kept (the same topping, cost or keyword line comes back on many cards)
_LINES: dict[tuple[int, str], tuple[ParagraphStyle, list]] = {}  # (id(style), line) -> (style, its fragments)


def make_paragraph(markup: str, style: ParagraphStyle) -> Paragraph:
    """`Paragraph(markup, style)` with the fragments ReportLab's markup parser makes, which costs as much as
    laying the paragraph out: given directly for plain text and line breaks, else put together from the lines
    parsed before (a line of self-contained markup parses the same in any paragraph), else parsed (and its
    lines kept)."""
    if _NOT_PLAIN.search(markup.replace("<br/>", "")):
        cleaned = cleanBlockQuotedText(markup)  # what Paragraph does to the text before parsing it
        segments = cleaned.split("<br/>")
        found = [_LINES.get((id(style), segment)) for segment in segments]
        if all(line is not None and line[0] is style for line in found):
            return Paragraph(cleaned, style, frags=_joined([line[1] for line in found], style))
        if all(_self_contained(segment) for segment in segments):  # parse only the lines not met before
            lines = [line[1] if line is not None and line[0] is style else _parsed_line(segment, style)
                     for segment, line in zip(segments, found, strict=True)]
            if all(line is not None for line in lines):
                return Paragraph(cleaned, style, frags=_joined(lines, style))
        para = Paragraph(markup, style)  # a line that does not parse on its own: the parser says why
        _keep_lines(segments, para.frags, style)
        return para
    cleaned = cleanBlockQuotedText(markup)
    text, _line_break = fragment_prototypes(style)
    return Paragraph(cleaned, style, frags=_joined([[text.clone(text=segment)] if segment else []
                                                    for segment in cleaned.split("<br/>")], style))


def _joined(lines: list[list], style: ParagraphStyle) -> list:
    """Fresh fragments of lines of fragments with line breaks between them, as the parser makes them: one set
    of lists per paragraph, shared by its fragments."""
    text, line_break = fragment_prototypes(style)
    lists = {key: [] for key, value in text.__dict__.items() if isinstance(value, list)}
    break_lists = {
        key: lists.get(key, []) for key, value in line_break.__dict__.items() if isinstance(value, list)
    }
    frags = []
    last = len(lines) - 1
    for index, line in enumerate(lines):
        for frag in line:  # every fragment of the parser has the same lists (links, lines under the text)
            frags.append(frag.clone(**lists))
        if index < last:
            frags.append(line_break.clone(**break_lists))
    return frags


def _parsed_line(segment: str, style: ParagraphStyle) -> list | None:
    """The fragments of one self-contained line, parsed on its own and kept; None when the parser refuses it
    or it uses the shared lists (then the whole paragraph is parsed)."""
    if not segment:
        return []
    parser = ParaParser()
    parser.caseSensitive = 1  # as Paragraph parses
    try:
        parsed_style, frags, bullet = parser.parse(segment, style)
    except ValueError:
        return None
    if frags is None or bullet or parsed_style is not style or getattr(style, "textTransform", None):
        return None
    if any(isinstance(value, list) and value for frag in frags for value in frag.__dict__.values()):
        return None
    if len(_LINES) >= LINE_MEMO:
        _LINES.clear()
    _LINES[(id(style), segment)] = (style, [frag.clone() for frag in frags])
    return frags


def _keep_lines(segments: list[str], frags: list, style: ParagraphStyle) -> None:
    """Keep the fragments of the self-contained lines of a parsed paragraph for the next paragraph showing
    them, up to the first line that is not (the lines after it may be parsed in the state it leaves)."""
    lines: list[list] = [[]]
    for frag in frags:
        if getattr(frag, "lineBreak", False):
            lines.append([])
        else:
            lines[-1].append(frag)
    if len(lines) != len(segments):
        return
    if len(_LINES) + len(lines) > LINE_MEMO:
        _LINES.clear()
    for segment, line in zip(segments, lines, strict=True):
        if not _self_contained(segment):
            return
        if any(isinstance(value, list) and value for frag in line for value in frag.__dict__.values()):
            return  # shared lists in use (not by these tags, but never made again from parts)
        _LINES[(id(style), segment)] = (style, [frag.clone() for frag in line])


def _self_contained(segment: str) -> bool:
    """True when every tag of a line is one of _LINE_TAGS and closed on the line (or closes itself)."""
    open_tags: list[str] = []
    for closing, name, self_closing in _TAG_PARTS.findall(segment):
        if name not in _LINE_TAGS:
            return False
        if self_closing:
            continue
        if closing:
            if not open_tags or open_tags.pop() != name:
                return False
        else:
            open_tags.append(name)
    return not open_tags


def fragment_prototypes(style: ParagraphStyle):
    """The parser's fragments of a text and of a line break in this style (made once per style)."""
    found = _PROTOTYPES.get(id(style))
    if found is None or found[0] is not style:
        parser = ParaParser()
        parser.caseSensitive = 1
        _, frags, _ = parser.parse("x<br/>y", style)
        found = _PROTOTYPES[id(style)] = (style, frags[0], frags[1])
    return found[1], found[2]
