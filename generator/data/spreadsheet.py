"""Reading a spreadsheet card source into a grid of cells that know where they are.

CSV is read with the standard library (UTF-8, with or without the BOM Excel writes; ',' ';' or tab between
cells, found from the header line); .xlsx, .xls and .ods with python-calamine, which reads the value a formula
last computed. A CSV cell is located by its line (`orders.csv:14`, header = line 1), a workbook cell by sheet
and cell (`orders.xlsx:Orders!C14`).

What calamine does not say is checked here so nothing is lost silently: merged cells (only the first cell of a
merge holds the value), formulas without a stored result (a file written by a script and never opened in a
spreadsheet program) and cells showing an error (#DIV/0!).
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from generator.core.errors import Cell, InputError, Problem, did_you_mean, known_list

SUFFIXES = (".csv", ".xlsx", ".xlsm", ".xls", ".ods")
WORKBOOKS = (".xlsx", ".xlsm", ".xls", ".ods")
_ERROR_VALUE = re.compile(
    r"^(#(DIV/0!|N/A|NAME\?|NULL!|NUM!|REF!|VALUE!|SPILL!|CALC!|GETTING_DATA)|Err:\d{3})$"
)
_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # an OLE container: .xls, or an encrypted .xlsx/.ods


def column_letter(index: int) -> str:
    """0 -> 'A', 25 -> 'Z', 26 -> 'AA'."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


@dataclass
class Grid:
    """The cells of one sheet, row by row, and how to name where each one is."""

    shown: str                      # the file as messages show it
    sheet: str | None               # None for CSV
    rows: list[list[Any]]
    lines: list[int]                # CSV: the file line each row starts on; workbooks: the row number
    problems: list[Problem] = field(default_factory=list)  # merged cells, formulas without a result, errors

    def at(self, row: int, col: int | None = None) -> int:
        """Where a cell is, as a line number (a Cell naming sheet and cell in a workbook)."""
        line = self.lines[row] if row < len(self.lines) else row + 1
        if self.sheet is None:
            return line
        return Cell(line, f"{self.sheet}!{column_letter(col or 0)}{line}")


def spreadsheet_near(written: str, path: Path) -> str:
    """A ' (did you mean ...?)' hint for a spreadsheet name `written` that names no file (`path`, resolved):
    the closest spreadsheet in the folder it points into, written the same way, or ''."""
    try:
        names = [p.name for p in path.parent.iterdir() if p.suffix.lower() in SUFFIXES and p.is_file()]
    except OSError:
        return ""
    folder = Path(written).parent
    return did_you_mean(written, [str(folder / name) for name in names])


def read_grid(path: Path, shown: str, sheet: str | None = None, asked_at: tuple[str, int] = ("", 0)) -> Grid:
    """The cells of a CSV file or of one sheet of a workbook (the first unless `sheet` names one); `asked_at`
    is the file and line that name the sheet (for a sheet that does not exist)."""
    suffix = path.suffix.lower()
    if not path.is_file():
        raise InputError(
            Problem(shown, 0, "file not found; expected a .csv, .xlsx or .ods file with one row per card")
        )
    if suffix == ".csv":
        if sheet is not None:
            raise InputError(
                Problem(
                    *asked_at,
                    f"a CSV file has no sheets, so `sheet: {sheet}` cannot apply; "
                    "expected no sheet for a .csv file",
                )
            )
        return _read_csv(path, shown)
    if suffix in WORKBOOKS:
        return _read_workbook(path, shown, sheet, asked_at)
    raise InputError(
        Problem(shown, 0, f"'{path.name}' is not a spreadsheet; expected a {', '.join(SUFFIXES)} file")
    )


def _read_csv(path: Path, shown: str) -> Grid:
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            Problem(
                shown,
                line,
                f"byte 0x{data[exc.start]:02x} is not valid UTF-8; expected a CSV file "
                "saved as UTF-8 (in Excel: 'CSV UTF-8')",
            )
        ) from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count) if first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, lines = [], []
    start = 1
    try:
        for row in reader:
            rows.append(row)
            lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(Problem(shown, reader.line_num, f"broken CSV: {exc}; expected cells separated by "
                                                         f"'{delimiter}', text with quotes closed")) from None
    return Grid(shown, None, rows, lines)


def _read_workbook(path: Path, shown: str, sheet: str | None, asked_at: tuple[str, int]) -> Grid:
    import python_calamine as calamine

    with path.open("rb") as stream:
        head = stream.read(8)
    if head == _CFB_MAGIC and path.suffix.lower() != ".xls":
        raise InputError(
            Problem(
                shown,
                0,
                "the workbook is password-protected (encrypted); expected a workbook "
                "saved without a password",
            )
        )
    try:
        book = calamine.CalamineWorkbook.from_path(str(path))
    except calamine.PasswordError:
        raise InputError(
            Problem(
                shown, 0, "the workbook is password-protected; expected a workbook saved without a password"
            )
        ) from None
    except calamine.CalamineError as exc:
        raise InputError(Problem(shown, 0, f"cannot read the workbook ({exc}); expected an undamaged "
                                           f"{path.suffix.lower()} file")) from None
    try:
        names = list(book.sheet_names)
        if sheet is None:
            if not names:
                raise InputError(
                    Problem(
                        shown,
                        0,
                        "the workbook has no sheets; expected a sheet with a header row and one row per card",
                    )
                )
            sheet = names[0]
        elif sheet not in names:
            raise InputError(Problem(*asked_at, f"no sheet '{sheet}' in {shown}{did_you_mean(sheet, names)}; "
                                                f"known: {known_list(names)}"))
        try:
            data = book.get_sheet_by_name(sheet)
            rows = data.to_python(skip_empty_area=False)
            merged = data.merged_cell_ranges or []
        except calamine.CalamineError as exc:
            raise InputError(Problem(shown, 0, f"cannot read sheet '{sheet}' ({exc}); expected an undamaged "
                                               "workbook")) from None
    finally:
        book.close()
    grid = Grid(shown, sheet, [list(row) for row in rows], list(range(1, len(rows) + 1)))
    if path.suffix.lower() == ".ods":
        merged = _ods_merges(path, sheet)
    for (row0, col0), (row1, col1) in merged:
        span = f"{column_letter(col0)}{row0 + 1}:{column_letter(col1)}{row1 + 1}"
        grid.problems.append(
            Problem(
                shown,
                Cell(row0 + 1, f"{sheet}!{column_letter(col0)}{row0 + 1}"),
                f"cells {span} are merged, so only the first holds a value; expected one value "
                "per cell (unmerge them and fill each cell)",
            )
        )
    if path.suffix.lower() in (".xlsx", ".xlsm"):
        for (gap_row, gap_col), why in _xlsx_formula_gaps(path, sheet).items():
            at = Cell(gap_row + 1, f"{sheet}!{column_letter(gap_col)}{gap_row + 1}")
            grid.problems.append(Problem(shown, at, why))
    for r, row in enumerate(grid.rows):
        for c, value in enumerate(row):
            if isinstance(value, str) and _ERROR_VALUE.match(value.strip()):
                grid.problems.append(
                    Problem(
                        shown,
                        grid.at(r, c),
                        f"the cell shows the error {value.strip()}; expected a value (fix the formula)",
                    )
                )
    return grid


def _cell_index(ref: str) -> tuple[int, int]:
    """'C14' -> (13, 2)."""
    match = re.match(r"([A-Z]+)(\d+)", ref)
    if match is None:
        raise ValueError(f"not a cell reference: {ref!r}")
    letters, number = match.groups()
    col = 0
    for letter in letters:
        col = col * 26 + ord(letter) - 64
    return int(number) - 1, col - 1


_NS_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_NS_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _xlsx_sheet_part(archive: zipfile.ZipFile, sheet: str) -> str | None:
    book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
    for node in book.iter(f"{_NS_MAIN}sheet"):
        if node.get("name") == sheet:
            target = targets.get(node.get(f"{_NS_REL}id"), "")
            return target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    return None


def _xlsx_formula_gaps(path: Path, sheet: str) -> dict[tuple[int, int], str]:
    """Cells of an .xlsx sheet whose formula has no stored result, or whose result is an error."""
    gaps: dict[tuple[int, int], str] = {}
    try:
        with zipfile.ZipFile(path) as archive:
            part = _xlsx_sheet_part(archive, sheet)
            if part is None:
                return gaps
            with archive.open(part) as stream:
                for _event, node in ElementTree.iterparse(stream):
                    if node.tag != f"{_NS_MAIN}c":
                        continue
                    formula, value = node.find(f"{_NS_MAIN}f"), node.find(f"{_NS_MAIN}v")
                    ref = node.get("r")
                    if ref and node.get("t") == "e":
                        shown = value.text if value is not None else "an error"
                        gaps[_cell_index(ref)] = (
                            f"the cell shows the error {shown}; expected a value (fix the formula)"
                        )
                    elif ref and formula is not None and (value is None or not (value.text or "").strip()):
                        gaps[_cell_index(ref)] = (
                            f"the formula ={formula.text or ''} has no computed value (the file "
                            "was never recalculated); expected the workbook saved by a "
                            "spreadsheet program, which stores each formula's result"
                        )
                    node.clear()
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError):
        return gaps  # calamine read the values; this extra look only adds what it can see
    return gaps


_NS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def _ods_merges(path: Path, sheet: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Merged ranges of an .ods sheet ((row, col) of the first and last cell); calamine does not report
    them."""
    merges: list[tuple[tuple[int, int], tuple[int, int]]] = []
    try:
        with zipfile.ZipFile(path) as archive, archive.open("content.xml") as stream:
            root = ElementTree.parse(stream).getroot()
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError):
        return merges
    for table in root.iter(f"{_NS_TABLE}table"):
        if table.get(f"{_NS_TABLE}name") != sheet:
            continue
        row = 0
        for row_node in table.iter(f"{_NS_TABLE}table-row"):
            col = 0
            for cell in row_node:
                if cell.tag not in (f"{_NS_TABLE}table-cell", f"{_NS_TABLE}covered-table-cell"):
                    continue
                cols = int(cell.get(f"{_NS_TABLE}number-columns-spanned", "1"))
                rows = int(cell.get(f"{_NS_TABLE}number-rows-spanned", "1"))
                if cols > 1 or rows > 1:
                    merges.append(((row, col), (row + rows - 1, col + cols - 1)))
                col += int(cell.get(f"{_NS_TABLE}number-columns-repeated", "1"))
            row += int(row_node.get(f"{_NS_TABLE}number-rows-repeated", "1"))
    return merges
