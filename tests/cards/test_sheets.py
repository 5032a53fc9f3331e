"""Card sheet PDFs read back: page sizes, pages per deck, card codes per copy, embedded fonts, reproducibility."""

from __future__ import annotations

import math
import re
import textwrap
from pathlib import Path

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.cards.sheets import outputs
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

FILES = {
    "game.yaml": "title: Demo\ncode: DEM\nplayers: {min: 2, max: 4}\ndecks: [things, minis]\n",
    "things.yaml": """\
        deck: things
        name: Things
        code: THG
        cards:
          - {id: alpha, name: Alpha, copies: 7, icon: pepperoni}
          - {id: beta, name: Beta, copies: 4, icon: mushrooms}
        """,
    "minis.yaml": """\
        deck: minis
        name: Minis
        code: MIN
        size: mini
        layout: things
        back: things-back
        cards:
          - {id: gamma, name: Gamma, copies: 20, icon: pepperoni}
        """,
    "layouts/things.yaml": """\
        boxes:
          background: {shape: rect, fill: "#fff4d6"}
          band: {height: 10mm, shape: band, fill: "#c0392b"}
          title: {x: 4mm, y: 3.5mm, width: 36mm, height: 6mm, text: "**{{ card.name }}** :pepperoni:", size: 9pt}
          picture: {x: 10mm, y: 14mm, width: 24mm, height: 24mm, icon: "{{ card.icon }}"}
          code: {x: 4mm, y: 50mm, width: 30mm, height: 4mm, text: "{{ card.code }}", size: 7pt}
        """,
    "layouts/things-back.yaml": "boxes:\n  background: {shape: rect, fill: \"#c0392b\"}\n",
}


@pytest.fixture
def demo(tmp_path):
    for name, text in FILES.items():
        path = tmp_path / "cards" / "demo" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(Project(tmp_path), "demo")


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
        check_sheets(demo, path, facts, paper, {"things": 9, "minis": 18})
        check_fonts(path)
    mini_page = PdfReader(built["letter"][0]).pages[CHECK + 4]  # minis start after 2 + 2 pages of things
    assert float(mini_page.mediabox.width) > float(mini_page.mediabox.height)  # 18-up mini is landscape


def test_each_face_is_one_form_placed_per_copy(demo, tmp_path):
    path, _ = render(demo, tmp_path, papers=("letter",))["letter"]
    reader = PdfReader(path)
    first = reader.pages[CHECK]
    forms = [name for name, x in first["/Resources"]["/XObject"].items() if x.get_object()["/Subtype"] == "/Form"]
    content = first.get_contents().get_data().decode("latin-1")
    uses = [name for name in re.findall(r"/(\S+) Do", content) if "card_" in name]  # not the marks and labels
    assert len(uses) == 9 and len(set(uses)) == 2  # 7 alpha + 2 beta placements of two forms
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


def test_a_card_too_big_for_the_paper_names_the_deck(demo, tmp_path):
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
    check_sheets(game, path, facts, "letter", {deck: 9 for deck in game.decks})
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
    assert sorted([float(front.mediabox.width), float(front.mediabox.height)]) == pytest.approx(sorted(PAPERS[paper].size))
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


@pytest.mark.parametrize("options", [{}, {"layout": "fold"}, {"duplex": "none"}])
def test_no_ink_within_6mm_of_the_paper_edge(demo, tmp_path, options):
    path, _ = render(demo, tmp_path, papers=("letter",), **options)["letter"]
    pdf = pypdfium2.PdfDocument(str(path))
    scale = 2.0
    edge = math.floor(mm(6) * scale) - 1  # one pixel of anti-aliasing
    for index in range(len(pdf)):
        image = pdf[index].render(scale=scale).to_pil().convert("L")
        w, h = image.size
        for box in ((0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)):
            assert image.crop(box).getextrema()[0] == 255, f"page {index + 1}: ink within 6 mm of the edge"
