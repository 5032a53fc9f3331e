"""Print-and-cut sheets (`--cut-machine`): pure geometry of each machine's cut area and registration marks,
every card (trim and bleed) inside the area and clear of the marks, the marks on the printed fronts and in
the cut files, and bad input."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pypdfium2
import pytest

from generator.cards.cut_machines import CLEAR, CUT_MACHINES, cut_area, keep_clear, registration_marks
from generator.cards.imposition import LayoutError, make_sheet
from generator.core.geometry import Rect, paper_of
from generator.core.units import INCH, mm
from tests.conftest import run_pnp

SIZES = [(2.5 * INCH, 3.5 * INCH), (mm(63), mm(88)), (mm(44), mm(63)), (mm(70), mm(120)),
         (mm(88.9), mm(63.5)), (mm(41), mm(63)), (mm(80), mm(80)), (mm(57), mm(89))]  # poker, MTG, mini, ...
PAPERS = ["letter", "a4", "legal", "a3"]


@pytest.mark.parametrize("machine", list(CUT_MACHINES))
@pytest.mark.parametrize("paper", PAPERS)
def test_every_card_lies_inside_the_cut_area_and_clear_of_the_marks(machine, paper):
    family = CUT_MACHINES[machine]
    for size in SIZES:
        for gap in (0.0, mm(3)):
            sheet = make_sheet(paper, size, mm(3), gap=gap, machine=family)
            page = Rect(0, 0, sheet.page_w, sheet.page_h)
            area = cut_area(family, sheet.page_w, sheet.page_h)
            assert page.contains(area) and sheet.per_page > 0
            assert not sheet.marks and not sheet.lines and not sheet.strips  # nothing a sensor could misread
            for slot in sheet.fronts:
                art = Rect(slot.trim.x - mm(3), slot.trim.y - mm(3), slot.trim.w + mm(6), slot.trim.h + mm(6))
                assert area.contains(art, tol=1e-6), (machine, paper, size, slot)
                assert not any(art.overlaps(m) for m in keep_clear(family, sheet.page_w, sheet.page_h))
                assert slot.clip.w >= slot.trim.w and area.contains(slot.clip, tol=1e-6)
            for mark in registration_marks(family, sheet.page_w, sheet.page_h):
                assert page.contains(mark)


def test_cricut_cuts_at_most_6_75_by_9_25_in_framed_by_a_black_border():
    cricut = CUT_MACHINES["cricut"]
    for paper in ("letter", "a4"):
        w, h = paper_of(paper).size
        area = cut_area(cricut, w, h)
        assert (area.w, area.h) == pytest.approx((6.75 * INCH, 9.25 * INCH))
        assert (area.x + area.w / 2, area.y + area.h / 2) == pytest.approx((w / 2, h / 2))
        frame = registration_marks(cricut, w, h)
        assert len(frame) == 4  # top, bottom, left, right: a closed frame 1 mm wide, 3 mm outside the area
        outer = Rect(min(r.x for r in frame), min(r.y for r in frame),
                     max(r.x2 for r in frame) - min(r.x for r in frame),
                     max(r.y2 for r in frame) - min(r.y for r in frame))
        assert outer.x == pytest.approx(area.x - mm(4)) and outer.y2 == pytest.approx(area.y2 + mm(4))
        assert sorted(round(min(r.w, r.h) / mm(1), 6) for r in frame) == [1, 1, 1, 1]
        assert sum(r.w * r.h for r in frame) == pytest.approx(outer.w * outer.h - (outer.w - mm(2))
                                                              * (outer.h - mm(2)))  # no overlap, no hole
    landscape = cut_area(cricut, 11 * INCH, 8.5 * INCH)
    assert (landscape.w, landscape.h) == pytest.approx((9.25 * INCH, 6.75 * INCH))


def test_silhouette_prints_a_square_and_two_l_marks_10_mm_in():
    w, h = paper_of("letter").size
    marks = registration_marks(CUT_MACHINES["silhouette"], w, h)
    square = marks[0]
    assert (square.x, h - square.y2, square.w, square.h) == pytest.approx((mm(10), mm(10), mm(5), mm(5)))
    top_right, bottom_left = marks[1:3], marks[3:5]
    # each L: its outer corner 10 mm from both edges of its corner, arms 20 mm, 0.5 mm thick
    assert max(r.x2 for r in top_right) == pytest.approx(w - mm(10))
    assert max(r.y2 for r in top_right) == pytest.approx(h - mm(10))
    assert min(r.x for r in top_right) == pytest.approx(w - mm(30))
    assert min(r.y for r in top_right) == pytest.approx(h - mm(30))
    assert (min(r.x for r in bottom_left), min(r.y for r in bottom_left)) == pytest.approx((mm(10), mm(10)))
    assert (max(r.x2 for r in bottom_left), max(r.y2 for r in bottom_left)) == pytest.approx((mm(30), mm(30)))
    assert all(min(r.w, r.h) == pytest.approx(mm(0.5)) for r in marks[1:])
    assert CLEAR == pytest.approx(mm(3))


def test_scanncut_needs_no_marks_and_keeps_the_paper_s_layout():
    scanncut = CUT_MACHINES["scanncut"]
    w, h = paper_of("a4").size
    assert registration_marks(scanncut, w, h) == []
    plain = make_sheet("a4", (2.5 * INCH, 3.5 * INCH), mm(3))
    scanned = make_sheet("a4", (2.5 * INCH, 3.5 * INCH), mm(3), machine=scanncut)
    assert scanned.per_page == plain.per_page == 9


def test_fewer_cards_where_the_cut_area_is_smaller_than_the_paper():
    poker = (2.5 * INCH, 3.5 * INCH)
    counts = {name: make_sheet("letter", poker, mm(3), machine=m).per_page
              for name, m in CUT_MACHINES.items()}
    assert make_sheet("letter", poker, mm(3)).per_page == 8
    assert counts == {"cricut": 4, "silhouette": 6, "scanncut": 8}


def test_a_card_larger_than_the_cut_area_and_a_fold_layout_are_refused():
    with pytest.raises(LayoutError, match=r"does not fit the Cricut \(Print Then Cut\) cut area of 171.45 x "
                                          r"234.95 mm on letter"):
        make_sheet("letter", (mm(180), mm(250)), mm(3), machine=CUT_MACHINES["cricut"])
    with pytest.raises(LayoutError, match="expected --layout duplex"):
        make_sheet("letter", (2.5 * INCH, 3.5 * INCH), mm(3), layout="fold", machine=CUT_MACHINES["cricut"])


def _build(tmp_project, *flags):
    result = run_pnp("build", "go-fish", "--paper", "letter", *flags, project=tmp_project)
    return result, tmp_project.build_dir / "go-fish"


@pytest.mark.parametrize("machine", ["cricut", "silhouette"])
def test_the_printed_fronts_and_the_cut_files_carry_the_marks_where_the_geometry_puts_them(tmp_project,
                                                                                          machine):
    result, folder = _build(tmp_project, "--cut-machine", machine)
    assert result.exit_code == 0, result.output
    pdf = pypdfium2.PdfDocument(str(folder / f"cards-letter-{machine}.pdf"))
    check = pdf[0].get_textpage().get_text_range()
    assert "registration marks only (no crop marks)" in " ".join(check.split())
    assert CUT_MACHINES[machine].label.split(" (")[0] in check
    cuts = sorted(folder.glob(f"cards-letter-{machine}-cut-*.svg"))
    assert cuts and not (folder / "cards-letter.pdf").exists()
    family = CUT_MACHINES[machine]
    for cut in cuts:
        index = int(cut.stem.rsplit("-", 1)[1]) - 1
        page = pdf[index]
        w, h = page.get_size()
        marks = registration_marks(family, w, h)
        scale = 2  # 144 dpi: a 0.5 mm line is 2.8 px
        image = page.render(scale=scale).to_pil().convert("L")
        for mark in marks:  # the middle of every mark is printed black
            x, y = (mark.x + mark.w / 2) * scale, (h - mark.y - mark.h / 2) * scale
            assert image.getpixel((int(x), int(y))) < 40, (cut.name, mark)
        tree = ET.parse(cut)
        ns = {"s": "http://www.w3.org/2000/svg"}
        rects = tree.getroot().findall("s:g[@id='registration']/s:rect", ns)
        got = sorted((float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height")))
                     for r in rects)
        want = sorted((m.x / mm(1), (h - m.y2) / mm(1), m.w / mm(1), m.h / mm(1)) for m in marks)
        assert len(got) == len(want) == len(marks) > 0
        assert [v for box in got for v in box] == pytest.approx([v for box in want for v in box], abs=1e-4)
        area = cut_area(family, w, h)
        for path in tree.getroot().findall("s:g[@stroke='#ff0000']/s:path", ns):  # every cut inside the area
            numbers = [float(v) for v in path.get("d").replace("M", " ").replace("H", " ").replace("V", " ")
                       .replace("Z", " ").replace("C", " ").split()]
            assert area.x / mm(1) - 1e-3 <= min(numbers[0::2] + numbers[1::2])
    # the backs (the page after each page of fronts) carry no marks: the sensor reads the side it cuts
    back = pdf[int(cuts[0].stem.rsplit("-", 1)[1])]
    w, h = back.get_size()
    image = back.render(scale=2).to_pil().convert("L")
    for mark in registration_marks(family, w, h):
        assert image.getpixel((int((mark.x + mark.w / 2) * 2), int((h - mark.y - mark.h / 2) * 2))) > 200


def test_bad_cut_machine_and_colour_values_are_one_line_and_exit_1(tmp_project):
    for flag, value, words in (("--cut-machine", "cameo", "--cut-machine cameo: unknown; expected one of: "
                                                          "none, cricut, silhouette, scanncut"),
                               ("--colour", "cymk", "--colour cymk: unknown; expected one of: rgb, cmyk")):
        result, _ = _build(tmp_project, flag, value)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert words in result.output.splitlines(), result.output


def test_a_fold_layout_for_a_cut_machine_is_one_line(tmp_project):
    result, _ = _build(tmp_project, "--cut-machine", "cricut", "--layout", "fold")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert ("--cut-machine cricut with --layout fold: a print-and-cut sheet is laid out as duplex pages; "
            "expected --layout duplex") in result.output.splitlines()


def test_game_yaml_print_block_takes_cut_machine(tmp_project):
    game = tmp_project.root / "cards" / "go-fish" / "game.yaml"
    text = game.read_text()
    game.write_text(text + "\nprint:\n  cut_machine: scanncut\n" if "print:" not in text else text)
    if "print:" in text:
        pytest.skip("go-fish has its own print: block")
    result, folder = _build(tmp_project)
    assert result.exit_code == 0, result.output
    assert (folder / "cards-letter-scanncut.pdf").is_file()
    assert list(folder.glob("cards-letter-scanncut-cut-*"))
    game.write_text(text + "\nprint:\n  cut_machine: cameo\n")
    result, _ = _build(tmp_project)
    assert result.exit_code == 1 and "game.yaml:" in result.output and "cut_machine" in result.output
