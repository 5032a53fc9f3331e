"""Atomic output: write to a temporary file beside the target, then rename into place."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: Path, produce: Callable[[Path], None] | bytes | str) -> Path:
    """Create `path` atomically: `produce(tmp_path)` writes the file (or bytes/str are written)."""
    if isinstance(produce, str):
        text = produce
        produce = lambda tmp: tmp.write_text(text, encoding="utf-8")  # noqa: E731
    elif isinstance(produce, bytes):
        data = produce
        produce = lambda tmp: tmp.write_bytes(data)  # noqa: E731
    with Staging() as staging:
        staging.stage(path, produce)
        staging.commit()
    return Path(path)


class Staging:
    """Files drawn under temporary names first and renamed into place together by `commit()`.

    A run that fails half-way (say the last card's text does not fit) then replaces none of the last good outputs;
    leaving the `with` block without a commit deletes the temporary files.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[Path, Path]] = []

    def stage(self, path: Path, produce: Callable[[Path], None]) -> Path:
        """Draw `path` into a temporary file beside it with `produce(tmp_path)`; return the temporary path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        os.close(fd)
        tmp = Path(tmp_name)
        try:
            produce(tmp)
            os.chmod(tmp, 0o644)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        self._pending.append((tmp, path))
        return tmp

    def commit(self) -> None:
        """Rename every staged file into place."""
        while self._pending:
            tmp, path = self._pending.pop(0)
            os.replace(tmp, path)

    def discard(self) -> None:
        """Delete every staged file that was not committed."""
        while self._pending:
            self._pending.pop()[0].unlink(missing_ok=True)

    def __enter__(self) -> Staging:
        return self

    def __exit__(self, *exc_info) -> None:
        self.discard()


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
