"""Git LFS pointers: a repository that keeps its pictures, fonts or spreadsheets in Git LFS checks out small
text files in their place until `git lfs pull` fetches them. Every reader asks here first, so such a file is
one located line that says what it is and how to fetch it, never "not a picture" or "not a font"."""

from __future__ import annotations

import re
from pathlib import Path

POINTER_START = b"version https://git-lfs.github.com/spec/"
_MAX_POINTER_BYTES = 1024  # the spec keeps a pointer well under this
_SIZE = re.compile(rb"^size (\d+)$", re.M)


def lfs_pointer_text(data: bytes, name: str) -> str | None:
    """What is wrong with the bytes `data` of the file `name` when they are a Git LFS pointer, else None."""
    if not data.startswith(POINTER_START) or len(data) > _MAX_POINTER_BYTES:
        return None
    size = _SIZE.search(data)
    fetched = f"the {int(size.group(1)):,}-byte file" if size else "the file"
    return (f"'{name}' is a Git LFS pointer, not the file itself ({fetched} was never fetched); expected the "
            f"file: run `git lfs pull` in the project (`git lfs pull --include=\"{name}\"` for this one; "
            "`git lfs install` first on a new machine)")


def lfs_pointer(path: Path, name: str | None = None) -> str | None:
    """What is wrong with the file at `path` (shown as `name`) when it is a Git LFS pointer, else None."""
    try:
        with Path(path).open("rb") as stream:
            head = stream.read(_MAX_POINTER_BYTES + 1)
    except OSError:
        return None  # the reader says why it cannot read the file
    return lfs_pointer_text(head, name or Path(path).name)
