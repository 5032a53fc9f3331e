"""Markdown to PDF: markdown-it-py tokens mapped to ReportLab Platypus flowables, in the project's fonts only.

The document they are laid out in (styles, page decorations, outline, contents) is generator.booklet.document.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    Image,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from generator.booklet.document import (
    ACCENT,
    ACCENT_HEX,
    HEADER_FILL,
    NOTE_EDGE,
    NOTE_FILL,
    RULE_GREY,
    BackCover,
    Heading,
    RulesParagraph,
    escape,
    make_styles,
    para,
)
from generator.core.fonts import string_width
from generator.core.units import to_pt

FigureFactory = Callable[[dict, float], Flowable]  # (figure spec, frame width) -> flowable
IconMarkup = Callable[[str, float], str]  # (icon name, size in pt) -> Paragraph <img/> markup
PictureFiles = Callable[[str], str]  # Markdown image src -> the file to draw (checked inside the project)
MAX_PICTURE_HEIGHT = 380.0  # pt: a block picture never needs more than most of a half-letter page



# Inline tokens that map to fixed Paragraph markup.
_INLINE_MARKUP = {
    "strong_open": "<b>", "strong_close": "</b>", "em_open": "<i>", "em_close": "</i>",
    "softbreak": " ", "hardbreak": "<br/>", "link_close": "</a>",
}

class NoteBox(Flowable):
    """A tinted box around flowables (```note fences and blockquotes); kept on one page."""

    def __init__(
        self, content: list[Flowable], fill=NOTE_FILL, edge=NOTE_EDGE, pad: float = 6, space_after: float = 8
    ):
        super().__init__()
        self.content, self.fill, self.edge, self.pad = content, fill, edge, pad
        self.spaceAfter = space_after  # else a heading or a second box touches the box
        self._sizes: list[tuple[float, float]] = []

    def wrap(self, avail_w, avail_h):
        inner = avail_w - 2 * self.pad - 3
        self._sizes = [f.wrapOn(self.canv, inner, avail_h) for f in self.content]
        self.width = avail_w
        gaps = sum(self._gap(i) for i in range(len(self.content)))
        self.height = sum(h for _, h in self._sizes) + gaps + 2 * self.pad
        return self.width, self.height

    def split(self, avail_w, avail_h):  # noqa: ARG002 - ReportLab Flowable.split hook
        # A box taller than most of a page is given up and its content flows freely instead.
        if self.height > 400:
            return list(self.content)
        return []

    def _gap(self, index: int) -> float:
        return 0 if index == len(self.content) - 1 else self.content[index].getSpaceAfter()

    def draw(self):
        canv = self.canv
        canv.saveState()
        canv.setFillColor(self.fill)
        canv.setStrokeColor(self.edge)
        canv.roundRect(0, 0, self.width, self.height, 4, stroke=0, fill=1)
        canv.setFillColor(self.edge)
        canv.rect(0, 0, 3, self.height, stroke=0, fill=1)
        canv.restoreState()
        y = self.height - self.pad
        for index, (flow, (_, h)) in enumerate(zip(self.content, self._sizes, strict=True)):
            y -= h
            flow.drawOn(canv, self.pad + 3, y)
            y -= self._gap(index)


def markdown_parser() -> MarkdownIt:
    """The Markdown dialect of the rules (CommonMark, HTML comments for layout commands, tables)."""
    return MarkdownIt("commonmark", {"html": True}).enable("table")


_parser = functools.cache(markdown_parser)  # one parser per process


@functools.lru_cache(maxsize=4)
def _tokens(text: str) -> tuple[Token, ...]:
    return tuple(_parser().parse(text))


def parse_markdown(text: str) -> list[Token]:
    """The tokens of a Markdown text, parsed once per text: the checks before a build (references) and the
    drawing read the same rendered rules. Tokens are shared: read them, never change them."""
    return list(_tokens(text))


@dataclass
class Converter:
    """Turns Markdown into flowables; figures and inline icons come from the callbacks given."""

    width: float  # frame width available to the text
    styles: dict[str, ParagraphStyle] = field(default_factory=make_styles)
    figures: FigureFactory | None = None
    icons: IconMarkup | None = None
    pictures: PictureFiles | None = None
    headings: list[Heading] = field(default_factory=list)

    # --- blocks ---------------------------------------------------------------------------------------------

    def convert(self, text: str) -> list[Flowable]:
        """Flowables for a Markdown document."""
        return self._blocks(parse_markdown(text), self.width)

    def _blocks(self, tokens: list[Token], width: float, list_depth: int = 0) -> list[Flowable]:
        out: list[Flowable] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            kind = tok.type
            if kind == "heading_open":
                # A heading never ends a page: it needs room for a few lines of what follows.
                out.append(CondPageBreak(110 if tok.tag == "h1" else 80))
                out.append(self._heading(tok, tokens[i + 1]))
                i += 3
            elif kind == "paragraph_open":
                out.append(self._paragraph(tokens[i + 1], "list" if list_depth else "body", width))
                i += 3
            elif kind in ("bullet_list_open", "ordered_list_open"):
                end = _closing(tokens, i)
                out.append(self._list(tokens[i:end + 1], width, list_depth))
                i = end + 1
            elif kind == "table_open":
                end = _closing(tokens, i)
                out.append(self._table(tokens[i:end + 1], width))
                i = end + 1
            elif kind == "blockquote_open":
                end = _closing(tokens, i)
                out.append(NoteBox(self._blocks(tokens[i + 1:end], width - 15)))
                i = end + 1
            elif kind == "fence":
                out.extend(self._fence(tok, width))
                i += 1
            elif kind == "html_block":
                out.extend(self._command(tok.content))
                i += 1
            elif kind == "hr":
                out.append(Spacer(1, 6))
                i += 1
            else:
                i += 1
        return _keep_leads_with_next(out)

    def _heading(self, open_tok: Token, inline: Token) -> Flowable:
        level = min(int(open_tok.tag[1]), 3)
        key = f"h{len(self.headings) + 1}"
        plain = _plain_text(inline)
        text = f'<a name="{key}"/>' + self._inline(inline)
        heading = Heading(text, self.styles[f"h{level}"], level, key, plain)
        self.headings.append(heading)
        return heading

    def _paragraph(self, inline: Token, style: str, width: float) -> Flowable:
        children = inline.children or []
        images = [c for c in children if c.type == "image"]
        # A paragraph that is only a picture (not an icon) becomes a block image.
        if len(images) == 1 and all(c.type == "image" or not c.content.strip() for c in children):
            src = images[0].attrGet("src") or ""
            if not src.startswith("icon:"):
                return self._image_block(images[0], width)
        return para(self._inline(inline), self.styles[style])

    def _image_block(self, tok: Token, width: float) -> Flowable:
        src = str(tok.attrGet("src"))
        if ":" in src.split("/")[0] and self.figures:
            kind, _, rest = src.partition(":")
            return self.figures({"kind": kind, "ref": rest, "caption": tok.content}, width)
        image = Image(self.pictures(src) if self.pictures else src)
        scale = min(1.0, width / image.drawWidth, MAX_PICTURE_HEIGHT / image.drawHeight)
        image.drawWidth *= scale
        image.drawHeight *= scale
        return image

    def _list(self, tokens: list[Token], width: float, depth: int) -> Flowable:
        ordered = tokens[0].type == "ordered_list_open"
        items: list[ListItem] = []
        i = 1
        while i < len(tokens) - 1:
            if tokens[i].type == "list_item_open":
                end = _closing(tokens, i)
                flows = self._blocks(tokens[i + 1:end], width - 16, depth + 1)
                items.append(ListItem(flows if len(flows) != 1 else flows[0]))
                i = end + 1
            else:
                i += 1
        style = self.styles["body"]
        bullet_font = self.styles["bold"].fontName if ordered else style.fontName
        options = dict(leftIndent=14, bulletFontName=bullet_font, bulletFontSize=style.fontSize,
                       bulletColor=ACCENT, spaceAfter=style.spaceAfter)
        if ordered:
            start = int(tokens[0].attrGet("start") or 1)
            return ListFlowable(items, bulletType="1", start=start, bulletFormat="%s.", **options)
        return ListFlowable(items, bulletType="bullet", start="\u2022" if depth == 0 else "\u2013", **options)

    def _table(self, tokens: list[Token], width: float) -> Flowable:
        rows: list[list[Paragraph]] = []
        aligns: list[str] = []
        plain_rows: list[list[str]] = []
        header_rows = 0
        row: list[Paragraph] = []
        plain: list[str] = []
        in_head = False
        cell_styles: dict[tuple[str, str], ParagraphStyle] = {}  # (base style, alignment) -> style
        for i, tok in enumerate(tokens):
            if tok.type == "thead_open":
                in_head = True
            elif tok.type == "thead_close":
                in_head = False
            elif tok.type == "tr_open":
                row, plain = [], []
            elif tok.type == "tr_close":
                rows.append(row)
                plain_rows.append(plain)
                header_rows += 1 if in_head else 0
            elif tok.type in ("th_open", "td_open"):
                style = (tok.attrGet("style") or "").replace("text-align:", "")
                if in_head:
                    aligns.append(style)
                base = self.styles["cell_head" if tok.type == "th_open" else "cell"]
                if (base.name, style) not in cell_styles:
                    align = {"right": TA_RIGHT, "center": TA_CENTER}.get(style, TA_LEFT)
                    cell_styles[base.name, style] = ParagraphStyle(
                        f"{base.name}-{style or 'left'}", parent=base, alignment=align
                    )
                cell_style = cell_styles[base.name, style]
                inline = tokens[i + 1]
                row.append(para(self._inline(inline), cell_style))
                plain.append(_plain_text(inline) + "  " * _icon_count(inline))
        widths = _column_widths(plain_rows, width, self.styles["cell_head"])
        table = Table(rows, colWidths=widths, repeatRows=header_rows, hAlign="LEFT")
        commands = [
            # else Helvetica
            ("FONT", (0, 0), (-1, -1), self.styles["cell"].fontName, self.styles["cell"].fontSize),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, RULE_GREY),
            ("TOPPADDING", (0, 0), (-1, -1), 2.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ]
        if header_rows:
            commands += [("BACKGROUND", (0, 0), (-1, header_rows - 1), HEADER_FILL),
                         ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, ACCENT)]
        table.setStyle(TableStyle(commands))
        # Short tables never split; long ones split between rows with the header repeated.
        return KeepTogether([table, Spacer(1, 6)]) if len(rows) <= 12 else table

    def _fence(self, tok: Token, width: float) -> list[Flowable]:
        info = tok.info.strip().split()[0] if tok.info.strip() else ""
        if info == "figure":
            spec = json.loads(tok.content)
            if not self.figures:
                return []
            return [self.figures(spec, width), Spacer(1, 8)]
        if info in ("note", "tip", "box"):
            inner = self._blocks(parse_markdown(tok.content), width - 15)
            return [NoteBox(inner)]
        if info == "pagebreak":
            return [PageBreak()]
        # Any other fence: show its text as a plain paragraph block.
        return [para(escape(tok.content).replace("\n", "<br/>"), self.styles["body"])]

    def _command(self, html: str) -> list[Flowable]:
        """HTML comments carry layout commands: <!-- pagebreak -->, <!-- needspace 2in -->, <!-- space 6pt
        -->, and <!-- backcover -->: a new page, and the rest goes on the back cover of the booklet."""
        match = re.match(r"\s*<!--\s*(\w+)\s*([^>]*?)\s*-->", html)
        if not match:
            return []
        name, arg = match.groups()
        if name == "pagebreak":
            return [PageBreak()]
        if name == "backcover":
            return [PageBreak(), BackCover()]
        if name == "needspace":
            return [CondPageBreak(to_pt(arg or "1in"))]
        if name == "space":
            return [Spacer(1, to_pt(arg or "6pt"))]
        return []

    # --- inline ---------------------------------------------------------------------------------------------

    def _inline(self, inline: Token) -> str:
        parts: list[str] = []
        size = self.styles["body"].fontSize
        for tok in inline.children or []:
            kind = tok.type
            if kind in _INLINE_MARKUP:
                parts.append(_INLINE_MARKUP[kind])
            elif kind == "text":
                parts.append(escape(tok.content))
            elif kind == "code_inline":
                parts.append(f"<b>{escape(tok.content)}</b>")
            elif kind == "link_open":
                parts.append(f'<a href="{escape(tok.attrGet("href") or "")}" color="{ACCENT_HEX}">')
            elif kind == "image":
                parts.append(self._inline_image(tok, size))
            elif kind == "html_inline":
                parts.append("<br/>" if tok.content.strip().lower() in ("<br>", "<br/>") else "")
        return "".join(parts)

    def _inline_image(self, tok: Token, size: float) -> str:
        src = tok.attrGet("src") or ""
        if src.startswith("icon:") and self.icons:
            scale_text = tok.attrGet("title") or "1.2em"
            pt = float(scale_text[:-2]) * size if scale_text.endswith("em") else to_pt(scale_text)
            return self.icons(src[5:], pt)
        return escape(tok.content)


def _keep_leads_with_next(flows: list[Flowable]) -> list[Flowable]:
    """Headings and the paragraph that introduces a table or picture move to the next page with it.

    A heading's keepWithNext does not reach a short table, because ReportLab never nests a KeepTogether
    in the group that keepWithNext forms; so the heading and its lead paragraph join the table's KeepTogether.
    """
    out: list[Flowable] = []
    for flow in flows:
        if isinstance(flow, KeepTogether):
            lead: list[Flowable] = []
            if out and type(out[-1]) is RulesParagraph:
                lead.insert(0, out.pop())
            while out and isinstance(out[-1], Heading):
                lead.insert(0, out.pop())
            flow = KeepTogether(lead + flow._content) if lead else flow
        elif _is_picture(flow) and out and type(out[-1]) is RulesParagraph:
            out[-1].keepWithNext = 1
        out.append(flow)
    return out


def _is_picture(flow: Flowable) -> bool:
    """A figure or image block (anything that is not text, a list, a box or a layout command)."""
    return not isinstance(flow, (Paragraph, ListFlowable, NoteBox, Table, CondPageBreak, PageBreak, Spacer))


def _closing(tokens: list[Token], start: int) -> int:
    """Index of the token closing tokens[start] (same level, nesting -1)."""
    level = tokens[start].level
    for j in range(start + 1, len(tokens)):
        if tokens[j].level == level and tokens[j].nesting == -1:
            return j
    return len(tokens) - 1


def _plain_text(inline: Token) -> str:
    return "".join(c.content for c in (inline.children or []) if c.type in ("text", "code_inline"))


def _icon_count(inline: Token) -> int:
    return sum(1 for c in inline.children or [] if c.type == "image")


def _column_widths(rows: list[list[str]], width: float, style: ParagraphStyle) -> list[float]:
    """Share the width between columns: narrow columns keep their natural width, wide ones share the rest."""
    cols = max((len(r) for r in rows), default=1)
    pad = 8
    natural = [pad + 4.0] * cols
    for row in rows:
        for c, text in enumerate(row):
            natural[c] = max(natural[c], string_width(text, style.fontName, style.fontSize) + pad)
    if sum(natural) <= width:
        extra = width - sum(natural)
        total = sum(natural)
        return [n + extra * n / total for n in natural]
    # Columns narrower than an equal share of what is left keep their natural width, repeatedly.
    fixed: dict[int, float] = {}
    while True:
        free = [c for c in range(cols) if c not in fixed]
        share = (width - sum(fixed.values())) / max(len(free), 1)
        small = [c for c in free if natural[c] <= share]
        if not small:
            break
        for c in small:
            fixed[c] = natural[c]
    # The wide columns share the rest in proportion to how much text they hold.
    rest = width - sum(fixed.values())
    weight = sum(natural[c] for c in free)
    return [fixed[c] if c in fixed else rest * natural[c] / weight for c in range(cols)]

