"""Rule booklets built from the real games: data-driven text, outline, imposition order, fonts,
reproducibility."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.booklet.imposition import imposition
from generator.booklet.pdf import outputs
from generator.booklet.text import render_rules
from generator.core.contract import BuildOptions
from generator.core.units import mm
from generator.data.assembly import assembly_text
from generator.data.inventory import inventory
from generator.data.load import load_game
from generator.pipeline.build import build

GAMES = ("order-up-pizza", "order-up-trading", "short-order-hero")


def _text(path) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(str(path)).pages).split())


def _build(project, game_id, out):
    game = load_game(project, game_id)
    options = BuildOptions(papers=("letter", "a4"), out_dir=out)
    written = {}
    for output in outputs(game, options):
        target = out / output.path
        target.parent.mkdir(parents=True, exist_ok=True)
        written[output.path.name] = (target, output.render(target))
    return game, written


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory, repo_project):
    out = tmp_path_factory.mktemp(request.param)
    return _build(repo_project, request.param, out)


def test_reading_pdf_shows_every_count_from_the_data(built):
    game, written = built
    text = _text(written["rules.pdf"][0])
    for deck in game.decks.values():
        assert f"{deck.name} {deck.copies}" in text
    for line in inventory(game):  # decks, boards, printed components and extras, counted from the data
        assert f"{line.name} {line.count}" in text
    assert f"{game.config.players.min} to {game.config.players.max}" in text


def test_reading_pdf_explains_how_to_make_each_component_with_a_picture(built):
    game, written = built
    reader = PdfReader(str(written["rules.pdf"][0]))
    pages = [page.extract_text() for page in reader.pages]
    text = " ".join(" ".join(page.split()) for page in pages)
    assert "Making the pieces" in text
    for component in game.components.values():
        caption = f"{component.name}: as printed"
        assert caption in text, caption
        page = next(p for p in pages if caption in " ".join(p.split()))
        assert component.name in page
        paragraph = " ".join(assembly_text(game, component).split())
        assert " ".join(paragraph.split()[:6]) in text  # the paragraph that explains it


def test_reading_pdf_is_half_letter_with_a_bookmark_per_heading(built):
    game, written = built
    reader = PdfReader(str(written["rules.pdf"][0]))
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == (396.0, 612.0)

    def titles(items):
        for item in items:
            if isinstance(item, list):
                yield from titles(item)
            else:
                yield item.title
    outline = list(titles(reader.outline))
    headings = [re.sub(r"[*_`]", "", line.lstrip("#").strip())
                for line in render_rules(game).splitlines() if re.match(r"#{1,3} ", line)]
    assert outline == ["Contents"] + headings


def test_contents_lines_link_to_their_pages(built):
    _, written = built
    reader = PdfReader(str(written["rules.pdf"][0]))
    links = [a.get_object() for a in reader.pages[1].get("/Annots", [])]
    assert len(links) >= 5
    assert all(a["/Subtype"] == "/Link" for a in links)


def test_only_embedded_project_fonts(built):
    _, written = built
    for target, _ in written.values():
        for page in PdfReader(str(target)).pages:
            for font in page["/Resources"].get("/Font", {}).values():
                font = font.get_object()
                assert font["/BaseFont"].split("+")[-1] in (
                    "Fredoka-SemiBold",
                    "Lato-Regular",
                    "Lato-Bold",
                    "Lato-Italic",
                    "Lato-BoldItalic",
                ), font["/BaseFont"]
                assert "/FontFile2" in font["/FontDescriptor"]  # embedded TrueType subset


def _footer_number(page, left: float, right: float) -> str:
    text = page.get_textpage().get_text_bounded(left=left, bottom=0, right=right, top=32)
    return text.strip()


@pytest.mark.parametrize("paper, sheet", [("letter", (792.0, 612.0)), ("a4", (841.89, 595.28))])
def test_booklet_sheets_hold_pages_in_saddle_stitch_order(built, paper, sheet):
    _, written = built
    reading_pages = written["rules.pdf"][1]["pages"]
    path, facts = written[f"rules-booklet-{paper}.pdf"]
    pdf = pdfium.PdfDocument(str(path))
    try:
        sides = imposition(reading_pages, back=facts["back_cover_pages"])
        assert len(pdf) == len(sides) == facts["pages"]
        assert (len(pdf) * 2) % 4 == 0
        for index, side in enumerate(sides):
            page = pdf[index]
            assert page.get_size() == pytest.approx(sheet, abs=0.01)
            for half, number in ((0, side.left), (1, side.right)):
                found = _footer_number(page, half * sheet[0] / 2, (half + 1) * sheet[0] / 2)
                # the covers (front: reading page 1, back: the last, the back matter) have no page number;
                # padding
                # pages are blank; the inside of the cover (page 2) carries the print note, the cover none
                expected = "" if number in (None, 1, reading_pages) else str(number)
                if number == 2:
                    assert "flip on short edge" in found and found.split()[0] == "2", found
                else:
                    assert found == expected, (index, half, found)
        # the back cover (left half of the first sheet's front) is the quick reference, never a blank page
        assert facts["back_cover_pages"] == 1 and sides[0].left == reading_pages
        back_cover = (
            pdf[0].get_textpage().get_text_bounded(left=0, bottom=0, right=sheet[0] / 2, top=sheet[1])
        )
        assert "Quick reference" in back_cover
    finally:
        pdf.close()


def test_the_back_cover_has_no_page_number_and_the_page_before_it_has(built):
    """The reading PDF's last page is the back matter, printed on the booklet's back cover: no folio there (it
    showed "14" on Order Up's back cover), as on the front cover; the body pages keep theirs."""
    _, written = built
    path, facts = written["rules.pdf"]
    pdf = pdfium.PdfDocument(str(path))
    try:
        width = pdf[0].get_size()[0]
        numbers = [_footer_number(pdf[i], 0, width) for i in range(len(pdf))]
        assert numbers[0] == "" and numbers[-1] == "", numbers
        assert numbers[1:-1] == [str(n) for n in range(2, len(pdf))]
        assert "Quick reference" in pdf[len(pdf) - 1].get_textpage().get_text_range()  # the back matter
    finally:
        pdf.close()


def test_fold_ticks_keep_clear_of_the_unprintable_edge(built):
    _, written = built
    for paper in ("letter", "a4"):
        path, _ = written[f"rules-booklet-{paper}.pdf"]
        image = pdfium.PdfDocument(str(path))[1].render(scale=2).to_pil().convert("L")
        w, h = image.size
        edge = int(mm(6) * 2) - 1
        spine = image.crop((w // 2 - 3, 0, w // 2 + 3, h))
        assert spine.crop((0, 0, 6, edge)).getextrema()[0] == 255  # nothing within 6 mm of the top edge
        assert spine.crop((0, h - edge, 6, h)).getextrema()[0] == 255
        # the grey tick just inside
        assert spine.crop((0, edge, 6, edge + int(mm(4) * 2))).getextrema()[0] < 230


def test_rebuild_is_byte_identical(repo_project, tmp_path):
    _, first = _build(repo_project, "order-up-trading", tmp_path / "a")
    _, second = _build(repo_project, "order-up-trading", tmp_path / "b")
    for name, (target, _) in first.items():
        assert target.read_bytes() == second[name][0].read_bytes(), name


def test_changed_copies_and_components_reach_the_booklet(tmp_project, tmp_path):
    """Edit the data (the engine insists on the published 91-card deck, so copies move between toppings)."""
    folder = tmp_project.cards_dir / "order-up-pizza"
    toppings = folder / "toppings.yaml"
    text = toppings.read_text(encoding="utf-8")
    text = text.replace(
        "{id: pepperoni, name: Pepperoni, copies: 12,", "{id: pepperoni, name: Pepperoni, copies: 13,"
    )
    text = text.replace(
        "{id: mushrooms, name: Mushrooms, copies: 11,", "{id: mushrooms, name: Mushrooms, copies: 10,"
    )
    toppings.write_text(text, encoding="utf-8")
    dice = folder / "dice.yaml"
    dice.write_text(dice.read_text(encoding="utf-8").replace("copies: 2\n", "copies: 3\n"), encoding="utf-8")
    result = build(
        tmp_project, ["order-up-pizza"], BuildOptions(papers=("letter",), out_dir=tmp_path / "out")
    )
    assert any(w["path"].endswith("rules-booklet-letter.pdf") for w in result.written)
    booklet = _text(tmp_path / "out" / "order-up-pizza" / "rules-booklet-letter.pdf")
    assert "Pepperoni 13" in booklet and "Mushrooms 10" in booklet
    assert "Pepperoni 12" not in booklet
    assert "Dice 3" in booklet and "each of the 3 dice" in " ".join(booklet.split())


def test_picture_syntax_draws_a_real_card_and_names_a_wrong_one(tmp_project, tmp_path):
    """`![caption](card:deck/id)` in the rules text draws that card; a card that does not exist is a located
    error."""
    from generator.core.errors import InputError

    template = tmp_project.rules_template("order-up-trading")
    text = template.read_text(encoding="utf-8")
    template.write_text(text + "\n\n![The Burrito recipe](card:recipes/burrito)\n", encoding="utf-8")
    game = load_game(tmp_project, "order-up-trading")
    [reading] = [o for o in outputs(game, BuildOptions(papers=())) if o.kind == "rules"]
    facts = reading.render(tmp_path / "rules.pdf")
    last = PdfReader(str(tmp_path / "rules.pdf")).pages[facts["pages"] - 1].extract_text()
    # the card itself is drawn
    assert "The Burrito recipe" in last and "COLLECT ALL 7" in last and "Tortilla" in last
    template.write_text(text + "\n\n![Lost](card:recipes/tacos)\n", encoding="utf-8")
    game = load_game(tmp_project, "order-up-trading")
    with pytest.raises(InputError) as info:  # found with the rendered rules, before anything is drawn
        outputs(game, BuildOptions(papers=()))
    line = len((text + "\n\n").splitlines()) + 1
    assert (f"templates/rules/order-up-trading.md.j2:{line}: picture 'card:recipes/tacos' names no card"
            in str(info.value))
