"""Code that Python compiles from the same small sources on every run, kept between runs like its bytecode cache.

Each @dataclass compiles its generated methods (__init__, __repr__, __eq__...) from source text when its module is
imported, and typing compiles every forward reference (each annotation of a pydantic model whose module uses
`from __future__ import annotations`). A rebuild imports some 150 dataclasses and 1,000 such annotations: about
0.1 s of compiling the same texts again on every run, which Python's own bytecode cache does not cover.

`install()` puts a memo in front of the two: the code object compiled from a text is the one compiled from the same
text before, read from the per-user cache (generator.core.usercache) at the first use and written back when the
process ends (the main process only, and only when it compiled something new). A code object does not depend on
where it runs, so dataclasses and typing get exactly what compiling the text gives; a text that does not compile is
compiled (and fails) as before. The cache is per Python bytecode version; a missing or damaged file is ignored.
PNP_NO_CODECACHE=1 in the environment leaves both as Python has them (to measure what the memo saves).
"""

from __future__ import annotations

import atexit
import builtins
import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile
from types import CodeType

from generator.core import usercache

MAX_ENTRIES = 5_000  # past this, the file is written again with what this run used (old pnp versions' texts go)

_codes: dict[tuple[str, str], CodeType] | None = None  # (mode, source) -> code, once read
_used: set[tuple[str, str]] = set()
_learnt = False
_owner = 0  # the process that installed the memo, the only one to write it


def cache_name() -> str:
    """The cache entry for this Python (its bytecode and marshal format)."""
    tag = hashlib.sha256(importlib.util.MAGIC_NUMBER + sys.version.encode()).hexdigest()[:16]
    return f"code-v1/{tag}.marshal"


def _load() -> dict[tuple[str, str], CodeType]:
    global _codes
    if _codes is None:
        _codes = {}
        folder = usercache.cache_dir()
        if folder is not None:
            try:
                found = marshal.loads((folder / cache_name()).read_bytes())
            except (OSError, ValueError, EOFError, TypeError):  # missing, damaged or another format: compile again
                found = None
            if isinstance(found, dict):
                _codes = {key: code for key, code in found.items()
                          if isinstance(key, tuple) and len(key) == 2 and isinstance(code, CodeType)}
    return _codes


def compiled(source: str, mode: str) -> CodeType:
    """What compile(source, '<string>', mode) gives, compiled once across runs."""
    global _learnt
    codes = _load()
    key = (mode, source)
    code = codes.get(key)
    if code is None:
        code = codes[key] = builtins.compile(source, "<string>", mode)
        _learnt = True
    _used.add(key)
    return code


def _exec(source, globals=None, locals=None, /, *args, **kwargs):  # noqa: A002 - exec's own names
    """exec, for dataclasses: a source text is compiled through the memo."""
    if isinstance(source, str) and not args and not kwargs:
        source = compiled(source, "exec")
    return builtins.exec(source, globals, locals, *args, **kwargs)


def _compile(source, filename, mode, *args, **kwargs):
    """compile, for typing's forward references: '<string>' texts through the memo."""
    if isinstance(source, str) and filename == "<string>" and mode in ("exec", "eval") and not args and not kwargs:
        return compiled(source, mode)
    return builtins.compile(source, filename, mode, *args, **kwargs)


def install() -> None:
    """Let dataclasses and typing compile through the memo in this process (idempotent); call it before the
    modules that define dataclasses are imported."""
    global _owner
    import dataclasses
    import typing

    if _owner or os.environ.get("PNP_NO_CODECACHE"):
        return
    _owner = os.getpid()
    dataclasses.exec = _exec  # the name dataclasses' _create_fn calls
    typing.compile = _compile  # the name typing.ForwardRef calls
    atexit.register(save)


def save() -> None:
    """Write what this run compiled that the cache did not have (only in the process that installed the memo)."""
    global _learnt
    if not _learnt or _codes is None or os.getpid() != _owner:
        return
    folder = usercache.cache_dir()
    if folder is None:
        return
    kept = _codes if len(_codes) <= MAX_ENTRIES else {key: _codes[key] for key in _used}
    target = folder / cache_name()
    temporary = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(marshal.dumps(kept))
        os.replace(temporary, target)
        _learnt = False
    except (OSError, ValueError):  # a read-only home, a full disk: compiled again next time
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
