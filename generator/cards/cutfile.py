"""Cut files for cutting machines (Cricut, Silhouette and the like): one SVG per printed sheet of fronts.

The SVG has the paper's size in millimetres (`width="215.9mm"`, viewBox in mm) and the same origin as the PDF
page, so it lies exactly over the printed sheet: one closed path per card along its trim, with rounded corners
when the game sets `corner_radius` (round and hexagonal cards: their own outline). Sheets laid out for a
print-and-cut machine (`cut_machines`) also carry its registration marks, filled black in a group of their
own (`id="registration"`) that is not cut, where the sheet prints them. Pure text from geometry: no ReportLab.
"""

from __future__ import annotations

from generator.core.geometry import Rect
from generator.core.units import mm

KAPPA = 0.5522847498  # cubic Bezier control distance for a quarter circle, as a share of the radius


def _n(value: float) -> str:
    """A millimetre number with 4 decimals and no trailing zeros (stable text, so cut files are
    reproducible)."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def card_path(trim: Rect, page_h: float, radius: float = 0.0) -> str:
    """The SVG path (mm, y down) of one card's trim, clockwise from the top-left, corners rounded by `radius`
    pt."""
    x, y = trim.x / mm(1), (page_h - trim.y2) / mm(1)   # SVG's y runs down from the top of the page
    w, h = trim.w / mm(1), trim.h / mm(1)
    r = min(radius / mm(1), w / 2, h / 2)
    if r <= 0:
        return f"M{_n(x)} {_n(y)}H{_n(x + w)}V{_n(y + h)}H{_n(x)}Z"
    k = r * (1 - KAPPA)
    return (f"M{_n(x + r)} {_n(y)}H{_n(x + w - r)}"
            f"C{_n(x + w - k)} {_n(y)} {_n(x + w)} {_n(y + k)} {_n(x + w)} {_n(y + r)}"
            f"V{_n(y + h - r)}"
            f"C{_n(x + w)} {_n(y + h - k)} {_n(x + w - k)} {_n(y + h)} {_n(x + w - r)} {_n(y + h)}"
            f"H{_n(x + r)}"
            f"C{_n(x + k)} {_n(y + h)} {_n(x)} {_n(y + h - k)} {_n(x)} {_n(y + h - r)}"
            f"V{_n(y + r)}"
            f"C{_n(x)} {_n(y + k)} {_n(x + k)} {_n(y)} {_n(x + r)} {_n(y)}Z")


def outline_path(ops: tuple, page_h: float) -> str:
    """The SVG path (mm, y down) of a PDF-style outline: ("M", x, y), ("L", x, y), ("C", x1, y1, ...), ("Z",)
    in points (round and hexagonal cards, generator.core.shapes)."""
    parts = []
    for op in ops:
        numbers = [_n(v / mm(1)) if i % 2 == 0 else _n((page_h - v) / mm(1)) for i, v in enumerate(op[1:])]
        parts.append(op[0] + " ".join(numbers))
    return "".join(parts)


def cut_svg(page_w: float, page_h: float, pieces: list[str], title: str = "",
            marks: tuple[Rect, ...] = ()) -> str:
    """The whole cut file of one sheet: the page in mm, one closed path (an SVG `d`) per card and the
    registration `marks` (filled rectangles in points, PDF coordinates) if any."""
    w, h = _n(page_w / mm(1)), _n(page_h / mm(1))
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    paths = "\n".join(f'  <path id="card-{i + 1}" d="{d}"/>' for i, d in enumerate(pieces))
    registration = ""
    if marks:
        rects = "\n".join(f'    <rect x="{_n(r.x / mm(1))}" y="{_n((page_h - r.y2) / mm(1))}" '
                          f'width="{_n(r.w / mm(1))}" height="{_n(r.h / mm(1))}"/>' for r in marks)
        registration = f'  <g id="registration" fill="#000000" stroke="none">\n{rects}\n  </g>\n'
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">\n'
            f"  <title>{escaped}</title>\n{registration}"
            f'  <g fill="none" stroke="#ff0000" stroke-width="0.1">\n{paths}\n  </g>\n</svg>\n')
