"""Reading a spreadsheet card source into a grid of cells that know where they are.

CSV is read with the standard library (UTF-8, with or without the BOM Excel writes; ',' ';' or tab between
cells, found from the header line); .xlsx, .xls and .ods with python-calamine, which reads the value a formula
last computed. A CSV cell is located by its line (`orders.csv:14`, header = line 1), a workbook cell by sheet
and cell (`orders.xlsx:Orders!C14`).

What calamine does not say is checked here so nothing is lost silently: merged cells (only the first cell of a
merge holds the value), formulas without a stored result (a file written by a script and never opened in a
spreadsheet program), cells showing an error (#DIV/0!) and a hidden first sheet.

Limits come before work (generator.core.limits): a CSV is read row by row and stops at MAX_SHEET_ROWS rows or
MAX_SHEET_COLUMNS cells; a workbook's sheet is first scanned as a stream (its XML, element by element) for the
place of its last value, so neither a million rows nor one stray cell at XFD1048576 (which would make
calamine allocate the whole 17-billion-cell rectangle) ever reaches calamine. A sheet's declared dimension is
never read.
"""

from __future__ import annotations

import codecs
import csv
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from generator.core.errors import Cell, InputError, Problem, did_you_mean, known_list
from generator.core.lfs import lfs_pointer
from generator.core.limits import MAX_SHEET_BYTES, MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, check_file_size

SUFFIXES = (".csv", ".xlsx", ".xlsm", ".xls", ".ods")
WORKBOOKS = (".xlsx", ".xlsm", ".xls", ".ods")
_ERROR_VALUE = re.compile(
    r"^(#(DIV/0!|N/A|NAME\?|NULL!|NUM!|REF!|VALUE!|SPILL!|CALC!|GETTING_DATA)|Err:\d{3})$"
)
# an .xlsx sheet part, scanned as a stream: only a bound against a zip bomb (a million short rows fit)
_STREAMED_PART_BYTES = 20 * MAX_SHEET_BYTES
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
    check_file_size(path, MAX_SHEET_BYTES, shown, "the spreadsheet")
    pointer = lfs_pointer(path, shown)
    if pointer:
        raise InputError(Problem(shown, 0, pointer))
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


def _too_big(shown: str, at: int, why: str) -> InputError:
    return InputError(Problem(shown, at, f"{why}; expected at most {MAX_SHEET_ROWS:,} rows and "
                                         f"{MAX_SHEET_COLUMNS} columns (pnp's limit for one sheet: a game "
                                         "holds at most 10,000 cards)"))


def _beyond(sheet: str, row: int, col: int) -> str:
    """What is wrong with a value at (row, col), 0-based, past the limits of one sheet."""
    place = f"{column_letter(col)}{row + 1}"
    if row >= MAX_SHEET_ROWS:
        return f"sheet '{sheet}' has more than {MAX_SHEET_ROWS:,} rows (a value at {place})"
    return f"sheet '{sheet}' has more than {MAX_SHEET_COLUMNS} columns (a value at {place})"


def _bad_utf8_line(path: Path) -> tuple[int, int]:
    """(line, byte) of the first byte of `path` that is not UTF-8, read in chunks."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    line, offset = 1, 0
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 16):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                return line + chunk[: exc.start].count(b"\n"), chunk[exc.start]
            line += chunk.count(b"\n")
            offset += len(chunk)
    return line, 0


def _read_csv(path: Path, shown: str) -> Grid:
    """A CSV file, row by row, stopped at the row and column limits."""
    rows: list[list[Any]] = []
    lines: list[int] = []
    try:
        with path.open(encoding="utf-8-sig", newline="") as stream:
            first = stream.readline(1 << 16).split("\n", 1)[0]
            delimiter = max(",;\t", key=first.count) if first else ","
            stream.seek(0)
            if stream.read(1) != "\ufeff":
                stream.seek(0)
            reader = csv.reader(stream, delimiter=delimiter)
            start = 1
            try:
                for row in reader:
                    if len(rows) >= MAX_SHEET_ROWS:
                        raise _too_big(shown, start, f"the file has more than {MAX_SHEET_ROWS:,} rows")
                    if len(row) > MAX_SHEET_COLUMNS:
                        raise _too_big(shown, start, f"this row has {len(row):,} cells, more than "
                                                     f"{MAX_SHEET_COLUMNS} columns")
                    rows.append(row)
                    lines.append(start)
                    start = reader.line_num + 1
            except csv.Error as exc:
                why = f"broken CSV: {exc}; expected cells separated by '{delimiter}', text with quotes closed"
                raise InputError(Problem(shown, reader.line_num, why)) from None
    except UnicodeDecodeError:
        line, byte = _bad_utf8_line(path)
        raise InputError(
            Problem(
                shown,
                line,
                f"byte 0x{byte:02x} is not valid UTF-8; expected a CSV file "
                "saved as UTF-8 (in Excel: 'CSV UTF-8')",
            )
        ) from None
    return Grid(shown, None, rows, lines)


def _check_parts(path: Path, shown: str) -> None:
    """Refuse a workbook (a zip) whose parts unpack beyond MAX_SHEET_BYTES (a zip bomb, a giant string table);
    an .xlsx sheet's own part may be larger, as it is scanned as a stream and stopped at the row limit."""
    try:
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                streamed = info.filename.startswith("xl/worksheets/")
                if info.file_size > (_STREAMED_PART_BYTES if streamed else MAX_SHEET_BYTES):
                    raise InputError(Problem(shown, 0, f"part {info.filename} of the workbook unpacks to "
                                                       f"{info.file_size:,} bytes; expected at most "
                                                       f"{MAX_SHEET_BYTES:,} (pnp's limit)"))
    except zipfile.BadZipFile:
        return  # calamine says what is wrong with it


def _pick_sheet(book, shown: str, sheet: str | None, asked_at: tuple[str, int]) -> str:
    """The sheet to read: the one named, or the first (which must not be hidden: it would be read unseen)."""
    names = list(book.sheet_names)
    if sheet is not None:
        if sheet not in names:
            raise InputError(Problem(*asked_at, f"no sheet '{sheet}' in {shown}{did_you_mean(sheet, names)}; "
                                                f"known: {known_list(names)}"))
        return sheet
    if not names:
        raise InputError(
            Problem(shown, 0, "the workbook has no sheets; expected a sheet with a header row and one row "
                              "per card")
        )
    visible = [meta.name for meta in book.sheets_metadata if str(meta.visible).endswith(".Visible")]
    if names[0] not in visible:
        others = f"the first visible sheet is '{visible[0]}'" if visible else "no sheet is visible"
        raise InputError(Problem(*asked_at, f"the first sheet of {shown}, '{names[0]}', is hidden "
                                            f"({others}); expected `sheet:` naming the sheet to read "
                                            f"(`sheet: {names[0]}` to read the hidden one)"))
    return names[0]


def _read_workbook(path: Path, shown: str, sheet: str | None, asked_at: tuple[str, int]) -> Grid:
    import python_calamine as calamine

    suffix = path.suffix.lower()
    with path.open("rb") as stream:
        head = stream.read(8)
    if head == _CFB_MAGIC and suffix != ".xls":
        raise InputError(
            Problem(
                shown,
                0,
                "the workbook is password-protected (encrypted); expected a workbook "
                "saved without a password",
            )
        )
    if suffix != ".xls":
        _check_parts(path, shown)
    scan = _scan_ods(path, shown) if suffix == ".ods" else None  # calamine reads every sheet of an .ods
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
                                           f"{suffix} file")) from None
    try:
        sheet = _pick_sheet(book, shown, sheet, asked_at)
        found: list[Problem] = []
        if suffix in (".xlsx", ".xlsm"):
            found = _scan_xlsx(path, shown, sheet)
        merged: list[tuple[tuple[int, int], tuple[int, int]]] = []
        if scan is not None:
            merged = scan.get(sheet, [])
        try:
            data = book.get_sheet_by_name(sheet)
            if suffix == ".xls" and (data.height > MAX_SHEET_ROWS or data.width > MAX_SHEET_COLUMNS):
                raise _too_big(shown, 0, f"sheet '{sheet}' spans {data.height:,} rows and {data.width:,} "
                                         "columns")
            # bounded by the scan above: the whole sheet from A1, empty rows and columns before the data kept
            rows = [list(row) for row in data.to_python(skip_empty_area=False)]
            if suffix != ".ods":
                merged = data.merged_cell_ranges or []
        except calamine.CalamineError as exc:
            raise InputError(Problem(shown, 0, f"cannot read sheet '{sheet}' ({exc}); expected an undamaged "
                                               "workbook")) from None
    finally:
        book.close()
    grid = Grid(shown, sheet, rows, list(range(1, len(rows) + 1)))
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
    grid.problems.extend(found)
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


_CELL_REF = re.compile(r"([A-Za-z]{1,3})([0-9]{1,7})")


def _cell_index(ref: str) -> tuple[int, int] | None:
    """'C14' (or 'c14') -> (13, 2); None for text that is no cell reference."""
    match = _CELL_REF.fullmatch(ref.strip())
    if match is None:
        return None
    letters, number = match.groups()
    col = 0
    for letter in letters.upper():
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


def _holds_value(node) -> bool:
    """Whether an xlsx cell element holds a value (a styled empty cell does not; calamine skips those)."""
    return any(len(child) or (child.text or "").strip() for child in node)


def _scan_xlsx(path: Path, shown: str, sheet: str) -> list[Problem]:
    """One streamed pass over an .xlsx sheet's XML before calamine reads it: a value beyond the row or column
    limit is refused at its cell (InputError); returns the cells whose formula has no stored result, or
    whose result is an error."""
    gaps: list[Problem] = []
    try:
        with zipfile.ZipFile(path) as archive:
            part = _xlsx_sheet_part(archive, sheet)
            if part is None:
                return gaps
            with archive.open(part) as stream:
                row, col = -1, -1
                for event, node in ElementTree.iterparse(stream, events=("start", "end")):
                    if node.tag == f"{_NS_MAIN}row":
                        if event == "start":
                            number = node.get("r", "")
                            row = int(number) - 1 if number.isdigit() else row + 1
                            col = -1
                        else:
                            node.clear()
                        continue
                    if event != "end" or node.tag != f"{_NS_MAIN}c":
                        continue
                    ref = node.get("r")
                    place = _cell_index(ref) if ref else (row, col + 1)
                    if place is None:
                        raise InputError(Problem(shown, 0, f"sheet '{sheet}' has a cell named '{ref}', which "
                                                           "is no cell reference; expected an undamaged "
                                                           "workbook (cells such as C14)"))
                    row, col = place
                    at = Cell(row + 1, f"{sheet}!{column_letter(col)}{row + 1}")
                    if _holds_value(node) and (row >= MAX_SHEET_ROWS or col >= MAX_SHEET_COLUMNS):
                        raise _too_big(shown, at, _beyond(sheet, row, col))
                    formula, value = node.find(f"{_NS_MAIN}f"), node.find(f"{_NS_MAIN}v")
                    if node.get("t") == "e":
                        said = value.text if value is not None else "an error"
                        gaps.append(Problem(shown, at, f"the cell shows the error {said}; expected a value "
                                                       "(fix the formula)"))
                    elif formula is not None and (value is None or not (value.text or "").strip()):
                        gaps.append(Problem(shown, at, f"the formula ={formula.text or ''} has no computed "
                                                       "value (the file was never recalculated); expected "
                                                       "the workbook saved by a spreadsheet program, which "
                                                       "stores each formula's result"))
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError):
        return gaps  # calamine read the workbook; what it could not, it said
    return gaps

_NS_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_NS_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"


def _ods_count(cell, name: str, shown: str, sheet: str) -> int:
    """A repeat or span attribute of an .ods row or cell: a whole number from 1, else a located InputError."""
    written = cell.get(f"{_NS_TABLE}{name}", "1")
    if not written.isdigit() or int(written) < 1:
        raise InputError(Problem(shown, 0, f"sheet '{sheet}' has a cell with {name}=\"{written[:20]}\"; "
                                           "expected a whole number from 1 (an undamaged workbook)"))
    return int(written)


def _ods_holds_value(cell) -> bool:
    return cell.get(f"{_NS_OFFICE}value-type") is not None or len(cell) > 0


def _scan_ods(path: Path, shown: str) -> dict[str, list[tuple[tuple[int, int], tuple[int, int]]]]:
    """One streamed pass over an .ods file's content.xml (calamine reads every sheet of it): a value beyond
    the row or column limit, in any sheet, is refused at its cell (InputError), a damaged repeat or span
    attribute is one located line; returns each sheet's merged ranges ((row, col) of the first and last
    cell), which calamine does not report."""
    merges: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    try:
        with zipfile.ZipFile(path) as archive, archive.open("content.xml") as stream:
            sheet, row = "", 0
            for event, node in ElementTree.iterparse(stream, events=("start", "end")):
                if node.tag == f"{_NS_TABLE}table":
                    if event == "start":
                        sheet, row = node.get(f"{_NS_TABLE}name", ""), 0
                        merges.setdefault(sheet, [])
                    else:
                        node.clear()
                    continue
                if event != "end" or node.tag != f"{_NS_TABLE}table-row":
                    continue
                repeat = _ods_count(node, "number-rows-repeated", shown, sheet)
                col = 0
                for cell in node:
                    if cell.tag not in (f"{_NS_TABLE}table-cell", f"{_NS_TABLE}covered-table-cell"):
                        continue
                    cols = _ods_count(cell, "number-columns-spanned", shown, sheet)
                    rows = _ods_count(cell, "number-rows-spanned", shown, sheet)
                    across = _ods_count(cell, "number-columns-repeated", shown, sheet)
                    if _ods_holds_value(cell):
                        last_row, last_col = row + repeat - 1, col + across - 1
                        if last_row >= MAX_SHEET_ROWS or last_col >= MAX_SHEET_COLUMNS:
                            last_col = min(last_col, 16383)
                            at = Cell(last_row + 1, f"{sheet}!{column_letter(last_col)}{last_row + 1}")
                            raise _too_big(shown, at, _beyond(sheet, last_row, last_col))
                    if cols > 1 or rows > 1:
                        merges[sheet].append(((row, col), (row + rows - 1, col + cols - 1)))
                    col += across
                row += repeat
                node.clear()
    except (zipfile.BadZipFile, KeyError, ElementTree.ParseError):
        return merges  # calamine says what is wrong with the file
    return merges
