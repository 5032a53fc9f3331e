"""Bleed on every cut edge of every paper (issue 34): every outer card edge (an edge of the grid, or one
beside an empty slot of a partial sheet) shows the full bleed, on every sheet of the bundled games with each
sheet option and for card sizes no preset has, measured from the geometry and confirmed on a rendered page."""

from __future__ import annotations

import pypdfium2
import pytest

from generator.cards.imposition import LayoutError, make_sheet, plan_pages
from generator.cards.marks import INK
from generator.cards.print_options import SheetOptions
from generator.cards.sheets import pages
from generator.core.geometry import EPS, Rect
from generator.core.units import mm
from generator.data.load import load_game
from generator.faces.face import renderer_for
from tests.cards.test_imposition import outer_bleeds
from tests.cards.test_sheets import render

GAMES = ("order-up-pizza", "order-up-trading", "short-order-hero", "crazy-eights", "go-fish")
OPTIONS = {"default": SheetOptions(), "gap 3mm": SheetOptions(gap=mm(3)),
           "marks lines": SheetOptions(marks="lines"), "marks both": SheetOptions(marks="both"),
           "pack": SheetOptions(pack=True),
           "fold": SheetOptions(layout="fold"), "duplex short": SheetOptions(duplex="short"),
           "duplex none": SheetOptions(duplex="none")}
# sizes no preset has (mm), portrait and landscape, small to nearly a page
HELD_OUT = [(50, 80), (38, 55), (66, 93), (80, 125), (60, 60), (100, 140), (88.9, 63.5), (120, 70), (25, 25),
            (180, 250)]


def _short_edges(sheet, plan) -> list[str]:
    """Every outer edge of the page's cards that shows less than the bleed (the fronts: each back is its
    front's clip mirrored, which tests/cards/test_imposition.py checks), and that art keeps off the edge."""
    filled = sorted({slot for slot, _ in plan.cells})
    fold_side = None if sheet.fold is None else ("right" if sheet.fold.vertical else "bottom")
    slots = sheet.page_slots("front", set(filled))
    page = [slots[i] for i in filled]
    found = [f"slot {filled[i]} {edge}: {shown / mm(1):.2f} mm"
             for i, edge, shown in outer_bleeds(sheet, page)
             if edge != fold_side and shown < sheet.bleed - EPS]
    safe = Rect(INK, INK, sheet.page_w - 2 * INK, sheet.page_h - 2 * INK)
    return found + [f"slot {i}: art within 6 mm of the paper edge" for i in filled
                    if not safe.contains(slots[i].clip, EPS)]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_outer_edge_of_every_sheet_of_the_bundled_games_has_its_full_bleed(repo_project, game_id):
    game = load_game(repo_project, game_id)
    measured = 0
    for paper in ("letter", "a4"):
        for name, options in OPTIONS.items():
            for page in pages(game, paper, options):
                if page.sheet.fit is None:  # round and hexagonal cards: packed like tokens
                    continue
                assert _short_edges(page.sheet, page.plan) == [], (paper, name, page.index)
                assert page.sheet.bleed == pytest.approx(renderer_for(game).bleed)
                measured += 1
    assert measured


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", HELD_OUT)
@pytest.mark.parametrize("gap", [0.0, mm(3)])
@pytest.mark.parametrize("layout", ["duplex", "fold"])
def test_held_out_card_sizes_keep_their_full_bleed_on_full_and_partial_sheets(paper, size, gap, layout):
    try:
        sheet = make_sheet(paper, (mm(size[0]), mm(size[1])), mm(3), layout=layout, gap=gap, marks="both")
    except LayoutError:
        assert size == (180, 250) and layout == "fold"  # no half of a sheet holds it
        return
    if not sheet.fit.full:  # only a card too large for its bleed on this paper shows less, and says so
        assert size == (180, 250) and sheet.per_page == 1
        return
    for count in range(1, sheet.per_page + 1):
        for plan in plan_pages(count, sheet):
            assert _short_edges(sheet, plan) == [], (count, plan.side)


def _ink(image, x_pt: float, y_pt: float, page_h: float, scale: float) -> bool:
    """True when the pixel at the page point is not paper white."""
    r, g, b = image.getpixel((int(x_pt * scale), int((page_h - y_pt) * scale)))[:3]
    return min(r, g, b) < 250  # the lightest card colour of the games is a cream of (255, 248, 236)


def test_a_rendered_partial_sheet_shows_the_bleed_and_then_paper(repo_project, tmp_path):
    """On the rendered backs of Order Up's Letter sheets (solid colour to the bleed edge), the middle of every
    outer card edge has ink 2.5 mm beyond the cut and bare paper 3.6 mm beyond it, on full and partial
    pages."""
    game = load_game(repo_project, "order-up-pizza")
    path, _ = render(game, tmp_path, papers=("letter",))["letter"]
    pdf = pypdfium2.PdfDocument(str(path))
    scale = 300 / 72
    checked = 0
    for page in pages(game, "letter", SheetOptions()):
        if page.plan.side != "back" or page.plan.sheet not in (0, page.plan.sheets - 1):
            continue
        sheet, filled = page.sheet, {slot for slot, _ in page.plan.cells}
        image = pdf[page.index].render(scale=scale).to_pil().convert("RGB")
        backs = sheet.page_slots("back", filled)
        fronts = sheet.page_slots("front", filled)
        for i, edge, _ in outer_bleeds(sheet, [fronts[j] for j in sorted(filled)]):
            slot = backs[sorted(filled)[i]]
            t = slot.trim
            side = edge  # as on the front, unless the back is mirrored across it
            if sheet.back_axis == "x":
                side = {"left": "right", "right": "left"}.get(side, side)
            elif sheet.back_axis == "y":
                side = {"top": "bottom", "bottom": "top"}.get(side, side)
            for beyond, inked in ((mm(2.5), True), (mm(3.6), False)):
                x, y = {"left": (t.x - beyond, t.cy), "right": (t.x2 + beyond, t.cy),
                        "top": (t.cx, t.y2 + beyond), "bottom": (t.cx, t.y - beyond)}[side]
                assert _ink(image, x, y, sheet.page_h, scale) == inked, (page.index, i, side, beyond)
            checked += 1
    assert checked >= 8


def test_the_print_check_says_how_the_sheets_hold_the_bleed(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-trading")
    built = render(game, tmp_path, papers=("letter", "a4"))
    letter, a4 = (" ".join(pypdfium2.PdfDocument(str(built[p][0]))[0].get_textpage().get_text_range().split())
                  for p in ("letter", "a4"))
    assert "8 cards a sheet, not 9, so every outer card edge keeps its full 3 mm bleed" in letter
    assert "Every outer card edge keeps its full 3 mm bleed" in a4
