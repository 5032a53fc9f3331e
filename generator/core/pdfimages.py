"""Image XObjects of pictures already encoded for PDF: a JPEG's own bytes (DCTDecode) or Flate data, written
as they are (no ASCII85 layer, nothing encoded again when the document is saved), with an optional soft mask.

`place_image(canvas, image, x, y, w, h)` embeds the picture once per document (named by its content key, so
the same picture drawn on many faces is one object) and draws it in the box, as `canvas.drawImage` does. Once
written by `core.pdfstream.save_streamed` an image lets go of its bytes.

A picture embedded as the file it is (a JPEG) holds no bytes until it is written: its `data` is a `FileBytes`,
the file as it was checked (size and time), read when the document is saved (`core.pdfstream` copies it
straight from the file), so a sheet of 300 pictures does not hold 150 MB until then. A file changed since is
a located problem, never other bytes under the length written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from reportlab.pdfbase import pdfdoc

from generator.core.errors import InputError, Problem


@dataclass(frozen=True)
class FileBytes:
    """The bytes of the file at `path` as it was when checked (`size` bytes, modified at `mtime_ns`): all of
    them, or the `spans` (offset, length) of it joined (a PNG's compressed rows, its IDAT chunks' data)."""

    path: str
    size: int
    mtime_ns: int
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def length(self) -> int:
        """How many bytes they are."""
        return sum(length for _, length in self.spans) if self.spans else self.size

    def open(self) -> BinaryIO:
        """The file opened for reading, when it is still as it was checked (else a located InputError)."""
        file = open(self.path, "rb")  # noqa: SIM115 - the caller closes it
        stat = os.fstat(file.fileno())
        if (stat.st_size, stat.st_mtime_ns) != (self.size, self.mtime_ns):
            file.close()
            raise self.changed()
        return file

    def changed(self) -> InputError:
        """The problem of a file that changed after it was checked."""
        said = "the picture changed while the build was drawing it; expected it unchanged to the end"
        return InputError(Problem(self.path, 0, f"{said}: build again"))

    def read(self) -> bytes:
        """The bytes themselves (see `open`)."""
        with self.open() as file:
            data = file.read()
        if len(data) != self.size:  # changed between the check and the reading
            raise self.changed()
        return b"".join(data[at:at + length] for at, length in self.spans) if self.spans else data


@dataclass(frozen=True)
class EncodedImage:
    """A picture as an image XObject holds it: pixel size, colour space, bits per component, the filter its
    `data` is encoded with, the filter's parameters (a PNG predictor), a Decode array (CMYK JPEGs are
    stored inverted) and its soft mask (the alpha channel, DeviceGray), if any. `key` names its content."""

    key: str
    width: int
    height: int
    colour_space: str  # DeviceRGB | DeviceGray | DeviceCMYK
    filter: str        # DCTDecode | FlateDecode
    data: bytes | FileBytes = field(repr=False)  # FileBytes: a file embedded as it is, read when written
    bits: int = 8
    predictor_colours: int = 0  # > 0: Flate data of PNG rows (Predictor 15) with this many colours a pixel
    decode: tuple[int, ...] = ()
    mask: EncodedImage | None = None

    @property
    def length(self) -> int:
        """How many bytes `data` is."""
        return self.data.length if isinstance(self.data, FileBytes) else len(self.data)

    def content(self) -> bytes:
        """The encoded bytes (a file's read now)."""
        return self.data.read() if isinstance(self.data, FileBytes) else self.data


class ImageXObject(pdfdoc.PDFObject):
    """An image XObject of an EncodedImage, formatted as it is."""

    def __init__(self, image: EncodedImage, smask: Any = None):
        self.image, self.smask = image, smask
        self.width, self.height = image.width, image.height  # what ReportLab's image objects carry

    def format(self, document) -> bytes:
        image = self.image
        if image is None:
            raise ValueError("image XObject formatted again after it was written")
        return self._stream(image).format(document)

    def pieces(self, document) -> tuple[bytes, bytes | FileBytes, bytes]:
        """The object's stream as (its dictionary and `stream` line, the picture's bytes themselves or the
        file they are in, its `endstream` line): what `format` joins, for a writer that writes the picture's
        bytes as they are rather than copying them into one string. Only for a document that encrypts
        nothing (encryption encodes the bytes)."""
        image = self.image
        if image is None:
            raise ValueError("image XObject formatted again after it was written")
        if not isinstance(document.encrypt, pdfdoc.NoEncryption):
            raise ValueError("an encrypted document's pictures are formatted whole")
        # what PDFStream.format does: the dictionary copied, its Length the content's
        dictionary = pdfdoc.PDFDictionary(self._stream(image, b"").dictionary.dict.copy())
        dictionary["Length"] = image.length
        return pdfdoc.format(dictionary, document) + b"\nstream\n", image.data, b"endstream\n"

    def _stream(self, image: EncodedImage, content: bytes | None = None) -> pdfdoc.PDFStream:
        """The image's stream (its bytes read unless `content` is given: only the dictionary is wanted)."""
        stream = pdfdoc.PDFStream(content=image.content() if content is None else content)
        entries = stream.dictionary
        entries["Type"] = pdfdoc.PDFName("XObject")
        entries["Subtype"] = pdfdoc.PDFName("Image")
        entries["Width"] = image.width
        entries["Height"] = image.height
        entries["BitsPerComponent"] = image.bits
        entries["ColorSpace"] = pdfdoc.PDFName(image.colour_space)
        if image.decode:
            entries["Decode"] = pdfdoc.PDFArray(list(image.decode))
        # a Filter in the dictionary: PDFStream applies none of the document's default filters
        entries["Filter"] = pdfdoc.PDFName(image.filter)
        if image.predictor_colours:
            entries["DecodeParms"] = pdfdoc.PDFDictionary({
                "Predictor": 15, "Colors": image.predictor_colours, "BitsPerComponent": image.bits,
                "Columns": image.width})
        if self.smask is not None:
            entries["SMask"] = self.smask
        entries["Length"] = image.length
        return stream

    def let_go(self) -> None:
        """Drop the picture's bytes once the object is written (nothing formatted later reads them)."""
        self.image = None  # type: ignore[assignment]


def xobject_name(image: EncodedImage) -> str:
    """The name of the picture's XObject in a document: the same content is the same name."""
    return f"pnpimg_{image.key[:24]}"


def embed_image(canvas: Any, image: EncodedImage) -> str:
    """The document's XObject of `image` (made on first use, its soft mask too); returns its name, as the
    canvas's list of forms in use names it."""
    document = canvas._doc  # noqa: SLF001 - the document the picture goes into
    name = xobject_name(image)
    registered = document.getXObjectName(name)
    if registered not in document.idToObject:
        smask = None
        if image.mask is not None:
            mask_name = document.getXObjectName(xobject_name(image.mask))
            if mask_name not in document.idToObject:
                document.Reference(ImageXObject(image.mask), mask_name)
            smask = pdfdoc.PDFObjectReference(mask_name)
        made = ImageXObject(image, smask)
        # what canvas.drawImage does to register an external image
        document.Reference(made, registered)
        document.addForm(name, made)
    return name


def place_image(canvas: Any, image: EncodedImage, x: float, y: float, w: float, h: float) -> None:
    """Draw `image` stretched over the box (x, y, w, h) of a ReportLab canvas (Any: the stubs leave out the
    attributes read here), its XObject embedded once per document."""
    name = embed_image(canvas, image)
    canvas._currentPageHasImages = 1  # noqa: SLF001 - what drawImage records (the page's ProcSet)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w, h)
    canvas._code.append(f"/{canvas._doc.getXObjectName(name)} Do")  # noqa: SLF001
    canvas.restoreState()
    canvas._formsinuse.append(name)  # noqa: SLF001 - what drawImage records so the page or form lists it
