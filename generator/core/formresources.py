"""Form XObjects that keep their transparency: `end_form` ends a ReportLab form and gives it the graphics
states and shadings its operators use.

ReportLab 5 writes a form's resources with its fonts and forms only: the `/gRLs0 gs` a form's operators use
for opacity (`setFillAlpha`, a colour with alpha) and the `/Sh0 sh` of a gradient name nothing in the form's
resource dictionary, so viewers and printers draw the form opaque (an icon's transparent background square
as a black square) or without its gradient. A form that uses neither is left exactly as ReportLab writes it.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase import pdfdoc


def end_form(canvas, name: str) -> None:
    """`canvas.endForm()` for form `name`, whose resources then also name the graphics states and shadings
    its operators use."""
    shadings = dict(canvas._shadingUsed)  # noqa: SLF001 - the shadings drawn since the form began
    canvas.endForm()
    # the form just made (Any: the stubs leave out the attributes ReportLab sets on it)
    form: Any = canvas._doc.idToObject.get(pdfdoc.xObjectName(name))  # noqa: SLF001
    if not isinstance(form, pdfdoc.PDFFormXObject) or form.Resources is not None:
        return
    stream = form.stream or b""
    states = getattr(form, "ExtGState", None) if b" gs" in stream else None
    shadings = {key: value for key, value in shadings.items() if f"/{key} sh".encode() in stream}
    if not states and not shadings:
        return
    resources: Any = pdfdoc.PDFResourceDictionary()  # what PDFFormXObject.format makes, with the two added
    resources.basicFonts()
    resources.allProcs()  # forms have images as far as ReportLab knows (hasImages)
    if form.XObjects:
        resources.XObject = form.XObjects
    if states:
        resources.ExtGState = states
    resources.setShading(shadings)
    form.Resources = resources
