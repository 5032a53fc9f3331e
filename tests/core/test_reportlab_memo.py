"""ReportLab's pure-Python helpers replaced by faster ones that give the same text (so PDFs stay byte-identical)."""

from __future__ import annotations

import random
import zlib

import pytest
from reportlab.lib import rl_accel

from generator.core.reportlab_memo import ascii85, remember_numbers, remembered_fp_str

py_encode = getattr(rl_accel, "_py_asciiBase85Encode", None)
py_fp_str = getattr(rl_accel, "_py_fp_str", None)


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


@pytest.mark.skipif(py_fp_str is None, reason="ReportLab's C accelerator is installed")
def test_remembered_numbers_are_reportlabs_text_for_new_groups_of_known_numbers():
    """A group of numbers seen for the first time is put together from each number's remembered text."""
    pick = random.Random(14)
    edges = [0, 0.0, -0.0, 1, 1.0, True, -1, 10, 100, 1000, 1e6, 1e7, 123456789.0, 0.5, -0.5, 1e-7, -1e-7, 2e-7,
             -2e-7, 4e-7, 6e-7, 1e-8, 0.1, 3, -3, 9.9999999, 99.99999996, 999.9999999, 1.0000001, 0.9999999, 255]
    numbers = edges + [pick.uniform(-1e4, 1e4) * 10 ** pick.randint(-8, 3) for _ in range(3000)]
    numbers += [round(pick.uniform(-600, 600), pick.randint(0, 4)) for _ in range(3000)]  # coordinates repeat
    for _ in range(4000):
        group = tuple(pick.choice(numbers) for _ in range(pick.choice((1, 2, 4, 6))))
        assert remembered_fp_str(*group) == py_fp_str(*group), group
        assert remembered_fp_str(*group) == py_fp_str(*group), group  # the whole group remembered
    assert remembered_fp_str() == py_fp_str()
    for sequence in ([1.5, 2, 0.25], (3, 4.125)):  # one sequence argument, as ReportLab also takes
        assert remembered_fp_str(sequence) == py_fp_str(sequence)
