"""Embedded TrueType faces, font families with per-character fallback, and the check that no character is
lost.

Built in (OFL, in generator/assets/fonts with their licences): `title` (Fredoka SemiBold) and `body` (Lato
2.0, four styles), which cover Latin Extended (the European languages in the Latin script), plus Noto Sans
(Greek and Cyrillic too). A character a family's own face lacks is drawn in the first fallback face that has
it, in the matching style: Noto Sans Bold behind Fredoka and other heavy faces, Noto Sans behind Lato and
other text faces (a designer may name fallbacks of their own first). Text that needs no fallback is drawn
exactly as before, so PDFs that need none stay byte-identical. A character that no face of the chain has is
reported by `uncovered` before anything is drawn; nothing is ever dropped silently.

`uncovered(text, family)` (with `markup=True` for Paragraph markup) and `cannot_draw(...)` are the reusable
check: text and a family in, missing characters (and a message naming font, faces and characters) out.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

# ReportLab's font machinery and fontTools are imported where faces are registered, measured or inspected: the
# incremental build hashes font_files() without loading either.
if TYPE_CHECKING:
    from generator.core.fontfiles import FontInfo

TITLE = "Title"  # Fredoka SemiBold
BODY = "Body"  # Lato Regular
BODY_BOLD = "Body-Bold"
BODY_ITALIC = "Body-Italic"
BODY_BOLD_ITALIC = "Body-BoldItalic"
STYLES = ("regular", "bold", "italic", "bold_italic")

FONTS = Path(__file__).resolve().parent.parent / "assets" / "fonts"  # each face with its licence
NOTO = FONTS  # the Noto Sans fallback faces, at the top of the folder
_LATO = FONTS / "lato"  # Lato 2.0 as its authors ship it (the licence reserves the name for unmodified files)
_FILES = {
    # Fredoka SemiBold (the weight of the former Fredoka One) with Latin Extended added (fredoka/README.md)
    TITLE: FONTS / "fredoka" / "Fredoka-SemiBold.ttf",
    BODY: _LATO / "Lato-Regular.ttf",
    BODY_BOLD: _LATO / "Lato-Bold.ttf",
    BODY_ITALIC: _LATO / "Lato-Italic.ttf",
    BODY_BOLD_ITALIC: _LATO / "Lato-BoldItalic.ttf",
    "Fallback": NOTO / "NotoSans-Regular.ttf",
    "Fallback-Bold": NOTO / "NotoSans-Bold.ttf",
    "Fallback-Italic": NOTO / "NotoSans-Italic.ttf",
    "Fallback-BoldItalic": NOTO / "NotoSans-BoldItalic.ttf",
    # the bold faces again under other names: the fallback of heavy faces maps every style to bold
    "FallbackHeavy": NOTO / "NotoSans-Bold.ttf",
    "FallbackHeavy-Italic": NOTO / "NotoSans-BoldItalic.ttf",
}


def style_of(bold: bool, italic: bool) -> str:
    """'regular', 'bold', 'italic' or 'bold_italic'."""
    return ("bold_" if bold else "") + "italic" if italic else ("bold" if bold else "regular")


@dataclass(frozen=True)
class Face:
    """One font file registered with ReportLab under `name`. A designer's face has a `tag` (a hash of the
    file) that is added to the PostScript name it is embedded under: ReportLab keeps one font per PostScript
    name, so two different files both called 'MyFont-Regular' would otherwise draw with whichever was
    registered first."""

    name: str
    path: Path
    tag: str = ""

    @functools.cached_property
    def info(self) -> FontInfo:
        """Name, weight and characters of the file (read once per Face: a game's faces are made when it
        loads)."""
        from generator.core.fontfiles import inspect_font

        return inspect_font(self.path)

    @functools.cached_property
    def characters(self) -> frozenset[int]:
        return self.info.characters

    @functools.cached_property
    def text(self) -> frozenset[str]:
        """`characters` as characters: a string made of these is drawn by this face alone (checked in one
        step)."""
        return frozenset(map(chr, self.characters))

    def covers(self, char: str) -> bool:
        """True when the face has a glyph for the character."""
        return ord(char) in self.characters


@dataclass(eq=False)
class Family:
    """A font as a layout names it (`title`, `body`, a declared name): a face per style it has, and the
    families whose faces draw what its own faces lack."""

    key: str
    faces: dict[str, Face]
    fallbacks: list[Family] = field(default_factory=list)
    # (signature of the fallbacks, the fallback chain, (char, style) -> the family drawing it)
    _chain: tuple = field(default=(None, [], {}), init=False, repr=False)

    @property
    def name(self) -> str:
        """The ReportLab name of the family (its regular face); <b> and <i> in markup pick the other faces."""
        return self.faces["regular"].name

    def face(self, style: str = "regular") -> Face:
        """The face of a style (the regular face when the family has no such style)."""
        return self.faces.get(style) or self.faces["regular"]

    def chain(self, style: str = "regular") -> list[Face]:
        """The faces tried for a character, own face first."""
        faces = [self.face(style)]
        for family in self._fallback_families():
            faces.append(family.face(style))
        return faces

    def _fallback_families(self) -> list[Family]:
        signature = self._signature()
        if self._chain[0] != signature:  # worked out once (again only if a fallback was added since)
            seen, out, todo = {id(self)}, [], list(self.fallbacks)
            while todo:
                family = todo.pop(0)
                if id(family) not in seen:
                    seen.add(id(family))
                    out.append(family)
                    todo.extend(family.fallbacks)
            self._chain = (signature, out, {})
        return self._chain[1]

    def _signature(self) -> tuple:
        """The fallbacks as they are now, to notice one added after the chain was worked out."""
        return tuple((id(family), len(family.fallbacks)) for family in self.fallbacks)

    @functools.cached_property
    def own_characters(self) -> frozenset[int]:
        """The characters every style of the family's own faces has: text made of these needs no fallback (the
        quick answer of `uncovered` and `fallback_markup` for almost every text)."""
        return frozenset.intersection(*(self.face(style).characters for style in STYLES))

    @functools.cached_property
    def own_text(self) -> frozenset[str]:
        """`own_characters` as characters: a text's set of characters is checked against it in one step."""
        return frozenset(map(chr, self.own_characters))

    def draws_all(self, chars) -> bool:
        """True when the family's own faces draw every drawn character of `chars` in every style."""
        if self.own_text.issuperset(chars):  # almost every text: all of it in the family's own faces
            return True
        own = self.own_characters
        return all(ord(char) in own or not _drawn(char) for char in chars)

    def chain_draws(self, chars) -> bool:
        """True when some face of the chain draws each drawn character of `chars` in every style (a text of a
        language the family's own faces lack is checked character by character only when one is lost)."""
        return all(not _drawn(char) or all(self.drawing_family(char, style) is not None for style in STYLES)
                   for char in chars)

    def drawing_family(self, char: str, style: str) -> Family | None:
        """The family whose face draws `char` in `style` (self first), or None when none can (remembered per
        character and style: the tool's words and every card text ask about the same letters)."""
        chain = self._fallback_families()
        known = self._chain[2]
        key = (char, style)
        if key not in known:
            known[key] = next((family for family in [self, *chain] if family.face(style).covers(char)), None)
        return known[key]

    def describe(self) -> str:
        """"font 'title' (Fredoka SemiBold, then Noto Sans Bold)" for messages."""
        labels = list(dict.fromkeys(face.info.label for face in [self.face()] + self.chain()[1:]))
        return f"font '{self.key}' ({labels[0]}{', then ' + ', '.join(labels[1:]) if labels[1:] else ''})"


# --- the built-in families
# --------------------------------------------------------------------------------------

def _face(name: str) -> Face:
    return Face(name, _FILES[name])


FALLBACK = Family(
    "Noto Sans",
    {
        "regular": _face("Fallback"),
        "bold": _face("Fallback-Bold"),
        "italic": _face("Fallback-Italic"),
        "bold_italic": _face("Fallback-BoldItalic"),
    },
)
HEAVY_FALLBACK = Family("Noto Sans Bold", {"regular": _face("FallbackHeavy"), "bold": _face("FallbackHeavy"),
                                           "italic": _face("FallbackHeavy-Italic"),
                                           "bold_italic": _face("FallbackHeavy-Italic")})
TITLE_FAMILY = Family("title", dict.fromkeys(STYLES, _face(TITLE)), [HEAVY_FALLBACK])
BODY_FAMILY = Family("body", {"regular": _face(BODY), "bold": _face(BODY_BOLD), "italic": _face(BODY_ITALIC),
                              "bold_italic": _face(BODY_BOLD_ITALIC)}, [FALLBACK])


def fallback_for(info: FontInfo) -> Family:
    """The built-in fallback of a face: Noto Sans Bold behind heavy faces, Noto Sans behind the others."""
    return HEAVY_FALLBACK if info.heavy else FALLBACK


@dataclass(eq=False)
class FontTable:
    """The fonts of one game by the names layouts use: `title` and `body` (built in unless redefined) and
    every font game.yaml declares."""

    families: dict[str, Family] = field(default_factory=lambda: {"title": TITLE_FAMILY, "body": BODY_FAMILY})

    def get(self, key: str) -> Family | None:
        return self.families.get(key)

    def __getitem__(self, key: str) -> Family:
        return self.families[key]

    @property
    def names(self) -> list[str]:
        return list(self.families)


BUILT_IN = FontTable()

# ReportLab face name -> (family, style), for drawing single strings with fallback (`draw_string`).
_FAMILY_OF: dict[str, tuple[Family, str]] = {}
_REGISTERED: set[str] = set()


def register_family(family: Family) -> Family:
    """Register the family's faces with ReportLab once; <b>/<i> map to its styles. Its fallbacks' faces are
    mapped too, and registered when a text first needs one of them (`_needed`): most texts need none, and each
    face is a file ReportLab reads whole."""
    from reportlab.lib.fonts import addMapping

    _register_faces(family)
    for member in [family, *family._fallback_families()]:  # noqa: SLF001 - same module
        if _FAMILY_OF.get(member.name, (None,))[0] is not member:
            for style in STYLES:
                addMapping(member.name, 1 if "bold" in style else 0, 1 if "italic" in style else 0,
                           member.face(style).name)
            for style in reversed(STYLES):  # a face used for several styles answers for the regular one
                _FAMILY_OF[member.face(style).name] = (member, style)
    return family


def _register_faces(member: Family) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for face in dict.fromkeys(member.faces.values()):
        if face.name not in _REGISTERED:
            font = TTFont(face.name, str(face.path))
            if face.tag:
                font.face.name = font.face.name.__class__(font.face.name + b"-" + face.tag.encode())
            pdfmetrics.registerFont(font)
            _REGISTERED.add(face.name)


def _needed(face_name: str) -> str:
    """The face name, its family registered with ReportLab (a fallback face is registered on first use)."""
    if face_name not in _REGISTERED:
        found = _FAMILY_OF.get(face_name)
        if found is not None:
            _register_faces(found[0])
    return face_name


@functools.cache
def register_fonts() -> tuple[str, ...]:
    """Register the built-in faces with ReportLab once (subset-embedded on use); returns their names."""
    register_family(TITLE_FAMILY)
    register_family(BODY_FAMILY)
    return tuple(_FILES)


def font_files() -> dict[str, Path]:
    """Built-in font name -> TTF path (for input hashing of incremental builds)."""
    return dict(_FILES)


# --- which characters a family can draw
# -------------------------------------------------------------------------

_TOKEN = re.compile(r"(<[^>]*>)|(&#?[A-Za-z0-9]+;)|(.)", re.S)
_TAGS = re.compile(r"<[^>]*>")
_STYLE_TAG = re.compile(r"<\s*/?\s*(b|strong|i|em)(?![A-Za-z])", re.I)
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
_TAG_NAME = re.compile(r"<\s*(/?)\s*([A-Za-z]+)")


def _drawn(char: str) -> bool:
    """Characters that are drawn (control characters such as new lines are layout, not glyphs)."""
    return unicodedata.category(char) != "Cc"


def markup_units(markup: str, base_style: str = "regular") -> Iterator[tuple[str, str, str]]:
    """(kind, raw, char-or-style) over Paragraph markup: ('tag', raw, ''), or ('char', raw, style) with `raw`
    the character or entity as written; the style follows <b>/<strong> and <i>/<em> nesting (from
    `base_style`, the style of the paragraph's own face)."""
    bold, italic = int("bold" in base_style), int("italic" in base_style)
    for match in _TOKEN.finditer(markup):
        tag, entity, char = match.groups()
        if tag is not None:
            bold, italic = _nested(tag, bold, italic)
            yield "tag", tag, ""
        else:
            yield "char", entity or char, style_of(bool(bold), bool(italic))


def _nested(tag: str, bold: int, italic: int) -> tuple[int, int]:
    """The bold and italic nesting depths after a tag (<b>/<strong> and <i>/<em> open and close them)."""
    name = _TAG_NAME.match(tag)
    if name and not tag.rstrip().endswith("/>"):
        closing, word = name.group(1) == "/", name.group(2).lower()
        step = -1 if closing else 1
        if word in ("b", "strong"):
            bold = max(0, bold + step)
        elif word in ("i", "em"):
            italic = max(0, italic + step)
    return bold, italic


def _char(raw: str) -> str:
    return html.unescape(raw) if raw.startswith("&") and raw.endswith(";") else raw


def _markup_chars(markup: str) -> frozenset[str]:
    """The characters of markup's text, as `markup_units` reads them (tags skipped, entities read); the last
    markup's are kept (a text box asks three times: the characters check, the fallback letters and markup)."""
    if _LAST_CHARS[0] == markup:
        return _LAST_CHARS[1]
    text = _TAGS.sub("", markup)
    if "&" in text:
        text = _ENTITY.sub(lambda match: _char(match.group()), text)
    _LAST_CHARS[:] = [markup, frozenset(text)]
    return _LAST_CHARS[1]


_LAST_CHARS: list = [None, frozenset()]  # (markup, its characters) of the last `_markup_chars`


def uncovered(
    text: str, family: Family, style: str = "regular", markup: bool = False
) -> list[tuple[str, str]]:
    """The (character, style) pairs of `text` that no face of the family's chain can draw, each once, in order
    of appearance. With markup=True the text is Paragraph markup: tags are skipped, entities read, and <b>/<i>
    choose the style."""
    chars = _markup_chars(text) if markup else set(text)
    if family.draws_all(chars) or family.chain_draws(chars - family.own_text):
        return []  # the fallbacks draw the few characters the family's own faces lack, in every style
    missing: dict[tuple[str, str], None] = {}
    units = markup_units(text) if markup else (("char", c, style) for c in text)
    for kind, raw, unit_style in units:
        if kind != "char":
            continue
        for char in _char(raw):
            if (
                _drawn(char)
                and (char, unit_style) not in missing
                and family.drawing_family(char, unit_style) is None
            ):
                missing[(char, unit_style)] = None
    return list(missing)


def fallback_letters(markup: str, family: Family) -> dict[str, list[str]]:
    """The letters of Paragraph markup that a fallback face draws (the family's own face lacks them in their
    style), by the label of that face ('Noto Sans Bold': ['Д', 'р']), each letter once in order; empty for
    almost every text (one set check)."""
    if family.draws_all(_markup_chars(markup)):
        return {}
    found: dict[str, dict[str, None]] = {}
    for kind, raw, style in markup_units(markup):
        char = _char(raw)[:1] if kind == "char" else ""
        # a format character (a zero-width space, a direction mark) shows nothing in any face: the data check
        # warns about it as invisible, never as a letter of another typeface
        shows = char and _drawn(char) and unicodedata.category(char) != "Cf"
        if shows and not family.face(style).covers(char):
            owner = family.drawing_family(char, style)
            if owner is not None and owner is not family:
                found.setdefault(owner.face(style).info.label, {})[char] = None
    return {label: list(chars) for label, chars in found.items()}


def styles_used(markup: str) -> set[str]:
    """The styles the text of some markup is set in (for a family that lacks one of them)."""
    if not _STYLE_TAG.search(markup):  # no bold or italic: regular, when there is any text at all
        return {"regular"} if _TAGS.sub("", markup).strip() else set()
    # the text between two tags is set in one style: it counts when it has anything but white space (as
    # `markup_units` reads it: the tags are the same matches, an entity is never white space)
    styles, bold, italic, start = set(), 0, 0, 0
    for match in _TAGS.finditer(markup):
        if markup[start:match.start()].strip():
            styles.add(style_of(bool(bold), bool(italic)))
        bold, italic = _nested(match.group(), bold, italic)
        start = match.end()
    if markup[start:].strip():
        styles.add(style_of(bool(bold), bool(italic)))
    return styles


def show_char(char: str) -> str:
    """"'Д' (U+0414)"."""
    return f"'{char}' (U+{ord(char):04X})"


def cannot_draw(chars: list[str], family: Family, what: str = "", language: str | None = None) -> str:
    """The message for characters no face of a family draws: "<what> has 'Д' (U+0414), which font 'title'
    (Fredoka SemiBold, then Noto Sans Bold) cannot draw; expected a font that covers it (declare one under
    fonts:)". `language` (e.g. 'Russian') is named when given, for translations."""
    chars = list(dict.fromkeys(chars))
    shown = ", ".join(show_char(c) for c in chars[:4]) + (
        f" and {len(chars) - 4} more" if len(chars) > 4 else ""
    )
    lead = f"{what} has " if what else ""
    them = "them" if len(chars) > 1 else "it"
    covering = f"a font that covers {them}" + (f" for {language}" if language else "")
    return (f"{lead}{shown}, which {family.describe()} cannot draw; expected {covering} "
            "(declare one under fonts: in game.yaml and name it in the box, or as a fallback)")


# --- drawing with fallback
# --------------------------------------------------------------------------------------

def fallback_for_face(markup: str, font_name: str) -> str:
    """`fallback_markup` for a paragraph whose style is set in the registered face `font_name`."""
    found = _FAMILY_OF.get(font_name)
    return fallback_markup(markup, found[0], found[1]) if found else markup


def fallback_markup(markup: str, family: Family, base_style: str = "regular") -> str:
    """Paragraph markup with every run of characters the family's own face lacks wrapped in <font name="...">
    of the fallback face that has them, in the run's style (ReportLab reads bold and italic from the face a
    <font> names). Markup that needs no fallback is returned as it is."""
    if family.draws_all(_markup_chars(markup)):
        return markup
    units = list(markup_units(markup, base_style))
    needs = False
    chosen: list[str | None] = []
    lost: list[str] = []
    for kind, raw, style in units:
        owner = None
        if kind == "char":
            char = _char(raw)
            if _drawn(char[0]) and not family.face(style).covers(char[0]):
                found = family.drawing_family(char[0], style)
                lost += [char[0]] if found is None else []
                owner = None if found is None or found is family else _needed(found.face(style).name)
                needs = needs or owner is not None
        chosen.append(owner)
    if lost:
        _refuse(lost, family, markup)
    if not needs:
        return markup
    out: list[str] = []
    current = None
    for (_kind, raw, _style), owner in zip(units, chosen, strict=True):
        if owner != current:
            if current is not None:
                out.append("</font>")
            if owner is not None:
                out.append(f'<font name="{owner}">')
            current = owner
        out.append(raw)
    if current is not None:
        out.append("</font>")
    return "".join(out)


def _refuse(chars: list[str], family: Family, text: str) -> None:
    """The last guard against silent loss, for text no check located earlier: drawing stops with the
    message."""
    from generator.core.errors import InputError, Problem

    shown = text if len(text) <= 40 else text[:37] + "..."
    raise InputError(Problem("", 0, cannot_draw(chars, family, f"the text '{shown}'")))


_LOST = object()  # no face of the chain draws the character


def _owners(text: str, family: Family, style: str) -> dict:
    """Each distinct character of `text` -> the family whose face draws it (None: not drawn, a control
    character; _LOST: no face draws it)."""
    owners = {}
    for char in set(text):
        owners[char] = (family.drawing_family(char, style) or _LOST) if _drawn(char) else None
    return owners


def runs(text: str, font_name: str) -> list[tuple[str, str]]:
    """(ReportLab face name, text) runs of a plain string set in a registered face, with fallback faces for
    the characters it lacks; one run in the face itself when it lacks none."""
    found = _FAMILY_OF.get(font_name)
    if found is None:
        return [(font_name, text)]
    family, style = found
    own = family.face(style)
    if own.text.issuperset(text) or all(own.covers(c) or not _drawn(c) for c in text):
        return [(font_name, text)]
    owners = _owners(text, family, style)
    lost = [c for c in text if owners[c] is _LOST]
    if lost:
        _refuse(lost, family, text)
    out: list[tuple[str, str]] = []
    for char in text:
        owner = owners[char]
        name = font_name if owner is None or owner is family else _needed(owner.face(style).name)
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + char)
        else:
            out.append((name, char))
    return out


def face_runs(text: str, family: Family, style: str = "regular") -> list[tuple[Face, str]]:
    """(face, text) runs of a plain string in a family: its own face, and its fallbacks' faces for the
    characters it lacks (for drawing outside ReportLab, e.g. a raster image); a character no face draws is
    refused."""
    owners = _owners(text, family, style)
    lost = [c for c in text if owners[c] is _LOST]
    if lost:
        _refuse(lost, family, text)
    out: list[tuple[Face, str]] = []
    for char in text:
        owner = owners[char]
        face = (owner or family).face(style)
        if out and out[-1][0] is face:
            out[-1] = (face, out[-1][1] + char)
        else:
            out.append((face, char))
    return out


def string_width(text: str, font_name: str, size: float) -> float:
    """The width of a plain string as `draw_string` draws it (fallback faces included)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return sum(stringWidth(part, name, size) for name, part in runs(text, font_name))


def chart_string(x: float, y: float, text: str, font_name: str, size: float,
                 anchor: Literal["start", "middle", "end"] = "start", **props):
    """A reportlab.graphics String in `font_name` (a chart's label); when the face lacks characters, a Group
    of Strings in it and its fallback faces, laid out as one string with the same anchor (start, middle or
    end)."""
    from reportlab.graphics.shapes import Group, String
    from reportlab.pdfbase.pdfmetrics import stringWidth

    parts = runs(text, font_name)
    if len(parts) == 1 and parts[0][0] == font_name:
        return String(x, y, text, fontName=font_name, fontSize=size, textAnchor=anchor, **props)
    widths = [stringWidth(part, name, size) for name, part in parts]
    x -= {"start": 0.0, "middle": sum(widths) / 2, "end": sum(widths)}[anchor]
    group = Group()
    for (name, part), width in zip(parts, widths, strict=True):
        group.add(String(x, y, part, fontName=name, fontSize=size, **props))
        x += width
    return group


def draw_string(
    canvas, x: float, y: float, text: str, font_name: str, size: float, align: str = "left"
) -> None:
    """canvas.drawString / drawCentredString / drawRightString in `font_name`, with fallback faces for
    characters it lacks (then the canvas font is set back). The caller has set the font."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    parts = runs(text, font_name)
    if len(parts) == 1 and parts[0][0] == font_name:
        {"left": canvas.drawString, "center": canvas.drawCentredString, "right": canvas.drawRightString}[
            align
        ](x, y, text)
        return
    width = sum(stringWidth(part, name, size) for name, part in parts)
    x -= {"left": 0.0, "center": width / 2, "right": width}[align]
    for name, part in parts:
        canvas.setFont(name, size)
        canvas.drawString(x, y, part)
        x += stringWidth(part, name, size)
    canvas.setFont(font_name, size)
