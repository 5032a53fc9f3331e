"""Saving a ReportLab canvas straight into its file: every PDF object is written as soon as it is formatted.

ReportLab formats the whole document into a list of strings, joins them and only then writes the file, so a
sheet of ten thousand unique cards is held in memory twice at the end. `save_streamed(canvas, file)` does what
`canvas.save()` does with ReportLab's own pieces (each object formatted by PDFIndirectObject, the
cross-reference table and the trailer by their classes) but writes each object as it comes, and lets go of
each Form XObject (a card face) and each picture once it is written: nothing formatted later reads them. The
bytes, the object offsets and the cross-reference table are ReportLab's; nothing of ReportLab is replaced, so
every other save is untouched.
"""

from __future__ import annotations

import hashlib
import mmap
import queue
import threading
import weakref
import zlib
from typing import Any, BinaryIO

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc

from generator.core.pdfimages import FileBytes, ImageXObject

_NAME = pdfdoc.__InternalName__  # what ReportLab checks when something names a form again


def _prepare(canvas) -> Any:  # a PDFDocument, whose stubs leave out the attributes read here
    """What canvas.save() does before formatting: the last page, delayed fonts, the info digest, the
    outline."""
    if canvas._code:  # noqa: SLF001 - what save() would still make a page of
        canvas.showPage()
    document = canvas._doc  # noqa: SLF001 - the document being saved
    for font in document.delayedFonts:
        font.addObjects(document)
    document.info.invariant = document.invariant
    document.info.digest(document.signature)
    document.Reference(document.Catalog)
    document.Reference(document.info)
    document.Outlines.prepare(document, canvas)
    if document.Outlines.ready < 0:
        document.Catalog.Outlines = None
    return document


class _Sink:
    """The file being written, how far into it we are (the offsets of the cross-reference table) and the
    SHA-256 of what was written (the build's manifest lists it).

    The pieces are written and hashed by a thread of their own, in order, while the objects after them are
    formatted: writing and hashing a sheet of pictures (150 MB) is mostly time outside Python, on the other
    core. `close()` waits for the last piece and raises what writing raised (a full disk)."""

    _END = None  # after the last piece

    def __init__(self, file: BinaryIO):
        self.file, self.offset = file, 0
        self._hash = hashlib.sha256()
        self._failed: list[BaseException] = []
        self._pieces: queue.Queue[bytes | FileBytes | None] = queue.Queue(maxsize=256)  # not yet written
        self._writer = threading.Thread(target=self._write, name="pdf-writer", daemon=True)
        self._writer.start()

    def add(self, piece: bytes | str | FileBytes) -> int:
        data = piece if isinstance(piece, FileBytes) else pdfdoc.pdfdocEnc(piece)
        at = self.offset
        self.offset += data.length if isinstance(data, FileBytes) else len(data)
        self._pieces.put(data)
        return at

    def _write(self) -> None:
        while (piece := self._pieces.get()) is not self._END:
            if self._failed:
                continue  # taken off the queue only, so the formatting never waits on a writer that stopped
            try:
                if isinstance(piece, FileBytes):
                    self._copy(piece)
                else:
                    self.file.write(piece)
                    self._hash.update(piece)
            except BaseException as exc:  # noqa: BLE001 - raised again by close(), in the formatting thread
                self._failed.append(exc)

    def _copy(self, source: FileBytes) -> None:
        """A file's bytes written and hashed from the file itself, mapped (not read into a copy)."""
        with source.open() as file:
            if not source.size:
                return
            with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped, memoryview(mapped) as view:
                if len(mapped) != source.size:  # changed between the check and the opening
                    raise source.changed()
                for at, length in source.spans or ((0, source.size),):
                    with view[at:at + length] as part:
                        self.file.write(part)
                        self._hash.update(part)

    def close(self) -> str:
        """Wait until every piece is written; returns the hex SHA-256 of them all."""
        self._pieces.put(self._END)
        self._writer.join()
        if self._failed:
            raise self._failed[0]
        return self._hash.hexdigest()

    def abandon(self) -> None:
        """Stop the writer after what it has (formatting failed: the file is thrown away)."""
        self._failed.append(RuntimeError("the document was not saved"))
        self._pieces.put(self._END)
        self._writer.join()


def save_streamed(canvas, file: BinaryIO) -> str | None:
    """`canvas.save()` for a canvas made on the open binary file `file`, written object by object into it;
    returns the hex SHA-256 of the bytes written (None for a signed document, written whole)."""
    document = _prepare(canvas)
    # a signed document needs the whole file at once: ReportLab's way
    if getattr(document, "_digiSigs", None):
        file.write(document.format())
        return None
    document.encrypt.prepare(document)
    catalog, info = document.Reference(document.Catalog), document.Reference(document.info)
    encryption: Any = document.encrypt.info()  # None, unless the canvas was made to encrypt
    encrypt_ref = document.Reference(encryption) if encryption else None
    sink = _Sink(file)
    try:
        _write_objects(document, sink, catalog, info, encrypt_ref)
    except BaseException:
        sink.abandon()
        raise
    return sink.close()


def _write_objects(document: Any, sink: _Sink, catalog: Any, info: Any, encrypt_ref: Any) -> None:
    """Every object of the document, then its cross-reference table and trailer, into `sink`."""
    # the header ReportLab writes
    sink.add(pdfdoc.PDFFile(document._pdfVersion).format(document))  # noqa: SLF001
    numbers, offsets, ids = document.numberToId, document.idToOffset, []
    comments = not rl_config.invariant and rl_config.pdfComments
    plain = isinstance(document.encrypt, pdfdoc.NoEncryption)  # nothing encoded: pictures written as they are
    number = 0
    while (number := number + 1) in numbers:  # formatting an object may add objects after it
        name = numbers[number]
        made = document.idToObject[name]
        if comments:
            sink.add(f"% {ascii(name)}: class {type(made).__name__[:50]} \n")
        if isinstance(made, ImageXObject) and plain:
            offsets[name] = _write_picture(sink, document, name, made)
        else:
            offsets[name] = sink.add(pdfdoc.PDFIndirectObject(name, made).format(document))
        ids.append(name)
        if isinstance(made, pdfdoc.PDFFormXObject):
            _let_go(made)
        elif isinstance(made, ImageXObject):  # a picture's bytes, held only until written
            made.let_go()
    if number - 1 != len(numbers):
        raise ValueError(f"object {number} of {len(numbers)} missing while saving")  # as ReportLab checks
    xref = pdfdoc.PDFCrossReferenceTable()
    xref.addsection(0, ids)
    start = sink.add(xref.format(document))
    trailer = pdfdoc.PDFTrailer(startxref=start, Size=len(numbers) + 1, Root=catalog, Info=info,
                                Encrypt=encrypt_ref, ID=document.ID())
    sink.add(trailer.format(document))


def _write_picture(sink: _Sink, document: Any, name: str, picture: ImageXObject) -> int:
    """Write a picture's object as PDFIndirectObject formats it, its bytes written as they are (not copied
    into the object's string three times over: a sheet of art cards is mostly picture bytes); returns its
    offset."""
    n, v = document.idToObjectNumberAndVersion[name]
    document.encrypt.register(n, v)
    head, data, tail = picture.pieces(document)
    at = sink.add(pdfdoc.pdfdocEnc(f"{n} {v} obj\n") + head)
    sink.add(data)
    sink.add(tail + b"endobj\n")  # the stream ends with a newline: nothing added before endobj
    return at


def _let_go(form: pdfdoc.PDFFormXObject) -> None:
    """Drop a written form's stream and the dictionaries formatting made; keep only the name ReportLab
    checks."""
    kept = form.__dict__.get(_NAME)
    form.__dict__.clear()
    if kept is not None:
        setattr(form, _NAME, kept)


class _Deflated(pdfdoc.PDFStream):
    """A stream whose content was compressed when it was made: formats exactly as a PDFStream with ReportLab's
    FlateDecode filter applied at save would."""

    def format(self, document):
        dictionary = pdfdoc.PDFDictionary(self.dictionary.dict.copy())
        dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
        content = document.encrypt.encode(self.content)
        formatted = pdfdoc.format(content, document)
        dictionary["Length"] = len(content)
        return pdfdoc.format(dictionary, document) + b"\nstream\n" + formatted + b"endstream\n"


_DEFLATING: weakref.WeakSet = weakref.WeakSet()  # canvases whose forms are compressed as they are made


def deflate_forms(canvas) -> None:
    """Compress each Form XObject of this canvas as soon as it is made (`form_made`), not all of them at save:
    a sheet of unique cards holds a third of the bytes until then. Only for a canvas saved with plain
    compressed streams (no ASCII85 layer), as the card sheets are."""
    _DEFLATING.add(canvas)


def form_made(canvas, name: str) -> None:
    """Called after `canvas.endForm()` of form `name`: compresses it now when the canvas asked for that."""
    if canvas not in _DEFLATING:
        return
    form = canvas._doc.idToObject.get(pdfdoc.xObjectName(name))  # noqa: SLF001 - the form just made
    if isinstance(form, pdfdoc.PDFFormXObject) and form.compression and form.stream and not form.Contents:
        form.Contents = _Deflated(content=zlib.compress(form.stream))
        form.stream = None


def plain_streams(canvas) -> None:
    """Give every compressed page and form of the canvas its content compressed without the ASCII85 layer
    ReportLab adds by default (rl_config.useA85): a quarter smaller and, in pure Python, a large share of the
    time to save a big sheet file. Call it just before saving; ReportLab's settings stay as they are for
    everything else. A page or form given its content formats it as is, as ReportLab does with useA85 off."""
    if canvas._code:  # noqa: SLF001 - what canvas.save() would still make a page of
        canvas.showPage()
    for made in canvas._doc.idToObject.values():  # noqa: SLF001 - the document about to be saved
        if isinstance(made, pdfdoc.PDFPage) and made.compression and made.stream and not made.Contents:
            made.Contents = pdfdoc.PDFStream(content=made.stream, filters=[pdfdoc.PDFZCompress])
        elif isinstance(made, pdfdoc.PDFFormXObject) and made.compression and made.stream \
                and not made.Contents:
            made.Contents = _Deflated(content=pdfdoc.PDFZCompress.encode(made.stream))
            made.stream = None
