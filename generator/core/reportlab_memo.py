"""ReportLab's pure-Python number formatting and string widths, remembered: the same results, computed once.

Without its optional C accelerator, ReportLab formats every number of every drawing operator with a Python function
(`fp_str`) and measures text character by character; a sheet of unique cards asks the same questions thousands of
times (the same box corners, the same words at the same sizes). `remember_numbers()` puts a memo in front of
`fp_str` in the ReportLab modules that draw, and `MeasuredFont` (a TrueType face) remembers its string widths.
Both return exactly what ReportLab computes (the first answer is ReportLab's own), so PDFs are byte-identical.
Every compressed stream is also written in ASCII85, which the pure-Python ReportLab encodes a byte at a time:
`ascii85` gives the same text from the standard library's encoder, about three times faster.
The C accelerator is not used instead: it rounds some numbers differently, which would change the PDFs.
"""

from __future__ import annotations

import base64
import importlib
import sys

from reportlab.lib import rl_accel
from reportlab.pdfbase.ttfonts import TTFont

WORD_LIMIT = 24  # characters: words and short labels are remembered, whole lines are not
MEMO_LIMIT = 50_000  # entries; past that the memo starts again (a few megabytes at most)
# modules whose `fp_str` is looked up while drawing cards, boards and booklets
DRAWING_MODULES = ("reportlab.pdfgen.canvas", "reportlab.pdfgen.pathobject", "reportlab.pdfgen.textobject",
                   "reportlab.pdfbase.pdfdoc", "reportlab.lib.colors", "reportlab.platypus.flowables")

_original = rl_accel.fp_str
_original_a85 = rl_accel.asciiBase85Encode
_numbers: dict[tuple, str] = {}


_number: dict[float, str] = {}  # one number -> its text


def remembered_fp_str(*numbers) -> str:
    """`fp_str` with a memo: numbers as the short strings PDF operators use ('1.5 0 0 1 10.25 3').

    A group of numbers not seen together before (the corners of a new shape: a board's dots, a unique card's
    boxes) is put together from each number's text, since `fp_str` formats each number on its own and joins
    them with spaces; most of its numbers were seen before in other groups."""
    try:
        found = _numbers.get(numbers)
    except TypeError:  # a list argument: not hashable, asked rarely
        return _original(*numbers)
    if found is None:
        if len(_numbers) >= MEMO_LIMIT:
            _numbers.clear()
        if len(numbers) == 1 and isinstance(numbers[0], (list, tuple)):  # one sequence of numbers
            found = _original(*numbers)
        else:
            if len(_number) >= MEMO_LIMIT:
                _number.clear()
            texts = []
            for number in numbers:
                text = _number.get(number)
                if text is None:
                    text = _number[number] = _original(number)
                texts.append(text)
            found = " ".join(texts)
        _numbers[numbers] = found
    return found


def ascii85(data) -> str:
    """ReportLab's asciiBase85Encode (ASCII85 with its `~>` end mark), the same text for bytes, made by base64."""
    if not isinstance(data, bytes):  # ReportLab also takes text; rare, left to it
        return _original_a85(data)
    return base64.a85encode(data).decode("ascii") + "~>"


def remember_numbers() -> None:
    """Route ReportLab's drawing modules (and any other loaded ReportLab module) through the memo, once, and
    its PDF writer through `ascii85`.

    Only the pure-Python functions are replaced: where the C accelerator is installed they are left alone."""
    if _original_a85 is getattr(rl_accel, "_py_asciiBase85Encode", None):
        from reportlab.pdfbase import pdfdoc

        pdfdoc.asciiBase85Encode = ascii85
    if _original is not getattr(rl_accel, "_py_fp_str", None):
        return
    for name in DRAWING_MODULES:
        importlib.import_module(name)
    for name, module in list(sys.modules.items()):
        if name.startswith("reportlab.") and getattr(module, "fp_str", None) is _original:
            module.fp_str = remembered_fp_str


class MeasuredFont(TTFont):
    """A TrueType face that remembers the width of every string it measured, per size (the same words come back
    on every card); the widths are ReportLab's own."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._widths: dict[tuple, float] = {}

    def stringWidth(self, text, size, encoding="utf8"):  # noqa: N802 - ReportLab's name
        if len(text) > WORD_LIMIT:  # a whole line: rarely measured twice, not worth keeping
            return super().stringWidth(text, size, encoding)
        key = (text, size)
        found = self._widths.get(key)
        if found is None:
            if len(self._widths) >= MEMO_LIMIT:
                self._widths.clear()
            found = self._widths[key] = super().stringWidth(text, size, encoding)
        return found
