"""How component lines look on paper: cuts solid, folds dashed, glue areas shaded; token blocks and nets.

Every line is drawn on the page itself (not inside a form), so a test can read each cut and fold back from
the PDF. Art is drawn first, lines on top, so a cut is never hidden under a picture.
"""

from __future__ import annotations

from reportlab.lib.colors import CMYKColorSep, HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.nets import Net
from generator.components.pages import Block
from generator.core.shapes import Path, pdf_path_ops

CUT_WIDTH = 0.5          # pt
CUT_COLOR = "#000000"
FOLD_WIDTH = 0.5
FOLD_COLOR = "#555555"
FOLD_DASH = (3, 2)       # pt on, pt off
GLUE_FILL = "#e4e4e4"


def stroke_path(canvas: Canvas, path: Path) -> None:
    """Stroke a path (given in page points) with the current line style."""
    canvas._code.append(f"{pdf_path_ops(path)}\nS")  # noqa: SLF001 - a bare path op, no fill


# A print shop's die-cutter reads the cuts and creases of a sheet made for it from spot colours of these
# names, which
# overprint (they knock nothing out of the art beneath) and which a shop printing from its own template leaves
# out.
CUT_SPOT = CMYKColorSep(0, 1, 0, 0, spotName="CutContour", density=1)
CREASE_SPOT = CMYKColorSep(1, 0, 0, 0, spotName="Crease", density=1)


def _line_colour(canvas: Canvas, plain: str, spot: CMYKColorSep | None) -> None:
    if spot is None:
        canvas.setStrokeColor(HexColor(plain))
    else:
        canvas.setStrokeColor(spot)
        canvas.setStrokeOverprint(True)


def draw_cuts(canvas: Canvas, paths: list[Path], spot: CMYKColorSep | None = None) -> None:
    """Solid cut lines (in the spot colour `spot` on a print shop's sheet)."""
    canvas.saveState()
    _line_colour(canvas, CUT_COLOR, spot)
    canvas.setLineWidth(CUT_WIDTH)
    canvas.setLineCap(1)
    for path in paths:
        stroke_path(canvas, path)
    canvas.restoreState()


def draw_folds(canvas: Canvas, segments, spot: CMYKColorSep | None = None) -> None:
    """Dashed fold lines (in the spot colour `spot` on a print shop's sheet)."""
    canvas.saveState()
    _line_colour(canvas, FOLD_COLOR, spot)
    canvas.setLineWidth(FOLD_WIDTH)
    canvas.setDash(*FOLD_DASH)
    for (x1, y1), (x2, y2) in segments:
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def fill_path(canvas: Canvas, path: Path, color: str) -> None:
    """Fill a closed path (page points) with a colour, no outline."""
    canvas.saveState()
    canvas.setFillColor(HexColor(color))
    canvas._code.append(f"{pdf_path_ops(path)}\nf")  # noqa: SLF001
    canvas.restoreState()


def shade_glue(canvas: Canvas, net: Net) -> None:
    """The glue flaps and tabs shaded grey (drawn before any art or label on them)."""
    for part in net.parts:
        if part.role in ("glue", "tab"):
            fill_path(canvas, part.path, GLUE_FILL)


def draw_net_lines(canvas: Canvas, net: Net, spots: bool = False) -> None:
    """A net's folds and cuts (on top of its art); with `spots`, as the die-cutter's spot colours CutContour
    and Crease (a print shop's sheet)."""
    draw_folds(canvas, net.fold_lines(), CREASE_SPOT if spots else None)
    draw_cuts(canvas, net.cuts(), CUT_SPOT if spots else None)


def mirrored_block(block: Block, page_w: float, page_h: float, axis: str) -> list[tuple[float, float, int]]:
    """Where each token of a block lands on the back page: mirrored about the page's middle, art turned
    back."""
    spots = []
    for spot in block.packing.spots:
        x, y = (page_w - spot.x, spot.y) if axis == "x" else (spot.x, page_h - spot.y)
        spots.append((x, y, -spot.angle))
    return spots
