"""Page balancing: the pure decisions (booklet.balance), and every bundled game's rules measured from the PDF
(pypdfium2): each page at least half full or starting a chapter, and no blank page."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from generator.booklet.balance import (
    FIRST_LAYOUT,
    HALF_FULL,
    Balance,
    HeadingPlace,
    Layout,
    next_layouts,
)
from generator.booklet.document import MARGIN
from generator.booklet.pdf import render_reading
from generator.booklet.text import render_rules
from generator.data.load import load_game
from generator.pipeline.translations import translate_checked


def _balance(fills, headings) -> Balance:
    return Balance(tuple(fills), tuple(HeadingPlace(*h) for h in headings))


def test_a_page_with_a_chapter_start_or_half_full_is_not_short():
    balance = _balance([0.9, 0.3, 0.6, 0.2, 0.1], [("h1", 1, 2, 0.0), ("h2", 2, 3, 0.3), ("h3", 1, 4, 0.0)])
    assert balance.short_pages() == [5]  # the cover (page 1) never counts
    assert balance.blanks == 3


def test_a_short_page_takes_the_last_section_of_the_page_before_along():
    balance = _balance([0.9, 0.95, 0.1, 0.7],
                       [("h1", 1, 2, 0.0), ("h2", 2, 2, 0.3), ("h3", 2, 2, 0.6), ("h4", 1, 4, 0.0)])
    tries = next_layouts(FIRST_LAYOUT, balance)
    assert tries[0] == Layout(breaks=frozenset({"h3"}))  # h2 would leave page 2 a third full
    assert all(t.figure_scale < 1 or t.body_size < FIRST_LAYOUT.body_size for t in tries[1:])


def test_a_good_layout_is_not_tried_again_and_the_score_prefers_fewer_short_pages_then_blanks():
    good = _balance([0.9, 0.8, 0.7, 0.6], [("h1", 1, 2, 0.0)])
    assert next_layouts(FIRST_LAYOUT, good) == []
    short = _balance([0.9, 0.8, 0.7, 0.2], [("h1", 1, 2, 0.0)])
    padded = _balance([0.9, 0.8, 0.7, 0.6, 0.6], [("h1", 1, 2, 0.0)])
    assert good.score() < padded.score() < short.score()


def test_a_blank_to_fill_starts_a_late_chapter_on_a_page_of_its_own():
    balance = _balance([0.9, 0.9, 0.95], [("h1", 1, 2, 0.0), ("h2", 1, 3, 0.2), ("h3", 1, 3, 0.7)])
    assert balance.blanks == 1
    assert Layout(breaks=frozenset({"h3"})) in next_layouts(FIRST_LAYOUT, balance)


CASES = [("order-up-pizza", "en"), ("order-up-pizza", "cs"), ("order-up-trading", "en"),
         ("short-order-hero", "en"), ("short-order-hero", "de"), ("go-fish", "en"), ("crazy-eights", "en")]


def _ink_fill(page) -> float:
    """How far down the text frame the page's ink reaches (0..1), header and page number aside."""
    scale = 1.0
    image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
    top, bottom = int((MARGIN + 12) * scale), int(image.height - (MARGIN + 6) * scale)
    band = image.crop((0, top, image.width, bottom)).point(lambda v: 255 if v < 240 else 0)
    box = band.getbbox()
    return 0.0 if box is None else box[3] / band.height


@pytest.mark.parametrize(("game_id", "language"), CASES)
def test_every_rules_page_is_half_full_or_starts_a_chapter(repo_project, game_id, language):
    game = load_game(repo_project, game_id)
    if language != game.source_language:
        game = translate_checked(game, language)[0]
    reading = render_reading(game, render_rules(game))
    pdf = pdfium.PdfDocument(reading.pdf)
    try:
        chapters = {item.get_dest().get_index() for item in pdf.get_toc() if item.level == 0}
        fills = [_ink_fill(pdf[index]) for index in range(len(pdf))]
    finally:
        pdf.close()
    assert all(fill > 0.05 for fill in fills), fills  # no blank page in the reading PDF
    short = [index + 1 for index, fill in enumerate(fills)
             if index > 0 and fill < HALF_FULL and index not in chapters]
    assert short == [], (short, [round(f, 2) for f in fills])
