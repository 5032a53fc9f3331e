"""The colour stage of the card sheets (`--colour cmyk`, game.yaml `print: colour: cmyk`): the sheets as the
writer drew them, then every page in press CMYK as PDF/X, for any print shop.

One stage after the sheet writer, apart from it: the writer draws the RGB sheets into a file beside the
output, and this stage renders each page at the press preset's dpi (pypdfium2) and converts it by the same
path as the DriveThruCards export (`core.pdfx.to_cmyk`: ICC sRGB to the press profile, greys and black text
as black ink alone, rich black for large black areas, the ink limit held), then writes the PDF/X file
(`core.pdfx.pdfx_bytes`: DeviceCMYK only, OutputIntent, TrimBox = BleedBox = the paper). The press is the
generic `press` preset (generator/assets/presets/press.yaml: PDF/X-4, pnp's FOGRA39 profile, 300 % ink); the
card text is in the page images at its dpi. The RGB sheets' outline and page labels are not carried over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pypdfium2

from generator.core.errors import InputError, Problem
from generator.core.pdfx import PDFX_VERSIONS, PdfxPage, PdfxSpec, pdfx_bytes, pdfx_spec, to_cmyk
from generator.core.yamlio import load_yaml
from generator.data.project import PRESETS_DIR

PRESS = "press"  # the preset whose PDF/X version, profile and ink limit CMYK sheets take


def press_spec() -> PdfxSpec:
    """The PDF/X specification of CMYK card sheets (the `press` preset's); a located error if it is
    broken or its profile is missing."""
    path = PRESETS_DIR / f"{PRESS}.yaml"
    shown = f"generator/assets/presets/{path.name}"
    raw = load_yaml(path, shown)
    spec = pdfx_spec(raw, shown, float(raw.get("dpi", 300)), path.parent)
    if spec is None:
        raise InputError(Problem(shown, raw.line, "CMYK card sheets take this preset's `pdfx:`; expected "
                                                  "one (x-1a or x-4)"))
    return spec


def _pages(source: Path, spec: PdfxSpec) -> Iterator[PdfxPage]:
    """Each page of the RGB sheets, rendered and converted one at a time (a page in memory at once)."""
    pdf = pypdfium2.PdfDocument(str(source))
    try:
        for page in pdf:
            width, height = page.get_size()
            image = page.render(scale=spec.dpi / 72).to_pil()
            yield PdfxPage(to_cmyk(image, spec), width, height, 0.0)
            page.close()
    finally:
        pdf.close()


def in_press_cmyk(write_rgb: Callable[[Path], dict], path: Path) -> dict:
    """Draw the sheets with `write_rgb` beside `path`, then write them to `path` as PDF/X in press CMYK;
    returns the writer's facts and the PDF/X version."""
    spec = press_spec()  # before any drawing: a missing profile fails at once
    source = path.with_name(f"{path.stem}-rgb{path.suffix}")
    try:
        facts = write_rgb(source)
        drawn = pypdfium2.PdfDocument(str(source))
        title = str(drawn.get_metadata_dict().get("Title", ""))
        drawn.close()
        path.write_bytes(pdfx_bytes(_pages(source, spec), spec, title))
    finally:
        source.unlink(missing_ok=True)
    return {**facts, "colour": "cmyk", "pdfx": PDFX_VERSIONS[spec.version].key}
