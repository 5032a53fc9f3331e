"""Saddle-stitch booklet imposition as pure geometry: page order per sheet side and scale-to-fit (no
ReportLab)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SheetSide:
    """One side of a folded sheet: the reading pages (1-based, None = blank) on its left and right halves."""

    sheet: int  # 0-based, outermost sheet first
    side: str  # "front" or "back"
    left: int | None
    right: int | None


@dataclass(frozen=True)
class Placement:
    """Where a page of size (w, h) goes inside a cell: a uniform scale and the lower-left corner."""

    scale: float
    x: float
    y: float


def padded_count(pages: int) -> int:
    """The page count rounded up to a multiple of 4 (a saddle-stitched booklet needs whole sheets)."""
    if pages < 1:
        raise ValueError(f"a booklet needs at least one page, got {pages}")
    return -(-pages // 4) * 4


def imposition(pages: int, back: int = 0) -> list[SheetSide]:
    """Sheet sides in print order; sheet i front = [n-2i, 1+2i], back = [2+2i, n-1-2i].

    The padding pages are blank. They come after the text, but before the last `back` pages: those stay at the
    end, so a quick reference written as back matter is printed on the back cover."""
    n = padded_count(pages)
    back = max(0, min(back, pages - 1))

    def real(page: int) -> int | None:
        if page <= pages - back:
            return page
        if page > n - back:
            return page - (n - pages)
        return None

    sides: list[SheetSide] = []
    for i in range(n // 4):
        sides.append(SheetSide(i, "front", real(n - 2 * i), real(1 + 2 * i)))
        sides.append(SheetSide(i, "back", real(2 + 2 * i), real(n - 1 - 2 * i)))
    return sides


def fit(
    page_w: float, page_h: float, cell_x: float, cell_y: float, cell_w: float, cell_h: float
) -> Placement:
    """Scale a page uniformly to fit a cell (never enlarging) and centre it there."""
    scale = min(cell_w / page_w, cell_h / page_h, 1.0)
    return Placement(scale, cell_x + (cell_w - page_w * scale) / 2, cell_y + (cell_h - page_h * scale) / 2)


def halves(
    sheet_w: float, sheet_h: float
) -> tuple[tuple[float, float, float, float], tuple[float, float, float, float]]:
    """The left and right half of a landscape sheet as (x, y, w, h) cells."""
    half = sheet_w / 2
    return (0.0, 0.0, half, sheet_h), (half, 0.0, half, sheet_h)
