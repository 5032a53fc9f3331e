"""pnp's cache private to the user ($XDG_CACHE_HOME/pnp-forge, else ~/.cache/pnp-forge): what pnp worked out
from a file once, read back on later runs instead of being worked out again (files' SHA-256 digests, a font's
facts).

Everything in it is a copy of something pnp can work out again. An entry that is missing, unreadable or not of
the expected shape is ignored (and worked out and written again); a folder that cannot be written costs only
the time the cache would have saved. Entries are written to a temporary file and renamed into place, so a
reader never sees half an entry.

A file's digest is remembered with the file's stamp (size, modification and change times, inode), as git's
index and Python's bytecode cache trust theirs: a file whose stamp changed is read and hashed again. A digest
is remembered only for a file not modified in the last few seconds, so a file written again within the same
tick of a coarse file-system clock (same size, same times) is never mistaken for the one hashed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

APP = "pnp-forge"
DIGESTS = "digests-v2"  # one entry per group of files asked about together (a pnp install's sources, fonts)
SETTLED_NS = 3 * 10**9  # a file's times are trusted once it is older than the coarsest clock tick (FAT: 2 s)
# above this many remembered files of a group, those not asked about in this run are forgotten
MAX_DIGESTS = 5_000
_HEX64 = re.compile(r"[0-9a-f]{64}")


def cache_dir() -> Path | None:
    """The folder of pnp's per-user cache, or None when there is no home folder to keep one in."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / APP
    try:
        return Path.home() / ".cache" / APP
    except (RuntimeError, KeyError):  # no home folder
        return None


def read_bytes(name: str) -> bytes | None:
    """The bytes of a cache entry, or None when there is no cache or the entry is missing or unreadable."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return (folder / name).read_bytes()
    except OSError:
        return None


def read_json(name: str):
    """The JSON value of a cache entry, or None when it is missing or unreadable (a damaged entry is
    ignored)."""
    data = read_bytes(name)
    try:
        return None if data is None else json.loads(data)
    except ValueError:  # cut short or not JSON (UnicodeDecodeError is a ValueError)
        return None


def write_bytes(name: str, data: bytes) -> bool:
    """Write a cache entry (to a temporary file renamed into place); False when there is no cache or it cannot
    be written (a read-only home, a full disk: the next run works it out again)."""
    folder = cache_dir()
    if folder is None:
        return False
    target = folder / name
    temporary = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                             dir=target.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, target)
        return True
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        return False


def write_json(name: str, value) -> None:
    """Write a cache entry's JSON value (write_bytes); a cache that cannot be written is skipped."""
    write_bytes(name, json.dumps(value, separators=(",", ":")).encode("utf-8"))


# --- files' digests, remembered by stamp
# ------------------------------------------------------------------------

# group -> path -> [size, mtime_ns, ctime_ns, inode, sha256], read once
_memos: dict[str, dict[str, list]] = {}


def digests_entry(group: str) -> str:
    """The cache entry of a group's remembered digests (each pnp install's sources are a group of their own,
    so a run reads only what it asks about)."""
    return f"{DIGESTS}/{hashlib.sha256(group.encode()).hexdigest()[:24]}.json"


def _remembered(group: str) -> dict[str, list]:
    memo = _memos.get(group)
    if memo is None:
        data = read_json(digests_entry(group))
        memo = _memos[group] = data if isinstance(data, dict) else {}
    return memo


def _well_formed(entry) -> bool:
    return (isinstance(entry, list) and len(entry) == 5 and all(type(n) is int for n in entry[:4])
            and isinstance(entry[4], str) and _HEX64.fullmatch(entry[4]) is not None)


def file_digests(paths: Iterable[Path], group: str = "files") -> list[str]:
    """The SHA-256 (hex) of each file's bytes; a file whose stamp is the one remembered (in `group`) is not
    read again."""
    memo = _remembered(group)
    now = time.time_ns()
    digests, asked, learnt = [], set(), False
    for path in paths:
        key = str(path)
        asked.add(key)
        stat = os.stat(path)  # before reading: a file changed while it is read has a newer stamp next time
        stamp = [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]
        entry = memo.get(key)
        if entry is not None and _well_formed(entry) and entry[:4] == stamp:
            digests.append(entry[4])
            continue
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        digests.append(digest)
        if now - stat.st_mtime_ns > SETTLED_NS:
            memo[key] = [*stamp, digest]
            learnt = True
        elif memo.pop(key, None) is not None:
            learnt = True
    if learnt:
        _save(group, memo, asked)
    return digests


def file_digest(path: Path, group: str = "files") -> str:
    """The SHA-256 (hex) of a file's bytes (remembered by its stamp, see `file_digests`)."""
    return file_digests([path], group)[0]


def _save(group: str, memo: dict[str, list], asked: set[str]) -> None:
    # files of moved or deleted folders pile up: keep what this run asked about
    crowded = len(memo) > MAX_DIGESTS
    kept = {
        key: entry for key, entry in memo.items() if _well_formed(entry) and (not crowded or key in asked)
    }
    memo.clear()
    memo.update(kept)
    write_json(digests_entry(group), memo)


def forget() -> None:
    """Drop what this process read of the cache (tests: a changed $XDG_CACHE_HOME is read again)."""
    _memos.clear()
