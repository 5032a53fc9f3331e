"""More papers (issue 34): Legal, Tabloid, A3 and custom WIDTHxHEIGHT sheets for card sheets, tiled boards,
booklets and component sheets, by --paper or a game's `paper:`; bad sizes refused in one line."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from generator.cards.imposition import make_sheet
from generator.core.geometry import PaperError, check_square, paper_key, paper_of
from generator.core.units import INCH, mm
from tests.cards.test_imposition import outer_bleeds
from tests.conftest import run_pnp


@pytest.mark.parametrize("name, size_mm", [("legal", (215.9, 355.6)), ("tabloid", (279.4, 431.8)),
                                           ("a3", (297, 420)), ("300x450mm", (300, 450)),
                                           ("12x18in", (304.8, 457.2)), ("45x32cm", (320, 450))])
def test_named_and_custom_papers_have_their_sizes(name, size_mm):
    paper = paper_of(name)
    assert (paper.width / mm(1), paper.height / mm(1)) == pytest.approx(size_mm, abs=0.01)
    assert check_square(name)[0] == pytest.approx(INCH if name in ("legal", "tabloid", "12x18in") else mm(25))
    sheet = make_sheet(name, (mm(63.5), mm(88.9)), mm(3))
    assert sheet.per_page >= 9 and all(shown == pytest.approx(mm(3)) for *_, shown in outer_bleeds(sheet))


@pytest.mark.parametrize("name, words", [("0x0mm", "out of range"), ("0x0", "unknown paper"),
                                         ("1kmx1km", "unknown paper"), ("2000x3000mm", "out of range"),
                                         ("b5", "unknown paper"), ("300x450", "unknown paper")])
def test_bad_papers_say_what_is_expected(name, words):
    with pytest.raises(PaperError, match=words):
        paper_key(name)


def test_paper_flags_build_every_kind_of_sheet_on_each_paper(tmp_project):
    result = run_pnp("build", "order-up-pizza", "--paper", "legal", "--paper", "300x450mm", "--lang", "en",
                     project=tmp_project)
    assert result.exit_code == 0, result.output
    folder = tmp_project.build_dir / "order-up-pizza"
    for paper, size in (("legal", (612, 1008)), ("300x450mm", (mm(300), mm(450)))):
        for kind in ("cards", "board", "rules-booklet", "components"):
            page = PdfReader(folder / f"{kind}-{paper}.pdf").pages[0]
            assert sorted([float(page.mediabox.width), float(page.mediabox.height)]) == pytest.approx(
                sorted(size), abs=0.01), (kind, paper)
    assert not (folder / "cards-letter.pdf").exists()


def test_a_games_paper_is_used_without_a_flag_and_a_flag_wins(tmp_project):
    game_file = tmp_project.root / "cards" / "order-up-trading" / "game.yaml"
    game_file.write_text(game_file.read_text() + "paper: [a3]\n")
    result = run_pnp("build", "order-up-trading", project=tmp_project)
    assert result.exit_code == 0, result.output
    folder = tmp_project.build_dir / "order-up-trading"
    assert (folder / "cards-a3.pdf").is_file() and not (folder / "cards-letter.pdf").exists()
    flagged = run_pnp("build", "order-up-trading", "--paper", "tabloid", project=tmp_project)
    assert flagged.exit_code == 0 and (folder / "cards-tabloid.pdf").is_file()


@pytest.mark.parametrize("value, words", [("paper: 10x10mm", "out of range"), ("paper: [a4, b5]", "b5")])
def test_a_bad_paper_in_game_yaml_is_located(tmp_project, value, words):
    game_file = tmp_project.root / "cards" / "order-up-trading" / "game.yaml"
    lines = game_file.read_text().splitlines()
    game_file.write_text("\n".join([*lines, value]) + "\n")
    result = run_pnp("build", "order-up-trading", project=tmp_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"game.yaml:{len(lines) + 1}:" in result.output and words in result.output, result.output


@pytest.mark.parametrize("value, words", [("0x0mm", "out of range"), ("1kmx1km", "unknown paper"),
                                          ("60x80mm", "does not fit on 60 \u00d7 80 mm paper")])
def test_a_bad_paper_flag_is_one_clear_line(tmp_project, value, words):
    result = run_pnp("build", "order-up-trading", "--paper", value, project=tmp_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert words in result.output, result.output
