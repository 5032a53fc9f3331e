"""Icon SVGs as the PDF operators of their Form XObject: drawn once by svglib and renderPDF, then replayed.

Parsing an SVG with svglib and walking the Drawing with renderPDF costs far more than the few hundred
operators it writes, and every process that draws (each card sheet, the rules) used to do it again. The
operators renderPDF writes into a fresh form depend only on the SVG's bytes, the fade, the code that draws and
the kind of canvas, so they are kept in memory for the process and on disk between runs (in the user's private
cache, one small JSON file per icon, written atomically; a damaged or foreign file is ignored and written
again). Replayed into the same form, they give the same PDF bytes.

Only icons whose drawing writes nothing but the form's own operators are kept: one that uses transparency, a
picture or a font (names shared with the rest of the PDF) or whose SVG refers to other files (which may change
without it) is drawn by renderPDF every time, as before.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import re
from dataclasses import dataclass
from pathlib import Path

import reportlab

from generator.core.errors import InputError, Problem
from generator.core.formresources import end_form
from generator.core.write import atomic_write
from generator.data.compiled import CompiledCache, private_cache

FORMAT = "pnp-icon-ops 1"
# The SVG's own fragments (href="#id", url(#id)) are fine; anything else may read another file or a
# stylesheet.
_OUTSIDE = re.compile(
    rb"""href\s*=\s*["']\s*[^#"'\s]|url\(\s*["']?\s*[^#\s"')]|@import|<!ENTITY|<\?xml-stylesheet""", re.I
)


@dataclass(frozen=True)
class IconArt:
    """An icon's size, content digest and, when known, the operators of its form (None: draw it); `keep` is
    False for an SVG that refers to other files, whose operators are never kept."""

    width: float
    height: float
    digest: str
    ops: tuple[str, ...] | None
    version: tuple[int, ...] = (1, 0)  # the least PDF version the drawing asks of the document
    keep: bool = True


class IconForms(CompiledCache):
    """The private cache folder's icon files; a key names the SVG's digest, the fade, the canvas and the
    drawing code."""

    kind = "icons"

    def compiler(self) -> str:
        return code_digest()

    def path(self, name: str) -> Path:
        """The cache file of entry `name`."""
        return Path(self.directory) / f"pnp-icon-{self.get_cache_key(name)}.json"


@functools.cache
def code_digest() -> str:
    """The digest of what turns an SVG into operators: ReportLab's version, svglib's sources and the versions
    of the libraries it parses with (lxml, tinycss2, cssselect2), and pnp's modules that draw icons (icons,
    icon_render, svg and this one)."""
    digest = hashlib.sha1(f"{FORMAT}|{reportlab.Version}".encode())
    here = Path(__file__)
    for file in [
        here,
        here.with_name("icons.py"),
        here.with_name("icon_render.py"),
        here.with_name("svg.py"),
        *_package_sources("svglib", everything=True),
        *_package_sources("lxml"),
        *_package_sources("tinycss2"),
        *_package_sources("cssselect2"),
    ]:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _package_sources(package: str, everything: bool = False) -> list[Path]:
    """A package's __init__.py (which holds its version), or all its modules, found without importing it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return []
    folder = Path(next(iter(spec.submodule_search_locations)))
    return sorted(folder.glob("*.py")) if everything else [folder / "__init__.py"]


@functools.cache
def _cache() -> IconForms | None:
    return private_cache(IconForms)


def cache_folder() -> Path | None:
    """The folder of the icon cache files, None where the user has no private cache (then each process
    draws)."""
    cache = _cache()
    return Path(cache.directory) if cache is not None else None


def canvas_kind(canvas) -> str:
    """What of a canvas changes the operators an icon gives: its class and the colour space it enforces."""
    enforce = getattr(canvas, "_enforceColorSpace", None)
    return f"{type(canvas).__module__}.{type(canvas).__qualname__}|{getattr(enforce, '__name__', enforce)}"


def _entry_name(digest: str, fade: float, kind: str) -> str:
    return f"{digest}|{fade!r}|{kind}"


def read_cached(digest: str, fade: float, kind: str) -> IconArt | None:
    """The icon's art from the disk cache, None when it is not there or the file is damaged or foreign."""
    cache = _cache()
    if cache is None:
        return None
    name = _entry_name(digest, fade, kind)
    try:
        entry = json.loads(cache.path(name).read_bytes())
        width, height, ops = entry["width"], entry["height"], entry["ops"]
        if entry["format"] != FORMAT or entry["name"] != name or entry["code"] != code_digest():
            return None
        if not all(type(v) in (int, float) and v > 0 for v in (width, height)):
            return None
        if not isinstance(ops, list) or not all(isinstance(op, str) for op in ops):
            return None
        version = tuple(entry["version"])
        if not all(type(v) is int for v in version) or entry["check"] != _check(width, height, version, ops):
            return None
    except (OSError, ValueError, KeyError, TypeError):  # missing, unreadable, not JSON, or not ours
        return None
    return IconArt(width, height, digest, tuple(ops), version)


def _check(width: float, height: float, version, ops) -> str:
    """A digest of an entry's contents: a file damaged inside its JSON strings is found too."""
    return hashlib.sha1(repr((width, height, tuple(version), tuple(ops))).encode()).hexdigest()


def write_cached(art: IconArt, fade: float, kind: str) -> None:
    """Keep the icon's operators for later runs (atomically; a cache that cannot be written is left alone)."""
    cache = _cache()
    if cache is None or art.ops is None or not art.keep:
        return
    name = _entry_name(art.digest, fade, kind)
    entry = {
        "format": FORMAT,
        "name": name,
        "code": code_digest(),
        "width": art.width,
        "height": art.height,
        "version": list(art.version),
        "ops": list(art.ops),
        "check": _check(art.width, art.height, art.version, art.ops),
    }
    try:
        atomic_write(cache.path(name), json.dumps(entry, separators=(",", ":")).encode())
    except (OSError, InputError):
        pass


def refers_outside(data: bytes) -> bool:
    """True when an SVG may read something besides itself (another file, a stylesheet, an entity)."""
    return _OUTSIDE.search(data) is not None


def _snapshot(thing) -> dict:
    """An object's attributes, plain values as they are and containers by identity and length."""
    return {
        key: value
        if isinstance(value, (int, float, str, bytes, tuple, type(None)))
        else (id(value), len(value) if hasattr(value, "__len__") else None)
        for key, value in vars(thing).items()
    }


def _state(canvas) -> tuple[dict, dict, int]:
    """What drawing may change in a canvas and its document besides the operator list and the PDF version
    (named graphics states, colours, forms, links, images and fonts all show in these)."""
    canvas_state = _snapshot(canvas)
    canvas_state.pop("_code", None)
    doc_state = _snapshot(canvas._doc)
    doc_state.pop("_pdfVersion", None)
    return canvas_state, doc_state, len(canvas._extgstate._c)


def make_form(canvas, name: str, art: IconArt, draw) -> IconArt:
    """Begin form `name` on the canvas, fill it with the art's operators (or `draw()` it and record what it
    wrote), end it; returns the art, with the recorded operators when they may be replayed."""
    # beginForm/endForm nest safely, so this also works while a card face form is open.
    canvas.beginForm(name, 0, 0, art.width, art.height)
    doc = canvas._doc
    if art.ops is not None:
        canvas._code.extend(art.ops)
        doc._pdfVersion = max(doc._pdfVersion, art.version)  # as the drawing did (ensureMinPdfVersion)
    else:
        start, before, version = len(canvas._code), _state(canvas), doc._pdfVersion
        doc._pdfVersion = (1, 0)  # to learn the least version the drawing needs
        try:
            draw()
        finally:
            needs, doc._pdfVersion = doc._pdfVersion, max(version, doc._pdfVersion)
        # graphics states (opacity) are named per document: operators using them are never replayed
        if art.keep and _state(canvas) == before and not any(" gs" in op for op in canvas._code[start:]):
            art = IconArt(art.width, art.height, art.digest, tuple(canvas._code[start:]), needs)
    end_form(canvas, name)
    return art


def unreadable(path: str) -> InputError:
    """The error for an SVG svglib cannot draw."""
    return InputError(Problem(path, 0, "not a readable SVG icon (svglib found no shapes or no size in it)"))


def file_digest(data: bytes) -> str:
    """The digest of an SVG's bytes that names its form."""
    return hashlib.sha1(data).hexdigest()

