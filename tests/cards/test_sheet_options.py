"""Sheet options read back from the PDFs: gap, pack, --only reprints, the print: block, cut files, the print
check."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from itertools import pairwise

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.cards.print_options import SheetOptions, sheet_options
from generator.cards.sheets import outputs, pages
from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.core.units import mm
from generator.data.load import load_game
from tests.cards.test_sheets import CHECK, codes_per_page, render
from tests.conftest import run_pnp

_PLACE = re.compile(
    r"q\n([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re W n\n1 0 0 1 ([-\d.]+) ([-\d.]+) cm\n/(\S+) Do"
)


def placements(page) -> list[tuple[float, float, str]]:
    """(trim x, trim y, form) of every card placed on a page, read from the page's content stream."""
    content = page.get_contents().get_data().decode("latin-1")
    return [(float(tx), float(ty), form) for *_clip, tx, ty, form in _PLACE.findall(content)]


def test_gap_moves_cards_apart_and_keeps_their_size(demo, tmp_path):
    butted, _ = render(demo, tmp_path / "butted", papers=("a4",))["a4"]
    gapped, _ = render(demo, tmp_path / "gap", papers=("a4",), gap="3mm")["a4"]
    # A4 3 x 3 butted; with 3 mm gaps 4 x 2 landscape, as 3 x 3 would leave no room for the outer bleed
    for path, pitch, count in ((butted, mm(63.5), 9), (gapped, mm(63.5 + 3), 8)):
        found = placements(PdfReader(path).pages[CHECK])
        assert len(found) == count
        xs = sorted({round(x, 2) for x, _, _ in found})
        assert [b - a for a, b in pairwise(xs)] == pytest.approx([pitch] * (len(xs) - 1), abs=0.02)
    text = pypdfium2.PdfDocument(str(gapped))[0].get_textpage().get_text_range()
    assert "Cards stand 3 mm apart" in " ".join(text.split())  # the print check states the mode


def test_print_block_sets_the_options_and_flags_win(demo):
    game_file = demo.dir / "game.yaml"
    game_file.write_text(game_file.read_text() + "print: {gap: 2mm, marks: lines, pack: true, ink: saver}\n")
    game = load_game(demo.project, "demo")
    chosen = sheet_options(game, BuildOptions())
    assert (chosen.gap, chosen.marks, chosen.pack, chosen.ink) == (
        pytest.approx(mm(2)),
        "lines",
        True,
        "saver",
    )
    flags = sheet_options(game, BuildOptions(gap="0mm", marks="crop", pack=False, ink="normal"))
    assert (flags.gap, flags.marks, flags.pack, flags.ink) == (0, "crop", False, "normal")
    assert [o.path.name for o in outputs(game, BuildOptions(papers=("a4",)))] == ["cards-a4-inksaver.pdf"]


def test_bad_sheet_options_are_located(demo):
    game_file = demo.dir / "game.yaml"
    game_file.write_text(game_file.read_text() + "print:\n  gap: 70mm\n  marks: dots\n")
    with pytest.raises(InputError) as info:
        load_game(demo.project, "demo")
    text = str(info.value)
    assert "cards/demo/game.yaml:6:" in text and "70mm" in text and "0 to 50 mm" in text
    assert "cards/demo/game.yaml:7:" in text and "crop" in text
    for flag, words in ((BuildOptions(gap="3"), "with its unit"), (BuildOptions(gap="-1mm"), "0 to 50 mm"),
                        (BuildOptions(only=("things:alpah",)), "did you mean 'alpha'")):
        with pytest.raises(InputError, match=words):
            sheet_options(demo, flag)


def test_pack_continues_decks_of_one_size_on_the_same_sheet(repo_project, tmp_path):
    game = load_game(repo_project, "order-up-pizza")
    plain = [p for p in pages(game, "letter", SheetOptions()) if p.plan.side == "front"]
    packed = [p for p in pages(game, "letter", SheetOptions(pack=True)) if p.plan.side == "front"]
    assert any(len(p.plan.cells) == 1 for p in plain)  # 91 toppings: a sheet holding a single card
    assert all(len(p.plan.cells) == 8 for p in packed[:-1]) and len(packed) == -(-game_copies(game) // 8)
    path, facts = render(game, tmp_path, papers=("letter",), pack=True)["letter"]
    pdf = pypdfium2.PdfDocument(str(path))
    found = [c for i in range(CHECK, len(pdf), 2) for c in codes_per_page(path, "OUP")[i]]
    assert sorted(found) == sorted(
        c.code for d in game.decks.values() for c in d.cards for _ in range(c.copies)
    )
    shared = next(
        p for p in packed if len({d.id for d, _ in (p.group.cards[n] for _, n in p.plan.cells)}) > 1
    )
    label = " ".join(pdf[shared.index].get_textpage().get_text_range().split())
    assert "Toppings deck, Order Up deck" in label  # the page label names each deck on the sheet
    assert facts["decks"]["orders"]["fronts"] >= 1


def game_copies(game) -> int:
    return sum(deck.copies for deck in game.decks.values())


def test_only_reprints_named_cards_and_leaves_the_full_sheets_untouched(tmp_project):
    assert run_pnp("new", "demo", project=tmp_project).exit_code == 0
    assert run_pnp("build", "demo", "--paper", "a4", project=tmp_project).exit_code == 0
    folder = tmp_project.build_dir / "demo"
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    result = run_pnp(
        "build", "demo", "--paper", "a4", "--only", "actions:lucky-roll,DEM-ACT-04", project=tmp_project
    )
    assert result.exit_code == 0, result.output
    reprint = folder / "cards-a4-only-actions-lucky-roll-head-cook.pdf"
    assert "1 file written" in result.output and reprint.is_file()
    assert {
        p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p != reprint
    } == before
    codes = [c for page in codes_per_page(reprint, "DEM") for c in page]
    assert sorted(codes) == ["DEM-ACT-02"] * 3 + ["DEM-ACT-04"]  # every copy of the named cards, nothing else
    manifest = {
        o["path"] for o in json.loads((tmp_project.build_dir / "manifest.json").read_text())["outputs"]
    }
    assert {"demo/cards-a4.pdf", "demo/rules.pdf", f"demo/{reprint.name}"} <= manifest
    wrong = run_pnp("build", "demo", "--only", "action", project=tmp_project)
    assert wrong.exit_code == 1 and "--only action: no game being built has a deck 'action'" in wrong.output
    assert "did you mean 'actions'" in wrong.output


def test_cut_files_trace_every_card_of_a_sheet_in_mm(demo, tmp_path):
    game_file = demo.dir / "game.yaml"
    game_file.write_text(game_file.read_text() + "corner_radius: 3mm\nprint: {cut_file: svg, gap: 2mm}\n")
    game = load_game(demo.project, "demo")
    made = outputs(game, BuildOptions(papers=("letter",)))
    fronts = [p for p in pages(game, "letter", sheet_options(game, BuildOptions())) if p.plan.side == "front"]
    assert len(fronts) == 4  # 2 mm gaps: 8 poker and 15 mini cards a sheet
    # named by the PDF page they cut (the print check takes pages 1-2, each sheet of fronts has its backs
    # after it)
    assert [o.path.name for o in made] == ["cards-letter.pdf"] + [
        f"cards-letter-cut-{n:02d}.svg" for n in (3, 5, 7, 9)
    ]
    assert [page.index + 1 for page in fronts] == [3, 5, 7, 9]
    for output, page in zip(made[1:], fronts, strict=True):
        path = tmp_path / output.path.name
        facts = output.render(path)
        assert facts["page"] == page.index + 1
        assert f"cut file for page {page.index + 1} of cards-letter.pdf" in path.read_text()
        root = ET.fromstring(path.read_text())
        ns = "{http://www.w3.org/2000/svg}"
        assert float(root.get("width").removesuffix("mm")) == pytest.approx(
            page.sheet.page_w / mm(1), abs=1e-4
        )
        assert float(root.get("height").removesuffix("mm")) == pytest.approx(
            page.sheet.page_h / mm(1), abs=1e-4
        )
        assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"
        paths = root.findall(f".//{ns}path")
        assert len(paths) == len(page.plan.cells) == facts["cards"]
        for element, (slot, _) in zip(paths, page.plan.cells, strict=True):
            trim = page.sheet.fronts[slot].trim
            d = element.get("d")
            start = [float(v) for v in re.match(r"M([\d.]+) ([\d.]+)", d).groups()]
            # the path starts after the rounded top-left corner, on the top edge (SVG y runs down)
            assert start == pytest.approx(
                [trim.x / mm(1) + 3, (page.sheet.page_h - trim.y2) / mm(1)], abs=1e-3
            )
            assert d.count("C") == 4 and d.endswith("Z")
