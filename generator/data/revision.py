"""The version a build prints: `{{ build.revision }}` and `{{ build.date }}` of the card layouts.

Both are worked out from the sources alone, so the same sources build the same bytes on every machine and in
every clone (docs/layouts.md, "Version stamps"):

- `build.revision`: the first 8 hex digits of a SHA-256 over the game's source files (their paths inside the
  game folder and their contents, text files with LF line ends) and the project's templates/. The game's
  scripts/ and playtests/ (read by `pnp validate` only) and its printed record (printed.yaml) are left out:
  they never change what is printed. A commit, a clone or a checkout of other files leaves it alone.
- `build.date`: the day of SOURCE_DATE_EPOCH (the reproducible-builds convention; seconds since 1970, read in
  UTC) as YYYY-MM-DD when it is set, else empty: a clock or a file's modification time would differ between
  two machines building the same sources.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

from generator.core.errors import InputError, Problem
from generator.data.project import is_source

PRINTED_RECORD = "printed.yaml"  # cards/<game>/printed.yaml: the faces last printed (`pnp mark-printed`)
NOT_PRINTED = ("scripts", "playtests")  # folders of a game that only `pnp validate` reads
TEXT_SUFFIXES = {".yaml", ".yml", ".j2", ".md", ".csv", ".tsv", ".json", ".txt", ".svg", ".py"}
REVISION_DIGITS = 8


def _sources(folder: Path, skip_top: tuple[str, ...]) -> list[Path]:
    """The source files below `folder`, sorted by path, without hidden files, caches and `skip_top`."""
    found = []
    for root, dirs, files in os.walk(folder):
        here = Path(root)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__"
                         and not (here == folder and d in skip_top))
        found += [here / name for name in files if is_source(name)
                  and not (here == folder and name in skip_top)]
    return sorted(found, key=lambda path: path.relative_to(folder).parts)


def _add_files(sha, folder: Path, label: str, skip_top: tuple[str, ...] = ()) -> None:
    for path in _sources(folder, skip_top):
        data = path.read_bytes()
        if path.suffix.lower() in TEXT_SUFFIXES:  # a Windows checkout's CRLF is the same text
            data = data.replace(b"\r\n", b"\n")
        name = f"{label}/{path.relative_to(folder).as_posix()}"
        sha.update(f"{name}\0{len(data)}\0".encode())
        sha.update(data)


def content_revision(game_dir: Path, templates_dir: Path) -> str:
    """`build.revision`: a short hash of what the game's outputs are made from (see the module)."""
    sha = hashlib.sha256()
    _add_files(sha, Path(game_dir), "game", NOT_PRINTED + (PRINTED_RECORD,))
    if Path(templates_dir).is_dir():
        _add_files(sha, Path(templates_dir), "templates")
    return sha.hexdigest()[:REVISION_DIGITS]


def build_date(environ: dict[str, str] | None = None) -> str:
    """`build.date`: SOURCE_DATE_EPOCH's day in UTC (YYYY-MM-DD), else '' (see the module)."""
    value = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return ""
    try:
        return datetime.fromtimestamp(int(value), UTC).strftime("%Y-%m-%d")
    except (ValueError, OverflowError, OSError):
        raise InputError(Problem("", 0, f"SOURCE_DATE_EPOCH={value!r}: expected whole seconds since "
                                        "1970-01-01 UTC, e.g. $(git log -1 --format=%ct)")) from None
