"""The PDF syntax the booklets are read and written in: ReportLab's objects parsed, written as pypdf writes
them."""

from __future__ import annotations

import io

import pytest
from pypdf.generic import ArrayObject, FloatObject, NameObject, NumberObject, TextStringObject
from pypdf.generic._utils import decode_pdfdocencoding
from reportlab.pdfgen.canvas import Canvas

from generator.booklet import pdfsyntax
from generator.booklet.pdfsyntax import Name, Ref, SourcePdf, Text, Unsupported, parse, serialize


def _pypdf(value) -> bytes:
    out = io.BytesIO()
    value.write_to_stream(out)
    return out.getvalue()


@pytest.mark.parametrize(
    "number", [0.0, 841.8897637795275, 595.2756, 0.972673, 12.0, -3.5e-05, 1234567.891, 0.1]
)
def test_reals_are_written_to_eight_significant_digits(number):
    assert serialize(number) == _pypdf(FloatObject(number))


@pytest.mark.parametrize(
    "text",
    ["Order Up \u2013 Rules (booklet, a4)", "Pravidla hry \u010ce\u0161tina", "caf\u00e9 \u20ac5", "plain"],
)
def test_text_strings_are_written_as_pdf_readers_expect(text):
    assert serialize(text) == _pypdf(TextStringObject(text))


def test_names_numbers_arrays_and_references():
    value = {Name("Type"): Name("Font"), Name("A#B (c)"): [1, 2.5, Ref(7), True, Name("\u00e9")]}
    assert serialize(value, {7: 9}) == (b"<<\n/Type /Font\n/A#23B#20#28c#29 [ 1 2.5 9 0 R true /#C3#A9 ]\n>>")
    assert serialize([NumberObject(3)]) == _pypdf(ArrayObject([NumberObject(3)]))
    assert pdfsyntax.name("F1+0") == _pypdf(NameObject("/F1+0"))


def test_pdfdocencoding_is_the_one_pdf_readers_decode():
    for byte in range(256):
        try:
            expected = decode_pdfdocencoding(bytes([byte]))
        except UnicodeDecodeError:
            assert byte in pdfsyntax.DOC_UNDEFINED
            continue
        assert pdfsyntax.decode_text(bytes([byte])) == expected


def test_strings_with_escapes_parse_to_their_bytes():
    assert parse(rb"(a\(b\)\\ \101\12c\
d)", 0)[0] == Text(b"a(b)\\ A\nc" + b"d")
    assert parse(b"<48 65 6c6c 6f>", 0)[0] == Text(b"Hello")
    assert parse(b"/F1#2B0 ", 0)[0] == Name("F1+0")
    assert parse(b"[ 1 0 R 2 -3.5 ]", 0)[0] == [Ref(1), 2, -3.5]
    assert serialize(Text(b"\x00\x01")) == b"<0001>"  # bytes PDFDocEncoding lacks: written as hex


def test_a_reportlab_pdf_reads_back_with_its_pages_and_title():
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 300), invariant=1)
    canvas.setTitle("Regeln f\u00fcr \u010cechy")
    for text in ("one", "two"):
        canvas.drawString(10, 10, text)
        canvas.showPage()
    canvas.save()
    source = SourcePdf(buffer.getvalue())
    pages = source.pages()
    assert [page["MediaBox"] for page in pages] == [[0, 0, 200, 300]] * 2
    assert source.title() == "Regeln f\u00fcr \u010cechy"
    assert b"(two) Tj" in pdfsyntax.stream_data(source.resolve(pages[1]["Contents"]))


def test_syntax_reportlab_never_writes_is_refused():
    with pytest.raises(Unsupported):
        SourcePdf(b"%PDF-1.5\n1 0 obj\n<<>>\nendobj\nstartxref\n9\n%%EOF\n")
    with pytest.raises(Unsupported):
        pdfsyntax.content_operations(b"BI /W 1 ID x EI")
