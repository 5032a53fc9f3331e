"""Code that Python compiles from the same small sources on every run, kept between runs like its bytecode cache.

Each @dataclass compiles its generated methods (__init__, __repr__, __eq__...) from source text when its module is
imported, typing compiles every forward reference (each annotation of a pydantic model whose module uses
`from __future__ import annotations`), and every module compiles its regular expressions (ReportLab's, Jinja's,
Markdown's...). A rebuild imports some 150 dataclasses, 1,000 such annotations and 240 patterns: about 0.2 s of
compiling the same texts again on every run, which Python's own bytecode cache does not cover (one of ReportLab's
patterns, case-blind over all of Unicode, takes 30-45 ms alone).

`install()` puts a memo in front of the three: the code compiled from a text is the code compiled from the same text
before, read from the per-user cache (generator.core.usercache) at the first use and written back when the process
ends (the main process only, and only when it kept something new). What a text compiles to is kept from the second
run that compiles it: some libraries build a pattern from a set, whose order changes from run to run (ReportLab's
unsafe names, tokenize's string prefixes), and such a text, never the same twice, is only noted (a short digest in a
list of the last few thousand) instead of rewriting the cache every run. Compiled code does not depend on where it
runs, so each gets exactly what compiling the text gives: a pattern's program is kept only when the pattern built
from it equals the one `re` compiled itself (the same program, flags and groups). A text that does not compile is
compiled (and fails) as before. The cache is per Python version; a missing or damaged file is ignored.
PNP_NO_CODECACHE=1 in the environment leaves all three as Python has them (to measure what the memo saves).
"""

from __future__ import annotations

import _sre
import atexit
import builtins
import hashlib
import importlib.util
import marshal
import os
import re
import sys
from collections.abc import Callable
from types import CodeType

from generator.core import usercache

MAX_ENTRIES = 5_000  # past this, the file is written again with what this run used (old pnp versions' texts go)
MAX_SEEN = 4_096  # digests of texts compiled once, kept until they are compiled again
DIGEST = 16  # bytes of a text's SHA-256 in the list of texts compiled once

# (mode, source) -> code; ("re", pattern, flags) -> what re's compiler gives _sre.compile. Read once.
_codes: dict[tuple, CodeType | tuple] | None = None
_used: set[tuple] = set()
_seen: list[bytes] | None = None  # digests of the texts compiled once in earlier runs (oldest first), once read
_seen_set: set[bytes] = set()
_fresh: dict[bytes, None] = {}  # digests of texts compiled for the first time in this run, in order
_promoted: set[bytes] = set()  # digests of texts compiled again in this run, whose code is kept now
_learnt = False  # something compiled before was kept in this run: the cache is written again
_owner = 0  # the process that installed the memo, the only one to write it
_compile_regex = re._compiler.compile


def cache_name() -> str:
    """The cache entry for this Python (its bytecode and marshal format)."""
    tag = hashlib.sha256(importlib.util.MAGIC_NUMBER + sys.version.encode()).hexdigest()[:16]
    return f"code-v1/{tag}.marshal"


def seen_name() -> str:
    """The cache entry listing the texts compiled once (digests), beside the codes."""
    return cache_name().removesuffix(".marshal") + ".seen"


def _load() -> dict[tuple[str, str], CodeType]:
    global _codes
    if _codes is None:
        _codes = {}
        data = usercache.read_bytes(cache_name())
        try:
            found = None if data is None else marshal.loads(data)
        except (ValueError, EOFError, TypeError):  # damaged or another format: compiled again
            found = None
        if isinstance(found, dict):
            _codes = {key: value for key, value in found.items() if _well_formed(key, value)}
    return _codes


def _well_formed(key, value) -> bool:
    if not isinstance(key, tuple):
        return False
    if len(key) == 2:
        return isinstance(value, CodeType)
    return (len(key) == 3 and key[0] == "re" and isinstance(value, tuple) and len(value) == 5
            and type(value[0]) is int and isinstance(value[1], list) and all(type(n) is int for n in value[1])
            and type(value[2]) is int and isinstance(value[3], dict) and isinstance(value[4], tuple))


def _seen_before() -> set[bytes]:
    global _seen, _seen_set
    if _seen is None:
        data = usercache.read_bytes(seen_name()) or b""
        _seen = [data[at:at + DIGEST] for at in range(0, len(data) - len(data) % DIGEST, DIGEST)]
        _seen_set = set(_seen)
    return _seen_set


def _keep(key: tuple, value: Callable[[], CodeType | tuple | None]) -> None:
    """Keep what a text compiled to (`value()`, None when it is not to be kept) when an earlier run compiled it
    too; else note the text's digest."""
    global _learnt
    digest = hashlib.sha256(repr(key).encode("utf-8", "surrogatepass")).digest()[:DIGEST]
    if digest not in _seen_before():
        if len(_fresh) < MAX_SEEN:  # a long-running process (the studio) compiling patterns of its own keeps no more
            _fresh[digest] = None
        return
    kept = value()
    if kept is not None:
        _codes[key] = kept
        _used.add(key)
        _promoted.add(digest)
        _learnt = True


def compiled(source: str, mode: str) -> CodeType:
    """What compile(source, '<string>', mode) gives, compiled once across runs (from the second run on)."""
    key = (mode, source)
    code = _load().get(key)
    if code is None:
        code = builtins.compile(source, "<string>", mode)
        _keep(key, lambda: code)
    else:
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


def _regex(pattern, flags=0):
    """re's compiler (re._compiler.compile) through the memo: the program of a pattern seen before is handed to the
    matching engine as is."""
    if not isinstance(pattern, (str, bytes)) or flags & re.DEBUG:
        return _compile_regex(pattern, flags)
    codes = _load()
    key = ("re", pattern, int(flags))
    found = codes.get(key)
    if found is not None:
        _used.add(key)
        return _sre.compile(pattern, *found)
    compiled = _compile_regex(pattern, flags)
    _keep(key, lambda: _program_or_none(pattern, flags, compiled))
    return compiled


def _program_or_none(pattern, flags: int, compiled: re.Pattern) -> tuple | None:
    try:
        return _program(pattern, flags, compiled)
    except Exception:  # noqa: BLE001 - re's private compiler is not what this Python version was known to have
        return None


def _program(pattern, flags: int, compiled: re.Pattern) -> tuple | None:
    """What re._compiler.compile hands the matching engine for this pattern, when a pattern built from it equals the
    one re compiled (else None)."""
    parsed = re._parser.parse(pattern, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    program = [int(n) for n in re._compiler._code(parsed, flags)]  # re's opcodes are int subclasses: plain ints
    entry = (int(flags | parsed.state.flags), program, parsed.state.groups - 1, groupindex, tuple(indexgroup))
    again = _sre.compile(pattern, *entry)
    if again == compiled and again.groups == compiled.groups and again.groupindex == compiled.groupindex:
        return entry
    return None


def install() -> None:
    """Let dataclasses, typing and re compile through the memo in this process (idempotent; not with
    PNP_NO_CODECACHE set); call it before the modules that define dataclasses and patterns are imported."""
    global _owner
    import dataclasses
    import typing

    if _owner or os.environ.get("PNP_NO_CODECACHE"):
        return
    _owner = os.getpid()
    dataclasses.exec = _exec  # the name dataclasses' _create_fn calls
    typing.compile = _compile  # the name typing.ForwardRef calls
    if hasattr(re._compiler, "_code") and hasattr(re._parser, "parse"):  # the private compiler this is written for
        re._compiler.compile = _regex  # what re.compile calls for a pattern not in its own cache
    atexit.register(save)


def save() -> None:
    """Write what this run kept that the cache did not have, and the texts it compiled for the first time (only in
    the process that installed the memo)."""
    global _learnt, _seen, _seen_set
    if os.getpid() != _owner or _codes is None:
        return
    if _learnt:
        kept = _codes if len(_codes) <= MAX_ENTRIES else {key: _codes[key] for key in _used}
        if usercache.write_bytes(cache_name(), marshal.dumps(kept)):
            _learnt = False
    if _fresh or _promoted:
        digests = [d for d in _seen or [] if d not in _promoted] + list(_fresh)
        if usercache.write_bytes(seen_name(), b"".join(digests[-MAX_SEEN:])):
            _seen = digests[-MAX_SEEN:]
            _seen_set = set(_seen)
            _fresh.clear()
            _promoted.clear()
