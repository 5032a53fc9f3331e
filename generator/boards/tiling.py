"""Tiling a large board over home-printer pages at 100 %, with overlap (pure geometry, no ReportLab)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.core.geometry import Rect
from generator.core.units import MM


@dataclass(frozen=True)
class Tile:
    """One tile: its place in the grid (0-based) and the part of the board it shows (board points)."""

    row: int
    col: int
    region: Rect

    @property
    def name(self) -> str:
        return f"row {self.row + 1} col {self.col + 1}"


@dataclass(frozen=True)
class Tiling:
    """A board cut into overlapping page-sized tiles; every tile's content area is the page minus the
    margin."""

    page: tuple[float, float]
    orientation: str
    margin: float
    overlap: float
    rows: int
    cols: int
    tiles: tuple[Tile, ...]

    @property
    def area(self) -> tuple[float, float]:
        return self.page[0] - 2 * self.margin, self.page[1] - 2 * self.margin

    @property
    def pages(self) -> int:
        return self.rows * self.cols

    def offset(self, tile: Tile) -> tuple[float, float]:
        """Translation from board points to page points for this tile."""
        return self.margin - tile.region.x, self.margin - tile.region.y


def tiles_along(length: float, area: float, overlap: float) -> int:
    """How many tiles of `area` with `overlap` cover `length`."""
    if area <= overlap:
        raise ValueError(f"printable area {area:.1f} pt must exceed the overlap {overlap:.1f} pt")
    if length <= area + 1e-6:
        return 1
    return math.ceil((length - overlap) / (area - overlap) - 1e-9)


def plan_tiling(board: tuple[float, float], paper: tuple[float, float], margin: float = 6 * MM,
                overlap: float = 12 * MM) -> Tiling:
    """Tile a board over paper at 100 %; picks the orientation with fewest pages (portrait on a tie)."""
    best: Tiling | None = None
    short, long_ = sorted(paper)
    for orientation, page in (("portrait", (short, long_)), ("landscape", (long_, short))):
        tiling = _tile(board, page, orientation, margin, overlap)
        if best is None or tiling.pages < best.pages:
            best = tiling
    assert best is not None
    return best


def _tile(board: tuple[float, float], page: tuple[float, float], orientation: str, margin: float,
          overlap: float) -> Tiling:
    aw, ah = page[0] - 2 * margin, page[1] - 2 * margin
    cols, rows = tiles_along(board[0], aw, overlap), tiles_along(board[1], ah, overlap)
    # Centre the board in the covered area so its outer edges are not on the edge of the printable area.
    extra_w = cols * aw - (cols - 1) * overlap - board[0]
    extra_h = rows * ah - (rows - 1) * overlap - board[1]
    tiles = []
    for r in range(rows):
        top = board[1] + extra_h / 2 - r * (ah - overlap)
        for c in range(cols):
            left = -extra_w / 2 + c * (aw - overlap)
            tiles.append(Tile(r, c, Rect(left, top - ah, aw, ah)))
    return Tiling(page, orientation, margin, overlap, rows, cols, tuple(tiles))
