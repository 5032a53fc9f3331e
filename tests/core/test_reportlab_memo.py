"""ReportLab's pure-Python helpers replaced by faster ones that give the same text (so PDFs stay byte-identical)."""

from __future__ import annotations

import random
import zlib

import pytest
from reportlab.lib import rl_accel

from generator.core.reportlab_memo import ascii85, remember_numbers

py_encode = getattr(rl_accel, "_py_asciiBase85Encode", None)


@pytest.mark.skipif(py_encode is None, reason="ReportLab's C accelerator is installed")
def test_ascii85_is_reportlabs_encoding_for_every_length_and_zero_runs():
    pick = random.Random(14)
    samples = [b"", b"\0", b"\0\0\0\0", b"\0\0\0\0\0", b"\xff\xff\xff\xff", bytes(range(256)),
               zlib.compress(b"q 1 0 0 1 36 48 cm BT /F1 9.5 Tf (Setting up) Tj ET Q\n" * 200)]
    for length in range(0, 41):
        for _ in range(20):  # zero words become "z" in ASCII85, so zeros are drawn often
            samples.append(bytes(pick.choice((0, 0, 0, 1, 84, 85, 255, pick.randrange(256))) for _ in range(length)))
    for data in samples:
        assert ascii85(data) == py_encode(data), data
    assert ascii85("text") == py_encode("text")  # ReportLab also encodes text; left to it


@pytest.mark.skipif(py_encode is None, reason="ReportLab's C accelerator is installed")
def test_the_pdf_writer_encodes_with_it():
    from reportlab.pdfbase import pdfdoc

    remember_numbers()
    assert pdfdoc.asciiBase85Encode is ascii85
