"""Card figures and the cover fit the rules' pages: a figure of legible cards too wide for one row goes over
pages by rows, one that cannot fit at all is one located problem in validate and build, and the cover holds
one, two or many decks on page 1. Read back from the PDFs: where each card's face is drawn, and at what
scale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from generator.booklet.document import MARGIN, PAGE_SIZE, text_frame
from generator.booklet.figure_layout import CARD_GAP, FigureTooLarge, card_grid, cover_grid
from generator.core.units import mm
from generator.data.project import Project
from tests.conftest import run_pnp

POKER = (180.0, 252.0)  # pt
BLEED = mm(3)  # the scaffold's bleed
FRAME_W, FRAME_H = text_frame()


def _multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def drawn_cards(reader: PdfReader, page_index: int) -> list[tuple[str, float, float, float]]:
    """(card form, scale, x, y of the trim's lower left) of every card face drawn on a page: the faces are
    Form XObjects named FormXob.card_* (drawn with their bleed, clipped at the trim), placed by the page's
    matrix."""
    page = reader.pages[page_index]
    ops = ContentStream(page.get_contents(), reader).operations
    ctm, stack, found = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)
        elif op == b"Do" and str(operands[0]).startswith("/FormXob.card_"):
            found.append((str(operands[0]), ctm[0], ctm[4] + BLEED * ctm[0], ctm[5] + BLEED * ctm[3]))
    return found


def page_texts(path: Path) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(str(path)).pages]


@pytest.fixture
def scaffold(tmp_path) -> Project:
    """A game made by `pnp new demo` in an empty project (one deck of poker cards, the two-card figure)."""
    project = Project(tmp_path)
    result = run_pnp("new", "demo", project=project)
    assert result.exit_code == 0, result.output
    return project


def _set_code_size(project: Project, size: str) -> None:
    layout = project.cards_dir / "demo" / "layouts" / "actions.yaml"
    text = layout.read_text()
    assert "    size: 7pt\n    color: \"#6e6e6e\"" in text
    layout.write_text(
        text.replace("    size: 7pt\n    color: \"#6e6e6e\"", f"    size: {size}\n    color: \"#6e6e6e\"")
    )


# --- the pure layout
# ------------------------------------------------------------------------------------------

def test_card_grid_keeps_the_floor_and_the_page():
    # side by side when they fit the column
    grid = card_grid(POKER, 120, 120, 2, FRAME_W, FRAME_H)
    assert (grid.per_row, grid.rows, grid.card_w) == (2, 1, 120)
    # two legible cards wider than the column: two rows of full-size cards, taller than a page -> rows go over
    # pages
    grid = card_grid(POKER, 180, 180, 2, FRAME_W, FRAME_H, caption_h=14)
    assert (grid.per_row, grid.rows, grid.card_w) == (1, 2, 180)
    # asked larger than the floor: shrinks towards the floor until the whole figure fits a page
    grid = card_grid(POKER, 250, 150, 2, FRAME_W, FRAME_H, caption_h=14)
    assert grid.card_w >= 150 and grid.cards_height() + 14 + 4 <= FRAME_H + 1e-6
    # four cards asked at 150 pt: two per row at a width that fits both the column and the page
    grid = card_grid(POKER, 150, 140, 4, FRAME_W, FRAME_H)
    assert grid.per_row == 2 and 2 * grid.card_w + CARD_GAP <= FRAME_W and grid.cards_height() + 4 <= FRAME_H
    # a card taller than a page at its floor cannot be drawn
    tall = (283.0, 567.0)
    with pytest.raises(FigureTooLarge, match="a page of the rules has room for"):
        card_grid(tall, 283, 283, 1, FRAME_W, FRAME_H)
    # the cover: one row, in the room the page leaves
    cover = cover_grid(POKER, FRAME_W, 1, FRAME_W, 300)
    assert cover.rows == 1 and cover.card_h + 4 <= 300 + 1e-6


# --- the tester's game: smallest text 6 pt and the two-card figure of `pnp new`
# ----------------------------------

def test_a_figure_of_two_full_size_cards_goes_over_two_pages(scaffold):
    _set_code_size(scaffold, "6pt")
    validated = run_pnp("validate", "demo", "--no-sim", project=scaffold)
    assert validated.exit_code == 0, validated.output
    built = run_pnp("build", "demo", "--jobs", "1", "--paper", "letter", project=scaffold)
    assert built.exit_code == 0, built.output
    out = scaffold.build_dir / "demo"
    assert (out / "cards-letter.pdf").is_file() and (out / "rules-booklet-letter.pdf").is_file()
    reader = PdfReader(str(out / "rules.pdf"))
    texts = page_texts(out / "rules.pdf")
    body = [i for i in range(2, len(reader.pages)) if drawn_cards(reader, i)]
    assert len(body) == 2, texts  # one card on each of two pages
    width, height = PAGE_SIZE
    for index in body:
        for _name, scale, x, y in drawn_cards(reader, index):
            assert scale >= 1.0 - 1e-6  # the 6 pt code prints at 6 pt or more
            assert MARGIN - 1 <= x and x + POKER[0] * scale <= width - MARGIN + 1
            assert MARGIN + 6 - 1 <= y and y + POKER[1] * scale <= height - MARGIN - 12 + 1
    assert "Draw Two" in texts[body[0]] and "Lucky Roll" in texts[body[1]]
    assert "Two of the action cards" in texts[body[1]] and "Two of the action cards" not in texts[body[0]]


def test_a_card_taller_than_a_page_is_one_located_problem_in_validate_and_build(scaffold):
    _set_code_size(scaffold, "6pt")
    game_yaml = scaffold.cards_dir / "demo" / "game.yaml"
    game_yaml.write_text(
        game_yaml.read_text().replace("card_size: poker ", "card_size: {width: 100mm, height: 200mm}")
    )
    template = scaffold.templates_dir / "rules" / "demo.md.j2"
    line = next(n for n, text in enumerate(template.read_text().splitlines(), 1) if "figure(" in text)
    expected = (f"templates/rules/demo.md.j2:{line}: figure of 'draw-two', 'lucky-roll' does not fit a page "
                "of the rules")
    validated = run_pnp("validate", "demo", "--no-sim", project=scaffold)
    assert validated.exit_code == 1 and expected in validated.output, validated.output
    built = run_pnp("build", "demo", "--jobs", "1", project=scaffold)
    assert built.exit_code == 1 and expected in built.output, built.output
    assert "internal error" not in built.output and "LayoutError" not in built.output


# --- the cover
# ----------------------------------------------------------------------------------------------------

def _add_decks(project: Project, count: int) -> None:
    """Copies of the actions deck as decks more-1 .. more-<count> (card ids made unique: they are across
    decks)."""
    game = project.cards_dir / "demo"
    source = (game / "actions.yaml").read_text()
    names = []
    for n in range(1, count + 1):
        (game / f"more-{n}.yaml").write_text(
            source.replace("deck: actions", f"deck: more-{n}")
            .replace("code: ACT", f"code: MO{n}")
            .replace("- id: ", f"- id: m{n}-")
        )
        names.append(f"more-{n}")
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text.replace("decks: [actions]", f"decks: [actions, {', '.join(names)}]"))


@pytest.mark.parametrize(
    ("decks", "code_size", "shown"), [(1, "7pt", 1), (2, "7pt", 2), (3, "7pt", 2), (2, "6pt", 1)]
)
def test_the_cover_holds_its_cards_and_title_on_page_one(scaffold, decks, code_size, shown):
    _set_code_size(scaffold, code_size)
    _add_decks(scaffold, decks - 1)
    built = run_pnp("build", "demo", "--jobs", "1", "--paper", "letter", project=scaffold)
    assert built.exit_code == 0, built.output
    path = scaffold.build_dir / "demo" / "rules.pdf"
    reader = PdfReader(str(path))
    texts = page_texts(path)
    assert texts[0].startswith("Demo A new game") and texts[0].endswith("Rules"), texts[0]
    assert texts[1].startswith("Contents")
    cards = drawn_cards(reader, 0)
    assert len(cards) == shown
    for _name, scale, x, y in cards:
        assert scale * float(code_size[:-2]) >= 6 - 1e-6  # the smallest text legible on the cover too
        assert x >= MARGIN - 1 and x + POKER[0] * scale <= PAGE_SIZE[0] - MARGIN + 1 and y >= MARGIN + 6 - 1


def test_the_booklet_front_cover_shows_the_cover_page(scaffold):
    import pypdfium2 as pdfium

    built = run_pnp("build", "demo", "--jobs", "1", "--paper", "letter", project=scaffold)
    assert built.exit_code == 0, built.output
    pdf = pdfium.PdfDocument(str(scaffold.build_dir / "demo" / "rules-booklet-letter.pdf"))
    image = pdf[0].render(scale=0.5).to_pil().convert("L")
    w, h = image.size
    right = image.crop((w // 2 + 10, 10, w - 10, h - 40))  # the front cover (the print note aside)
    dark = sum(right.histogram()[:200])
    assert dark > 0.08 * right.width * right.height  # the cover card is there, not an empty page
    text = pdf[0].get_textpage().get_text_range()
    assert re.search(r"Demo.*Rules", text, re.S)
