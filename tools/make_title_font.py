"""Make generator/assets/fonts/fredoka/Fredoka-SemiBold.ttf: Fredoka SemiBold (OFL) with the Latin
Extended letters it lacks, so Czech, Polish, Hungarian, Romanian, Turkish, Croatian, the Baltic languages and
the others need no fallback face in a heading.

    python tools/make_title_font.py Fredoka_600SemiBold.ttf \
        generator/assets/fonts/fredoka/Fredoka-SemiBold.ttf

The source is the static semibold face Google Fonts serves (npm @expo-google-fonts/fredoka 0.4.1,
600SemiBold/Fredoka_600SemiBold.ttf). Its own accented letters are composites of a base letter and a combining
mark, placed by the mark-to-base anchors of its GPOS table; the missing ones are made the same way (the caron
of ď ť ľ Ľ is the apostrophe at the stem, as Czech and Slovak print it; the Latvian and Romanian commas below
are the comma, smaller). Nothing is drawn anew, so every letter has the face's own strokes. The glyphs a
letter is built from are in the face; letters without them (ĵ ĸ ŀ ŉ ŋ ħ ŧ ſ) stay with the fallback face.
"""

from __future__ import annotations

import sys
import unicodedata

from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

MARKS = {  # combining character -> the face's glyph for it
    0x300: "gravecomb", 0x301: "acutecomb", 0x302: "uni0302", 0x303: "tildecomb", 0x304: "uni0304",
    0x306: "uni0306", 0x307: "uni0307", 0x308: "uni0308", 0x30A: "uni030A", 0x30B: "uni030B",
    0x30C: "uni030C", 0x327: "uni0327", 0x328: "uni0328", 0x326: "comma",
}
APOSTROPHE_CARON = {"ď", "ť", "ľ", "Ľ"}
COMMA_BELOW = {"Ģ", "Ķ", "ķ", "Ļ", "ļ", "Ņ", "ņ", "Ŗ", "ŗ", "Ș", "ș", "Ț", "ț"}
WANTED = [chr(c) for c in range(0x100, 0x180)] + ["Ș", "ș", "Ț", "ț"]


def anchors(font: TTFont) -> dict[tuple[str, str], tuple[int, int]]:
    """(base glyph, mark glyph) -> the offset that puts the mark's anchor on the base's (GPOS mark-to-base
    positioning)."""
    out = {}
    for lookup in font["GPOS"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)
            if type(table).__name__ != "MarkBasePos":
                continue
            marks = dict(zip(table.MarkCoverage.glyphs, table.MarkArray.MarkRecord, strict=True))
            for base, record in zip(table.BaseCoverage.glyphs, table.BaseArray.BaseRecord, strict=True):
                for mark, mark_record in marks.items():
                    anchor = record.BaseAnchor[mark_record.Class]
                    if anchor is not None:
                        out[(base, mark)] = (anchor.XCoordinate - mark_record.MarkAnchor.XCoordinate,
                                             anchor.YCoordinate - mark_record.MarkAnchor.YCoordinate)
    return out


def main(source: str, target: str) -> None:  # noqa: C901 - one table of letter shapes, read top to bottom
    font = TTFont(source, recalcTimestamp=False)
    glyf, hmtx, cmap = font["glyf"], font["hmtx"], font.getBestCmap()
    placed = anchors(font)
    flags = glyf["Aacute"].components[1].flags  # as the face's own composites are written

    def bounds(name: str) -> tuple[int, int, int, int]:
        glyph = glyf[name]
        glyph.recalcBounds(glyf)
        return glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax

    def add(char: str, parts: list[tuple[str, float, float, float]], advance: int) -> None:
        name = f"uni{ord(char):04X}"
        glyph = Glyph()
        glyph.numberOfContours = -1
        glyph.components = []
        for index, (part, x, y, scale) in enumerate(parts):
            component = GlyphComponent()
            component.glyphName, component.x, component.y = part, round(x), round(y)
            component.flags = (flags | 0x200) if index == 0 else flags  # the first part gives the metrics
            if scale != 1:
                component.transform = [[scale, 0], [0, scale]]
            glyph.components.append(component)
        glyf.glyphs[name] = glyph
        font.getGlyphOrder().append(name)
        glyph.recalcBounds(glyf)
        hmtx[name] = (advance, glyph.xMin)
        for table in font["cmap"].tables:
            if table.isUnicode():
                table.cmap[ord(char)] = name

    def mark_offset(base: str, mark: str) -> tuple[float, float]:
        if (base, mark) in placed:
            return placed[(base, mark)]
        x0, _y0, x1, y1 = bounds(base)
        top = {"uni0328": False}.get(mark, True)
        centre = (x0 + x1) / 2
        if mark == "uni0328":  # ogonek at the bottom right, as the face's ą
            return x1 - bounds(mark)[2] + 10, 0
        if not top:
            return centre, 0
        # the top marks' anchor sits at the x-height (500): raise it to the base's top
        return centre - 250, y1 - 500 + (10 if y1 > 600 else 0)

    made = []
    for char in WANTED:
        if ord(char) in cmap:
            continue
        decomposed = unicodedata.decomposition(char).split()
        if char == "Đ":
            add(char, [("Eth", 0, 0, 1)], hmtx["Eth"][0])
        elif char == "đ":  # the stroke is the macron, narrower, across the ascender
            x0, _y0, x1, _y1 = bounds("d")
            bar = bounds("macron")
            scale = 170 / (bar[2] - bar[0])
            add(char, [("d", 0, 0, 1), ("macron", x1 - 170 - bar[0] * scale, 600 - bar[1] * scale, scale)],
                hmtx["d"][0])
        elif char in ("Ĳ", "ĳ"):
            first, second = ("I", "J") if char == "Ĳ" else ("i", "j")
            add(char, [(first, 0, 0, 1), (second, hmtx[first][0], 0, 1)], hmtx[first][0] + hmtx[second][0])
        elif char in APOSTROPHE_CARON:
            base = {"ď": "d", "ť": "t", "ľ": "l", "Ľ": "L"}[char]
            x0, _y0, x1, y1 = bounds(base)
            quote = bounds("quoteright")
            scale = 0.8
            stem = x1 if base in ("d", "l") else (x0 + x1) / 2 + 60 if base == "t" else x0 + 150
            x = stem + 20 - quote[0] * scale
            y = max(y1, 660) - quote[3] * scale
            add(char, [(base, 0, 0, 1), ("quoteright", x, y, scale)],
                max(hmtx[base][0], round(x + quote[2] * scale + 30)))
        elif len(decomposed) == 2 and not decomposed[0].startswith("<"):
            base_char, mark_code = chr(int(decomposed[0], 16)), int(decomposed[1], 16)
            if ord(base_char) not in cmap or mark_code not in MARKS:
                continue
            base = cmap[ord(base_char)]
            if base_char in "ij" and mark_code not in (0x328,):
                if base_char == "j" or "dotlessi" not in glyf.glyphs:
                    continue
                base = "dotlessi"
            if char == "ģ":  # the Latvian g has its comma above, turned
                x0, _y0, x1, y1 = bounds(base)
                quote = bounds("quoteleft")
                scale = 0.8
                add(char, [(base, 0, 0, 1), ("quoteleft", (x0 + x1) / 2 - (quote[0] + quote[2]) / 2 * scale,
                                                545 - quote[1] * scale, scale)], hmtx[base][0])
            elif char in COMMA_BELOW:
                x0, _y0, x1, _y1 = bounds(base)
                comma = bounds("comma")
                scale = 0.75
                x = (x0 + x1) / 2 - (comma[0] + comma[2]) / 2 * scale
                add(char, [(base, 0, 0, 1), ("comma", x, -45 - comma[3] * scale, scale)], hmtx[base][0])
            else:
                mark = MARKS[mark_code]
                x, y = mark_offset(base, mark)
                if mark == "uni0327":  # the cedilla under the middle, as the face's ç
                    cx0, _c, cx1, _d = bounds(base)
                    mx0, _m, mx1, _n = bounds(mark)
                    x, y = (cx0 + cx1) / 2 - (mx0 + mx1) / 2, 0
                add(char, [(base, 0, 0, 1), (mark, x, y, 1)], hmtx[base][0])
        else:
            continue
        made.append(char)
    font["OS/2"].usWeightClass = 600
    version = font["name"].getDebugName(5)
    for record in font["name"].names:
        if record.nameID == 5:  # says that this file is a modified version (OFL 1.1, condition 5)
            record.string = f"{version}; with Latin Extended composites by pnp-forge"
    font["head"].created = font["head"].modified = 0  # the same file from the same source
    font.save(target)
    print(f"{len(made)} letters added: {''.join(made)}")
    missing = [char for char in WANTED if ord(char) not in font.getBestCmap()]
    print(f"still without: {''.join(missing)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
