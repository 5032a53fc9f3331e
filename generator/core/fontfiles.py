"""Font files as fontTools reads them: what a face is called, how heavy it is, which characters it has, and a
TrueType copy of a CFF-flavoured OpenType face (ReportLab embeds TrueType outlines only).

The conversion (cubic CFF curves to quadratic TrueType curves) is done once per file content and cached under
a name that is the file's SHA-256, so a second build reads the cached copy. A face's facts (name, weight,
outline kind, characters) are read by fontTools once per file content too and kept in pnp's per-user cache
(core.usercache) under the file's SHA-256: later runs read them back without importing fontTools or reading
the font's tables.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from generator.core.lfs import lfs_pointer
from generator.core.usercache import file_digest, read_json, write_json
from generator.core.write import atomic_write

SUFFIXES = (".ttf", ".otf")
CONVERSION_VERSION = "1"  # part of the cache name: a better conversion invalidates old copies
FACTS_VERSION = "1"  # part of a facts entry's name: facts read differently are not mixed with old ones
MAX_CHAR = 0x10FFFF
FONTS = "fonts"  # the group of font files whose digests core.usercache remembers


class FontFileError(ValueError):
    """A file that is not a usable font; the message says why and what was expected."""


@dataclass(frozen=True)
class FontInfo:
    """What the checks and the fallback need to know about one face."""

    path: Path
    label: str          # 'Fredoka One', 'Lato Bold'
    weight: int         # OS/2 weight class: 400 regular, 700 bold
    cff: bool           # CFF outlines: ReportLab needs a TrueType copy
    characters: frozenset[int]

    @property
    def heavy(self) -> bool:
        """Semi-bold or heavier: its fallback is the bold wide face."""
        return self.weight >= 600


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (not read again while its stamp is the one remembered:
    core.usercache)."""
    return file_digest(Path(path), FONTS)


@functools.lru_cache(maxsize=64)
def _inspect(path: str, _mtime_ns: int, _size: int) -> FontInfo:
    file = Path(path)
    if file.suffix.lower() not in SUFFIXES:
        raise FontFileError(f"'{file.name}' is not a .ttf or .otf file; expected a TrueType or OpenType font "
                            "(.woff, .woff2 and .ttc collections are not supported: convert them first)")
    try:
        digest = file_digest(file, FONTS)
    except OSError:  # unreadable: reading it below says so, in the words of every other font problem
        return _read(file)
    entry = f"fonts/{digest}-v{FACTS_VERSION}.json"
    info = _from_facts(file, digest, read_json(entry))
    if info is None:
        # a problem is raised here, never cached: the next run reads the file and says it again
        info = _read(file)
        write_json(entry, _facts(info, digest))
    return info


def _facts(info: FontInfo, digest: str) -> dict:
    """A face's facts as kept in the cache; the characters as [first, last] runs of code points."""
    runs: list[list[int]] = []
    for code in sorted(info.characters):
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return {"sha256": digest, "label": info.label, "weight": info.weight, "cff": info.cff, "characters": runs}


def _from_facts(file: Path, digest: str, facts) -> FontInfo | None:
    """The FontInfo of cached facts, or None when they are missing, of another file or not of the expected
    shape."""
    try:
        if not isinstance(facts, dict) or facts.get("sha256") != digest:
            return None
        label, weight, cff, runs = facts["label"], facts["weight"], facts["cff"], facts["characters"]
        if not (
            isinstance(label, str)
            and type(weight) is int
            and type(cff) is bool
            and isinstance(runs, list)
            and runs
        ):
            return None
        characters: set[int] = set()
        for first, last in runs:
            if not (type(first) is int and type(last) is int and 0 <= first <= last <= MAX_CHAR):
                return None
            characters.update(range(first, last + 1))
    except (KeyError, TypeError, ValueError):  # a run that is not a pair, a missing key
        return None
    return FontInfo(file, label, weight, cff, frozenset(characters))


def _read(file: Path) -> FontInfo:
    """The facts of a font file as fontTools reads them; FontFileError says what is wrong with it."""
    from fontTools.ttLib import TTFont, TTLibError

    path = str(file)
    pointer = lfs_pointer(file)
    if pointer:
        raise FontFileError(pointer)
    try:
        font = TTFont(path, lazy=True, fontNumber=0)
        cmap = font["cmap"].getBestCmap() or {}
        names = font["name"]
        family = names.getDebugName(16) or names.getDebugName(1) or file.stem
        style = names.getDebugName(17) or names.getDebugName(2) or ""
        weight = font["OS/2"].usWeightClass if "OS/2" in font else 400
        cff = "CFF " in font or "CFF2" in font
        if not cff and "glyf" not in font:
            raise FontFileError(f"'{file.name}' has no outlines ReportLab can embed (no glyf or CFF table); "
                                "expected a TrueType or OpenType font")
    except FontFileError:
        raise
    except (TTLibError, KeyError, AssertionError, OSError, ValueError, IndexError) as exc:
        raise FontFileError(
            f"'{file.name}' is not a font ({type(exc).__name__}: {exc}); expected a TrueType (.ttf) "
            "or OpenType (.otf) font"
        ) from None
    if not cmap:
        raise FontFileError(f"'{file.name}' maps no characters (empty cmap); expected a font for text")
    label = family if style.lower() in ("", "regular") else f"{family} {style}"
    return FontInfo(file, label, int(weight), cff, frozenset(cmap))


def inspect_font(path: Path) -> FontInfo:
    """Name, weight, outline kind and characters of a font file (read once per file version)."""
    stat = Path(path).stat()
    return _inspect(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


def truetype_copy(path: Path, cache_dir: Path) -> Path:
    """A TrueType file with the same glyphs: `path` itself when it has TrueType outlines, else a converted
    copy in `cache_dir` (made once per file content)."""
    info = inspect_font(path)
    if not info.cff:
        return Path(path)
    target = Path(cache_dir) / f"{sha256(path)[:24]}-v{CONVERSION_VERSION}.ttf"
    if not target.is_file():
        atomic_write(target, lambda tmp: _convert_cff(Path(path), tmp))
    return target


def _convert_cff(source: Path, target: Path) -> None:
    """Redraw every CFF glyph as TrueType quadratic outlines and save the font with glyf/loca tables."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(str(source))
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        # CFF contours run counter-clockwise, TrueType clockwise: reverse while converting
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    font["loca"] = newTable("loca")
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for key in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, key, 1 if key == "maxZones" else 0)
    font["head"].glyphDataFormat = 0
    if "post" in font:
        font["post"].formatType = 2.0
        font["post"].extraNames = []
        font["post"].mapping = {}
    font.sfntVersion = "\x00\x01\x00\x00"
    font.save(str(target))
