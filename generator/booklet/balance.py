"""Page balancing of the rules as pure decisions (no ReportLab): how full each laid-out page is, which pages
waste paper, and which layout to try next.

A rules page is wasted when it is less than half full and no chapter starts on it (a chapter's last lines
spilt onto a page of their own), and a booklet wastes paper on the blank pages that round its page count up
to a multiple of 4. `pdf.render_reading` lays the rules out, asks `next_layouts` for a few other layouts
(a page break before a heading, a slightly smaller body size) and keeps the best by `Balance.score`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from generator.booklet.imposition import padded_count

HALF_FULL = 0.5
# The layout's measure (down to the last line's space after) runs a little fuller than the ink it draws:
# a page must reach this to count as half full, so the ink is at least half the page.
LAID_OUT_HALF = 0.53
BODY_SIZES = (9.5, 9.25, 9.0)  # the body text's sizes, largest first: smaller only to save a page
FIGURE_SCALES = (1.0, 0.9, 0.8)  # the figures' sizes (of what the text asks), the same way


@dataclass(frozen=True)
class HeadingPlace:
    """Where a heading landed: its key, level (1 = chapter), page (1-based) and how full the page was above
    it (0 at the top of the frame, 1 at its foot)."""

    key: str
    level: int
    page: int
    above: float


@dataclass(frozen=True)
class Balance:
    """What a layout measured: each page's fill (0..1 of the text frame) and where the headings landed."""

    fills: tuple[float, ...]
    headings: tuple[HeadingPlace, ...]
    body_size: float = BODY_SIZES[0]
    figure_scale: float = FIGURE_SCALES[0]

    def chapter_pages(self) -> set[int]:
        """The pages on which a chapter (a level-1 heading) starts."""
        return {h.page for h in self.headings if h.level == 1}

    def short_pages(self) -> list[int]:
        """Pages (1-based, the cover excepted) less than half full on which no chapter starts."""
        chapters = self.chapter_pages()
        return [page for page, fill in enumerate(self.fills, start=1)
                if page > 1 and fill < LAID_OUT_HALF and page not in chapters]

    @property
    def blanks(self) -> int:
        """The blank pages a saddle-stitched booklet of this layout needs."""
        return padded_count(len(self.fills)) - len(self.fills)

    def score(self) -> tuple:
        """Smaller is better: fewest short pages, then fewest blank pages, then the largest body size and
        figures, then the fewest pages."""
        return len(self.short_pages()), self.blanks, -self.body_size, -self.figure_scale, len(self.fills)


@dataclass(frozen=True)
class Layout:
    """One way to lay the rules out: the body size, the figures' scale and the headings that start a new
    page."""

    body_size: float = BODY_SIZES[0]
    figure_scale: float = FIGURE_SCALES[0]
    breaks: frozenset[str] = field(default_factory=frozenset)


# A page on which a chapter starts may be left this full by a page break (less would waste the paper the
# balancing is for; a page that only starts a chapter is never left nearly empty on purpose).
CHAPTER_PAGE_FLOOR = 0.4


def _break_before(balance: Balance, page: int, levels: tuple[int, ...], taken: frozenset[str]) -> str | None:
    """The last heading of `levels` on `page` that leaves the page above it at least half full (or, on a page
    where a chapter starts, CHAPTER_PAGE_FLOOR full): a page break before it moves it (and what follows) to
    the next page."""
    floor = CHAPTER_PAGE_FLOOR if page in balance.chapter_pages() else LAID_OUT_HALF
    found = [h for h in balance.headings if h.page == page and h.level in levels and h.key not in taken
             and h.above >= floor and not (h.level == 1 and h.above < LAID_OUT_HALF)]
    return found[-1].key if found else None


def next_layouts(layout: Layout, balance: Balance) -> list[Layout]:
    """The layouts worth trying after `layout` measured `balance`, most promising first (none: it is
    best)."""
    short, blanks = balance.short_pages(), balance.blanks
    if not short and not blanks:
        return []
    tries: list[Layout] = []
    # a short page takes the last section of the page before it along (keep with next, balanced), or of the
    # page before that one, whose sections then fill the page before it
    pushed = set()
    for page in short:
        key = _break_before(balance, page - 1, (1, 2), layout.breaks) \
            or _break_before(balance, page - 2, (1, 2), layout.breaks)
        if key:
            pushed.add(key)
    if pushed:
        tries.append(replace(layout, breaks=layout.breaks | pushed))
    if blanks and not short and blanks <= 2:
        # a page to fill: the last chapter that starts below the middle of a page starts a page of its own
        pages = sorted({h.page for h in balance.headings if h.level == 1}, reverse=True)
        for page in pages:
            key = _break_before(balance, page, (1,), layout.breaks)
            if key:
                tries.append(replace(layout, breaks=layout.breaks | {key}))
                break
    if short or blanks:
        # smaller figures, then a slightly smaller body size, to end a page sooner (the breaks kept)
        scales = [scale for scale in FIGURE_SCALES if scale < layout.figure_scale]
        if scales:
            tries.append(replace(layout, figure_scale=scales[0]))
        sizes = [size for size in BODY_SIZES if size < layout.body_size]
        if sizes:
            tries.append(replace(layout, body_size=sizes[0]))
    return tries


FIRST_LAYOUT = Layout()  # the body size the styles have, the figures as the text asks, no page break
