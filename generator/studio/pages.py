"""Printed pages for the studio: the board at true size, the component sheets, the rules reading pages and the
balance charts.

The board, component and rules pages are drawn by the build's own producers (the same `Output.render` that
writes build/<game>/board-full.pdf, components-letter.pdf and rules.pdf) into a temporary folder, then
rasterised with pypdfium2; the balance charts are the pages of the build/<game>/balance.pdf that the last `pnp
validate` wrote.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem
from generator.core.units import INCH
from generator.data.game import Game
from generator.exports.raster import pixels, render_page
from generator.pipeline.producers import PRODUCERS
from generator.studio.faces import png_bytes

SHOWN_KINDS = ("board-full", "rules", "components")  # of every output the build makes, those read on screen
PAGE_DPI = 96          # the page grid
LARGE_DPI = 200        # a page opened large
MAX_PAGE_PIXELS = 2400  # a big board is shown at most this wide or high in the grid


@dataclass
class PageSet:
    """The pages of one printed document (a board, the rules, the balance charts) as a PDF and its page
    sizes."""

    name: str          # 'board', 'board-city', 'rules', 'balance'
    title: str
    path: str          # where the build writes it, relative to the build folder
    pdf: bytes
    sizes: list[tuple[float, float]] = field(default_factory=list)  # points

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.pdf).hexdigest()[:20]

    def grid_dpi(self, index: int) -> float:
        """The grid resolution of a page: PAGE_DPI, less for a page that would be wider than
        MAX_PAGE_PIXELS."""
        width, height = self.sizes[index]
        return min(PAGE_DPI, MAX_PAGE_PIXELS * INCH / max(width, height))


def _page_sizes(pdf: bytes) -> list[tuple[float, float]]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [tuple(document[i].get_size()) for i in range(len(document))]
    finally:
        document.close()


def _title(kind: str, path: Path) -> str:
    if kind == "rules":
        return "Rules (reading pages)"
    if kind == "components":
        return "Component sheets"  # tokens, dice, standees, tuck boxes, score pads
    stem = path.stem.removesuffix("-full")
    return "Board" if stem == "board" else f"Board {stem.removeprefix('board-')}"


def printed_pages(game: Game) -> tuple[list[PageSet], list[Problem]]:
    """The game's board and rules pages, drawn by the producers; problems (a rules template error)
    returned."""
    options = BuildOptions(papers=("letter",))
    sets: list[PageSet] = []
    problems: list[Problem] = []
    with tempfile.TemporaryDirectory(prefix="pnp-studio-") as folder:
        for producer in PRODUCERS:
            try:
                outputs = [o for o in producer.outputs(game, options) if o.kind in SHOWN_KINDS]
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            for index, output in enumerate(outputs):
                target = Path(folder) / f"{index}-{output.path.name}"
                try:
                    output.render(target)
                except InputError as exc:
                    problems.extend(exc.problems)
                    continue
                pdf = target.read_bytes()
                sets.append(PageSet(output.path.stem.removesuffix("-full"), _title(output.kind, output.path),
                                    output.path.as_posix(), pdf, _page_sizes(pdf)))
    sets.sort(key=page_order)
    return sets, problems


def page_order(pages: PageSet) -> tuple[int, str]:
    """Boards first, then the rules."""
    return (0 if pages.name.startswith("board") else 1, pages.name)


def balance_pages(build_dir: Path, game_id: str) -> PageSet | None:
    """The balance charts of the last `pnp validate` (build/<game>/balance.pdf), or None when there are
    none."""
    path = build_dir / game_id / "balance.pdf"
    try:
        pdf = path.read_bytes()
        return PageSet("balance", "Balance charts", f"{game_id}/balance.pdf", pdf, _page_sizes(pdf))
    except (OSError, pdfium.PdfiumError):
        return None


def render_page_png(pages: PageSet, index: int, dpi: float) -> bytes:
    """One page of a page set as PNG bytes at `dpi`."""
    document = pdfium.PdfDocument(pages.pdf)
    try:
        page = document[index]
        width, height = page.get_size()
        try:
            return png_bytes(render_page(page, pixels(width, dpi), pixels(height, dpi)))
        finally:
            page.close()
    finally:
        document.close()
