"""Component sheet PDFs read back: tuck boxes measured from their fold lines, every cut drawn, dice nets
folded from the lines on the page, token sheets packed as tightly as promised, backs mirrored."""

from __future__ import annotations

import ctypes
import json
import math
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from pypdf import PdfReader

from generator.components.die_net import DIRECTIONS, cube_edges
from generator.components.sheets import outputs
from generator.core.contract import BuildOptions
from generator.core.geometry import PAPERS
from generator.core.units import INCH, mm, to_pt
from generator.data.component_models import LABEL_STRIP, SHEET_MARGIN
from generator.data.components import tuckbox_plan
from generator.data.load import load_game
from generator.pipeline.build import write_manifest
from tests.components.pdf_lines import connected_pieces, cuts_and_folds, loose_ends

GAMES = ["order-up-pizza", "order-up-trading", "short-order-hero"]
TOL = 0.05  # pt


def render(game, folder: Path, **options) -> dict[str, tuple[Path, dict]]:
    folder.mkdir(parents=True, exist_ok=True)
    result = {}
    for output in outputs(game, BuildOptions(**options)):
        path = folder / output.path.name
        result[output.path.name] = (path, output.render(path))
    return result


@pytest.fixture(scope="module", params=GAMES)
def built(request, tmp_path_factory, repo_project):
    game = load_game(repo_project, request.param)
    return game, render(game, tmp_path_factory.mktemp(request.param))


def _front_pages(path: Path) -> list[int]:
    """Pages that are not token back pages (those carry no cut lines by design)."""
    reader = PdfReader(str(path))
    return [i for i, page in enumerate(reader.pages) if "backs of page" not in page.extract_text()]


def test_the_three_games_build_component_sheets_on_both_papers(built):
    game, written = built
    for paper in ("letter", "a4"):
        path, facts = written[f"components-{paper}.pdf"]
        reader = PdfReader(str(path))
        assert len(reader.pages) == facts["pages"] > 0
        for page in reader.pages:
            box = page.mediabox
            assert (float(box.width), float(box.height)) == pytest.approx(PAPERS[paper].size, abs=0.01)
            fonts = page["/Resources"].get("/Font", {})
            for font in fonts.values():
                assert "Helvetica" not in str(font.get_object()["/BaseFont"])
        assert set(facts["components"]) == set(game.components)
        assert all(entry["pages"] for entry in facts["components"].values())  # every component is printed


def _tuckboxes_on(path: Path) -> list[tuple[float, float, float]]:
    """(inner width, inner height, depth) of every tuck box on the PDF, measured between its fold lines."""
    boxes = []
    for index in _front_pages(path):
        cuts, folds = cuts_and_folds(path, index)
        for _cuts, piece_folds in connected_pieces(cuts, folds):
            for axis in (0, 1):  # upright nets have vertical panel folds, turned ones horizontal
                other = 1 - axis
                # the four panel folds: parallel, as long as a card is high, starting and ending level
                spans: dict[tuple, list] = {}
                for f in piece_folds:
                    if abs(f[0][axis] - f[1][axis]) < TOL and abs(f[0][other] - f[1][other]) > mm(50):
                        span = (
                            round(min(f[0][other], f[1][other]), 1),
                            round(max(f[0][other], f[1][other]), 1),
                        )
                        spans.setdefault(span, []).append(f)
                long = next((group for group in spans.values() if len(group) == 4), None)
                if long is None:
                    continue
                positions = sorted(f[0][axis] for f in long)
                gaps = [b - a for a, b in zip(positions, positions[1:], strict=False)]
                height = abs(long[0][0][other] - long[0][1][other])
                assert gaps[0] == pytest.approx(gaps[2], abs=TOL)  # front and back are the same width
                boxes.append((gaps[0], height, gaps[1]))
    return boxes


def test_each_tuck_box_holds_its_deck_measured_on_the_pdf(built):
    game, written = built
    expected = []
    for component in game.components.values():
        if component.kind != "tuckbox":
            continue
        model = component.model
        decks = [game.decks[d] for d in model.deck_ids]
        card_w = max(d.size_pt[0] for d in decks)
        card_h = max(d.size_pt[1] for d in decks)
        plan = tuckbox_plan(component, game.decks)
        assert sum(box.cards for box in plan) == sum(d.copies for d in decks)  # every card has a place
        expected += [
            (card_w, card_h, box.cards, to_pt(model.thickness), to_pt(model.clearance)) for box in plan
        ]
    assert expected, "each game has tuck boxes"
    for paper in ("letter", "a4"):
        measured = sorted(_tuckboxes_on(written[f"components-{paper}.pdf"][0]), key=lambda b: b[2])
        assert len(measured) == len(expected)
        for (width, height, depth), (card_w, card_h, cards, thickness, clearance) in zip(
                measured, sorted(expected, key=lambda e: e[2] * e[3]), strict=True):
            assert width >= card_w + clearance - TOL      # card width plus clearance
            assert height >= card_h + clearance - TOL     # card height plus clearance
            assert depth >= cards * thickness - TOL       # the deck's depth
            assert depth == pytest.approx(cards * thickness + clearance, abs=TOL)


def test_the_pieces_of_every_page_are_centred_across_the_paper(built):
    """Rendered: the ink above the label strip has the same margin left and right (the pieces were packed from
    the left: the trading game's score pads had 6.0 mm left and 15.9 mm right on Letter, pizza's standees 6.0
    / 51.9)."""
    game, written = built
    scale = 3.0
    for paper in ("letter", "a4"):
        path, _ = written[f"components-{paper}.pdf"]
        pdf = pdfium.PdfDocument(str(path))
        for index in range(len(pdf)):
            image = pdf[index].render(scale=scale).to_pil().convert("L")
            strip = round((SHEET_MARGIN + LABEL_STRIP) * scale)  # the labels at the foot are left and right
            inked = image.crop((0, 0, image.width, image.height - strip)).point(
                lambda v: 255 if v < 250 else 0
            )
            left, _, right, _ = inked.getbbox()
            margins = (left / scale / mm(1), (image.width - right) / scale / mm(1))
            # token blocks' crop marks reach 1 mm beyond their block on one side only
            assert margins[0] == pytest.approx(margins[1], abs=1.2), (game.id, paper, index + 1, margins)
            if game.id == "order-up-trading":  # score pads and a tuck box: nothing beyond the pieces
                assert margins[0] == pytest.approx(margins[1], abs=0.2), (paper, index + 1, margins)


def test_every_cut_and_fold_line_meets_another_line(built):
    _game, written = built
    for name, (path, _facts) in written.items():
        for index in _front_pages(path):
            cuts, folds = cuts_and_folds(path, index)
            assert cuts, f"{name} page {index + 1} has no cut lines"
            assert loose_ends(cuts, folds) == [], f"{name} page {index + 1}"


def _grid_cells(cuts, folds, size: float):
    """The squares of a die net found from its lines: cells of `size` whose four sides are all drawn."""
    x0 = min(min(a[0], b[0]) for a, b in folds)
    y0 = min(min(a[1], b[1]) for a, b in folds)
    units: dict[tuple, str] = {}
    for kind, lines in (("cut", [(c[0], c[1]) for c in cuts if c[2] == "line"]), ("fold", folds)):
        for a, b in lines:
            gx = [(p[0] - x0) / size for p in (a, b)]
            gy = [(p[1] - y0) / size for p in (a, b)]
            if not all(abs(v - round(v)) < 0.01 for v in gx + gy):
                continue  # tab ends and outer tab edges are not on the grid
            (i1, j1), (i2, j2) = [(round(x), round(y)) for x, y in zip(gx, gy, strict=True)]
            if i1 == i2:
                for j in range(min(j1, j2), max(j1, j2)):
                    units[("v", i1, j)] = kind
            elif j1 == j2:
                for i in range(min(i1, i2), max(i1, i2)):
                    units[("h", i, j1)] = kind
    xs = {k[1] for k in units}
    ys = {k[2] for k in units}
    cells = [(i, j) for i in range(min(xs) - 1, max(xs) + 1) for j in range(min(ys) - 1, max(ys) + 1)
             if all(k in units for k in (("h", i, j), ("h", i, j + 1), ("v", i, j), ("v", i + 1, j)))]
    return cells, units


def test_dice_nets_fold_into_cubes_with_glue_tabs_on_the_right_edges(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-pizza")
    path = render(game, tmp_path, papers=("letter",))["components-letter.pdf"][0]
    die = next(c for c in game.components.values() if c.kind == "die")
    size = to_pt(die.model.size)
    nets = 0
    for index in _front_pages(path):
        cuts, folds = cuts_and_folds(path, index)
        for piece_cuts, piece_folds in connected_pieces(cuts, folds):
            lengths = [math.dist(a, b) / size for a, b in piece_folds]
            if not piece_folds or any(abs(n - round(n)) > 0.01 for n in lengths):
                continue  # not a die: its folds are whole edges of the cube
            cells, units = _grid_cells(piece_cuts, piece_folds, size)
            assert len(cells) == 6
            numbered = {n: cell for n, cell in enumerate(sorted(cells), start=1)}
            groups = cube_edges(numbered)
            assert len(groups) == 7  # six squares that fold into a cube leave seven open edges
            for edges in groups.values():
                kinds = []
                for face, direction in edges:
                    i, j = numbered[face]
                    key = {"E": ("v", i + 1, j), "W": ("v", i, j), "N": ("h", i, j + 1), "S": ("h", i, j)}[
                        direction
                    ]
                    kinds.append(units[key])
                # one edge folds onto a tab, its partner is cut
                assert sorted(kinds) == ["cut", "fold"], edges
            occupied = set(cells)
            for i, j in cells:  # neighbouring faces are joined by folds
                for direction, (di, dj) in DIRECTIONS.items():
                    if (i + di, j + dj) in occupied and direction in ("E", "N"):
                        key = ("v", i + 1, j) if direction == "E" else ("h", i, j + 1)
                        assert units[key] == "fold"
            nets += 1
    assert nets == die.copies


def _forms(path: Path, index: int) -> list[tuple[float, float]]:
    """Centres of the form XObjects (token and card faces) placed on a page."""
    pdf = pdfium.PdfDocument(str(path))
    page = pdf[index]
    centres = []
    for i in range(raw.FPDFPage_CountObjects(page)):
        obj = raw.FPDFPage_GetObject(page, i)
        if raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_FORM:
            left, bottom, right, top = (ctypes.c_float() for _ in range(4))
            raw.FPDFPageObj_GetBounds(obj, *(ctypes.byref(v) for v in (left, bottom, right, top)))
            # not a sheet's labels or marks
            if right.value - left.value < 400 and top.value - bottom.value > 20:
                centres.append(((left.value + right.value) / 2, (bottom.value + top.value) / 2))
    page.close()
    pdf.close()
    return centres


def _token_file(shape: str, size_key: str, back: bool) -> str:
    return f"""\
        component: chits
        kind: token
        name: Coins
        shape: {shape}
        {size_key}: 1in
        layout: chit
        {'back: chit-back' if back else ''}
        fields: {{value: {{type: int}}}}
        items:
          - {{id: coin, name: Coin, copies: 60, value: 1}}
          - {{id: big-coin, name: Big coin, copies: 40, value: 5}}
        """


def test_hundred_hex_tokens_pack_seventy_to_a_letter_page(chits, tmp_path):
    game = load_game(chits({"chits.yaml": _token_file("hex", "across", back=False)}), "chits")
    path = render(game, tmp_path, papers=("letter",))["components-letter.pdf"][0]
    first = _forms(path, 0)
    assert len(first) >= 70
    assert len(first) + sum(len(_forms(path, i)) for i in range(1, len(PdfReader(str(path)).pages))) == 100
    cuts, folds = cuts_and_folds(path, 0)
    assert not folds
    side = INCH / math.sqrt(3)
    assert all(math.dist(a, b) == pytest.approx(side, abs=TOL) for a, b, _ in cuts)  # hexagon edges
    assert len(cuts) < 6 * len(first) * 0.6  # shared edges: one cut serves two tokens
    assert loose_ends(cuts, folds) == []


def test_hundred_round_tokens_pack_sixty_to_a_letter_page(chits, tmp_path):
    game = load_game(chits({"chits.yaml": _token_file("circle", "diameter", back=False)}), "chits")
    path = render(game, tmp_path, papers=("letter",))["components-letter.pdf"][0]
    first = _forms(path, 0)
    assert len(first) >= 60
    for a in first:  # no two circles overlap
        assert min(math.dist(a, b) for b in first if b is not a) >= INCH - TOL
    cuts, _ = cuts_and_folds(path, 0)
    assert all(kind == "curve" for _, _, kind in cuts) and len(cuts) == 4 * len(first)  # a circle per token


def test_two_sided_tokens_get_a_mirrored_back_page(chits, tmp_path):
    game = load_game(chits({"chits.yaml": _token_file("hex", "across", back=True)}), "chits")
    for duplex, axis in (("long", 0), ("short", 1)):
        path = render(game, tmp_path / duplex, papers=("letter",), duplex=duplex)["components-letter.pdf"][0]
        reader = PdfReader(str(path))
        assert "backs of page 1" in reader.pages[1].extract_text()
        fronts, backs = _forms(path, 0), _forms(path, 1)
        assert len(fronts) == len(backs)
        size = PAPERS["letter"].size[axis]
        mirrored = sorted(
            (round(size - p[0] if axis == 0 else p[0], 1), round(size - p[1] if axis == 1 else p[1], 1))
            for p in fronts
        )
        assert mirrored == sorted((round(p[0], 1), round(p[1], 1)) for p in backs)


def test_component_sheets_are_byte_identical_when_built_again(repo_project, tmp_path):
    game = load_game(repo_project, "short-order-hero")
    first = render(game, tmp_path / "a", papers=("a4",))
    again = render(load_game(repo_project, "short-order-hero"), tmp_path / "b", papers=("a4",))
    for name, (path, _) in first.items():
        assert path.read_bytes() == again[name][0].read_bytes(), name


def test_die_faces_from_a_layout_and_a_player_aid_from_a_deck(chits, tmp_path):
    files = {
        "dice.yaml": """\
            component: dice
            kind: die
            name: Dice
            size: 20mm
            layout: face
            faces: [{text: A}, {text: B}, {pips: 3}, {icon: pepperoni}, {text: E}, {text: F}]
            """,
        "layouts/face.yaml": """\
            boxes:
              background: {shape: rect, fill: "#ffffff"}
              label: {x: 3mm, y: 6mm, width: 14mm, height: 8mm,
                      text: "{{ face.number }}:{{ face.text or '' }}",
                      align: center, valign: middle}
            """,
        "aid.yaml": """\
            component: aid
            kind: sheet
            name: Player aid
            title: "{{ game.title }} at a glance"
            columns:
              - {header: Card, width: 40mm, text: "{{ row.name }}", align: left}
              - {header: Copies, text: "{{ row.copies }}"}
            rows: {from: things}
            notes: ["{{ game.decks.things.copies }} cards in all"]
            """,
    }
    game = load_game(chits(files), "chits")
    path = render(game, tmp_path, papers=("letter",))["components-letter.pdf"][0]
    text = " ".join(page.extract_text() for page in PdfReader(str(path)).pages)
    for label in ("1:A", "2:B", "3:", "5:E", "6:F"):
        assert label in text, label
    assert "Chits at a glance" in text and "Alpha" in text and "30 cards in all" in text


def test_the_manifest_lists_each_component_with_kind_size_and_copies(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-pizza")
    manifest = json.loads(write_manifest(tmp_path, [game], []).read_text(encoding="utf-8"))
    entries = {c["component"]: c for c in manifest["components"]}
    assert entries["dice"] == {"game": "order-up-pizza", "component": "dice", "name": "Dice", "kind": "die",
                               "size": "16 mm cube", "size_mm": [16.0, 16.0, 16.0], "copies": 2}
    assert entries["cars"]["copies"] == 4 and entries["cars"]["kind"] == "standee"
    box = entries["toppings-box"]
    assert box["kind"] == "tuckbox" and box["copies"] == 1
    # inside: card + room, deck depth
    assert box["size_mm"] == [65.5, 90.9, pytest.approx(91 * 0.32 + 2, abs=0.01)]


def test_print_shop_tuck_boxes_bleed_past_their_cut_edges_and_onto_no_other_part(repo_project, tmp_path):
    """tuckboxes-full.pdf: a panel's colour runs 3 mm past a cut edge (the outer side's edge, the lid's ends),
    so a die a little off shows no white, and never onto a flap; BleedBox 3 mm around the TrimBox."""
    from generator.components.kinds.tuckbox import FULL_BLEED, FULL_MARGIN
    from generator.components.kinds.tuckbox import net as net_of

    game = load_game(repo_project, "order-up-pizza")
    written = render(game, tmp_path, papers=("letter",))
    path = written["tuckboxes-full.pdf"][0]
    page = PdfReader(str(path)).pages[0]
    trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
    assert bleed == pytest.approx(
        [v - FULL_BLEED if i < 2 else v + FULL_BLEED for i, v in enumerate(trim)], abs=0.01
    )
    # cuts and creases as the spot colours a die-cutter reads, overprinting; the home-print sheets have none
    spaces = {
        name: page["/Resources"]["/ColorSpace"][name].get_object() for name in ("/CutContour", "/Crease")
    }
    assert all(space[0] == "/Separation" and space[1] == name for name, space in spaces.items())
    assert any(state.get("/OP") for state in page["/Resources"]["/ExtGState"].values())
    content = page.get_contents().get_data().decode("latin-1")
    assert "/CutContour CS" in content and "/Crease CS" in content
    home = PdfReader(str(written["components-letter.pdf"][0])).pages
    assert all("/ColorSpace" not in p["/Resources"] for p in home)
    component = next(c for c in game.components.values() if c.kind == "tuckbox")
    net = net_of(game, component, tuckbox_plan(component, game.decks)[0].number).placed(
        FULL_MARGIN, FULL_MARGIN
    )
    scale = 4.0
    image = pdfium.PdfDocument(str(path))[0].render(scale=scale).to_pil().convert("RGB")
    height = image.height

    def pixel(x: float, y: float) -> tuple[int, int, int]:
        return image.getpixel((round(x * scale), round(height - y * scale)))

    side = net.part("side-right").path
    xs = [op[1] for op in side if len(op) > 2]
    ys = [op[2] for op in side if len(op) > 2]
    right, middle = max(xs), (min(ys) + max(ys)) / 2
    colour = pixel(right - mm(1), middle)
    assert colour != (255, 255, 255)
    assert pixel(right + FULL_BLEED / 2, middle) == colour  # past the cut: the side's colour
    assert pixel(right + FULL_BLEED + mm(1), middle) == (255, 255, 255)  # past the bleed: paper
    flap = net.part("dust-right-top").path
    fx = [op[1] for op in flap if len(op) > 2]
    fy = [op[2] for op in flap if len(op) > 2]
    # a flap next to the panel: no bleed
    assert pixel((min(fx) + max(fx)) / 2, min(fy) + mm(1)) == (255, 255, 255)
