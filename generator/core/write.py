"""Atomic output: write to a temporary file beside the target, then rename into place.

A build stages every file it writes (the PDFs, build/manifest.json, build/.state.json) and commits them
together with a journal: the list of renames is written first, so a build killed half-way through its renames
is finished by the next one (`recover`), and the manifest always describes the files on disk. Temporary files
carry the pid of the process writing them; `recover` deletes those whose process is gone (a killed build),
never those of a build still running.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from generator.core.errors import InputError, Problem

JOURNAL_PREFIX = ".commit-"
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[^.]+\.tmp$")
OLD_TEMP_SECONDS = 24 * 3600  # a temporary file without a pid (pnp before 0.2) is stale after a day


def atomic_write(path: Path, produce: Callable[[Path], None] | bytes | str) -> Path:
    """Create `path` atomically: `produce(tmp_path)` writes the file (or bytes/str are written)."""
    write: Callable[[Path], object]
    if isinstance(produce, str):
        text = produce
        write = lambda tmp: tmp.write_text(text, encoding="utf-8")  # noqa: E731
    elif isinstance(produce, bytes):
        data = produce
        write = lambda tmp: tmp.write_bytes(data)  # noqa: E731
    else:
        write = produce
    with Staging() as staging:
        staging.stage(path, write)
        staging.commit()
    return Path(path)


def cannot_write(path: Path, exc: OSError) -> InputError:
    """A located problem for a file or folder that cannot be written (read-only, not a folder, disk full)."""
    reason = exc.strerror or str(exc)
    return InputError(Problem(str(path), 0, f"{reason}; expected a folder that can be "
                                            "created and written"))


class Staging:
    """Files drawn under temporary names first and renamed into place together by `commit()`.

    A run that fails half-way (say the last card's text does not fit) then replaces none of the last good
    outputs; leaving the `with` block without a commit deletes the temporary files. A commit interrupted
    half-way keeps its journal and the files not yet renamed, for `recover` to finish.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[Path, Path]] = []
        self._committing = False

    def stage(self, path: Path, produce: Callable[[Path], object]) -> Path:
        """Draw `path` into a temporary file beside it with `produce(tmp_path)`; return the temporary path.

        A folder that cannot be made or written is an InputError naming it; what `produce` raises passes
        through."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(
                prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent
            )
            os.close(fd)
        except OSError as exc:
            raise cannot_write(path, exc) from None
        tmp = Path(tmp_name)
        try:
            produce(tmp)
            os.chmod(tmp, 0o644)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self._pending.append((tmp, path))
        return tmp

    def adopt(self, tmp: Path, path: Path) -> Path:
        """A file already drawn under a temporary name beside `path` (named as `stage` names them) joins the
        staged files, as if `stage` had drawn it; returns it."""
        tmp = Path(tmp)
        os.chmod(tmp, 0o644)
        self._pending.append((tmp, Path(path)))
        return tmp

    def commit(self, journal_dir: Path | None = None) -> None:
        """Rename every staged file into place; with `journal_dir`, the renames are journaled there first."""
        journal = None
        if journal_dir is not None and self._pending:
            journal = Path(journal_dir) / f"{JOURNAL_PREFIX}{os.getpid()}.json"
            pairs = [[str(tmp), str(path)] for tmp, path in self._pending]
            temporary = journal.with_name(journal.name + ".part")
            try:
                temporary.write_text(json.dumps(pairs), encoding="utf-8")
                os.replace(temporary, journal)
            except OSError as exc:
                temporary.unlink(missing_ok=True)
                raise cannot_write(journal.parent, exc) from None
        self._committing = True
        while self._pending:
            tmp, path = self._pending[0]
            os.replace(tmp, path)
            self._pending.pop(0)
        self._committing = False
        if journal is not None:
            journal.unlink(missing_ok=True)

    def discard(self) -> None:
        """Delete every staged file that was not committed (a commit under way is left for `recover`)."""
        if self._committing:
            self._pending.clear()
            return
        while self._pending:
            self._pending.pop()[0].unlink(missing_ok=True)

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc_info) -> None:
        self.discard()


def _alive(pid: int) -> bool:
    """True while process `pid` runs (or cannot be told apart from a running one)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _inside(path: Path, folder: Path) -> bool:
    resolved = path.resolve()
    return resolved == folder or folder in resolved.parents


def recover(folder: Path) -> list[Path]:
    """Finish the commits of builds that died half-way (their journals in `folder`) and delete temporary files
    of processes that are gone, anywhere below `folder`; returns the files renamed into place."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    root = folder.resolve()
    finished: list[Path] = []
    for journal in sorted(folder.glob(f"{JOURNAL_PREFIX}*.json")):
        pid = journal.stem[len(JOURNAL_PREFIX):]
        if not pid.isdigit() or _alive(int(pid)):
            continue
        try:
            pairs = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pairs = []
        for pair in pairs if isinstance(pairs, list) else []:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
                continue
            tmp, target = Path(pair[0]), Path(pair[1])
            match = _TEMP.match(tmp.name)
            # only renames of our own temporary files inside this folder: a journal is no way to move other
            # files
            if not (match and match["name"] == target.name and tmp.parent == target.parent
                    and _inside(tmp, root) and _inside(target, root)):
                continue
            try:
                os.replace(tmp, target)
                finished.append(target)
            except FileNotFoundError:
                pass  # renamed before the process died
        journal.unlink(missing_ok=True)
    now = time.time()
    for leftover in folder.rglob(".*.tmp"):
        match = _TEMP.match(leftover.name)
        try:
            stale = (
                not _alive(int(match["pid"])) if match else now - leftover.stat().st_mtime > OLD_TEMP_SECONDS
            )
            if stale:
                leftover.unlink(missing_ok=True)
        except OSError:
            pass  # another build removed it, or it cannot be removed: it harms nothing
    return finished


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def open_to_write(path: Path) -> BinaryIO:
    """`path` opened to be written from its start, as open(path, "wb") does, except that a file already empty
    (the temporary file a build made for it) is not truncated: ext4 writes out, when it is closed, a file
    truncated on opening, which makes the writer wait for the disk (a fifth of a second for a sheet of
    pictures)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
    try:
        if os.fstat(fd).st_size:
            os.ftruncate(fd, 0)
        return open(fd, "wb")  # noqa: SIM115 - the caller closes it
    except BaseException:
        os.close(fd)
        raise


# the facts key of a writer's record of the bytes it wrote (written_record), taken out before the manifest
WRITTEN = "_written"


def written_record(path: Path, digest: str) -> dict:
    """What a writer that hashed the bytes it wrote to `path` (now closed) tells the build: their SHA-256 and
    the file's stamp, so the build need not read the file back to hash it (`sha256_of`)."""
    stat = os.stat(path)
    return {"sha256": digest, "stamp": [stat.st_size, stat.st_mtime_ns, stat.st_ino]}


def sha256_of(path: Path, record: dict | None = None) -> str:
    """Hex SHA-256 of a file's bytes: the writer's `record` when the file is still as it left it (the same
    size, time and inode: a stage that wrote the output again made another file), else read and hashed."""
    if isinstance(record, dict) and isinstance(record.get("sha256"), str):
        stat = os.stat(path)
        if record.get("stamp") == [stat.st_size, stat.st_mtime_ns, stat.st_ino]:
            return record["sha256"]
    return sha256_file(path)
