"""The print check that opens every card sheet PDF: page 1 to measure the scale, page 2 to measure the back
shift.

Page 1 has a 1 in and a 25 mm square, the "print at 100%" note, the sheet options (gap, marks, packing, ink,
reprint), how to print double-sided with the chosen
`--duplex`/`--layout`, and four crosshair targets A-D. Page 2 (its back) has, where the back of each target
lands (mirrored like the card backs and shifted by `--back-offset`), a millimetre grid centred on 0. Held up
to a light, the front targets show on the grids how far the printer moves the back. Geometry:
`layout.calibration_targets`.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.cards.imposition import CHECK_INSET, Target, calibration_targets
from generator.cards.marks import INK
from generator.cards.print_options import SheetOptions
from generator.core.errors import InputError
from generator.core.fonts import BODY, BODY_BOLD, TITLE, draw_string, fallback_for_face
from generator.core.geometry import paper_of, paper_words
from generator.core.phrases import ENGLISH, Phrases
from generator.core.units import INCH, mm
from generator.faces.text import MIN_TEXT_SIZE, TextOverflow, TextStyle, fit_text

INK_COLOR = HexColor("#222222")
GRID_COLOR = HexColor("#9a9a9a")
TARGET_RADIUS = mm(4)
RULER_HALF = mm(10)     # each back grid reads -10..+10 mm
TEXT_MARGIN = mm(20)    # text keeps clear of the corner targets and their grids (and of the 6 mm edge)
# The caption under each grid ("X right +, Y up +, in mm") is centred under it in a box as wide as a grid in
# its
# unshifted place leaves inside the INK margin on both sides (38 mm), moved in when --back-offset pushes the
# grid
# out, and as tall as the room between the grid and the INK margin below the lower grids (8 mm: two lines at
# 7 pt). It wraps, then shrinks to MIN_TEXT_SIZE; a caption that still does not fit is an error.
CAPTION_GAP = mm(1)     # between a grid's bottom edge and the top of its caption
CAPTION_WIDTH = 2 * (CHECK_INSET - INK)
CAPTION_HEIGHT = CHECK_INSET - RULER_HALF - CAPTION_GAP - INK
CAPTION_STYLE = TextStyle(
    face=BODY, size=7, min_size=MIN_TEXT_SIZE, leading=1.2, align="center", valign="top", color="#222222"
)


def _style(size: float, face: str = BODY, leading: float = 1.3, align: int = 0) -> ParagraphStyle:
    return ParagraphStyle(f"check-{face}-{size}", fontName=face, fontSize=size, leading=size * leading,
                          textColor=INK_COLOR, alignment=align)


def _paragraphs(canvas: Canvas, items: list[tuple[str, ParagraphStyle]], x: float, top: float, width: float,
                gap: float = mm(2.5)) -> float:
    """Draw paragraphs downwards from `top`; returns the y below the last one."""
    y = top
    for markup, style in items:
        para = Paragraph(fallback_for_face(markup, style.fontName), style)
        _, height = para.wrap(width, 10_000)
        y -= height
        para.drawOn(canvas, x, y)
        y -= gap
    return y


def duplex_text(
    layout: str, duplex: str, back_offset: tuple[float, float], phrases: Phrases = ENGLISH
) -> list[str]:
    """How to print this file double-sided and how to correct the back (paragraph markup, one per item)."""
    say = phrases.t
    offset = f"{back_offset[0]:g} {back_offset[1]:g}"
    if layout == "fold":
        how = say("check.fold_how")
    elif duplex == "none":
        how = say("check.none_how")
    else:
        how = say("check.duplex_how", duplex=duplex, flip=say(f"sheets.flip_{duplex}"))
    if layout == "fold":  # fronts and backs share one side: there is no back page to register
        return [how, say("check.fold_skip")]
    return [how, say("check.modes"), say("check.shift", offset=offset)]


def _crosshair(canvas: Canvas, x: float, y: float, name: str) -> None:
    canvas.circle(x, y, TARGET_RADIUS, stroke=1, fill=0)
    canvas.circle(x, y, TARGET_RADIUS / 2, stroke=1, fill=0)
    canvas.line(x - TARGET_RADIUS * 1.6, y, x + TARGET_RADIUS * 1.6, y)
    canvas.line(x, y - TARGET_RADIUS * 1.6, x, y + TARGET_RADIUS * 1.6)
    canvas.setFont(BODY_BOLD, 9)
    canvas.drawString(x + TARGET_RADIUS * 0.9, y + TARGET_RADIUS * 0.9, name)


def _grid(canvas: Canvas, x: float, y: float, name: str, axes: str, pw: float, paper: str) -> None:
    """A millimetre grid of +-10 mm centred on (x, y), numbered every 5 mm outside its top and left edges,
    with the `axes` caption below it."""
    half = RULER_HALF
    for step in range(-10, 11):
        canvas.setLineWidth(0.9 if step == 0 else 0.45 if step % 5 == 0 else 0.15)
        canvas.setStrokeColor(INK_COLOR if step % 5 == 0 else GRID_COLOR)
        canvas.line(x + mm(step), y - half, x + mm(step), y + half)
        canvas.line(x - half, y + mm(step), x + half, y + mm(step))
    canvas.setFont(BODY, 7)
    for step in range(-10, 11, 5):
        label = f"{step:+d}".replace("-", "\u2212") if step else "0"
        canvas.drawCentredString(x + mm(step), y + half + mm(2), label)   # X along the top
        canvas.drawRightString(x - half - mm(1), y + mm(step) - 2.5, label)  # Y along the left
    canvas.setFont(BODY_BOLD, 9)
    canvas.drawString(x + half + mm(1.5), y - 3, name)
    _caption(canvas, x, y - half - CAPTION_GAP, axes, pw, paper)


def _caption(canvas: Canvas, x: float, top: float, text: str, pw: float, paper: str) -> None:
    """`text` centred on x below `top`, wrapped and shrunk to stay INK inside the paper edges, or an
    InputError."""
    left = min(max(x - CAPTION_WIDTH / 2, INK), pw - INK - CAPTION_WIDTH)
    height = min(CAPTION_HEIGHT, top - INK)
    try:
        para, _, needed = fit_text(fallback_for_face(text, BODY), CAPTION_STYLE, CAPTION_WIDTH, height)
    except TextOverflow as exc:
        raise InputError(
            f"print check ({paper}): the grid caption '{text}' (tool: check.grid_axes) does not fit "
            f"its {CAPTION_WIDTH / mm(1):.0f} x {height / mm(1):.1f} mm below the grid even at "
            f"{MIN_TEXT_SIZE:g} pt ({exc}); expected a shorter text"
        ) from None
    para.drawOn(canvas, left, top - needed)


def draw_check(
    canvas: Canvas, title: str, paper: str, options: SheetOptions, phrases: Phrases = ENGLISH,
    notes: list[str] | None = None,
) -> None:
    """Draw the two print-check pages (front and its back) and end both pages; `notes`: how the sheets hold
    the bleed, said after the sheet options."""
    layout, duplex, back_offset = options.layout, options.duplex, options.back_offset
    pw, ph = sorted(paper_of(paper).size)  # portrait
    # --back-offset is in mm; the card backs are shifted by it only in the duplex long/short layouts
    shifted = layout == "duplex" and duplex != "none"
    offset = (mm(back_offset[0]), mm(back_offset[1])) if shifted else (0.0, 0.0)
    targets = calibration_targets(paper, duplex, offset)
    canvas.setPageSize((pw, ph))
    _front(canvas, title, paper, options, targets, phrases, notes or [])
    canvas.showPage()
    canvas.setPageSize((pw, ph))
    _back(canvas, title, paper, targets, pw, ph, phrases)
    canvas.showPage()


def _front(canvas: Canvas, title: str, paper: str, options: SheetOptions, targets: list[Target],
           phrases: Phrases, notes: list[str]) -> None:
    say = phrases.t
    pw, ph = sorted(paper_of(paper).size)  # portrait
    canvas.saveState()
    canvas.setStrokeColor(INK_COLOR)
    canvas.setFillColor(INK_COLOR)
    canvas.setLineWidth(0.6)
    for target in targets:
        _crosshair(canvas, *target.front, target.name)
    width = pw - 2 * TEXT_MARGIN
    top = ph - TEXT_MARGIN - mm(12)
    canvas.setFont(TITLE, 18)
    draw_string(canvas, pw / 2, top, say("check.title", title=title), TITLE, 18, "center")
    y = _paragraphs(canvas, [
        (say("check.print_at_100"), _style(15, BODY_BOLD, align=1)),
        (say("check.page_1", paper=paper_words(paper, say)), _style(9.5, align=1)),
    ], TEXT_MARGIN, top - mm(5), width)
    # the two squares side by side, centred, with their labels below
    gap = mm(20)
    left = (pw - INCH - mm(25) - gap) / 2
    bottom = y - mm(3) - INCH
    canvas.setLineWidth(0.8)
    canvas.rect(left, bottom, INCH, INCH, stroke=1, fill=0)
    canvas.rect(left + INCH + gap, bottom + INCH - mm(25), mm(25), mm(25), stroke=1, fill=0)
    canvas.setFont(BODY_BOLD, 10)
    draw_string(canvas, left + INCH / 2, bottom - mm(5), say("units.inch_square"), BODY_BOLD, 10, "center")
    draw_string(
        canvas,
        left + INCH + gap + mm(25) / 2,
        bottom - mm(5),
        say("units.mm25_square"),
        BODY_BOLD,
        10,
        "center",
    )
    items = [(say("check.measure"), _style(10))]
    items += [(say("check.how_made"), _style(12, BODY_BOLD)),
              (" ".join([options.describe(phrases), *notes]), _style(10))]
    items += [(say("check.double_sided"), _style(12, BODY_BOLD))]
    items += [(text, _style(10)) for text in duplex_text(options.layout, options.duplex, options.back_offset,
                                                         phrases)]
    _paragraphs(canvas, items, TEXT_MARGIN, bottom - mm(10), width)
    canvas.restoreState()


def _back(canvas: Canvas, title: str, paper: str, targets: list[Target], pw: float, ph: float,
          phrases: Phrases) -> None:
    say = phrases.t
    canvas.saveState()
    canvas.setStrokeColor(INK_COLOR)
    canvas.setFillColor(INK_COLOR)
    canvas.setLineWidth(0.5)
    for target in targets:
        _grid(canvas, *target.back, target.name, say("check.grid_axes"), pw, paper)
    width = pw - 2 * TEXT_MARGIN - 2 * RULER_HALF
    _paragraphs(canvas, [
        (say("check.back_title", title=title, paper=paper_words(paper, say)), _style(13, BODY_BOLD, align=1)),
        (say("check.back_text"), _style(10, align=1)),
    ], TEXT_MARGIN + RULER_HALF, ph / 2 + mm(20), width)
    canvas.restoreState()

