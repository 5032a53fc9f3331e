"""Templates and expressions as Jinja compiled them, kept between runs in Jinja's cache folder (private to the
user).

The rules templates (generator.booklet.text), game.yaml `checks:` (generator.data.game_checks) and card text
templates (generator.faces.text) each keep one.
A key names what was compiled and the code that compiles it, so no pnp runs what another version compiled.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

import jinja2
from jinja2 import FileSystemBytecodeCache


class CompiledCache(FileSystemBytecodeCache):
    """A bytecode cache whose keys name the compiling code (`compiler()`) and what was compiled (`kind`,
    name)."""

    kind = "templates"

    def compiler(self) -> str:
        """The digest of the code that turns a source into Python code (see `compiler_digest`)."""
        raise NotImplementedError

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return hashlib.sha1(f"{self.compiler()}|{self.kind}|{name}|{filename}".encode()).hexdigest()


def compiler_digest(files: Iterable[str | Path]) -> str:
    """The digest of Jinja's version and the source files of pnp's code that compiles (environment, sandbox,
    ...)."""
    digest = hashlib.sha1(jinja2.__version__.encode())
    for file in files:
        digest.update(Path(file).read_bytes())
    return digest.hexdigest()


# pnp's code that turns a sandboxed template into Python code, beside this module
_SANDBOX_CODE = tuple(
    Path(__file__).with_name(name) for name in ("sandbox.py", "templating.py", "filters.py")
)


class SandboxedCache(CompiledCache):
    """Templates compiled by pnp's sandbox for one `kind` of use: the key names Jinja, the sandbox's code and
    the module that keeps them (`module`: its file, whose helpers the templates call)."""

    module = ""

    def compiler(self) -> str:
        return _sandbox_digest(self.module)


@functools.cache
def _sandbox_digest(module: str) -> str:
    return compiler_digest([*_SANDBOX_CODE, module])


Cache = TypeVar("Cache", bound=CompiledCache)


def private_cache(kind: type[Cache]) -> Cache | None:
    """A cache of this kind in Jinja's per-user folder; None where there is no private one (then each run
    compiles)."""
    if not hasattr(os, "getuid"):  # Jinja's folder is private to the user on POSIX systems only
        return None
    try:
        return kind()
    except (OSError, RuntimeError):  # no temp folder, or one another user could write to
        return None
