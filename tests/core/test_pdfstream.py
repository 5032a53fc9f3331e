"""Saving a canvas object by object (core.pdfstream.save_streamed) gives the bytes canvas.save() gives: the
pictures' bytes written as they are, not copied into each object's string, change nothing, and an encrypted
document (whose pictures are encoded) still takes ReportLab's own formatting."""

from __future__ import annotations

import errno
import io
import random
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from generator.core.pdfimages import EncodedImage, place_image
from generator.core.pdfstream import save_streamed
from generator.faces import embedding
from tests.pdf_images import page_images


def _pictures(folder: Path) -> list[EncodedImage]:
    """A JPEG (its own bytes) and a PNG with transparency (Flate rows and a soft mask)."""
    folder.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (60, 40), (200, 30, 30)).save(folder / "red.jpg", quality=90)
    clear = Image.new("RGBA", (50, 50), (30, 30, 200, 255))
    clear.paste((0, 0, 0, 0), (0, 0, 25, 50))
    clear.save(folder / "clear.png")
    shown = embedding.Recipe((100.0, 80.0))
    return [embedding.encoded(folder / name, shown) for name in ("red.jpg", "clear.png")]


def _drawn(target, pictures: list[EncodedImage], **options) -> Canvas:
    canvas = Canvas(target, invariant=1, **options)
    for page in range(2):
        for k, picture in enumerate(pictures):
            place_image(canvas, picture, 50 + 120 * k, 600 - 100 * page, 100, 80)
        canvas.drawString(50, 50, f"page {page + 1}")
        canvas.showPage()
    return canvas


@pytest.mark.parametrize("options", [{}, {"encrypt": "secret"}], ids=["plain", "encrypted"])
def test_a_streamed_save_is_byte_identical_to_reportlabs_save(tmp_path, options):
    pictures = _pictures(tmp_path / "pictures")
    whole = io.BytesIO()
    _drawn(whole, pictures, **options).save()
    streamed = tmp_path / "streamed.pdf"
    with open(streamed, "wb") as sink:
        save_streamed(_drawn(sink, pictures, **options), sink)
    assert streamed.read_bytes() == whole.getvalue()
    if not options:  # each page shows both pictures, the JPEG as its own bytes
        found = [(page, xobject["/Filter"]) for page, _, _, xobject in page_images(streamed)]
        assert sorted(found) == [(page, kind) for page in (1, 2) for kind in ("/DCTDecode", "/FlateDecode")]
        jpeg = next(x for _, _, _, x in page_images(streamed) if x["/Filter"] == "/DCTDecode")
        assert jpeg.get_data() == (tmp_path / "pictures" / "red.jpg").read_bytes()
    else:
        reader = PdfReader(str(streamed))
        reader.decrypt("secret")
        assert "page 2" in reader.pages[1].extract_text()


def test_a_streamed_save_returns_the_digest_of_the_bytes_it_wrote(tmp_path):
    import hashlib

    pictures = _pictures(tmp_path / "pictures")
    out = tmp_path / "out.pdf"
    with open(out, "wb") as sink:
        digest = save_streamed(_drawn(sink, pictures), sink)
    assert digest == hashlib.sha256(out.read_bytes()).hexdigest()


class _FullDisk(io.BufferedWriter):
    """A file that takes 2,000 bytes, then says the disk is full."""

    def write(self, data) -> int:
        if self.tell() + len(data) > 2_000:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(data)


def test_a_full_disk_while_saving_is_raised_by_the_save_and_its_writer_stops(tmp_path):
    import threading

    pictures = _pictures(tmp_path / "pictures")
    before = threading.active_count()
    with _FullDisk(io.FileIO(tmp_path / "full.pdf", "wb")) as sink:
        canvas = _drawn(sink, pictures)
        with pytest.raises(OSError) as raised:
            save_streamed(canvas, sink)
    assert raised.value.errno == errno.ENOSPC
    assert threading.active_count() == before  # the writer thread ended with the save


def test_a_jpeg_is_copied_from_its_file_when_saved_and_a_file_changed_since_is_a_located_problem(tmp_path):
    from generator.core.errors import InputError
    from generator.core.pdfimages import FileBytes

    pictures = _pictures(tmp_path / "pictures")
    jpeg = tmp_path / "pictures" / "red.jpg"
    assert isinstance(pictures[0].data, FileBytes)  # nothing read to draw it: the file is copied when saved
    with open(tmp_path / "copied.pdf", "wb") as sink:
        save_streamed(_drawn(sink, pictures), sink)
    found = next(x for _, _, _, x in page_images(tmp_path / "copied.pdf") if x["/Filter"] == "/DCTDecode")
    assert found.get_data() == jpeg.read_bytes()
    canvas = _drawn(io.BytesIO(), pictures)  # drawn, then the picture is saved over before the PDF is
    Image.new("RGB", (60, 40), (30, 200, 30)).save(jpeg, quality=50)
    with open(tmp_path / "changed.pdf", "wb") as sink, pytest.raises(InputError) as raised:
        save_streamed(_drawn(sink, pictures), sink)
    assert raised.value.problems[0].file == str(jpeg)
    assert "the picture changed while the build was drawing it" in raised.value.problems[0].message
    with pytest.raises(InputError):
        canvas.save()  # ReportLab's own save reads it too, and says the same


def test_a_plain_pngs_rows_are_copied_from_its_chunks_when_saved(tmp_path):
    from generator.core.pdfimages import FileBytes

    folder = tmp_path / "pictures"
    folder.mkdir()
    art = Image.frombytes("RGB", (300, 200), random.Random(7).randbytes(300 * 200 * 3))  # noise: many chunks
    art.save(folder / "plain.png", compress_level=1)
    plain = embedding.encoded(folder / "plain.png", embedding.Recipe((100.0, 80.0)))
    assert isinstance(plain.data, FileBytes) and len(plain.data.spans) > 1  # its IDAT chunks, read when saved
    with open(tmp_path / "rows.pdf", "wb") as sink:
        save_streamed(_drawn(sink, [plain]), sink)
    found = next(x for _, _, _, x in page_images(tmp_path / "rows.pdf"))
    assert found["/Filter"] == "/FlateDecode"
    assert found._data == embedding.png_rows((folder / "plain.png").read_bytes())  # noqa: SLF001 - as stored
    assert found.decode_as_image().convert("RGB").tobytes() == art.tobytes()
