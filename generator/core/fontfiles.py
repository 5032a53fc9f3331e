"""Font files as fontTools reads them: what a face is called, how heavy it is, which characters it has, and a
TrueType copy of a CFF-flavoured OpenType face (ReportLab embeds TrueType outlines only).

The conversion (cubic CFF curves to quadratic TrueType curves) is done once per file content and cached under a
name that is the file's SHA-256, so a second build reads the cached copy.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path

from fontTools.ttLib import TTFont, TTLibError, newTable

from generator.core.write import atomic_write

SUFFIXES = (".ttf", ".otf")
CONVERSION_VERSION = "1"  # part of the cache name: a better conversion invalidates old copies


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
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@functools.lru_cache(maxsize=64)
def _inspect(path: str, _mtime_ns: int, _size: int) -> FontInfo:
    file = Path(path)
    if file.suffix.lower() not in SUFFIXES:
        raise FontFileError(f"'{file.name}' is not a .ttf or .otf file; expected a TrueType or OpenType font "
                            "(.woff, .woff2 and .ttc collections are not supported: convert them first)")
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
        raise FontFileError(f"'{file.name}' is not a font ({type(exc).__name__}: {exc}); expected a TrueType (.ttf) "
                            "or OpenType (.otf) font") from None
    if not cmap:
        raise FontFileError(f"'{file.name}' maps no characters (empty cmap); expected a font for text")
    label = family if style.lower() in ("", "regular") else f"{family} {style}"
    return FontInfo(file, label, int(weight), cff, frozenset(cmap))


def inspect_font(path: Path) -> FontInfo:
    """Name, weight, outline kind and characters of a font file (read once per file version)."""
    stat = Path(path).stat()
    return _inspect(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


def truetype_copy(path: Path, cache_dir: Path) -> Path:
    """A TrueType file with the same glyphs: `path` itself when it has TrueType outlines, else a converted copy in
    `cache_dir` (made once per file content)."""
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
