"""Chart labels (balance and sweep reports) are set with the fonts' fallback faces, as every other text of the
PDFs: a card or variant name in letters the body face lacks (Abkhaz Cyrillic: Lato 2.0 has Russian and Greek,
not these) is drawn, not left to the body face. Read back per character: which embedded font pdfium finds it
drawn in."""

from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from reportlab.graphics import renderPDF
from reportlab.lib import colors

from generator.core.fonts import register_fonts
from generator.validator.balance_pdf import hbar_chart, length_chart
from generator.validator.sweep_pdf import interval_chart


def drawn_fonts(drawing) -> dict[str, set[str]]:
    """Each character of a drawing, rendered to PDF, and the fonts it is drawn in."""
    document = pdfium.PdfDocument(renderPDF.drawToString(drawing))
    textpage = document[0].get_textpage()
    found: dict[str, set[str]] = {}
    buffer = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    for index in range(textpage.count_chars()):
        char = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index))
        length = pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, buffer, 256, ctypes.byref(flags))
        found.setdefault(char, set()).add(buffer.raw[:max(0, length - 1)].decode("utf-8", "replace"))
    return found


def _fallback_only(fonts: dict[str, set[str]], chars: str) -> None:
    for char in chars:
        assert char in fonts, char
        assert all("NotoSans" in name for name in fonts[char]), (char, fonts[char])


def test_bar_labels_with_letters_the_body_face_lacks():
    register_fonts()
    fonts = drawn_fonts(
        hbar_chart(["Аԥсуа ԥхьа", "Pepperoni", "Ꙋmega"], [1.0, 2.0, 0.5], "%.1f", colors.red)
    )
    _fallback_only(fonts, "ԥꙊ")
    for char in "PАсуа":  # the rest stays in the body face, Russian letters too
        assert all("Lato" in name for name in fonts[char]), (char, fonts[char])


def test_sweep_labels_series_and_axis_with_letters_the_body_face_lacks():
    register_fonts()
    series = [("ԥԛԝ", [(0.5, 0.4, 0.6), (0.6, 0.5, 0.7)])]
    flat = interval_chart(["Ԥԝ", "Ԛmega"], series, "%g", "ԝԛ")
    _fallback_only(drawn_fonts(flat), "ԤԝԚԥԛ")
    # long: slanted
    slanted = interval_chart(["Ԥԥ ԛԝ Ԝԛ " * 3, "Ԛmega " * 6], series, "%g", "ԝԛ")
    _fallback_only(drawn_fonts(slanted), "ԤԥԛԝԜԚ")


def _percent_labels(drawing) -> list[float]:
    text = pdfium.PdfDocument(renderPDF.drawToString(drawing))[0].get_textpage().get_text_range()
    return [
        float(word[:-1])
        for word in text.split()
        if word.endswith("%") and word[:-1].replace(".", "").isdigit()
    ]


def test_game_length_axis_ends_on_a_labelled_line_above_the_tallest_bar():
    register_fonts()
    for counts, top in (([39, 61], 80.0), ([39, 31, 30], 40.0), ([12, 88], 100.0), ([3, 2, 95], 100.0)):
        histogram = [(turns, count) for turns, count in zip(range(20, 20 + len(counts)), counts, strict=True)]
        labels = _percent_labels(length_chart({3: {"turns": {"n": 100, "histogram": histogram}}}, "turns"))
        # the tallest bar (61 %, 39 %, ...) ends below the top label
        assert max(labels) == top, (counts, labels)
        steps = {round(b - a, 6) for a, b in zip(sorted(labels), sorted(labels)[1:], strict=False)}
        assert len(steps) == 1 and min(labels) == 0, labels
