"""Reading lines back from a PDF page (pypdfium2): every stroked path on the page, with its dash and colour.

Component sheets draw cut and fold lines on the page itself, so measuring a net means reading these strokes:
solid black strokes are cuts, dashed strokes are folds.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw

Point = tuple[float, float]


@dataclass(frozen=True)
class Stroke:
    """One stroked path: its segments (start, end, 'line' | 'curve') in page points."""

    segments: tuple[tuple[Point, Point, str], ...]
    dashed: bool
    color: tuple[int, int, int]
    width: float


def _matrix(obj) -> tuple[float, ...]:
    m = raw.FS_MATRIX()
    raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(m))
    return m.a, m.b, m.c, m.d, m.e, m.f


def _apply(m, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return round(a * x + c * y + e, 4), round(b * x + d * y + f, 4)


def _times(m, n) -> tuple[float, ...]:
    """The matrix that applies m, then n (PDF row-vector convention)."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _objects(page, into_forms: bool):
    """(object, matrix to page) of every object on the page, and inside forms when asked."""
    def walk(count, get, outer):
        for i in range(count):
            obj = get(i)
            m = _times(_matrix(obj), outer)
            if raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_FORM:
                if into_forms:
                    yield from walk(
                        raw.FPDFFormObj_CountObjects(obj), lambda j, o=obj: raw.FPDFFormObj_GetObject(o, j), m
                    )
            else:
                yield obj, m

    yield from walk(
        raw.FPDFPage_CountObjects(page), lambda i: raw.FPDFPage_GetObject(page, i), (1, 0, 0, 1, 0, 0)
    )


def page_strokes(pdf_path: Path | str, index: int, into_forms: bool = False) -> list[Stroke]:
    """Every stroked path object on page `index` (also those inside forms with `into_forms`)."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        page = pdf[index]
        out = []
        for obj, m in _objects(page, into_forms):
            if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
                continue
            mode, stroke = ctypes.c_int(), ctypes.c_int()
            raw.FPDFPath_GetDrawMode(obj, ctypes.byref(mode), ctypes.byref(stroke))
            if not stroke.value:
                continue
            segments, start, current = [], None, None
            for s in range(raw.FPDFPath_CountSegments(obj)):
                seg = raw.FPDFPath_GetPathSegment(obj, s)
                x, y = ctypes.c_float(), ctypes.c_float()
                raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
                point = _apply(m, x.value, y.value)
                kind = raw.FPDFPathSegment_GetType(seg)
                if kind == raw.FPDF_SEGMENT_MOVETO:
                    start = current = point
                    continue
                if kind == raw.FPDF_SEGMENT_LINETO:
                    segments.append((current, point, "line"))
                    current = point
                elif kind == raw.FPDF_SEGMENT_BEZIERTO and (s - _first_of_curve(obj, s)) % 3 == 2:
                    # three points per curve; the third ends it
                    segments.append((current, point, "curve"))
                    current = point
                if (
                    raw.FPDFPathSegment_GetClose(seg)
                    and start is not None
                    and math.dist(current, start) > 1e-3
                ):
                    segments.append((current, start, "line"))
                    current = start
            r, g, b, a = (ctypes.c_uint() for _ in range(4))
            raw.FPDFPageObj_GetStrokeColor(
                obj, ctypes.byref(r), ctypes.byref(g), ctypes.byref(b), ctypes.byref(a)
            )
            width = ctypes.c_float()
            raw.FPDFPageObj_GetStrokeWidth(obj, ctypes.byref(width))
            dashed = raw.FPDFPageObj_GetDashCount(obj) > 0
            out.append(Stroke(tuple(segments), dashed, (r.value, g.value, b.value), width.value))
        page.close()
        return out
    finally:
        pdf.close()


def _first_of_curve(obj, index: int) -> int:
    """Index of the first Bezier point of the run of Bezier points that `index` belongs to."""
    first = index
    while (
        first > 0
        and raw.FPDFPathSegment_GetType(raw.FPDFPath_GetPathSegment(obj, first - 1))
        == raw.FPDF_SEGMENT_BEZIERTO
    ):
        first -= 1
    return first


CUT_CONTOUR_SHOWN = (237, 2, 140)  # the CutContour spot colour (100 % magenta) as pdfium renders it


def cuts_and_folds(pdf_path: Path | str, index: int, into_forms: bool = False):
    """(cut segments, fold segments) of a page: solid black strokes (or in the spot colour CutContour, which
    pdfium shows as its magenta) and dashed strokes."""
    cuts, folds = [], []
    for stroke in page_strokes(pdf_path, index, into_forms):
        if stroke.dashed:
            folds += [(a, b) for a, b, _ in stroke.segments]
        elif stroke.color in ((0, 0, 0), CUT_CONTOUR_SHOWN):
            cuts += [(a, b, kind) for a, b, kind in stroke.segments]
    return cuts, folds


def _on_segment(p: Point, a: Point, b: Point, tol: float) -> bool:
    """True when p lies on the straight segment a-b (within tol)."""
    length = math.dist(a, b)
    if length < tol:
        return math.dist(p, a) < tol
    cross = abs((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) / length
    dot = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length
    return cross < tol and -tol <= dot <= length + tol


def loose_ends(cuts, folds, tol: float = 0.05) -> list[Point]:
    """Ends of cut or fold lines that touch no other line: a cut that stops in the paper, a fold that meets
    nothing. Cuts are (a, b, kind) or (a, b); folds (a, b)."""
    lines = [(c[0], c[1]) for c in cuts] + [(f[0], f[1]) for f in folds]
    loose = []
    for i, (a, b) in enumerate(lines):
        for end in (a, b):
            touches = any(_on_segment(end, c, d, tol) for j, (c, d) in enumerate(lines) if j != i)
            if not touches:
                loose.append(end)
    return loose


def connected_pieces(cuts, folds, tol: float = 0.05) -> list[tuple[list, list]]:
    """Group cut and fold lines into pieces: lines that touch each other belong to one piece."""
    lines = [("cut", c) for c in cuts] + [("fold", f) for f in folds]
    parent = list(range(len(lines)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (_, li) in enumerate(lines):
        for j in range(i + 1, len(lines)):
            lj = lines[j][1]
            if (any(_on_segment(p, lj[0], lj[1], tol) for p in (li[0], li[1]))
                    or any(_on_segment(p, li[0], li[1], tol) for p in (lj[0], lj[1]))):
                parent[find(i)] = find(j)
    groups: dict[int, tuple[list, list]] = {}
    for i, (kind, line) in enumerate(lines):
        group = groups.setdefault(find(i), ([], []))
        (group[0] if kind == "cut" else group[1]).append(line)
    return list(groups.values())
