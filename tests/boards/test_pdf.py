"""Board PDFs read back: true size with boxes, tiles that reassemble into the board, text, checks, errors."""

from __future__ import annotations

import math
from pathlib import Path

import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from generator.boards.draw import board_plan
from generator.boards.pdf import BLEED, BOARDS, PRINTER_MARGIN, outputs, render_full, render_tiled
from generator.boards.tiling import plan_tiling
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.geometry import PAPERS
from generator.core.units import MM
from generator.data.load import load_game
from generator.data.project import Project
from generator.pipeline.build import build
from generator.pipeline.gather import check_game
from generator.pipeline.producers import PRODUCERS
from tests.components.pdf_lines import page_strokes
from tests.conftest import REPO

N, CELL = 9, 30  # a 9 x 9 ring with a centre street, 30 mm cells (plus a card column): tiles 2 x 2 on paper

GAME_YAML = """\
title: Test Town
code: TT
players: {min: 2, max: 4}
decks: [orders]
"""


def board_yaml(extra_space: str = "", street_color: str = 'color: "#f77f00"') -> str:
    """A ring road with a centre street; line numbers matter to the error tests."""
    lines = [
        "board: town",
        "name: Town board",
        "title: Test Town",
        f"grid: {{cols: {N + 3}, rows: {N}, cell: {CELL}mm, margin: 10mm}}",
        "connect_adjacent: true",
        "spaces:",
    ]
    for r in range(N):
        for c in range(N):
            if r in (0, N - 1) or c in (0, N - 1) or r == N // 2:
                extra = ""
                if (c, r) == (0, 0):
                    extra = ', kind: restaurant, color: "#d62828", color_name: Red, label: Red restaurant'
                elif (c, r) == (N - 1, N - 1):
                    extra = ', kind: restaurant, color: "#1f5fbf", color_name: Blue'
                elif c in (0, N - 1) and r == N // 2:
                    extra = ", kind: junction"
                lines.append(f"  - {{id: c{c}r{r}, at: [{c}, {r}]{extra}}}")
    if extra_space:
        lines.append(extra_space)
    top = [f"c{c}r0" for c in range(1, N - 1)]
    mid = [f"c{c}r{N // 2}" for c in range(1, N - 1)]
    lines += [
        "streets:",
        "  - id: pepper-parkway",
        "    name: Pepper Parkway",
        f"    {street_color}",
        "    color_name: Orange",
        f"    spaces: [{', '.join(top)}]",
        "    houses: {" + ", ".join(f"{10 * i + 11}: {s}" for i, s in enumerate(top)) + "}",
        "  - id: middle-way",
        "    name: Middle Way",
        '    color: "#7b2cbf"',
        "    color_name: Purple",
        f"    spaces: [{', '.join(mid)}]",
        "    houses: {" + ", ".join(f"{10 * i + 12}: {s}" for i, s in enumerate(mid)) + "}",
        "zones:",
        f"  - {{id: orders, caption: Order deck, at: [{N}, 0.5], size: [2.6, 3.5], kind: cards}}",
        "notes:",
        '  - "Drive up to your roll."',
    ]
    return "\n".join(lines) + "\n"


ORDERS_YAML = """\
deck: orders
name: Orders
code: ORD
fields:
  address: {type: address}
  start: {type: ref, to: town.spaces, required: false}
cards:
  - {id: a, name: Ann, copies: 1, address: 11 Pepper Parkway, start: c0r0}
  - {id: b, name: Bob, copies: 1, address: 42 Middle Way}
  - {id: c, name: Cy, copies: 1, address: 71 Pepper Parkway}
"""


def make_project(root: Path, board: str | None = None, orders: str = ORDERS_YAML) -> Project:
    game = root / "cards" / "town"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML)
    (game / "board.yaml").write_text(board if board is not None else board_yaml())
    (game / "orders.yaml").write_text(orders)
    return Project(root)


@pytest.fixture(scope="module")
def town(tmp_path_factory):
    root = tmp_path_factory.mktemp("town")
    project = make_project(root)
    game = load_game(project, "town")
    check_game(game)
    board = game.boards["town"]
    out = root / "out"
    out.mkdir()
    full, letter = out / "board-full.pdf", out / "board-letter.pdf"
    facts = {
        "full": render_full(game, board, full),
        "letter": render_tiled(game, board, "letter", 12 * MM, letter),
    }
    return game, board, full, letter, facts


def test_full_board_is_true_size_plus_bleed_with_nested_boxes(town):
    game, board, full, _, facts = town
    plan = board_plan(game, board)
    w, h = plan.width, plan.height
    assert (w, h) == pytest.approx(((N + 3) * CELL * MM + 20 * MM, N * CELL * MM + 20 * MM))
    page = PdfReader(full).pages[0]
    assert len(PdfReader(full).pages) == 1 and facts["full"]["pages"] == 1
    assert float(page.mediabox.width) == pytest.approx(w + 2 * BLEED, abs=0.01)
    assert float(page.mediabox.height) == pytest.approx(h + 2 * BLEED, abs=0.01)
    # checked before the properties (pypdf adds missing boxes)
    assert "/TrimBox" in page and "/BleedBox" in page
    trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
    assert trim == pytest.approx([BLEED, BLEED, BLEED + w, BLEED + h], abs=0.01)
    assert bleed == pytest.approx([0, 0, w + 2 * BLEED, h + 2 * BLEED], abs=0.01)
    assert bleed[0] <= trim[0] < trim[2] <= bleed[2] and bleed[1] <= trim[1] < trim[3] <= bleed[3]


def test_background_runs_into_the_bleed(town):
    _, _, full, _, _ = town
    image = pypdfium2.PdfDocument(str(full))[0].render(scale=1).to_pil().convert("RGB")
    corner = image.getpixel((1, 1))
    assert corner != (255, 255, 255) and corner[0] > 200  # the warm background, not white paper


def test_tiled_pdf_has_assembly_page_and_one_page_per_tile(town):
    game, board, _, letter, facts = town
    plan = board_plan(game, board)
    tiling = plan_tiling((plan.width, plan.height), PAPERS["letter"].size, PRINTER_MARGIN, 12 * MM)
    reader = PdfReader(letter)
    assert (tiling.rows, tiling.cols) == (2, 2)
    assert facts["letter"] == {"pages": 5, "tiles": [2, 2], "orientation": tiling.orientation}
    assert len(reader.pages) == 5
    first = reader.pages[0].extract_text()
    assert "Print at 100" in first and "25 mm" in first and "1 in" in first
    for i, tile in enumerate(tiling.tiles, start=1):
        page = reader.pages[i]
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            tiling.page, abs=0.01
        )
        assert tile.name in page.extract_text()
    # the board is one Form XObject, placed on every page
    forms = set()
    for page in reader.pages:
        xobjects = page["/Resources"]["/XObject"]
        forms |= {ref.idnum for ref in xobjects.values()}
    assert len(forms) == 1


def test_only_embedded_fonts_and_byte_identical_rebuilds(town, tmp_path):
    game, board, full, letter, _ = town
    again = tmp_path / "again.pdf"
    render_tiled(game, board, "letter", 12 * MM, again)
    assert again.read_bytes() == letter.read_bytes()
    render_full(game, board, again)
    assert again.read_bytes() == full.read_bytes()
    for path in (full, letter):
        data = path.read_bytes()
        assert b"Helvetica" not in data and b"/FontFile2" in data


def _render(
    path: Path, index: int, scale: float, window: tuple[float, float, float, float] | None = None
) -> Image.Image:
    """Render a page, or only `window` (left, bottom, right, top in points) of it, at `scale` pixels per
    point."""
    page = pypdfium2.PdfDocument(str(path))[index]
    if window:
        page.set_cropbox(*window)  # fractional origins are honoured, unlike render(crop=...) which rounds
    return page.render(scale=scale).to_pil().convert("RGB")


def reassemble(game, board, tiled: Path, paper: str, scale: float) -> Image.Image:
    """Cut every tile and lay it over its left and upper neighbours, as the assembly page says.

    Each tile is rendered through a window whose edges fall on the full board's pixel grid, so both images
    sample the board at the same points (no sub-pixel shift between them).
    """
    plan = board_plan(game, board)
    w, h = plan.width, plan.height
    tiling = plan_tiling((w, h), PAPERS[paper].size, PRINTER_MARGIN, 12 * MM)
    out = Image.new("RGB", (math.floor(w * scale), math.floor(h * scale)), "white")
    for i, tile in enumerate(tiling.tiles, start=1):
        dx, dy = tiling.offset(tile)
        r = tile.region
        # pixel columns / rows of the board, counted from the top left
        left = math.ceil(max(0.0, r.x) * scale)
        right = math.floor(min(w, r.x2) * scale)
        top = math.ceil((h - min(h, r.y2)) * scale)
        bottom = math.floor((h - max(0.0, r.y)) * scale)
        eps = 1e-3  # keeps ceil(width * scale) at right - left pixels (PDFium keeps boxes as float32)
        window = (
            left / scale + dx,
            h - bottom / scale + dy,
            right / scale + dx - eps,
            h - top / scale + dy - eps,
        )
        piece = _render(tiled, i, scale, window).crop((0, 0, right - left, bottom - top))
        out.paste(piece, (left, top))
    return out


def assert_matches_full(game, board, full: Path, tiled: Path, paper: str) -> None:
    scale = 40 / 72
    plan = board_plan(game, board)
    w, h = plan.width, plan.height
    # the same pixel grid as the tiles: whole pixels from the trim's top-left corner
    bottom = BLEED + h - math.floor(h * scale) / scale
    whole = _render(
        full, 0, scale, (BLEED, bottom, BLEED + math.floor(w * scale) / scale - 1e-3, BLEED + h - 1e-3)
    )
    assembled = reassemble(game, board, tiled, paper, scale)
    assert whole.size == assembled.size
    diff = ImageChops.difference(whole, assembled).convert("L")
    mean = ImageStat.Stat(diff).mean[0]
    bad = sum(diff.histogram()[64:]) / (diff.width * diff.height)
    assert mean < 1.0 and bad < 0.004, (mean, bad)


def test_reassembled_tiles_match_the_full_board(town):
    game, board, full, letter, _ = town
    assert_matches_full(game, board, full, letter, "letter")


def test_reassembly_comparison_notices_a_wrong_tile(town, tmp_path):
    # The comparison itself must be able to fail: a tiling with another overlap does not line up.
    game, board, full, _, _ = town
    shifted = tmp_path / "shifted.pdf"
    render_tiled(game, board, "letter", 30 * MM, shifted)
    with pytest.raises(AssertionError):
        assert_matches_full(game, board, full, shifted, "letter")


def test_text_has_every_address_and_street_name(town):
    game, board, full, _, _ = town
    text = PdfReader(full).pages[0].extract_text()
    for card in game.decks["orders"].cards:
        number, street = card.address.split(" ", 1)
        assert number in text and street in text
    assert "Orange" in text and "Purple" in text  # colours come with their names


def test_outputs_and_build_manifest(tmp_path, monkeypatch):
    project = make_project(tmp_path)
    game = load_game(project, "town")
    names = sorted(str(o.path) for o in outputs(game, BuildOptions(papers=("letter", "a4"))))
    assert names == ["town/board-a4.pdf", "town/board-full.pdf", "town/board-letter.pdf"]
    assert BOARDS in PRODUCERS
    # the test game has no card layouts
    monkeypatch.setattr("generator.pipeline.producers.PRODUCERS", (BOARDS,))
    result = build(project, ["town"], BuildOptions(papers=("a4",), out_dir=tmp_path / "build"))
    boards = {w["path"]: w for w in result.written if w["kind"].startswith("board")}
    assert boards["town/board-full.pdf"]["pages"] == 1
    assert boards["town/board-a4.pdf"]["tiles"] == [2, 2] and boards["town/board-a4.pdf"]["pages"] == 5
    assert (tmp_path / "build" / "town" / "board-a4.pdf").is_file()


def _problems(project: Project) -> list[str]:
    with pytest.raises(InputError) as info:
        check_game(load_game(project, "town"))
    return [str(p) for p in info.value.problems]


def test_space_outside_the_board_is_reported_with_file_and_line(tmp_path):
    text = board_yaml(extra_space="  - {id: lost, at: [30, 2]}")
    line = text.splitlines().index("  - {id: lost, at: [30, 2]}") + 1
    problems = _problems(make_project(tmp_path, text))
    assert any(
        p.startswith(f"cards/town/board.yaml:{line}: space 'lost'") and "outside" in p for p in problems
    ), problems


def test_street_without_colour_is_reported_with_file_and_line(tmp_path):
    text = board_yaml(street_color="# no colour")
    line = text.splitlines().index("  - id: pepper-parkway") + 1
    with pytest.raises(InputError) as info:
        load_game(make_project(tmp_path, text), "town")
    problems = [str(p) for p in info.value.problems]
    assert any(p.startswith(f"cards/town/board.yaml:{line}:") and "color" in p for p in problems), problems


def test_card_address_without_a_drawn_house_number_is_reported(tmp_path):
    # Two streets claim the same space; only one number can be drawn there, so one order's address is missing.
    text = board_yaml().replace("22: c2r4", "22: c2r4, 99: c2r4")
    assert "99: c2r4" in text
    orders = ORDERS_YAML.replace("42 Middle Way", "99 Middle Way").replace(
        "71 Pepper Parkway", "22 Middle Way"
    )
    problems = _problems(make_project(tmp_path, text, orders))
    lines = [i + 1 for i, line in enumerate(orders.splitlines()) if "Middle Way" in line]
    found = [p for p in problems if "no house number drawn" in p]
    assert len(found) == 1, problems
    assert any(found[0].startswith(f"cards/town/orders.yaml:{line}: address '") for line in lines), found
    assert any("share space 'c2r4'" in p for p in problems)


def test_space_referenced_by_a_card_must_be_drawn(tmp_path):
    text = board_yaml(extra_space="  - {id: lost, at: [30, 2]}")
    orders = ORDERS_YAML.replace("start: c0r0", "start: lost")
    problems = _problems(make_project(tmp_path, text, orders))
    assert any("orders.yaml" in p and "space 'lost' is not drawn" in p for p in problems), problems


PIZZA = REPO / "cards" / "order-up-pizza" / "board.yaml"


@pytest.mark.skipif(not PIZZA.is_file(), reason="the pizza board data is not written yet")
def test_pizza_board_shows_every_order_address(tmp_path):
    game = load_game(Project(REPO), "order-up-pizza")
    board = next(iter(game.boards.values()))
    full = tmp_path / "full.pdf"
    render_full(game, board, full)
    text = PdfReader(full).pages[0].extract_text()
    plan = board_plan(game, board)
    houses = plan.house_labels()
    addresses = game.addresses()
    used = [card.fields.get(key) for deck in game.decks.values() for key, spec in deck.field_specs.items()
            if spec.type == "address" for card in deck.cards if card.fields.get(key)]
    assert len(used) >= 32
    for address in used:
        number, street = address.split(" ", 1)
        assert number in text and street in text
        assert houses[addresses[address][1]] == number
    assert all(count == 2 for count in plan.street_labels().values())
    assert plan.dropped == []
    letter = tmp_path / "letter.pdf"
    facts = render_tiled(game, board, "letter", 12 * MM, letter)
    assert facts["pages"] == len(PdfReader(letter).pages) == facts["tiles"][0] * facts["tiles"][1] + 1
    assert_matches_full(game, board, full, letter, "letter")


def test_the_city_board_card_areas_each_hold_a_whole_card(repo_project):
    from generator.boards.plan import card_rect_in

    game = load_game(repo_project, "order-up-pizza")
    plan = board_plan(game, game.boards["city"])
    card_w, card_h = game.card_size_pt
    areas = [(zone, rect) for zone, rect in plan.zones if zone.kind == "cards"]
    assert len(areas) == 5 and plan.warnings == []
    for zone, rect in areas:
        # the dashed outline is a card (upright or lying sideways), never narrower than one
        outline = card_rect_in(rect, card_w, card_h)
        assert outline is not None, zone.id
        assert sorted([outline.w, outline.h]) == pytest.approx(sorted([card_w, card_h]))


def test_a_board_that_fits_one_sheet_has_no_assembly_page(repo_project, tmp_path):
    game = load_game(repo_project, "short-order-hero")
    board = game.boards["tracker"]
    for paper in ("letter", "a4"):
        path = tmp_path / f"{paper}.pdf"
        facts = render_tiled(game, board, paper, 12 * MM, path)
        reader = PdfReader(path)
        assert facts["pages"] == len(reader.pages) == 1 and facts["tiles"] == [1, 1]
        text = reader.pages[0].extract_text()
        assert "overlap" not in text.lower() and "Print at 100" in text and "Round tracker" in text
        assert ("1 in" if paper == "letter" else "25 mm") in text


@pytest.mark.skipif(not PIZZA.is_file(), reason="the pizza board data is not written yet")
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_trim_line_of_a_tiled_board_has_a_tick_beyond_the_board_off_the_art(
    repo_project, tmp_path, paper
):
    """Each tile marks every trim line through the board corners it shows: the top and bottom lines with a
    horizontal tick beside the board (these were missing: at y = 87.02 and 704.98 pt on Letter tile 1 only the
    vertical ticks were drawn), the side lines with a vertical tick above and below it, all 5 mm or more from
    the paper edge, and on white paper: the bleed stops short of them."""
    game = load_game(repo_project, "order-up-pizza")
    board = game.boards[sorted(game.boards)[0]]
    plan = board_plan(game, board)
    w, h = plan.width, plan.height
    tiling = plan_tiling((w, h), PAPERS[paper].size, PRINTER_MARGIN, 12 * MM)
    assert tiling.pages > 1
    path = tmp_path / f"{paper}.pdf"
    render_tiled(game, board, paper, 12 * MM, path)
    pdf = pypdfium2.PdfDocument(str(path))
    scale = 4.0
    pw, ph = tiling.page
    for number, tile in enumerate(tiling.tiles, start=1):  # page 0 is the assembly page
        dx, dy = tiling.offset(tile)
        ticks = [seg for stroke in page_strokes(path, number) if not stroke.dashed
                 for seg in stroke.segments if math.dist(seg[0], seg[1]) <= 5 * MM + 0.01]
        image = pdf[number].render(scale=scale).to_pil().convert("L")

        def white(x: float, y: float, image=image) -> bool:
            return image.getpixel((round(x * scale), round((ph - y) * scale))) > 245

        sides_x = [(dx, -1)] if tile.col == 0 else []
        sides_x += [(dx + w, 1)] if tile.col == tiling.cols - 1 else []
        sides_y = [(dy, -1)] if tile.row == tiling.rows - 1 else []
        sides_y += [(dy + h, 1)] if tile.row == 0 else []
        assert sides_x and sides_y  # the pizza board's tiles each show two of its corners
        for x, sx in sides_x:
            for y, sy in sides_y:
                # the horizontal trim line y: a tick on it, beside the board
                across = [s for s in ticks if abs(s[0][1] - y) < 0.01 and abs(s[1][1] - y) < 0.01
                          and min(sx * (s[0][0] - x), sx * (s[1][0] - x)) >= -0.01]
                assert across, (paper, tile.name, "no tick on the trim line y =", round(y, 2))
                # the vertical trim line x: a tick on it, above or below the board
                along = [s for s in ticks if abs(s[0][0] - x) < 0.01 and abs(s[1][0] - x) < 0.01
                         and min(sy * (s[0][1] - y), sy * (s[1][1] - y)) >= -0.01]
                assert along, (paper, tile.name, "no tick on the trim line x =", round(x, 2))
                for (x1, y1), (x2, y2), _ in across + along:
                    assert min(x1, x2, pw - x1, pw - x2, y1, y2, ph - y1, ph - y2) >= 5 * MM - 0.01
                (x1, _), (x2, _), _ = across[0]
                # the tick's outer end: paper on both sides of it
                far = x1 if abs(x1 - x) > abs(x2 - x) else x2
                assert white(far + sx * -0.5, y + 1.5) and white(far + sx * -0.5, y - 1.5), (paper, tile.name)
