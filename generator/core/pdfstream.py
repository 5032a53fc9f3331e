"""Saving a ReportLab canvas straight into its file: every PDF object is written as soon as it is formatted.

ReportLab formats the whole document into a list of strings, joins them and only then writes the file, so a sheet
of ten thousand unique cards is held in memory twice at the end. `save_streamed(canvas, file)` writes each object
as it comes instead. The bytes, the object offsets and the cross-reference table are exactly ReportLab's: only
where the formatted pieces go changes. Other threads and ordinary `canvas.save()` calls are not affected.
"""

from __future__ import annotations

import threading
from typing import BinaryIO

from reportlab.pdfbase import pdfdoc

_HERE = threading.local()  # the file the current thread's save writes to


class _StreamingFile(pdfdoc.PDFFile):
    """ReportLab's output collector; while `save_streamed` runs in this thread, it writes to the file directly."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)  # the header is added to self.strings
        self.sink = getattr(_HERE, "sink", None)
        if self.sink is not None:
            for piece in self.strings:
                self.sink.write(piece)
            self.strings = []
            self.write = self.sink.write

    def format(self, document):
        return b"" if self.sink is not None else super().format(document)


pdfdoc.PDFFile = _StreamingFile  # what PDFDocument.format makes its collector from


def save_streamed(canvas, sink: BinaryIO) -> None:
    """`canvas.save()` for a canvas made on the open binary file `sink`, written piece by piece into it."""
    _HERE.sink = sink
    try:
        canvas.save()
    finally:
        _HERE.sink = None
