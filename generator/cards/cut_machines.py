"""Print-and-cut machines (`--cut-machine`, game.yaml `print: cut_machine:`): where each machine family reads
its registration and how much of the sheet it can cut. Pure geometry in points (PDF coordinates, origin at the
lower-left corner of the page); the sheet writer prints the marks, the cut files carry them and the
imposition keeps every card (trim and bleed) inside the cut area.

The families (`CUT_MACHINES`, one entry each; an unlisted name is an error):
- cricut: Cricut Design Space's Print Then Cut: a cut area of at most 6.75 x 9.25 in on Letter and A4,
  centred, framed by a black rectangle border (the sensor's registration frame) with clear paper between frame
  and cards;
- silhouette: Silhouette Studio's type 1 marks: a filled 5 mm square at the top-left and two L-shaped corner
  marks (20 mm arms, 0.5 mm thick) at the top-right and bottom-left, each 10 mm in from the paper's edges
  (Silhouette Studio's smallest inset); the cut area is the rectangle the marks span, and the cards keep
  `CLEAR` from it and from each mark;
- scanncut: Brother ScanNCut scans the sheet on its mat and needs no marks; the cards stay inside the scan
  area (the standard 12 x 12 in mat scans about 296 x 298 mm, more than Letter and A4) and the printer's 6 mm
  margin, and the sheet has no crop marks or labels the scan would take for shapes to cut.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.core.geometry import Rect
from generator.core.units import INCH, mm

CLEAR = mm(3)   # paper left white between a registration mark and any card art (trim plus bleed)


@dataclass(frozen=True)
class CutMachine:
    """A print-and-cut machine family: its name, what it is called on the print check, and its numbers."""

    name: str
    label: str
    area_w: float | None = None   # the most the machine cuts (portrait; None: the paper less `edge`)
    area_h: float | None = None
    edge: float = 0.0             # paper kept clear along every edge (marks and grip)
    frame: float = 0.0            # cricut: the frame's line width, `frame_gap` outside the cut area
    frame_gap: float = 0.0
    inset: float = 0.0            # silhouette: the marks' distance from the paper's edges
    square: float = 0.0           # silhouette: the top-left square's side
    arm: float = 0.0              # silhouette: the length of an L mark's arms
    thickness: float = 0.0        # silhouette: an L mark's line width


CUT_MACHINES = {
    "cricut": CutMachine("cricut", "Cricut (Print Then Cut)", area_w=6.75 * INCH, area_h=9.25 * INCH,
                         frame=mm(1), frame_gap=mm(3)),
    "silhouette": CutMachine("silhouette", "Silhouette (Print & Cut, type 1 marks)", inset=mm(10),
                             square=mm(5), arm=mm(20), thickness=mm(0.5)),
    "scanncut": CutMachine("scanncut", "Brother ScanNCut (scan to cut)", area_w=mm(296), area_h=mm(298),
                           edge=mm(6)),  # the sheets' ink margin (marks.INK)
}
CUT_MACHINE_NAMES = ("none", *CUT_MACHINES)


def cut_machine(name: str) -> CutMachine | None:
    """The machine family of `name` (None for 'none'); a KeyError for an unknown one."""
    return None if name == "none" else CUT_MACHINES[name]


def cut_area(machine: CutMachine, page_w: float, page_h: float) -> Rect:
    """Where card art (trim and bleed) may lie on a page of this size: the machine's cut area, centred, less
    room for its marks."""
    if machine.name == "silhouette":  # the rectangle the marks span, less white paper inside it
        edge = machine.inset + CLEAR
        return Rect(edge, edge, page_w - 2 * edge, page_h - 2 * edge)
    landscape = page_w > page_h
    w, h = machine.area_w or page_w, machine.area_h or page_h
    if landscape:
        w, h = h, w
    w, h = min(w, page_w - 2 * machine.edge), min(h, page_h - 2 * machine.edge)
    return Rect((page_w - w) / 2, (page_h - h) / 2, w, h)


def registration_marks(machine: CutMachine, page_w: float, page_h: float) -> list[Rect]:
    """The filled black rectangles the machine's sensor reads, on a page of this size (none for a machine that
    scans)."""
    if machine.name == "cricut":
        area = cut_area(machine, page_w, page_h)
        out, f = machine.frame_gap, machine.frame
        x0, y0, x1, y1 = area.x - out - f, area.y - out - f, area.x2 + out + f, area.y2 + out + f
        return [Rect(x0, y1 - f, x1 - x0, f), Rect(x0, y0, x1 - x0, f),     # top, bottom
                Rect(x0, y0 + f, f, y1 - y0 - 2 * f), Rect(x1 - f, y0 + f, f, y1 - y0 - 2 * f)]  # left, right
    if machine.name == "silhouette":
        i, s, a, t = machine.inset, machine.square, machine.arm, machine.thickness
        return [Rect(i, page_h - i - s, s, s),                    # top-left square
                Rect(page_w - i - a, page_h - i - t, a, t),       # top-right L: along the top
                Rect(page_w - i - t, page_h - i - a, t, a - t),   # ... and down the side
                Rect(i, i, a, t),                                 # bottom-left L: along the foot
                Rect(i, i + t, t, a - t)]                         # ... and up the side
    return []


def keep_clear(machine: CutMachine, page_w: float, page_h: float) -> list[Rect]:
    """The areas no card art may touch: each registration mark grown by `CLEAR`."""
    return [Rect(r.x - CLEAR, r.y - CLEAR, r.w + 2 * CLEAR, r.h + 2 * CLEAR)
            for r in registration_marks(machine, page_w, page_h)]


def _count(room: float, size: float, gap: float) -> int:
    return max(0, int((room + gap + 1e-6) // (size + gap)))


def machine_grid(machine: CutMachine, page_w: float, page_h: float, card: tuple[float, float], gap: float,
                 bleed: float) -> tuple[int, int]:
    """The most cards (columns, rows) whose art (the grid centred on the page, trims with `bleed` round it)
    lies inside the cut area and clear of every mark; (0, 0) if none fits."""
    area, marks = cut_area(machine, page_w, page_h), keep_clear(machine, page_w, page_h)
    cw, ch = card
    best = (0, 0)
    for cols in range(_count(area.w - 2 * bleed, cw, gap), 0, -1):
        for rows in range(_count(area.h - 2 * bleed, ch, gap), 0, -1):
            w, h = cols * cw + (cols - 1) * gap + 2 * bleed, rows * ch + (rows - 1) * gap + 2 * bleed
            art = Rect((page_w - w) / 2, (page_h - h) / 2, w, h)
            if cols * rows > best[0] * best[1] and not any(art.overlaps(m) for m in marks):
                best = (cols, rows)
    return best
