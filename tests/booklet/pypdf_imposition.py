"""The booklets as pypdf imposed them before pnp wrote them itself (generator.booklet.imposed): the reference
the booklets' bytes are compared with."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    EncodedStreamObject,
    FloatObject,
    NameObject,
)
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.booklet.imposed import FOLD_TICK, FOLD_TICK_EDGE, NOTE_BASELINE
from generator.booklet.imposition import fit, halves, imposition
from generator.core.fonts import BODY, BODY_BOLD, draw_string, register_fonts
from generator.core.geometry import PAPERS
from generator.core.phrases import ENGLISH, Phrases


def _overlay(sheet: tuple[float, float], sides: int, note: str) -> PdfReader:
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
        if index == 1:  # the note on the inside of the cover
            canv.setFont(BODY_BOLD, 7.5)
            canv.setFillColor(colors.HexColor("#555555"))
            draw_string(canv, w * 0.25, NOTE_BASELINE, note, BODY_BOLD, 7.5, "center")
        canv.showPage()
    canv.save()
    return PdfReader(buffer)


def _page_form(writer: PdfWriter, reader: PdfReader, number: int):
    page = reader.pages[number - 1]
    content = page.get_contents()
    form = EncodedStreamObject()
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        NameObject("/Resources"): page["/Resources"].get_object().clone(writer),
        NameObject("/Filter"): NameObject("/FlateDecode"),
    })
    from pypdf.filters import FlateDecode

    form._data = FlateDecode.encode(content.get_data() if content is not None else b"")
    return writer._add_object(form)


def pypdf_impose(pdf: bytes, paper: str, path: Path, back: int = 0, phrases: Phrases = ENGLISH) -> int:
    """The booklet of the reading PDF `pdf` as pypdf wrote it (pnp's imposition until pnp wrote booklets
    itself)."""
    reader = PdfReader(io.BytesIO(pdf))
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
                forms[number] = _page_form(writer, reader, number)
            box = source.mediabox
            place = fit(float(box.width), float(box.height), *cell)
            name = f"/Pg{number}"
            xobjects[NameObject(name)] = forms[number]
            ops.append(
                f"q {place.scale:.6f} 0 0 {place.scale:.6f} {place.x:.4f} {place.y:.4f} cm {name} Do Q"
            )
        content = DecodedStreamObject()
        content.set_data(("\n".join(ops) + "\n").encode("ascii"))
        target[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        target[NameObject("/Contents")] = writer._add_object(content)
        target.merge_page(overlay.pages[index])
        target.compress_content_streams()
    title = reader.metadata.title or phrases.t("rules.subject")
    writer.add_metadata(
        {"/Title": phrases.t("rules.booklet_title", title=title, paper=paper), "/Producer": "pnp"}
    )
    with open(path, "wb") as handle:
        writer.write(handle)
    return len(sides)
