"""Limits before work on spreadsheets (issue 37): a million rows, one stray cell at XFD1048576, ten thousand
columns, damaged ODS spans, lower-case cell references and a hidden first sheet are each one located line (or
read right), never a traceback, a hang or gigabytes."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import zipfile

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from tests.conftest import REPO
from tests.fixtures.workbooks import EVENTS, text_cell, write_ods, write_raw_xlsx, write_workbook

GAME = "space-race"
EVENTS_FILE = f"cards/{GAME}/events.xlsx"
LIMIT = ("expected at most 20,000 rows and 200 columns (pnp's limit for one sheet: a game holds at most "
         "10,000 cards)")


def problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_game(project, GAME)
    return [str(p) for p in caught.value.problems]


def _events(project, name: str = "events.xlsx", sheet: str | None = "Events") -> None:
    deck = project.cards_dir / GAME / "events.yaml"
    written = f"cards_from: {{file: {name}" + (f", sheet: {sheet}}}" if sheet else "}")
    deck.write_text(deck.read_text().replace("cards_from: {file: events.xlsx, sheet: Events}", written))


def _header_rows():
    header = "".join(text_cell(f"{letter}1", name) for letter, name in zip("ABCDE", EVENTS[0], strict=True))
    return f'<row r="1">{header}</row>'


# The pnp process reports its own peak memory (VmHWM) as it exits: the rusage of a child also counts what the
# test process had resident when it forked (Linux keeps that high-water mark across exec), which grows with
# every test run before this one.
_PEAK = ("import atexit, runpy, sys\n"
         "def peak():\n"
         "    for line in open('/proc/self/status'):\n"
         "        if line.startswith('VmHWM:'):\n"
         "            sys.stderr.write('PEAK_KB ' + line.split()[1] + '\\n')\n"
         "atexit.register(peak)\n"
         "sys.argv = ['pnp', *sys.argv[1:]]\n"
         "runpy.run_module('generator', run_name='__main__')\n")


def _measured(project, *args: str) -> tuple[str, int, float, float]:
    """`pnp` run in a process of its own: (its output, exit code, processor seconds, peak memory in MB of that
    process). Processor time, not the clock: a machine shared by many test runs stretches the wall time."""
    with tempfile.TemporaryFile("w+") as output:
        child = subprocess.Popen([sys.executable, "-c", _PEAK, "--project", str(project.root), *args],
                                 stdout=output, stderr=subprocess.STDOUT, text=True, cwd=REPO)
        _pid, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read()
    peak = [line for line in text.splitlines() if line.startswith("PEAK_KB ")]
    assert peak, text
    text = "\n".join(line for line in text.splitlines() if not line.startswith("PEAK_KB ")) + "\n"
    return text, child.returncode, usage.ru_utime + usage.ru_stime, int(peak[-1].split()[1]) / 1024


def test_a_million_row_csv_and_xlsx_are_refused_at_the_limit_fast_and_small(designer_project):
    game = designer_project.cards_dir / GAME
    with (game / "crew.csv").open("a", encoding="utf-8") as stream:
        stream.write("c,C,1,,pilot,2,#1f5fbf,G,\n" * 1_000_000)
    # rows without cell references (their places follow from the order, as calamine reads them)
    block = ('<row><c t="inlineStr"><is><t>meteor</t></is></c><c/><c><v>1</v></c></row>' * 10_000)
    write_raw_xlsx(game / "events.xlsx", (_header_rows(), *[block] * 100))
    output, code, seconds, megabytes = _measured(designer_project, "validate", GAME, "--no-sim")
    assert code == 1 and "Traceback" not in output
    lines = output.strip().splitlines()
    assert lines[:2] == [
        f"cards/{GAME}/crew.csv:20001: the file has more than 20,000 rows; {LIMIT}",
        f"{EVENTS_FILE}:Events!A20001: sheet 'Events' has more than 20,000 rows (a value at A20001); {LIMIT}"]
    assert seconds < 5 and megabytes < 300, (seconds, megabytes)


def test_one_stray_cell_at_the_last_cell_of_a_sheet_is_one_line(designer_project):
    path = designer_project.cards_dir / GAME / "events.xlsx"
    write_raw_xlsx(path, [_header_rows(), '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'],
                   dimension="A1:XFD1048576")
    assert path.stat().st_size < 2000
    assert problems(designer_project) == [
        f"{EVENTS_FILE}:Events!XFD1048576: sheet 'Events' has more than 20,000 rows (a value at XFD1048576); "
        f"{LIMIT}"]


def test_a_declared_dimension_and_styled_empty_cells_are_not_trusted_or_counted(designer_project):
    rows = [_header_rows()] + [
        f'<row r="{r + 2}">' + "".join(text_cell(f"{letter}{r + 2}", str(value)) for letter, value
                                       in zip("ABCDE", row, strict=True)) + "</row>"
        for r, row in enumerate(EVENTS[1:])]
    rows[-1] = rows[-1].replace("=1+1", "2")
    rows.append('<row r="900000"><c r="XFD900000" s="1"/></row>')  # formatted, but empty
    write_raw_xlsx(designer_project.cards_dir / GAME / "events.xlsx", rows, dimension="A1:XFD1048576")
    assert [card.copies for card in load_game(designer_project, GAME).decks["events"].cards] == [2, 3, 2]


def test_ten_thousand_columns_are_one_line(designer_project):
    path = designer_project.cards_dir / GAME / "crew.csv"
    path.write_text(",".join(f"c{i}" for i in range(10_000)) + "\n", encoding="utf-8")
    assert problems(designer_project) == [
        f"cards/{GAME}/crew.csv:1: this row has 10,000 cells, more than 200 columns; {LIMIT}"]


def test_many_unknown_columns_are_a_few_lines(designer_project):
    path = designer_project.cards_dir / GAME / "crew.csv"
    text = path.read_text(encoding="utf-8").splitlines()
    text[0] += "".join(f",extra{i}" for i in range(150))
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    found = problems(designer_project)
    assert len(found) == 6, found
    assert sum(line.startswith(f"cards/{GAME}/crew.csv:1: unknown column 'extra") for line in found) == 5
    more = f"cards/{GAME}/crew.csv:1: 145 more unknown columns (O to FC); expected one of: id, name,"
    assert any(line.startswith(more) for line in found), found


def test_lower_case_cell_references_are_read(designer_project):
    rows = [_header_rows().replace('r="A1"', 'r="a1"')] + [
        f'<row r="{r + 2}">' + "".join(text_cell(f"{letter.lower()}{r + 2}", str(value)) for letter, value
                                       in zip("ABCDE", row, strict=True)) + "</row>"
        for r, row in enumerate(EVENTS[1:])]
    rows[-1] = rows[-1].replace("=1+1", "2")
    write_raw_xlsx(designer_project.cards_dir / GAME / "events.xlsx", rows)
    assert [card.id for card in load_game(designer_project, GAME).decks["events"].cards] == [
        "solar-flare", "meteor", "supply-drop"]


@pytest.mark.parametrize("attribute", ['number-columns-spanned="x"', 'number-rows-repeated="-3"',
                                       'number-columns-repeated=""'])
def test_an_ods_with_a_bad_span_or_repeat_is_one_line(designer_project, attribute):
    path = designer_project.cards_dir / GAME / "events.ods"
    write_ods(path, [row if row[2] != "=1+1" else [*row[:2], 2, *row[3:]] for row in EVENTS])
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    target = b"<table:table-row>" if "rows" in attribute else b"<table:table-cell "
    parts["content.xml"] = parts["content.xml"].replace(
        target, target[:-1] + b" table:" + attribute.encode() + target[-1:], 1)
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    _events(designer_project, "events.ods")
    name, _, value = attribute.partition("=")
    assert problems(designer_project) == [
        f"cards/{GAME}/events.ods: sheet 'Events' has a cell with {name}={value}; expected a whole number "
        "from 1 (an undamaged workbook)"]


def test_an_ods_with_a_million_repeated_rows_is_refused(designer_project):
    path = designer_project.cards_dir / GAME / "events.ods"
    write_ods(path, [row if row[2] != "=1+1" else [*row[:2], 2, *row[3:]] for row in EVENTS])
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts["content.xml"] = parts["content.xml"].replace(
        b"</table:table>", b'<table:table-row table:number-rows-repeated="1000000"><table:table-cell '
                           b'office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>'
                           b"</table:table>")
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    _events(designer_project, "events.ods")
    assert problems(designer_project) == [
        f"cards/{GAME}/events.ods:Events!A1000004: sheet 'Events' has more than 20,000 rows (a value at "
        f"A1000004); {LIMIT}"]


def test_a_hidden_first_sheet_is_not_read_unseen(designer_project):
    rows = [row if row[2] != "=1+1" else [*row[:2], 2, *row[3:]] for row in EVENTS]
    write_workbook(designer_project.cards_dir / GAME / "events.xlsx", {"Old": rows[:2], "Events": rows},
                   hidden=("Old",))
    _events(designer_project, sheet=None)
    assert problems(designer_project) == [
        f"cards/{GAME}/events.yaml:6: the first sheet of {EVENTS_FILE}, 'Old', is hidden (the first visible "
        "sheet is 'Events'); expected `sheet:` naming the sheet to read (`sheet: Old` to read the hidden "
        "one)"]
    _events(designer_project, sheet="Events")  # named, it reads
    deck = designer_project.cards_dir / GAME / "events.yaml"
    deck.write_text(deck.read_text().replace("{file: events.xlsx}", "{file: events.xlsx, sheet: Events}"))
    assert len(load_game(designer_project, GAME).decks["events"].cards) == 3
