"""The saddle-stitch booklets of the rules: the reading pages placed two per landscape sheet side, in print order.

Each reading page becomes one Form XObject in a booklet; its content is the page's stream as ReportLab laid it out,
compressed once for every booklet of the rules (`ReadingPages`), and its resources are copied from the reading PDF.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.booklet.imposition import fit, halves, imposition
from generator.core.fonts import BODY, BODY_BOLD, draw_string, register_fonts
from generator.core.geometry import PAPERS
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import mm

if TYPE_CHECKING:  # pypdf is imported where booklets are imposed (a card-only build never needs it)
    from pypdf import PdfReader

FOLD_TICK_EDGE = mm(6)  # fold ticks start this far from the paper edge (printers leave 3-5 mm unprinted)
FOLD_TICK = mm(4)


class ReadingPages:
    """The reading PDF as every booklet of it places its pages: read once, and each page's content compressed once.

    `contents` are the pages' content streams as laid out (Reading.contents; None: decoded from the PDF)."""

    def __init__(self, reader: PdfReader, contents: list[bytes | None] | None = None):
        self.reader = reader
        self.contents = contents
        self._compressed: dict[int, bytes] = {}

    @classmethod
    def of(cls, pdf: bytes, contents: list[bytes | None] | None = None) -> ReadingPages:
        """The pages of a reading PDF given as bytes."""
        from pypdf import PdfReader

        return cls(PdfReader(io.BytesIO(pdf)), contents)

    def compressed(self, number: int) -> bytes:
        """Page `number`'s (1-based) content stream, Flate-compressed as pypdf compresses a stream."""
        found = self._compressed.get(number)
        if found is None:
            from pypdf.filters import FlateDecode

            content = self.contents[number - 1] if self.contents else None
            if content is None:
                page_contents = self.reader.pages[number - 1].get_contents()
                content = page_contents.get_data() if page_contents is not None else b""
            found = self._compressed[number] = FlateDecode.encode(content)
        return found


def _overlay(sheet: tuple[float, float], sides: int, note: str) -> PdfReader:
    """Per sheet side: fold ticks at the spine, and the printing note at the foot of the cover on sheet 1.

    The ticks keep FOLD_TICK_EDGE from the paper edge, inside the margin every home printer prints."""
    from pypdf import PdfReader

    register_fonts()
    w, h = sheet
    buffer = io.BytesIO()
    canv = Canvas(buffer, pagesize=sheet, invariant=1, initialFontName=BODY)
    start, end = FOLD_TICK_EDGE, FOLD_TICK_EDGE + FOLD_TICK
    for index in range(sides):
        canv.setStrokeColor(colors.HexColor("#999999"))
        canv.setLineWidth(0.5)
        canv.line(w / 2, h - end, w / 2, h - start)
        canv.line(w / 2, start, w / 2, end)
        if index == 0:
            canv.setFont(BODY_BOLD, 8)
            canv.setFillColor(colors.HexColor("#555555"))
            draw_string(canv, w * 0.75, 24, note, BODY_BOLD, 8, "center")
        canv.showPage()
    canv.save()
    return PdfReader(buffer)


def _page_form(writer, pages: ReadingPages, number: int):
    """Reading page `number` as a Form XObject in `writer`: its compressed content placed as it is, its resources
    copied (the dictionary as pypdf's flate_encode writes it, so the booklet's bytes do not depend on who
    compressed)."""
    from pypdf.generic import ArrayObject, EncodedStreamObject, FloatObject, NameObject

    page = pages.reader.pages[number - 1]
    form = EncodedStreamObject()
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        NameObject("/Resources"): page["/Resources"].get_object().clone(writer),
        NameObject("/Filter"): NameObject("/FlateDecode"),
    })
    form._data = pages.compressed(number)
    return writer._add_object(form)


def impose(reading: PdfReader | ReadingPages, paper: str, path: Path, back: int = 0, phrases: Phrases = ENGLISH,
           contents: list[bytes | None] | None = None) -> int:
    """Write the saddle-stitch booklet of a reading PDF on landscape `paper`; returns the number of sheet sides.

    The last `back` reading pages (the back matter) stay at the end, on the back cover; blank pages go before them.
    Each reading page becomes a Form XObject placed (scaled) on its half of the sheet; links are dropped,
    since a booklet is for paper. `reading` is the reading PDF read (or its ReadingPages, shared by the booklets
    of one rules PDF); `contents` are its pages' content streams as laid out (Reading.contents), which saves
    decoding them out of the PDF again.
    """
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    pages = reading if isinstance(reading, ReadingPages) else ReadingPages(reading, contents)
    reader = pages.reader
    sheet = PAPERS[paper].landscape
    sides = imposition(len(reader.pages), back=back)
    overlay = _overlay(sheet, len(sides), phrases.t("rules.print_note"))
    writer = PdfWriter()
    forms: dict[int, object] = {}
    for index, side in enumerate(sides):
        target = writer.add_blank_page(width=sheet[0], height=sheet[1])
        xobjects, ops = DictionaryObject(), []
        for cell, number in zip(halves(*sheet), (side.left, side.right), strict=True):
            if number is None:
                continue
            source = reader.pages[number - 1]
            if number not in forms:
                forms[number] = _page_form(writer, pages, number)
            box = source.mediabox
            place = fit(float(box.width), float(box.height), *cell)
            name = f"/Pg{number}"
            xobjects[NameObject(name)] = forms[number]
            ops.append(f"q {place.scale:.6f} 0 0 {place.scale:.6f} {place.x:.4f} {place.y:.4f} cm {name} Do Q")
        content = DecodedStreamObject()
        content.set_data(("\n".join(ops) + "\n").encode("ascii"))
        target[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        target[NameObject("/Contents")] = writer._add_object(content)
        target.merge_page(overlay.pages[index])
        target.compress_content_streams()
    title = reader.metadata.title or phrases.t("rules.subject")
    writer.add_metadata({"/Title": phrases.t("rules.booklet_title", title=title, paper=paper), "/Producer": "pnp"})
    with open(path, "wb") as handle:
        writer.write(handle)
    return len(sides)
