"""The rules document: paragraph styles, running header and page numbers, outline, bookmarks and contents."""

from __future__ import annotations

import html
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, TableStyle
from reportlab.platypus.tableofcontents import TableOfContents
from reportlab.rl_config import _FUZZ

from generator.booklet.balance import Balance, HeadingPlace
from generator.core.fonts import BODY, BUILT_IN, FontTable, draw_string, fallback_for_face, register_fonts


def escape(text: str) -> str:
    """Plain text as Paragraph markup: &, < and > escaped, quotes kept (as xml.sax.saxutils.escape does, whose
    import pulls in urllib, http and ssl: some 10 ms of every rules build)."""
    return html.escape(text, quote=False)


INK = colors.HexColor("#222222")
ACCENT_HEX = "#b8401f"  # titles, bullets, links, callouts
ACCENT = colors.HexColor(ACCENT_HEX)
NOTE_FILL = colors.HexColor("#fff4dc")
NOTE_EDGE = colors.HexColor("#e8b04a")
RULE_GREY = colors.HexColor("#bbbbbb")
HEADER_FILL = colors.HexColor("#f3e3d3")
# Reading pages are half-letter (5.5 x 8.5 in): exactly half a Letter sheet, and 97 % of half an A4 sheet.
PAGE_SIZE = (5.5 * 72.0, 8.5 * 72.0)
# pt at the sides; 12 pt more at the top (the running header) and 6 pt more at the foot (the number)
MARGIN = 36.0


def text_frame(page_size: tuple[float, float] = PAGE_SIZE, margin: float = MARGIN) -> tuple[float, float]:
    """The width and height of a rules page's text frame."""
    return page_size[0] - 2 * margin, page_size[1] - 2 * margin - 18


def make_styles(base_size: float = 9.5, fonts: FontTable = BUILT_IN) -> dict[str, ParagraphStyle]:
    """Paragraph styles in the game's fonts (built in: title = Fredoka, body = Lato); `bold` names the
    bold face of the body font for bullets and table heads."""
    register_fonts()
    title, body_face, bold = fonts["title"].name, fonts["body"].name, fonts["body"].face("bold").name
    lead = base_size * 1.3
    body = ParagraphStyle("body", fontName=body_face, fontSize=base_size, leading=lead, textColor=INK,
                          spaceAfter=base_size * 0.55, allowOrphans=0, allowWidows=0)
    styles = {
        "body": body,
        "bold": ParagraphStyle("bold", parent=body, fontName=bold),
        "cell": ParagraphStyle(
            "cell", parent=body, fontSize=base_size - 1, leading=(base_size - 1) * 1.22, spaceAfter=0
        ),
        "cell_head": ParagraphStyle(
            "cell_head",
            parent=body,
            fontName=bold,
            fontSize=base_size - 1,
            leading=(base_size - 1) * 1.22,
            spaceAfter=0,
        ),
        "caption": ParagraphStyle(
            "caption",
            parent=body,
            fontSize=base_size - 1.5,
            leading=(base_size - 1.5) * 1.25,
            alignment=TA_CENTER,
            textColor=colors.HexColor("#555555"),
        ),
        "list": ParagraphStyle("list", parent=body, spaceAfter=base_size * 0.25),
    }
    sizes = {1: 17, 2: 12.5, 3: 10.5}
    for level, size in sizes.items():
        styles[f"h{level}"] = ParagraphStyle(
            f"h{level}",
            parent=body,
            fontName=title if level < 3 else bold,
            fontSize=size,
            leading=size * 1.2,
            textColor=ACCENT if level == 1 else INK,
            spaceBefore=size * (0.2 if level == 1 else 0.7),
            spaceAfter=size * 0.35,
            keepWithNext=1,
        )
    return styles


class RulesParagraph(Paragraph):
    """A Paragraph that breaks its lines once per width.

    ReportLab wraps a flowable again for every place it tries it (a frame, a table's row heights, a list, a
    KeepTogether) and on every pass of a build, and a paragraph's lines for a width never change: its first
    wrap at a width is remembered and handed back (the same lines, so the same PDF)."""

    _wrapped: tuple | None = None  # (width, lines, height, widest line) of the last wrap

    def wrap(self, availWidth, availHeight):  # noqa: N803 - ReportLab's names
        wrapped = self._wrapped
        if wrapped is not None and wrapped[0] == availWidth:
            _, self.blPara, self.height, self._width_max, self._wrapWidths = wrapped
            self.width = availWidth
            return availWidth, self.height
        size = super().wrap(availWidth, availHeight)
        if availWidth >= _FUZZ:  # ReportLab's "no room at all" answer sets nothing to remember
            self._wrapped = (availWidth, self.blPara, self.height, self._width_max, self._wrapWidths)
        return size


def para(markup: str, style: ParagraphStyle) -> Paragraph:
    """A Paragraph whose characters missing from the style's face are set in its fallback faces."""
    return RulesParagraph(fallback_for_face(markup, style.fontName), style)


class Heading(RulesParagraph):
    """A heading paragraph that knows its level and a stable key for outline, TOC and links."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str, plain: str):
        super().__init__(fallback_for_face(text, style.fontName), style)
        self.level = level
        self.key = key
        self.plain = plain


def _not_drawn(*_args, **_kwargs) -> None:
    """drawOn during a sketch pass: the flowable is laid out (wrapped, split, placed) but not drawn."""


class _SketchFrame(Frame):
    """A frame that lays flowables out without drawing them while `sketching` (the first pass of a build)."""

    sketching = False

    def add(self, flowable, canv, trySplit=0):  # noqa: N803 - ReportLab's names
        if not self.sketching:
            return super().add(flowable, canv, trySplit)
        flowable.drawOn = _not_drawn  # on this instance only; drawing is all that differs from a real pass
        try:
            return super().add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


class BackCover(Flowable):
    """Marks the page where the back matter starts: `page` (1-based) once drawn; the booklet keeps it last."""

    page: int | None = None

    def wrap(self, avail_w, avail_h):  # noqa: ARG002 - ReportLab Flowable.wrap hook
        return 0, 0

    def draw(self):
        self.page = self.canv.getPageNumber()


class RulesDocument(BaseDocTemplate):
    """A rules document: cover page without header, then pages with running header, page number and outline.

    The back matter (from a BackCover mark on) is the booklet's back cover: its pages keep the running header
    but carry no page number, as the front cover carries none."""

    def __init__(
        self,
        path: str,
        *,
        title: str,
        header: str,
        page_size: tuple[float, float],
        margin: float = MARGIN,
        canvas_hooks: list | None = None,
        fonts: FontTable = BUILT_IN,
        **kwargs,
    ):
        register_fonts()
        self.canvas_hooks = list(canvas_hooks or [])
        self.faces = (fonts["body"].name, fonts["body"].face("bold").name)
        super().__init__(
            path,
            pagesize=page_size,
            leftMargin=margin,
            rightMargin=margin,
            topMargin=margin + 12,
            bottomMargin=margin + 6,
            title=title,
            author=kwargs.pop("author", ""),
            creator="pnp",
            subject=kwargs.pop("subject", "Rules"),
            invariant=1,
            initialFontName=BODY,
            **kwargs,
        )
        self.header = header
        self.section = ""
        self.page_section: str | None = None
        self._last_level = -1
        self.back_matter = False  # from the BackCover mark on: no page number
        frame = _SketchFrame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", frames=[frame]),
            PageTemplate("body", frames=[frame], onPage=self._start_page, onPageEnd=self._decorate),
        ])

    def _start_page(self, canv, doc) -> None:  # noqa: ARG002 - ReportLab onPage callback
        # the header names the first chapter starting on a page, else the one running on
        self.page_section = None

    def _decorate(self, canv, doc) -> None:  # noqa: ARG002 - ReportLab onPageEnd callback
        width, height = self.pagesize
        body, bold = self.faces
        canv.saveState()
        canv.setFont(body, 7.5)
        canv.setFillColor(colors.HexColor("#777777"))
        top = height - self.topMargin + 14
        draw_string(canv, self.leftMargin, top, self.header, body, 7.5)
        section = self.page_section or self.section
        if section:
            draw_string(canv, width - self.rightMargin, top, section, body, 7.5, "right")
        canv.setStrokeColor(RULE_GREY)
        canv.setLineWidth(0.4)
        canv.line(self.leftMargin, top - 4, width - self.rightMargin, top - 4)
        if not self.back_matter:
            canv.setFont(bold, 8.5)
            canv.drawCentredString(width / 2, self.bottomMargin - 24, str(canv.getPageNumber()))
        canv.restoreState()

    def multiBuild(self, story, maxPasses=10, contents=None, draw=True, **kwargs):  # noqa: N803
        """ReportLab's passes until the contents and page references settle, after passes that only lay the
        story out (nothing drawn, so no icon, card or board is drawn for a canvas that is thrown away) until
        the contents settle: the pages and headings they find are what drawn passes would find, so the drawn
        pass and the PDF are the same. `contents`: the entries the contents settled on when the same story
        was laid out before (`settled_contents`): drawn at once, laid out first only if they do not settle
        there. Not `draw`: laid out only (the pages' fills and headings, for the balancing)."""
        self._indexingFlowables = [thing for thing in story if thing.isIndexing()]
        if contents is not None and self._drawn(story, maxPasses, contents, **kwargs):
            return 1
        passes = self._sketch(story, maxPasses)
        return passes + (super().multiBuild(story, maxPasses=maxPasses - passes, **kwargs) if draw else 0)

    def _sketch(self, story, passes: int) -> int:
        """Passes that lay the story out without drawing it until its contents settle (at most `passes`)."""
        done = 0
        while done < passes:
            done += 1
            for flowable in self._indexingFlowables:
                flowable.beforeBuild()
            self._doSave = 0  # nothing of these passes is saved
            # what a pass changes on the story's flowables (keepWithNext), undone after it
            edits: list[tuple] = []
            self._multiBuildEdits = edits.append
            _SketchFrame.sketching = True
            try:
                self.build(story[:])
            finally:
                _SketchFrame.sketching = False
                del self._multiBuildEdits
            for flowable in self._indexingFlowables:
                flowable.afterBuild()
            for edit in edits:
                edit[0](*edit[1:])
            if self._allSatisfied():
                break
        return done

    def _drawn(self, story, passes: int, contents: list, **kwargs) -> bool:  # noqa: ARG002
        """One drawn pass with the contents given: True when they settled there (the PDF is saved), else
        the story is as before it and nothing is saved."""
        tocs = self._indexingFlowables
        if len(tocs) != 1 or not isinstance(tocs[0], TableOfContents):
            return False
        tocs[0]._entries = [tuple(entry) for entry in contents]  # noqa: SLF001
        edits: list[tuple] = []
        self._multiBuildEdits = edits.append
        tocs[0].beforeBuild()
        self._doSave = 0
        try:
            self.build(story[:], **kwargs)
        finally:
            del self._multiBuildEdits
        tocs[0].afterBuild()
        if self._allSatisfied():
            self.canv.save()
            return True
        for edit in edits:
            edit[0](*edit[1:])
        tocs[0]._entries = []  # noqa: SLF001 - laid out afresh
        return False

    def settled_contents(self) -> list:
        """The entries the contents settled on (to draw the same story again at once)."""
        return [list(entry) for toc in self._indexingFlowables if isinstance(toc, TableOfContents)
                for entry in toc._entries]  # noqa: SLF001

    def _filled(self, below: float) -> float:
        """How far down the text frame `below` (a y on the page) is: 0 at its top, 1 at its foot."""
        frame = self.frame
        return max(0.0, min(1.0, (frame._y2 - below) / frame._height))

    def afterPage(self) -> None:
        """Each page's fill, for the page balancing (booklet.balance)."""
        self.fills.append(self._filled(self.frame._y))

    def beforeDocument(self) -> None:
        self.fills: list[float] = []  # each page's fill, this pass
        self.heading_places: list[HeadingPlace] = []
        self._last_level = -1
        self.section = ""
        self.page_section = None
        self.back_matter = False
        for hook in self.canvas_hooks:  # each pass of multiBuild draws on a fresh canvas
            hook(self.canv)
        self.canv.showOutline()

    def afterFlowable(self, flowable: Flowable) -> None:
        """Every heading gets a bookmark, an outline entry and (unless hidden) a contents line."""
        if isinstance(flowable, BackCover):
            self.back_matter = True
        if not isinstance(flowable, Heading):
            return
        self.heading_places.append(HeadingPlace(flowable.key, flowable.level, self.page,
                                                self._filled(self.frame._y + flowable.height)))
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


class Contents(TableOfContents):
    """ReportLab's table of contents, with fallback faces for heading characters its faces lack."""

    def addEntry(self, level, text, pageNum, key=None):  # noqa: N802, N803 - ReportLab's names
        style = self.levelStyles[min(level, len(self.levelStyles) - 1)]
        super().addEntry(level, fallback_for_face(text, style.fontName), pageNum, key)


def contents(styles: dict[str, ParagraphStyle]) -> TableOfContents:
    """The table of contents (filled in by RulesDocument.multiBuild; every line links to its heading)."""
    toc = Contents(dotsMinLevel=0)
    toc.tableStyle = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), styles["body"].fontName, 9),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]
    )
    toc.levelStyles = [
        ParagraphStyle(
            "toc0",
            parent=styles["body"],
            fontName=styles["bold"].fontName,
            fontSize=9.5,
            leading=13,
            spaceAfter=1,
            leftIndent=0,
            firstLineIndent=0,
        ),
        ParagraphStyle(
            "toc1",
            parent=styles["body"],
            fontSize=8.5,
            leading=11,
            spaceAfter=0,
            leftIndent=12,
            firstLineIndent=0,
        ),
    ]
    return toc


def build_document(path: str, flowables: list[Flowable], *, title: str, header: str,
                   page_size: tuple[float, float], subject: str = "Rules", canvas_hooks: list | None = None,
                   fonts: FontTable = BUILT_IN) -> tuple[list[bytes | None], Balance]:
    """Lay out cover + body flowables (the body starts on the 'body' page template) with two passes for the
    TOC; returns each page's content stream as written before compression (None for a page ReportLab filled
    itself) and how full the pages are."""
    laid = lay_out_document(path, flowables, title=title, header=header, page_size=page_size, subject=subject,
                            canvas_hooks=canvas_hooks, fonts=fonts)
    return laid.streams, laid.balance


@dataclass
class LaidOut:
    """A rules document as laid out: each page's content stream (none when only laid out), how full the
    pages are, and the entries its contents settled on (to draw the same story again at once)."""

    streams: list[bytes | None]
    balance: Balance
    contents: list


def lay_out_document(path: str, flowables: list[Flowable], *, contents: list | None = None, draw: bool = True,
                     **settings) -> LaidOut:
    """build_document's passes (`settings`: its title, header, page_size, subject, canvas_hooks and fonts),
    with the contents' entries of an earlier layout of the same story (`contents`: drawn at once when they
    settle there) and, not `draw`, without the drawn pass or PDF (the balancing measures a layout so)."""
    doc = RulesDocument(path, **settings)
    doc.multiBuild(flowables, maxPasses=6, contents=contents, draw=draw)
    # ReportLab's page streams are str, written out as UTF-8 (PDFStreamFilterZCompress); the booklets place
    # these bytes instead of decoding them back out of the PDF.
    streams = [(page.stream.encode("utf-8") if isinstance(page.stream, str) else page.stream) or None
               for page in doc.canv._doc.Pages.pages] if draw else []
    return LaidOut(streams, Balance(tuple(doc.fills), tuple(doc.heading_places)), doc.settled_contents())


def hidden_heading(text: str, style: ParagraphStyle, key: str) -> Heading:
    """A level-1 heading that gets a bookmark but no line in the contents (e.g. 'Contents' itself)."""
    heading = Heading(f'<a name="{key}"/>{escape(text)}', style, 1, key, text)
    heading.in_toc = False
    return heading
