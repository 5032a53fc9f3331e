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

SUFFIXES = (".ttf", ".otf", ".woff", ".woff2", ".ttc", ".otc")
# what a font file is by its first bytes, whatever its name says: web fonts and collections are read by
# fontTools and given to ReportLab as a plain TrueType copy
CONTAINERS = {b"wOFF": "WOFF", b"wOF2": "WOFF2", b"ttcf": "font collection"}
SYNTHETIC_VERSION = "1"  # part of a synthesised face's cache name
SLANT = 0.2  # a synthesised italic leans 0.2 em per em of height (some 11 degrees), as obliques usually do
EMBOLDEN = 0.025  # a synthesised bold repeats each outline 2.5 % of an em to the right
CONVERSION_VERSION = "1"  # part of the cache name: a better conversion invalidates old copies
FACTS_VERSION = "2"  # part of a facts entry's name: facts read differently are not mixed with old ones
# OS/2 fsType: the font's licence on embedding (OpenType spec). Bits 0-3 are the usage permission, the least
# restrictive set one applying; 0x0002 alone is "restricted licence embedding" (never embed), 0x0200 "bitmap
# embedding only" (a PDF embeds outlines). Preview & print (0x0004) and editable (0x0008) are fine for a PDF.
FS_RESTRICTED, FS_PREVIEW_PRINT, FS_EDITABLE, FS_BITMAP_ONLY = 0x0002, 0x0004, 0x0008, 0x0200
MAX_CHAR = 0x10FFFF
FONTS = "fonts"  # the group of font files whose digests core.usercache remembers


class FontFileError(ValueError):
    """A file that is not a usable font; the message says why and what was expected."""


@dataclass(frozen=True)
class FontInfo:
    """What the checks and the fallback need to know about one face."""

    path: Path
    label: str          # 'Fredoka SemiBold', 'Lato Bold'
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


def container(path: Path) -> str | None:
    """'WOFF', 'WOFF2' or 'font collection' when the file is one (by its first bytes), None for a plain
    TrueType or OpenType file (or one that cannot be read: reading it says why)."""
    try:
        with open(path, "rb") as file:
            return CONTAINERS.get(file.read(4))
    except OSError:
        return None


@functools.lru_cache(maxsize=64)
def _inspect(path: str, _mtime_ns: int, _size: int, index: int = 0) -> FontInfo:
    file = Path(path)
    if file.suffix.lower() not in SUFFIXES:
        raise FontFileError(f"'{file.name}' is not a font file pnp reads; expected a TrueType or OpenType "
                            "font (.ttf, .otf, .woff, .woff2, or a .ttc collection)")
    try:
        digest = file_digest(file, FONTS)
    except OSError:  # unreadable: reading it below says so, in the words of every other font problem
        return _read(file, index)
    entry = f"fonts/{digest}{f'-{index}' if index else ''}-v{FACTS_VERSION}.json"
    info = _from_facts(file, digest, read_json(entry))
    if info is None:
        # a problem is raised here, never cached: the next run reads the file and says it again
        info = _read(file, index)
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


def _open(file: Path, index: int = 0, lazy: bool | None = None):
    """The face of a font file (face `index` of a collection) as fontTools reads it; FontFileError when the
    file is not what its first bytes or its name say (a WOFF2 that is not one, a collection without that
    face)."""
    from fontTools.ttLib import TTCollection, TTFont, TTLibError

    pointer = lfs_pointer(file)
    if pointer:
        raise FontFileError(pointer)
    kind = container(file)
    named = file.suffix.lower().lstrip(".").upper()
    what = kind or ("font" if named in ("TTF", "OTF") else named)
    try:
        if kind == "font collection":
            faces = len(TTCollection(str(file), lazy=True).fonts)
            if not 0 <= index < faces:
                raise FontFileError(f"'{file.name}' is a font collection of {faces} face"
                                    f"{'s' if faces != 1 else ''}, which has no face {index}; expected "
                                    f"'{file.name}#<0 to {faces - 1}>'")
        elif index:
            raise FontFileError(f"'{file.name}' is not a font collection, so it has no face {index}; "
                                f"expected '{file.name}' without '#{index}'")
        return TTFont(str(file), lazy=lazy, fontNumber=index)
    except FontFileError:
        raise
    except ImportError as exc:  # WOFF2 needs brotli (a dependency of pnp)
        raise FontFileError(f"'{file.name}' is a WOFF2 font, which needs the brotli package to read "
                            f"({exc}); expected brotli installed (pip install brotli)") from None
    except (TTLibError, KeyError, AssertionError, OSError, ValueError, IndexError, EOFError) as exc:
        if what == "font":  # a plain font: said as every other unreadable font (_read)
            raise
        raise _unreadable(file, what, exc) from None
    except Exception as exc:  # the decompressor's own error (brotli.error) on a damaged web font
        if kind not in ("WOFF", "WOFF2"):
            raise
        raise _unreadable(file, what, exc) from None


def _unreadable(file: Path, what: str, exc: Exception) -> FontFileError:
    return FontFileError(
        f"'{file.name}' is not a readable {what} ({type(exc).__name__}: {exc}); expected a TrueType "
        "(.ttf) or OpenType (.otf) font, or one of them as .woff, .woff2 or a .ttc collection"
    )


def _read(file: Path, index: int = 0) -> FontInfo:
    """The facts of a font file as fontTools reads them; FontFileError says what is wrong with it."""
    from fontTools.ttLib import TTLibError

    try:
        font = _open(file, index, lazy=True)
        cmap = font["cmap"].getBestCmap() or {}
        names = font["name"]
        family = names.getDebugName(16) or names.getDebugName(1) or file.stem
        style = names.getDebugName(17) or names.getDebugName(2) or ""
        weight = font["OS/2"].usWeightClass if "OS/2" in font else 400
        fs_type = int(getattr(font["OS/2"], "fsType", 0)) if "OS/2" in font else 0
        cff = "CFF " in font or "CFF2" in font
        if not cff and "glyf" not in font:
            raise FontFileError(f"'{file.name}' has no outlines ReportLab can embed (no glyf or CFF table); "
                                "expected a TrueType or OpenType font")
    except FontFileError:
        raise
    except (TTLibError, KeyError, AssertionError, OSError, ValueError, IndexError, EOFError) as exc:
        raise FontFileError(
            f"'{file.name}' is not a font ({type(exc).__name__}: {exc}); expected a TrueType (.ttf) "
            "or OpenType (.otf) font"
        ) from None
    if not cmap:
        raise FontFileError(f"'{file.name}' maps no characters (empty cmap); expected a font for text")
    forbidden = embedding_refusal(fs_type)
    if forbidden:  # never cached: every run reads the file again and says it again
        raise FontFileError(f"'{file.name}' forbids embedding in documents (OS/2 fsType 0x{fs_type:04X}: "
                            f"{forbidden}); expected a font whose licence allows embedding (installable, "
                            "preview & print or editable), e.g. one under the SIL Open Font License")
    label = family if style.lower() in ("", "regular") else f"{family} {style}"
    return FontInfo(file, label, int(weight), cff, frozenset(cmap))


def embedding_refusal(fs_type: int) -> str:
    """Why a font's OS/2 fsType forbids embedding it in a PDF ('' when it allows it)."""
    usage = fs_type & 0x000F
    if usage & FS_RESTRICTED and not usage & (FS_PREVIEW_PRINT | FS_EDITABLE):
        return "restricted licence embedding"
    if fs_type & FS_BITMAP_ONLY:
        return "bitmap embedding only"
    return ""


def inspect_font(path: Path, index: int = 0) -> FontInfo:
    """Name, weight, outline kind and characters of a font file, face `index` of a collection (read once per
    file version)."""
    stat = Path(path).stat()
    return _inspect(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size, index)


def truetype_copy(path: Path, cache_dir: Path, index: int = 0) -> Path:
    """A TrueType file with the same glyphs: `path` itself when it is a plain font with TrueType outlines,
    else a copy in `cache_dir` (made once per file content): CFF outlines converted, a WOFF or WOFF2 font
    unpacked, face `index` taken out of a collection; by its first bytes, whatever its name says."""
    info = inspect_font(path, index)
    kind = container(Path(path))
    if not info.cff and kind is None:
        return Path(path)
    tail = f"-{index}" if kind == "font collection" else ""
    target = Path(cache_dir) / f"{sha256(path)[:24]}{tail}-v{CONVERSION_VERSION}.ttf"
    # The copy's own SHA-256 is kept beside it: a copy damaged since (a cut write, a disk error, an edit) is
    # made again from the designer's font, never blamed on it.
    check = target.with_suffix(".sha256")
    try:
        intact = target.is_file() and check.read_text(encoding="ascii").strip() == file_digest(target, FONTS)
    except (OSError, UnicodeDecodeError):
        intact = False
    if not intact:
        atomic_write(target, lambda tmp: _convert(Path(path), tmp, index))
        atomic_write(check, file_digest(target, FONTS) + "\n")
    return target


def _convert(source: Path, target: Path, index: int) -> None:
    """The plain TrueType copy of a face; FontFileError when its CFF outlines cannot be read (a damaged
    font)."""
    import struct

    from fontTools.ttLib import TTLibError

    try:
        _redraw_as_truetype(source, target, index)
    except (TTLibError, struct.error, KeyError, IndexError, ValueError, TypeError, AssertionError,
            AttributeError, EOFError, OverflowError, ZeroDivisionError, RecursionError) as exc:
        raise FontFileError(
            f"'{source.name}' has CFF outlines that cannot be read ({type(exc).__name__}: {exc}); expected "
            "an undamaged OpenType font (open it in a font editor and export it again)"
        ) from None


def _redraw_as_truetype(source: Path, target: Path, index: int) -> None:
    """Save the face as a plain TrueType font: unpacked from WOFF/WOFF2 or a collection, CFF glyphs redrawn as
    TrueType quadratic outlines with glyf/loca tables."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    font = _open(source, index)
    font.flavor = None  # written as a plain font, not WOFF again
    if "CFF " not in font and "CFF2" not in font:
        font.save(str(target))
        return
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


def synthetic_copy(path: Path, cache_dir: Path, slant: bool, embolden: bool) -> Path:
    """A TrueType face made from the TrueType face at `path` for a style its family lacks: every outline
    leaning right (`slant`, an oblique for italic) and/or struck twice side by side (`embolden`, bold), its
    advances widened to match; made once per file content in `cache_dir`."""
    kinds = ("oblique" if slant else "") + ("bold" if embolden else "")
    target = Path(cache_dir) / f"{sha256(path)[:24]}-{kinds}-s{SYNTHETIC_VERSION}.ttf"
    if not target.is_file():
        atomic_write(target, lambda tmp: _synthesise(Path(path), tmp, slant, embolden))
    return target


# tables that describe the original outlines pixel by pixel or by variation: wrong for the new ones
_STALE_TABLES = ("hdmx", "LTSH", "VDMX", "fpgm", "prep", "cvt ", "gasp", "gvar", "cvar", "HVAR", "MVAR",
                 "VVAR", "fvar", "avar", "STAT")


def _synthesise(source: Path, target: Path, slant: bool, embolden: bool) -> None:
    from fontTools.pens.recordingPen import DecomposingRecordingPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont

    font = TTFont(str(source))
    glyph_set = font.getGlyphSet()
    shift = round(EMBOLDEN * font["head"].unitsPerEm) if embolden else 0
    skew = SLANT if slant else 0.0
    glyphs = {}
    for name in font.getGlyphOrder():
        recorded = DecomposingRecordingPen(glyph_set)
        glyph_set[name].draw(recorded)
        pen = TTGlyphPen(None)
        for dx in ((0, shift) if shift else (0,)):
            recorded.replay(TransformPen(pen, (1, 0, skew, 1, dx, 0)))
        glyphs[name] = pen.glyph()
    glyf = font["glyf"]
    for name, glyph in glyphs.items():
        glyf[name] = glyph
    metrics = font["hmtx"].metrics
    for name, (advance, _left) in list(metrics.items()):
        glyph = glyf[name]
        glyph.recalcBounds(glyf)
        metrics[name] = (advance + shift if advance else advance, getattr(glyph, "xMin", 0))
    for tag in _STALE_TABLES:
        if tag in font:
            del font[tag]
    if slant and "post" in font:
        font["post"].italicAngle = -11.3
    font.save(str(target))
