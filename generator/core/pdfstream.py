"""Saving a ReportLab canvas straight into its file: every PDF object is written as soon as it is formatted.

ReportLab formats the whole document into a list of strings, joins them and only then writes the file, so a sheet
of ten thousand unique cards is held in memory twice at the end. `save_streamed(canvas, file)` writes each object
as it comes instead, and lets go of each Form XObject (a card face) once it is written: nothing formatted later
reads a form. The bytes, the object offsets and the cross-reference table are exactly ReportLab's: only where the
formatted pieces go changes. Other threads and ordinary `canvas.save()` calls are not affected.
"""

from __future__ import annotations

import threading
import weakref
import zlib
from typing import BinaryIO

from reportlab.pdfbase import pdfdoc

_HERE = threading.local()  # the file the current thread's save writes to


class _StreamingFile(pdfdoc.PDFFile):
    """ReportLab's output collector; while `save_streamed` runs in this thread, it writes to the file directly."""

    def __init__(self, *args, **kwargs):
        self.document, self.objects = None, 0
        super().__init__(*args, **kwargs)  # the header is added to self.strings
        self.sink = getattr(_HERE, "sink", None)
        if self.sink is not None:
            for piece in self.strings:
                self.sink.write(piece)
            self.strings = []
            self.write = self.sink.write
            self.document = getattr(_HERE, "document", None)

    def add(self, s):
        offset = super().add(s)
        if self.document is not None:  # each add after the header is the next object, in number order
            self.objects += 1
            name = self.document.numberToId.get(self.objects)
            written = self.document.idToObject.get(name) if name is not None else None
            if isinstance(written, pdfdoc.PDFFormXObject):
                kept = written.__dict__.get(_NAME)
                written.__dict__.clear()  # its stream and the dictionaries formatting made
                if kept is not None:
                    setattr(written, _NAME, kept)  # what ReportLab checks when something names it again
        return offset

    def format(self, document):
        return b"" if self.sink is not None else super().format(document)


# what PDFDocument.format makes its collector from; the stubs type PDFFile as a class, not a settable name
pdfdoc.PDFFile = _StreamingFile  # type: ignore[misc]
_NAME = pdfdoc.__InternalName__


def save_streamed(canvas, sink: BinaryIO) -> None:
    """`canvas.save()` for a canvas made on the open binary file `sink`, written piece by piece into it."""
    _HERE.sink, _HERE.document = sink, canvas._doc  # noqa: SLF001 - the document being saved
    try:
        canvas.save()
    finally:
        _HERE.sink = _HERE.document = None


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
    """Compress each Form XObject of this canvas as soon as it is made (`form_made`), not all of them at save: a
    sheet of unique cards holds a third of the bytes until then. Only for a canvas saved with plain compressed
    streams (no ASCII85 layer), as the card sheets are."""
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
