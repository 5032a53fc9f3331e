"""Where the cards of a rules figure go (pure geometry): their width between the width asked for, the
legibility floor and the page's text frame, how many side by side, and how the rows of a figure taller than a
page split.

A figure's `width` is the width of each card. It is grown so that the card's smallest text prints at MIN_TEXT
or more (the legibility floor), and shrunk to the text column when the card is wider than that. When the whole
figure is taller than a page, its cards shrink towards the floor (more side by side, or smaller) until it
fits; when even that cannot make it fit, its rows are split over pages, the caption under the last one. Only a
card that does not fit a page on its own at the floor cannot be drawn: `FigureTooLarge`.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_TEXT = 6.0        # pt: a card's smallest text is never shown smaller than this in the rules
CARD_GAP = 8.0        # pt between cards of a figure
LABEL_GAP = 12.0      # pt between the cards and the callout labels
FOOT = 4.0            # pt under the cards (and above the caption)
_EPS = 1e-6


class FigureTooLarge(ValueError):
    """One card at its legibility floor, with the caption, is taller than a page's text frame; `excess` is how
    many times too large it is."""

    def __init__(self, message: str, excess: float):
        super().__init__(message)
        self.excess = excess


@dataclass(frozen=True)
class CardGrid:
    """The cards' width and height on the page, how many per row and rows, and the callout labels' width."""

    card_w: float
    card_h: float
    per_row: int
    rows: int
    label_w: float

    def cards_height(self, rows: int | None = None) -> float:
        """The height of `rows` rows of cards (all of them by default), without foot or caption."""
        rows = self.rows if rows is None else rows
        return rows * self.card_h + max(0, rows - 1) * CARD_GAP

    def rows_in(self, height: float) -> int:
        """How many rows of cards (with the foot) fit in `height`."""
        return max(0, int((height - FOOT + CARD_GAP + _EPS) // (self.card_h + CARD_GAP)))


def legible_width(native_w: float, smallest_text: float | None) -> float:
    """The narrowest width of a card (native width `native_w`) at which its smallest text prints at
    MIN_TEXT."""
    return native_w * MIN_TEXT / (smallest_text or MIN_TEXT)


def _grid(native: tuple[float, float], card_w: float, count: int, room: float, label_w: float) -> CardGrid:
    per_row = max(1, min(count, int((room + CARD_GAP + _EPS) // (card_w + CARD_GAP))))
    return CardGrid(card_w, native[1] * card_w / native[0], per_row, -(-count // per_row), label_w)


def card_grid(native: tuple[float, float], wanted: float, legible: float, count: int, avail_w: float,
              frame_h: float, caption_h: float = 0.0, callouts: bool = False) -> CardGrid:
    """The cards of a figure laid out in a text column `avail_w` wide on pages whose frame is `frame_h` high.

    `wanted` is the width asked for (at least `legible`), `caption_h` the caption's height with its gap.
    Raises FigureTooLarge when one card at the floor does not fit a page with the caption."""
    label_w = 0.0 if not callouts else min(avail_w * 0.42, 130)
    room = avail_w - (label_w + LABEL_GAP if label_w else 0.0)
    card_w = min(wanted, room)  # a card wider than the column is shrunk to fit it
    floor = min(legible, card_w)
    page = frame_h - caption_h - FOOT  # the room for the cards on a page of their own
    grid = _grid(native, card_w, count, room, label_w)
    if grid.cards_height() <= page + _EPS:
        return grid
    # Too tall for a page: the largest width, no smaller than the floor, at which the whole figure fits one
    # page
    # (as many per row as the column takes at that width).
    best = 0.0
    for per_row in range(1, count + 1):
        rows = -(-count // per_row)
        across = (room - (per_row - 1) * CARD_GAP) / per_row
        down = (page - (rows - 1) * CARD_GAP) / rows * native[0] / native[1]
        best = max(best, min(card_w, across, down))
    if best >= floor - _EPS:
        return _grid(native, best, count, room, label_w)
    # Not on one page at the floor: the rows go over pages, each card as large as a page allows.
    single = page * native[0] / native[1]
    if single < floor - _EPS:
        raise FigureTooLarge(
            f"at its smallest legible size (its smallest text at {MIN_TEXT:g} pt) a card is "
            f"{floor:.0f} x {floor * native[1] / native[0]:.0f} pt, and a page of the rules has "
            f"room for {single:.0f} x {page:.0f} pt" + (" with the caption" if caption_h else ""),
            floor / single,
        )
    return _grid(native, min(card_w, single), count, room, label_w)


def split_rows(grid: CardGrid, avail_h: float, frame_h: float, total_h: float) -> int:
    """How many rows of a figure go on this page when the figure (`total_h` high) does not fit `avail_h`: 0 to
    move it whole to the next page (it fits a page, or not even a row fits here)."""
    if total_h <= frame_h + _EPS or grid.rows == 1:
        return 0
    return min(grid.rows_in(avail_h), grid.rows - 1)


def cover_grid(
    native: tuple[float, float], wanted: float, count: int, avail_w: float, room_h: float
) -> CardGrid:
    """The cards of the cover: one row across `avail_w`, each at most `wanted` wide, in `room_h` of height
    (the cover's picture shrinks with the room its page leaves)."""
    across = (avail_w - (count - 1) * CARD_GAP) / count
    down = max(room_h - FOOT, 1.0) * native[0] / native[1]
    card_w = min(wanted, across, down)
    return CardGrid(card_w, native[1] * card_w / native[0], count, 1, 0.0)
