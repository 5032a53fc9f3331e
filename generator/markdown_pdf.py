"""Markdown to PDF: markdown-it-py tokens mapped to ReportLab Platypus flowables, in the project's fonts only."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from markdown_it import MarkdownIt
from markdown_it.token import Token
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    Image,
    KeepTogether,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from generator.fonts import BODY, BODY_BOLD, TITLE, register_fonts
from generator.units import to_pt

FigureFactory = Callable[[dict, float], Flowable]  # (figure spec, frame width) -> flowable
IconMarkup = Callable[[str, float], str]  # (icon name, size in pt) -> Paragraph <img/> markup

INK = colors.HexColor("#222222")
ACCENT = colors.HexColor("#b8401f")
NOTE_FILL = colors.HexColor("#fff4dc")
NOTE_EDGE = colors.HexColor("#e8b04a")
RULE_GREY = colors.HexColor("#bbbbbb")
HEADER_FILL = colors.HexColor("#f3e3d3")


def make_styles(base_size: float = 9.5) -> dict[str, ParagraphStyle]:
    """Paragraph styles in the embedded faces (Title = Fredoka One, Body = Lato)."""
    register_fonts()
    lead = base_size * 1.3
    body = ParagraphStyle("body", fontName=BODY, fontSize=base_size, leading=lead, textColor=INK,
                          spaceAfter=base_size * 0.55, allowOrphans=0, allowWidows=0)
    styles = {
        "body": body,
        "cell": ParagraphStyle("cell", parent=body, fontSize=base_size - 1, leading=(base_size - 1) * 1.22, spaceAfter=0),
        "cell_head": ParagraphStyle("cell_head", parent=body, fontName=BODY_BOLD, fontSize=base_size - 1,
                                    leading=(base_size - 1) * 1.22, spaceAfter=0),
        "caption": ParagraphStyle("caption", parent=body, fontSize=base_size - 1.5, leading=(base_size - 1.5) * 1.25,
                                  alignment=TA_CENTER, textColor=colors.HexColor("#555555")),
        "list": ParagraphStyle("list", parent=body, spaceAfter=base_size * 0.25),
    }
    sizes = {1: 17, 2: 12.5, 3: 10.5}
    for level, size in sizes.items():
        styles[f"h{level}"] = ParagraphStyle(
            f"h{level}", parent=body, fontName=TITLE if level < 3 else BODY_BOLD, fontSize=size, leading=size * 1.2,
            textColor=ACCENT if level == 1 else INK, spaceBefore=size * (0.2 if level == 1 else 0.7),
            spaceAfter=size * 0.35, keepWithNext=1,
        )
    return styles


class Heading(Paragraph):
    """A heading paragraph that knows its level and a stable key for outline, TOC and links."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str, plain: str):
        super().__init__(text, style)
        self.level = level
        self.key = key
        self.plain = plain


class NoteBox(Flowable):
    """A tinted box around flowables (```note fences and blockquotes); kept on one page."""

    def __init__(self, content: list[Flowable], fill=NOTE_FILL, edge=NOTE_EDGE, pad: float = 6):
        super().__init__()
        self.content, self.fill, self.edge, self.pad = content, fill, edge, pad
        self._sizes: list[tuple[float, float]] = []

    def wrap(self, avail_w, avail_h):
        inner = avail_w - 2 * self.pad - 3
        self._sizes = [f.wrapOn(self.canv, inner, avail_h) for f in self.content]
        self.width = avail_w
        gaps = sum(self._gap(i) for i in range(len(self.content)))
        self.height = sum(h for _, h in self._sizes) + gaps + 2 * self.pad
        return self.width, self.height

    def split(self, avail_w, avail_h):
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


@dataclass
class Converter:
    """Turns Markdown into flowables; figures and inline icons come from the callbacks given."""

    width: float  # frame width available to the text
    styles: dict[str, ParagraphStyle] = field(default_factory=make_styles)
    figures: FigureFactory | None = None
    icons: IconMarkup | None = None
    headings: list[Heading] = field(default_factory=list)

    def __post_init__(self):
        self.md = MarkdownIt("commonmark", {"html": True}).enable("table")

    # --- blocks ---------------------------------------------------------------------------------------------

    def convert(self, text: str) -> list[Flowable]:
        """Flowables for a Markdown document."""
        return self._blocks(self.md.parse(text), self.width)

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
        return out

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
        return Paragraph(self._inline(inline), self.styles[style])

    def _image_block(self, tok: Token, width: float) -> Flowable:
        src = str(tok.attrGet("src"))
        if ":" in src.split("/")[0] and self.figures:
            kind, _, rest = src.partition(":")
            return self.figures({"kind": kind, "ref": rest, "caption": tok.content}, width)
        image = Image(src)
        scale = min(1.0, width / image.drawWidth)
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
        options = dict(leftIndent=14, bulletFontName=BODY_BOLD if ordered else BODY, bulletFontSize=style.fontSize,
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
                align = {"right": TA_RIGHT, "center": TA_CENTER}.get(style, TA_LEFT)
                base = self.styles["cell_head" if tok.type == "th_open" else "cell"]
                cell_style = ParagraphStyle(f"{base.name}-{style or 'left'}", parent=base, alignment=align)
                inline = tokens[i + 1]
                row.append(Paragraph(self._inline(inline), cell_style))
                plain.append(_plain_text(inline) + "  " * _icon_count(inline))
        widths = _column_widths(plain_rows, width, self.styles["cell"])
        table = Table(rows, colWidths=widths, repeatRows=header_rows, hAlign="LEFT")
        commands = [
            ("FONT", (0, 0), (-1, -1), BODY, self.styles["cell"].fontSize),  # else Table selects Helvetica
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
            inner = self._blocks(self.md.parse(tok.content), width - 15)
            return [NoteBox(inner)]
        if info == "pagebreak":
            return [PageBreak()]
        # Any other fence: show its text as a plain paragraph block.
        return [Paragraph(escape(tok.content).replace("\n", "<br/>"), self.styles["body"])]

    def _command(self, html: str) -> list[Flowable]:
        """HTML comments carry layout commands: <!-- pagebreak -->, <!-- needspace 2in -->."""
        match = re.match(r"\s*<!--\s*(\w+)\s*([^>]*?)\s*-->", html)
        if not match:
            return []
        name, arg = match.groups()
        if name == "pagebreak":
            return [PageBreak()]
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
            if kind == "text":
                parts.append(escape(tok.content))
            elif kind == "strong_open":
                parts.append("<b>")
            elif kind == "strong_close":
                parts.append("</b>")
            elif kind == "em_open":
                parts.append("<i>")
            elif kind == "em_close":
                parts.append("</i>")
            elif kind == "code_inline":
                parts.append(f"<b>{escape(tok.content)}</b>")
            elif kind == "softbreak":
                parts.append(" ")
            elif kind == "hardbreak":
                parts.append("<br/>")
            elif kind == "link_open":
                href = tok.attrGet("href") or ""
                if href.startswith("#"):
                    parts.append(f'<a href="{escape(href)}" color="#b8401f">')
                else:
                    parts.append(f'<a href="{escape(href)}" color="#b8401f">')
            elif kind == "link_close":
                parts.append("</a>")
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
            natural[c] = max(natural[c], stringWidth(text, BODY_BOLD, style.fontSize) + pad)
    if sum(natural) <= width:
        extra = width - sum(natural)
        total = sum(natural)
        return [n + extra * n / total for n in natural]
    fixed: dict[int, float] = {}
    while True:
        free = [c for c in range(cols) if c not in fixed]
        share = (width - sum(fixed.values())) / max(len(free), 1)
        small = [c for c in free if natural[c] <= share]
        if not small:
            break
        for c in small:
            fixed[c] = natural[c]
    share = (width - sum(fixed.values())) / max(len(cols_free := [c for c in range(cols) if c not in fixed]), 1)
    result = [fixed.get(c, share) for c in range(cols)]
    if cols_free:
        # Share the rest in proportion to how much text the wide columns hold.
        rest = width - sum(fixed.values())
        weight = sum(natural[c] for c in cols_free)
        for c in cols_free:
            result[c] = rest * natural[c] / weight
    return result


# --- the reading document: cover, contents, running header, page numbers, outline ------------------------------

class RulesDocument(BaseDocTemplate):
    """A rules document: cover page without header, then pages with running header, page number and outline."""

    def __init__(self, path: str, *, title: str, header: str, page_size: tuple[float, float],
                 margin: float = 36, canvas_hooks: list | None = None, **kwargs):
        register_fonts()
        self.canvas_hooks = list(canvas_hooks or [])
        super().__init__(path, pagesize=page_size, leftMargin=margin, rightMargin=margin, topMargin=margin + 12,
                         bottomMargin=margin + 6, title=title, author=kwargs.pop("author", ""),
                         creator="pnp", subject=kwargs.pop("subject", "Rules"), invariant=1,
                         initialFontName=BODY, **kwargs)
        self.header = header
        self.section = ""
        self.page_section: str | None = None
        self._last_level = -1
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", frames=[frame]),
            PageTemplate("body", frames=[frame], onPage=self._start_page, onPageEnd=self._decorate),
        ])

    def _start_page(self, canv, doc) -> None:
        self.page_section = None  # the header names the first chapter starting on a page, else the one running on

    def _decorate(self, canv, doc) -> None:
        width, height = self.pagesize
        canv.saveState()
        canv.setFont(BODY, 7.5)
        canv.setFillColor(colors.HexColor("#777777"))
        top = height - self.topMargin + 14
        canv.drawString(self.leftMargin, top, self.header)
        section = self.page_section or self.section
        if section:
            canv.drawRightString(width - self.rightMargin, top, section)
        canv.setStrokeColor(RULE_GREY)
        canv.setLineWidth(0.4)
        canv.line(self.leftMargin, top - 4, width - self.rightMargin, top - 4)
        canv.setFont(BODY_BOLD, 8.5)
        canv.drawCentredString(width / 2, self.bottomMargin - 24, str(canv.getPageNumber()))
        canv.restoreState()

    def beforeDocument(self) -> None:
        self._last_level = -1
        self.section = ""
        self.page_section = None
        for hook in self.canvas_hooks:  # each pass of multiBuild draws on a fresh canvas
            hook(self.canv)
        self.canv.showOutline()

    def afterFlowable(self, flowable: Flowable) -> None:
        """Every heading gets a bookmark, an outline entry and (unless hidden) a contents line."""
        if not isinstance(flowable, Heading):
            return
        level = min(flowable.level - 1, self._last_level + 1)
        self._last_level = level
        self.canv.bookmarkPage(flowable.key)
        self.canv.addOutlineEntry(flowable.plain, flowable.key, level=level, closed=level > 0)
        if level == 0:
            if self.page_section is None:
                self.page_section = flowable.plain
            self.section = flowable.plain
        if getattr(flowable, "in_toc", True) and flowable.level <= 2:
            self.notify("TOCEntry", (level, flowable.plain, self.page, flowable.key))


def contents(styles: dict[str, ParagraphStyle]) -> TableOfContents:
    """The table of contents (filled in by RulesDocument.multiBuild; every line links to its heading)."""
    toc = TableOfContents(dotsMinLevel=0)
    toc.tableStyle = TableStyle([("FONT", (0, 0), (-1, -1), BODY, 9), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                 ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                                 ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0)])
    toc.levelStyles = [
        ParagraphStyle("toc0", parent=styles["body"], fontName=BODY_BOLD, fontSize=9.5, leading=13, spaceAfter=1,
                       leftIndent=0, firstLineIndent=0),
        ParagraphStyle("toc1", parent=styles["body"], fontSize=8.5, leading=11, spaceAfter=0, leftIndent=12,
                       firstLineIndent=0),
    ]
    return toc


def build_document(path: str, flowables: list[Flowable], *, title: str, header: str,
                   page_size: tuple[float, float], subject: str = "Rules", canvas_hooks: list | None = None) -> None:
    """Lay out cover + body flowables (the body starts on the 'body' page template) with two passes for the TOC."""
    doc = RulesDocument(path, title=title, header=header, page_size=page_size, subject=subject,
                        canvas_hooks=canvas_hooks)
    doc.multiBuild(flowables, maxPasses=6)


def hidden_heading(text: str, style: ParagraphStyle, key: str) -> Heading:
    """A level-1 heading that gets a bookmark but no line in the contents (e.g. 'Contents' itself)."""
    heading = Heading(f'<a name="{key}"/>{escape(text)}', style, 1, key, text)
    heading.in_toc = False
    return heading


__all__ = ["Converter", "Heading", "NoteBox", "RulesDocument", "NextPageTemplate", "build_document", "contents",
           "hidden_heading", "make_styles"]
