"""Atomic output: write to a temporary file beside the target, then rename into place."""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def atomic_write(path: Path, produce: Callable[[Path], None] | bytes | str) -> Path:
    """Create `path` atomically: `produce(tmp_path)` writes the file (or bytes/str are written)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        if callable(produce):
            produce(tmp)
        elif isinstance(produce, str):
            tmp.write_text(produce, encoding="utf-8")
        else:
            tmp.write_bytes(produce)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
