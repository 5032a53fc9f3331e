"""The saddle-stitch booklets of the rules: the reading pages placed two per landscape sheet side, in print
order.

Each reading page becomes one Form XObject in a booklet; its content is the page's stream as ReportLab laid it
out, compressed once for every booklet of the rules (`ReadingPages`), and its resources are copied from the
reading PDF. The booklet is written directly (generator.booklet.pdfsyntax): the reading PDF is ReportLab's own
output, so no general PDF library is loaded to read it back.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.booklet.imposition import fit, halves, imposition
from generator.booklet.pdfsyntax import (
    NULL,
    Name,
    Ref,
    SourcePdf,
    Stream,
    content_bytes,
    content_operations,
    serialize,
    stream_data,
)
from generator.core.fonts import BODY, BODY_BOLD, draw_string, register_fonts
from generator.core.geometry import paper_of
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import mm

FOLD_TICK_EDGE = mm(6)  # fold ticks start this far from the paper edge (printers leave 3-5 mm unprinted)
FOLD_TICK = mm(4)
# the resources a sheet side takes from the overlay, in the order they are merged; then its /ProcSet
_MERGED = ("ExtGState", "ColorSpace", "Pattern", "Shading", "XObject", "Font", "Properties")


class ReadingPages:
    """The reading PDF as every booklet of it places its pages: read once, and each page's content compressed
    once.

    `contents` are the pages' content streams as laid out (Reading.contents; None: decoded from the PDF)."""

    def __init__(self, source: SourcePdf, contents: list[bytes | None] | None = None):
        self.source = source
        self.pages = source.pages()
        self.contents = contents
        self._compressed: dict[int, bytes] = {}

    @classmethod
    def of(cls, pdf: bytes, contents: list[bytes | None] | None = None) -> ReadingPages:
        """The pages of a reading PDF given as bytes."""
        return cls(SourcePdf(pdf), contents)

    def content(self, number: int) -> bytes:
        """Page `number`'s (1-based) content stream, uncompressed."""
        content = self.contents[number - 1] if self.contents else None
        if content is None:
            page = self.pages[number - 1]
            parts = page.get("Contents")
            parts = parts if isinstance(parts, list) else [parts] if parts is not None else []
            content = b"".join(stream_data(self.source.resolve(part)) for part in parts)
        return content

    def compressed(self, number: int) -> bytes:
        """Page `number`'s (1-based) content stream, Flate-compressed."""
        found = self._compressed.get(number)
        if found is None:
            found = self._compressed[number] = zlib.compress(self.content(number), -1)
        return found

    def size(self, number: int) -> tuple[float, float]:
        """Page `number`'s width and height."""
        x0, y0, x1, y1 = self.pages[number - 1]["MediaBox"]
        return x1 - x0, y1 - y0


class _Writer:
    """A booklet's objects, numbered in the order the booklets have always numbered them: each object copied
    from a source PDF when it is first referenced (before the objects it refers to), each made object when
    added."""

    def __init__(self):
        self.objects: list[object] = []
        # per source (by id): source object number -> booklet number
        self.copied: dict[int, dict[int, int]] = {}

    def add(self, value: object) -> Ref:
        self.objects.append(value)
        return Ref(len(self.objects))

    def copy(self, source: SourcePdf, value: object) -> object:
        """`value` from `source` with every object it refers to copied into the booklet (each once)."""
        if isinstance(value, Ref):
            numbers = self.copied.setdefault(id(source), {})
            if value.number not in numbers:
                slot = self.add(NULL)
                numbers[value.number] = slot.number
                self.objects[slot.number - 1] = self.copy(source, source.get(value.number))
            return Ref(numbers[value.number])
        if isinstance(value, dict):
            return {key: self.copy(source, item) for key, item in value.items()}
        if isinstance(value, list):
            return [self.copy(source, item) for item in value]
        if isinstance(value, Stream):
            return Stream(self.copy(source, value.entries), value.data)
        return value

    def write(self, handle) -> None:
        out = io.BytesIO()
        out.write(b"%PDF-1.3\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, value in enumerate(self.objects, start=1):
            offsets.append(out.tell())
            out.write(b"%d 0 obj\n" % number + serialize(value) + b"\nendobj\n")
        xref = out.tell()
        out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(self.objects) + 1))
        out.write(b"".join(b"%010d 00000 n \n" % offset for offset in offsets))
        trailer = {Name("Size"): len(self.objects) + 1, Name("Root"): Ref(3), Name("Info"): Ref(1)}
        out.write(b"trailer\n" + serialize(trailer) + b"\nstartxref\n%d\n%%%%EOF\n" % xref)
        handle.write(out.getvalue())


# The printing note's baseline on the inside of the cover (page 2, the contents): between the page number
# (18 pt from the page's foot) and the text frame (42 pt), scaled as the page is (97 % on A4).
NOTE_BASELINE = 29.0


def _overlay(sheet: tuple[float, float], sides: int, note: str) -> SourcePdf:
    """Per sheet side: fold ticks at the spine, and the printing note at the foot of page 2 (the inside of the
    cover, left on the back of sheet 1): the cover shows the game, not how to print it.

    The ticks keep FOLD_TICK_EDGE from the paper edge, inside the margin every home printer prints."""
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
        if index == 1:
            canv.setFont(BODY_BOLD, 7.5)
            canv.setFillColor(colors.HexColor("#555555"))
            draw_string(canv, w * 0.25, NOTE_BASELINE, note, BODY_BOLD, 7.5, "center")
        canv.showPage()
    canv.save()
    return SourcePdf(buffer.getvalue())


def _page_form(writer: _Writer, pages: ReadingPages, number: int) -> Ref:
    """Reading page `number` as a Form XObject: its compressed content placed as it is, its resources
    copied."""
    page = pages.pages[number - 1]
    resources = writer.copy(pages.source, pages.source.resolve(page["Resources"]))
    return writer.add(
        Stream(
            {
                Name("Type"): Name("XObject"),
                Name("Subtype"): Name("Form"),
                Name("BBox"): [float(v) for v in page["MediaBox"]],
                Name("Resources"): resources,
                Name("Filter"): Name("FlateDecode"),
            },
            pages.compressed(number),
        )
    )


def _merge_overlay(writer: _Writer, resources: dict, overlay: SourcePdf, page: dict) -> bytes:
    """The overlay page's resources added to a sheet side's (copied, names sorted), and its content isolated
    and clipped to its page, one operation a line."""
    theirs = overlay.resolve(page.get("Resources", {}))
    for kind in _MERGED:
        if kind not in theirs:
            continue
        merged = resources.setdefault(Name(kind), {})
        for key, value in overlay.resolve(theirs[kind]).items():
            if key in merged:
                raise ValueError(f"overlay resource {kind}/{key} is already on the sheet side")
            merged[key] = writer.copy(overlay, value)
        resources[Name(kind)] = dict(sorted(merged.items()))
    if "ProcSet" in theirs:
        procs = resources.setdefault(Name("ProcSet"), [])
        procs += [proc for proc in overlay.resolve(theirs["ProcSet"]) if proc not in procs]
        procs.sort()
    parts = page.get("Contents")
    parts = parts if isinstance(parts, list) else [parts]
    x0, y0, x1, y1 = page["MediaBox"]
    operations = [([], b"q"), ([float(x0), float(y0), float(x1 - x0), float(y1 - y0)], b"re"), ([], b"W"),
                  ([], b"n")]
    operations += content_operations(b"".join(stream_data(overlay.resolve(part)) for part in parts))
    return content_bytes(operations + [([], b"Q")])


def impose(reading: ReadingPages, paper: str, path: Path, back: int = 0, phrases: Phrases = ENGLISH) -> int:
    """Write the saddle-stitch booklet of a reading PDF on landscape `paper`; returns the number of sheet
    sides.

    The last `back` reading pages (the back matter) stay at the end, on the back cover; blank pages go before
    them. Each reading page becomes a Form XObject placed (scaled) on its half of the sheet; links are
    dropped, since a booklet is for paper. `reading` is the reading PDF's ReadingPages, shared by the booklets
    of one rules PDF.
    """
    sheet = paper_of(paper).landscape
    sides = imposition(len(reading.pages), back=back)
    overlay = _overlay(sheet, len(sides), phrases.t("rules.print_note"))
    overlay_pages = overlay.pages()
    writer = _Writer()
    info = writer.add({Name("Producer"): "pnp"})
    kids: list[Ref] = []
    writer.add({Name("Type"): Name("Pages"), Name("Count"): 0, Name("Kids"): kids})
    writer.add({Name("Type"): Name("Catalog"), Name("Pages"): Ref(2)})
    forms: dict[int, Ref] = {}
    for index, side in enumerate(sides):
        resources: dict = {}
        target = {Name("Type"): Name("Page"), Name("Resources"): resources,
                  Name("MediaBox"): [0.0, 0.0, float(sheet[0]), float(sheet[1])], Name("Parent"): Ref(2)}
        kids.append(writer.add(target))
        xobjects, ops = {}, []
        for cell, number in zip(halves(*sheet), (side.left, side.right), strict=True):
            if number is None:
                continue
            if number not in forms:
                forms[number] = _page_form(writer, reading, number)
            place = fit(*reading.size(number), *cell)
            xobjects[Name(f"Pg{number}")] = forms[number]
            ops.append(
                f"q {place.scale:.6f} 0 0 {place.scale:.6f} {place.x:.4f} {place.y:.4f} cm /Pg{number} Do Q"
            )
        resources[Name("XObject")] = xobjects
        own = ("\n".join(ops) + "\n").encode("ascii")
        contents = writer.add(NULL)  # the side's own content, joined below with the overlay's
        target[Name("Contents")] = contents
        overlay_content = _merge_overlay(writer, resources, overlay, overlay_pages[index])
        writer.add(NULL)  # the two parts of the content before they were joined: numbered, left empty
        writer.add(NULL)
        joined = b"q\n" + own + b"\nQ\n" + overlay_content
        writer.objects[contents.number - 1] = Stream(
            {Name("Filter"): Name("FlateDecode")}, zlib.compress(joined, -1)
        )
    writer.objects[1][Name("Count")] = len(kids)
    title = reading.source.title() or phrases.t("rules.subject")
    writer.objects[info.number - 1][Name("Title")] = phrases.t(
        "rules.booklet_title", title=title, paper=paper
    )
    with open(path, "wb") as handle:
        writer.write(handle)
    return len(sides)
