"""Card sheet PDFs read back: page sizes, pages per deck, card codes per copy, embedded fonts,
reproducibility."""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.cards.marks import cut_positions
from generator.cards.print_options import sheet_options
from generator.cards.sheets import outputs, pages
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.geometry import PAPERS
from generator.core.units import mm
from generator.data.expand import expand_deck
from generator.data.load import load_game
from generator.data.project import Project
from generator.pipeline.gather import check_game
from tests.conftest import REPO

CHECK = 2  # pages of the print check before the first card sheet
REAL_GAMES = [g for g in ("order-up-pizza", "order-up-trading", "short-order-hero")
              if (REPO / "cards" / g / "layouts").is_dir()]

def render(game, tmp_path: Path, **options) -> dict[str, tuple[Path, dict]]:
    result = {}
    tmp_path.mkdir(parents=True, exist_ok=True)
    for output in outputs(game, BuildOptions(**options)):
        path = tmp_path / output.path.name
        result[path.stem.removeprefix("cards-")] = (path, output.render(path))
    return result


def codes_per_page(path: Path, code_prefix: str) -> list[list[str]]:
    pdf = pypdfium2.PdfDocument(str(path))
    pattern = re.compile(re.escape(code_prefix) + r"-[A-Z0-9]+-\d+")
    return [pattern.findall(pdf[i].get_textpage().get_text_range()) for i in range(len(pdf))]


def check_sheets(game, path: Path, facts: dict, paper: str, per_page: dict[str, int]) -> None:
    reader = PdfReader(path)
    width, height = sorted(PAPERS[paper].size)
    for page in reader.pages:
        box = sorted([float(page.mediabox.width), float(page.mediabox.height)])
        assert box == pytest.approx([width, height], abs=0.01)
    pages = codes_per_page(path, game.config.code)
    assert pages[:CHECK] == [[], []]  # the print check comes first and shows no card
    expected_pages = CHECK
    start = CHECK
    for deck in game.decks.values():
        sheets = math.ceil(deck.copies / per_page[deck.id])
        assert facts["decks"][deck.id] == {"fronts": sheets, "backs": sheets}
        deck_pages = pages[start:start + 2 * sheets]
        fronts, backs = deck_pages[0::2], deck_pages[1::2]
        assert all(codes for codes in fronts) and not any(codes for codes in backs)
        found = [code for codes in fronts for code in codes]
        assert sorted(found) == sorted(card.code for card in expand_deck(deck))  # each code once per copy
        start += 2 * sheets
        expected_pages += 2 * sheets
    assert facts["pages"] == expected_pages == len(reader.pages)
    outline = [item.title for item in reader.outline]
    assert outline[0].startswith("Print check")
    assert outline[1:] == [f"{deck.name} ({deck.copies} cards)" for deck in game.decks.values()]
    assert reader.page_labels[:3] == ["Print check", "Print check back", "1"]


def check_fonts(path: Path) -> None:
    reader = PdfReader(path)
    seen: dict = {}
    for page in reader.pages:
        _collect_fonts(page.get("/Resources"), seen)
    assert seen, "no fonts found"
    for name, descriptor in seen.items():
        assert descriptor is not None and "/FontFile2" in descriptor, f"font {name} is not embedded TrueType"
        assert "Helvetica" not in name and "Times" not in name and "Courier" not in name


def _collect_fonts(resources, seen: dict, depth: int = 0) -> None:
    if resources is None or depth > 6:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        fonts = [f.get_object() for f in font.get("/DescendantFonts", [])] or [font]
        for item in fonts:
            descriptor = item.get("/FontDescriptor")
            seen[str(item.get("/BaseFont"))] = descriptor.get_object() if descriptor else None
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            _collect_fonts(xobject.get("/Resources"), seen, depth + 1)


def test_synthetic_game_sheets(demo, tmp_path):
    built = render(demo, tmp_path)
    for paper in ("letter", "a4"):
        path, facts = built[paper]
        # Letter holds 8 poker and 16 mini cards with their full bleed (9 and 18 without it)
        per_page = {"letter": {"things": 8, "minis": 16}, "a4": {"things": 9, "minis": 18}}[paper]
        check_sheets(demo, path, facts, paper, per_page)
        check_fonts(path)
    mini_page = PdfReader(built["a4"][0]).pages[CHECK + 4]  # minis start after 2 + 2 pages of things
    assert float(mini_page.mediabox.width) > float(mini_page.mediabox.height)  # A4 18-up mini is landscape


def test_each_face_is_one_form_placed_per_copy(demo, tmp_path):
    path, _ = render(demo, tmp_path, papers=("letter",))["letter"]
    reader = PdfReader(path)
    first = reader.pages[CHECK]
    forms = [
        name for name, x in first["/Resources"]["/XObject"].items() if x.get_object()["/Subtype"] == "/Form"
    ]
    content = first.get_contents().get_data().decode("latin-1")
    uses = [name for name in re.findall(r"/(\S+) Do", content) if "card_" in name]  # not the marks and labels
    assert len(uses) == 8 and len(set(uses)) == 2  # Letter 8-up: 7 alpha + 1 beta placements of two forms
    assert set(uses) <= set(name.lstrip("/") for name in forms)


def test_two_builds_are_byte_identical(demo, tmp_path):
    first = render(demo, tmp_path / "one", papers=("a4",))["a4"][0]
    second = render(load_game(demo.project, "demo"), tmp_path / "two", papers=("a4",))["a4"][0]
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("duplex", ["short", "none"])
def test_other_duplex_modes_and_fold(demo, tmp_path, duplex):
    path, facts = render(demo, tmp_path, papers=("letter",), duplex=duplex)["letter"]
    assert facts["decks"]["things"] == {"fronts": 2, "backs": 2}
    pages = codes_per_page(path, "DEM")[CHECK:]
    if duplex == "none":
        assert [bool(p) for p in pages[:4]] == [True, True, False, False]
    path, facts = render(demo, tmp_path / "fold", papers=("letter",), layout="fold")["letter"]
    assert facts["decks"]["things"] == {"fronts": 3, "backs": 3}  # 11 cards, 4 per folded sheet
    assert sorted(c for p in codes_per_page(path, "DEM")[CHECK:CHECK + 3] for c in p) == sorted(
        c.code for c in expand_deck(demo.decks["things"]))


def test_a_card_too_big_for_the_paper_names_the_deck(demo):
    deck_file = Path(demo.decks["minis"].file)
    path = Path(demo.project.root) / deck_file
    path.write_text(path.read_text().replace("size: mini", "size: {width: 250mm, height: 300mm}"))
    game = load_game(demo.project, "demo")
    with pytest.raises(InputError) as info:
        outputs(game, BuildOptions(papers=("a4",)))
    assert "cards/demo/minis.yaml:4: deck 'minis'" in str(info.value) and "does not fit" in str(info.value)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_real_games_print_every_card(repo_project: Project, tmp_path, game_id):
    game = load_game(repo_project, game_id)
    check_game(game)
    path, facts = render(game, tmp_path, papers=("letter",))["letter"]
    poker = (round(mm(63.5), 2), round(mm(88.9), 2))
    assert all(tuple(round(v, 2) for v in deck.size_pt) == poker for deck in game.decks.values())
    check_sheets(game, path, facts, "letter", {deck: 8 for deck in game.decks})  # 8-up: full bleed
    check_fonts(path)


def _squares(page) -> list[tuple[float, float]]:
    """(width, height) of every rectangle drawn with the `re` operator on a page."""
    content = page.get_contents().get_data().decode("latin-1")
    return [(float(w), float(h)) for w, h in re.findall(r"[-\d.]+ [-\d.]+ ([-\d.]+) ([-\d.]+) re\b", content)]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_print_check_opens_the_sheets(demo, tmp_path, paper):
    path, _ = render(demo, tmp_path, papers=(paper,), duplex="short", back_offset=(1.5, -2.0))[paper]
    reader = PdfReader(path)
    front, back = reader.pages[0], reader.pages[1]
    assert sorted([float(front.mediabox.width), float(front.mediabox.height)]) == pytest.approx(
        sorted(PAPERS[paper].size)
    )
    assert float(front.mediabox.width) < float(front.mediabox.height)  # portrait
    sizes = _squares(front)
    assert (pytest.approx(72.0), pytest.approx(72.0)) in sizes  # 1 in
    assert (pytest.approx(mm(25)), pytest.approx(mm(25))) in sizes
    text = " ".join(pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range().split())
    for words in ("Print at 100% / Actual size, not Fit to page", "1 in square", "25 mm square",
                  "--duplex short", "flip on the short edge", "--duplex none", "--back-offset 1.5 -2"):
        assert words in text, words
    back_text = pypdfium2.PdfDocument(str(path))[1].get_textpage().get_text_range()
    assert "back" in back_text and all(name in back_text for name in "ABCD")
    assert back.get_contents() is not None


@pytest.mark.parametrize(
    "options", [{}, {"layout": "fold"}, {"duplex": "none"}, {"gap": "3mm", "marks": "both"}]
)
def test_no_ink_within_5mm_of_the_paper_edge_and_only_marks_within_6mm(demo, tmp_path, options):
    path, _ = render(demo, tmp_path, papers=("letter",), **options)["letter"]
    pdf = pypdfium2.PdfDocument(str(path))
    scale = 2.0
    edge = math.floor(mm(5) * scale) - 1  # one pixel of anti-aliasing
    band = math.floor(mm(6) * scale) - 1
    for index in range(len(pdf)):
        image = pdf[index].render(scale=scale).to_pil().convert("L")
        w, h = image.size
        for box in ((0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)):
            assert image.crop(box).getextrema()[0] == 255, f"page {index + 1}: ink within 5 mm of the edge"
        # from 5 to 6 mm only the thin crop marks and cut lines that run towards the edge
        for box, across in (((0, edge, w, band), 0), ((0, h - band, w, h - edge), 0),
                            ((edge, 0, band, h), 1), ((w - band, 0, w - edge, h), 1)):
            strip = image.crop(box)
            inked = [i for i in range(strip.size[across])
                     if strip.crop((i, 0, i + 1, strip.size[1]) if across == 0 else
                                   (0, i, strip.size[0], i + 1)).getextrema()[0] < 200]
            runs = [
                len(list(run)) for _, run in itertools.groupby(enumerate(inked), key=lambda p: p[1] - p[0])
            ]
            assert all(run <= 3 for run in runs), f"page {index + 1}: more than a thin mark within 6 mm"


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_cut_of_the_real_games_has_a_mark_in_the_printable_margin(repo_project, tmp_path, paper):
    """Rendered: for each page of fronts, dark pixels on the line of every cut, 5-6.35 mm from the paper
    edge."""
    for game_id in REAL_GAMES:
        game = load_game(repo_project, game_id)
        path, _ = render(game, tmp_path / game_id, papers=(paper,))[paper]
        pdf = pypdfium2.PdfDocument(str(path))
        options = sheet_options(game, BuildOptions(papers=(paper,)))
        seen = set()
        for page in pages(game, paper, options):
            key = (page.group.first.id, len(page.plan.cells))  # pages of one deck differ only in their cards
            if page.plan.side != "front" or key in seen:
                continue
            seen.add(key)
            scale = 3.0
            image = pdf[page.index].render(scale=scale).to_pil().convert("L")
            xs, ys = cut_positions([page.sheet.fronts[slot].trim for slot, _ in page.plan.cells])
            ph, pw = page.sheet.page_h, page.sheet.page_w
            clips = [page.sheet.fronts[slot].clip for slot, _ in page.plan.cells]  # beyond the art, not on it
            grid_y = (min(c.y for c in clips), max(c.y2 for c in clips))
            grid_x = (min(c.x for c in clips), max(c.x2 for c in clips))

            def dark(box, image=image, scale=scale) -> bool:
                x0, y0, x1, y1 = (round(v * scale) for v in box)
                return image.crop((x0, y0, x1 + 1, y1 + 1)).getextrema()[0] < 160

            for x in xs:  # on the cut line, between 5 mm from the edge and the grid: a mark below and above
                assert dark((x - 0.5, ph - grid_y[0] + 0.3, x + 0.5, ph - mm(5))), (
                    game_id,
                    page.index,
                    "x",
                    x,
                )
                assert dark((x - 0.5, mm(5), x + 0.5, ph - grid_y[1] - 0.3)), (game_id, page.index, "x", x)
            for y in ys:
                assert dark((mm(5), ph - y - 0.5, grid_x[0] - 0.3, ph - y + 0.5)), (
                    game_id,
                    page.index,
                    "y",
                    y,
                )
                assert dark((grid_x[1] + 0.3, ph - y - 0.5, pw - mm(5), ph - y + 0.5)), (
                    game_id,
                    page.index,
                    "y",
                    y,
                )


@pytest.mark.parametrize("memo", [None, 7])
def test_the_second_paper_drawn_from_the_first_papers_laid_out_texts_is_the_same(repo_project, tmp_path, memo,
                                                                                 monkeypatch):
    """Letter then A4 in one process (A4 draws the paragraphs and plain lines laid out for Letter, as many as
    the memo holds) gives the A4 sheet a process drawing A4 alone gives: Order Up's texts shrink to fit, break
    lines and hold inline icons. After the last paper no laid-out text is held. (Every face is taken as one
    the list of faces cannot record, e.g. one with a transparency, so each sheet draws it: a face it records
    is laid out once for every paper, tests/cards/test_face_list.py.)"""
    from generator.faces import face
    from generator.faces.boxes import text as text_boxes

    monkeypatch.setattr(face._Marks, "recorded", lambda *_: None)  # noqa: SLF001
    if memo is not None:
        monkeypatch.setattr(text_boxes, "LAID_MEMO", memo)
    game = load_game(repo_project, "order-up-pizza")
    outputs_both = outputs(game, BuildOptions())
    renderer = face.renderer_for(game)
    outputs_both[0].render(tmp_path / "letter.pdf")
    texts = next(kind for kind in renderer.kinds.values() if isinstance(kind, text_boxes.TextBox))
    held = texts._laid_held  # noqa: SLF001
    assert held == min(memo or 10**6, sum(len(laid) for laid in texts._laid.values()))  # noqa: SLF001
    assert 7 <= held <= (memo or 10**6)
    outputs_both[1].render(tmp_path / "both-a4.pdf")
    assert texts._laid_held == 0 and not any(texts._laid.values())  # noqa: SLF001
    alone = render(load_game(repo_project, "order-up-pizza"), tmp_path / "alone", papers=("a4",))
    assert (tmp_path / "both-a4.pdf").read_bytes() == alone["a4"][0].read_bytes()
    assert len(PdfReader(tmp_path / "both-a4.pdf").pages) > CHECK
