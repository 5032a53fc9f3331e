"""Text boxes: rich text from a template (`text:` with **bold**, *italic*, :icon:, new lines), shrunk to fit
its box; a text box may have a fill and an outline too.

The kind keeps two caches per card renderer: the font size each text fits at (the second paper finds it
without a search) and each face's laid-out texts (paragraphs or plain lines), drawn again on the next paper.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Cell, InputError, Problem, Problems, did_you_mean
from generator.core.fonts import Family, fallback_letters, fallback_markup, show_char
from generator.core.units import to_pt
from generator.data.fonts import field_with
from generator.data.game import Card
from generator.faces import icons
from generator.faces import text as cardtext
from generator.faces.boxes.base import Box, BoxKind, Drawing, Rect4, Resolved
from generator.faces.boxes.shape import colour
from generator.faces.characters import character_problems
from generator.faces.fragments import make_paragraph
from generator.faces.plain_text import draw_plain, plain_lines
from generator.faces.text import (
    MIN_TEXT_SIZE,
    TemplateProblem,
    TextOverflow,
    TextStyle,
    fit_text,
    paragraph_style,
)

DEFAULTS = {"font": "body", "size": "9pt", "min_size": "7pt", "leading": 1.15, "align": "left",
            "valign": "top", "color": "#222222"}
# laid-out texts kept for the next paper: a fitted paragraph holds some 18 kB, so 18 MB at most
LAID_MEMO = 1_000
MAX_OUTLINE = 0.12  # an outline's width at most this part of the font size: wider fills the letters in
_TAGS = re.compile(r"<[^>]*>")
_WORD = re.compile(r"\w+")  # the words of a text, without its punctuation and separators


@dataclass(frozen=True, slots=True, kw_only=True)
class TextData(Resolved):
    """What a text box shows on one card: its markup in its font family and colour. `unknown_icons` are the
    `:name:`s that name no icon (printed as written); `outline` (a line width) draws the letters as outlines
    only (the ink saver's large titles on a back)."""

    lettered = True

    family: Family
    markup: str
    color: str
    unknown_icons: tuple[str, ...] = ()
    outline: float = 0.0
    # fallback face label -> the letters of the text it draws, which the family's own faces lack
    fallbacks: tuple[tuple[str, tuple[str, ...]], ...] = ()


class TextBox(BoxKind):
    """A box of `text: <template>`, in `font`, `size` (down to `min_size`), `leading`, `align`, `valign`,
    `wrap` and `color`."""

    key = "text"
    templated = ("text", "color")
    inside_safe = True
    worded = True

    def __init__(self, renderer):
        super().__init__(renderer)
        self._fitted: dict[tuple, float] = {}  # (markup, style, w, h) -> font size that fits
        self._fallbacks_told: set[tuple] = set()  # (box file, line, name, fallback face): warned once
        self._styles: dict[tuple, tuple[Box, TextStyle]] = {}  # (id(box), face, colour) -> (box, its style)
        # form name -> laid-out text of its boxes: each fitted paragraph (or plain lines) is made once and
        # drawn
        # again on the next paper; let go with the face's rendered data (the renderer's `last_use`)
        self._laid: dict[str, dict[tuple, tuple]] = {}
        self._laid_held = 0  # texts in `_laid`, at most LAID_MEMO

    @classmethod
    def check(cls, box: Box, problems: Problems) -> None:
        """The smallest size a text may shrink to is at most its size; an outline leaves the letters
        readable."""
        outline = box.get("outline")
        smallest = to_pt(box.get("min_size", DEFAULTS["min_size"]))
        if outline and to_pt(outline["width"]) > smallest * MAX_OUTLINE:
            problems.add(box.file, box.line, f"box '{box.name}': an outline {outline['width']} wide fills "
                         f"the letters of {smallest:g} pt text (its smallest size); expected at most "
                         f"{smallest * MAX_OUTLINE:.2f} pt ({MAX_OUTLINE:g} of the size), or a halo")
        if box.get("min_size") is not None and box.get("size") is not None \
                and to_pt(box.get("min_size")) > to_pt(box.get("size")):
            problems.add(
                box.file,
                box.line,
                f"box '{box.name}': min_size {box.get('min_size')} is larger than size "
                f"{box.get('size')}; expected min_size at most the size",
            )

    @classmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        return (box.get("font", DEFAULTS["font"]),)

    @classmethod
    def bleeds(cls, box: Box) -> bool:
        return False

    # -- resolving
    # -----------------------------------------------------------------------------------------------
    def resolve(self, box: Box, context: dict) -> TextData:
        renderer = self.renderer
        try:
            rendered = renderer.templates.render(box.spec["text"], context)
        except TemplateProblem as exc:  # in the translation's words, when they are a translation's
            raise renderer.fail(box, context, str(exc), words=True) from None
        family = renderer.fonts[box.get("font", DEFAULTS["font"])]
        markup = cardtext.rich_markup(rendered, renderer.icons.inline_markup, family,
                                      renderer.game.config.typography)
        found = character_problems(box, renderer.where(context), family, markup, renderer.card_of(context))
        if found:
            raise InputError(found)
        unknown = tuple(dict.fromkeys(cardtext.inline_icon_names(markup)))  # left as written: no such icon
        color = renderer.color(box, "color", context, DEFAULTS["color"])
        fill, stroke = renderer.paints(box, context)
        return TextData(
            family=family,
            markup=fallback_markup(markup, family),
            color=color,
            unknown_icons=unknown,
            fill=fill,
            stroke=stroke,
            fallbacks=tuple((label, tuple(chars))
                            for label, chars in fallback_letters(markup, family).items()),
        )

    def warnings(self, box: Box, data: TextData, deck, context: dict) -> list[str]:
        show = self.renderer.game.show
        undrawn = [f"{line} (box '{box.name}' of {box.file}:{box.line})"
                   for path in icons.inline_icon_files(data.markup)
                   for line in icons.undrawn_messages(path, f"inline icon '{path.stem}'", show)]
        return ([self._icon_warning(box, context, name) for name in data.unknown_icons] + undrawn
                + self._fallback_warnings(box, data, context))

    def _fallback_warnings(self, box: Box, data: TextData, context: dict) -> list[str]:
        """A located warning, once per box and fallback face, for letters of a text its font's own faces lack
        (drawn in the fallback face, in the text's weight and style, so one text mixes two typefaces)."""
        out = []
        for label, chars in data.fallbacks:
            told = (box.file, box.line, box.name, label)
            if told in self._fallbacks_told:
                continue
            self._fallbacks_told.add(told)
            renderer = self.renderer
            card = renderer.card_of(context)
            key = next((found for found in (field_with(card, char) for char in chars) if found), None) \
                if card is not None else None
            if card is not None and key is not None:
                (file, line), what = card.where(key), f"card '{card.id}' {key} '{card.as_dict()[key]}'"
            else:
                (file, line), what = box.translated or (box.file, box.line), \
                    f"{renderer.where(context)}: box '{box.name}': its text"
            shown = ", ".join(show_char(char) for char in chars[:4]) + \
                (f" and {len(chars) - 4} more" if len(chars) > 4 else "")
            out.append(f"{file}:{line}: {what} has {shown}, which the own face of font '{data.family.key}' "
                       f"({data.family.face().info.label}) lacks: drawn in its fallback {label} (box "
                       f"'{box.name}' of {box.file}:{box.line}); for one typeface in the text, declare a "
                       "font that has them under fonts: in game.yaml")
        return out

    def _icon_warning(self, box: Box, context: dict, name: str) -> str:
        """A located warning for `:name:` in a text that names no icon (it is printed as it is)."""
        renderer = self.renderer
        card = renderer.card_of(context)
        key = field_with(card, f":{name}:") if card is not None else None
        where = f"{card.file}:{card.line_of(key)}: card '{card.id}' {key}" if key else \
            f"{box.file}:{box.line}: {renderer.where(context)}: box '{box.name}'"
        icon, _, size = name.partition("@")
        if size and icon in renderer.icons.names:
            return (f"{where} has ':{name}:', an icon size out of bounds, so it is printed as it is; "
                    f"expected a size above 0 and at most {cardtext.MAX_INLINE_ICON_PT:g} pt "
                    f"(':{icon}@8pt:', ':{icon}@3mm:')")
        return (
            f"{where} has ':{name}:', which is no icon{did_you_mean(name, renderer.icons.names)}, so it is "
            f"printed as it is; expected an icon name (known: {icons.known_icons(renderer.icons.dirs)})"
        )

    def text_origin(self, box: Box, context: dict, markup: str) -> tuple[str, int]:
        """Where the words of a text box are written: in a translated game the translation that gave the box's
        words or the translated card field the text holds, else the layout box."""
        game = self.renderer.game
        if game.translation is not None:
            if box.translated is not None:
                return box.translated
            card = self.renderer.card_of(context)
            own = [card] if card is not None else []
            others = [other for deck in game.decks.values() for other in deck.cards if other is not card]
            for cards in (own, others):  # the card's own words first, then those it shows of other cards
                found = _field_holding(cards, markup, lambda other: other.sources.items())
                if found:
                    return found
        return box.file, box.line

    def _card_line(self, context: dict, markup: str) -> tuple[str, int] | None:
        """Where the card field is written (its YAML file and line) whose words a text box shows, when the
        card came from a YAML file and the game is not translated; else None."""
        card = self.renderer.card_of(context)
        if card is None or self.renderer.game.translation is not None:
            return None
        return _field_holding(
            [card],
            markup,
            lambda other: [(key, other.where(key)) for key, line in other.key_lines.items()
                           if not isinstance(line, Cell) and key not in ("id", "code", "copies", "deck")],
        )

    def _text_cell(self, context: dict, markup: str) -> str:
        """The spreadsheet cell whose words a text box shows ('cards/g/akcje.xlsx:Karty!G2'): the field of the
        card the face shows, when the card came from a spreadsheet (and the game is not translated); else
        ''."""
        card = self.renderer.card_of(context)
        if card is None or self.renderer.game.translation is not None:
            return ""
        found = _field_holding(
            [card],
            markup,
            lambda other: [
                (key, other.where(key)) for key, line in other.key_lines.items() if isinstance(line, Cell)
            ],
        )
        return f"{found[0]}:{found[1].cell}" if found else ""

    # -- fitting
    # -------------------------------------------------------------------------------------------------
    def text_style(self, box: Box, data: TextData) -> TextStyle:
        """How a text box's paragraph looks, before fitting (font, sizes, leading, alignment, colour): worked
        out once per box, font and colour (the box kept, so its id stays its own)."""
        key = (id(box), data.family.name, data.color)
        found = self._styles.get(key)
        if found is None:
            found = self._styles[key] = (box, self._text_style(box, data))
        return found[1]

    @staticmethod
    def _text_style(box: Box, data: TextData) -> TextStyle:
        return TextStyle(
            face=data.family.name,
            size=to_pt(box.get("size", DEFAULTS["size"])),
            min_size=to_pt(box.get("min_size", DEFAULTS["min_size"])),
            leading=float(box.get("leading", DEFAULTS["leading"])),
            align=box.get("align", DEFAULTS["align"]),
            valign=box.get("valign", DEFAULTS["valign"]),
            color=data.color,
            wrap=box.get("wrap", True) is not False,
        )

    def fit(self, box: Box, data: TextData, w: float, h: float, context: dict):
        """(paragraph, font size, height) of a text box's markup shrunk to fit w x h (sizes found are
        cached)."""
        style = self.text_style(box, data)
        key = (data.markup, style, round(w, 3), round(h, 3))
        known = self._fitted.get(key)
        if known is not None:  # the second paper: no search, straight to the size that fits
            style = replace(style, size=known, min_size=known)
        try:
            para, size, needed = fit_text(data.markup, style, w, h, icons.sized_icons)
            self._fitted[key] = size
        except TextOverflow as exc:
            cell = self._text_cell(context, data.markup)
            message = (
                f"text{' from ' + cell if cell else ''} does not fit even at {style.min_size:g} pt ({exc}); "
                f"expected shorter text, a larger box or a smaller min_size (not below {MIN_TEXT_SIZE:g} pt)"
            )
            file, line = self.text_origin(box, context, data.markup)
            if not cell and (file, line) == (box.file, box.line):
                file, line = self._card_line(context, data.markup) or (file, line)
            # the layout box too, when the text is located where it is written
            elsewhere = (file, line) != (box.file, box.line)
            layout = f" (box '{box.name}' is at {box.file}:{box.line})" if elsewhere else ""
            raise InputError(
                Problem(file, line, f"{self.renderer.where(context)}: box '{box.name}': {message}{layout}")
            ) from None
        except ValueError as exc:  # broken markup from a template, e.g. an unclosed <b>
            raise self.renderer.fail(box, context, f"text markup is not valid: {exc}") from None
        return para, size, needed

    @staticmethod
    def single_line(markup: str, style: TextStyle, w: float, h: float) -> str | None:
        """The plain text of markup that fits on one line at full size (drawn without a Paragraph), else
        None."""
        if "<" in markup or "\n" in markup:
            return None
        text = html.unescape(markup)
        if style.size * style.leading > h + 0.01 or stringWidth(text, style.face, style.size) > w:
            return None
        return text

    # -- drawing
    # -------------------------------------------------------------------------------------------------
    def draw(self, canvas: Canvas, box: Box, data: TextData, rect: Rect4, face: Drawing) -> None:
        """The box's fill and outline, then its text; the face's texts laid out before are drawn from `_laid`
        (and, while the face is kept, the texts laid out now are kept there for the next paper)."""
        if data.fill or data.stroke:
            self.renderer.panels.draw(canvas, box, data, *rect)
        x, y, w, h = rect
        style = self.text_style(box, data)
        if not data.markup:
            return
        effects = bool(box.get("outline") or box.get("halo") or box.get("shadow"))
        if not effects and self._draw_single_line(canvas, data.markup, style, x, y, w, h, data.outline):
            return
        laid = self._laid.setdefault(face.form, {}) if face.keep else self._laid.get(face.form)
        key = (data.markup, style, w, h)
        found = laid.get(key) if laid is not None else None
        if found is None:
            # explicit lines that fit at full size are drawn with Paragraph's operators, without a Paragraph
            plain = None if effects else plain_lines(data.markup, style, w, h, icons.sized_icons)
            if plain is not None:
                found = (plain, None, plain.height, 0.0, style.size)
            else:
                para, size, needed = self.fit(box, data, w, h, face.context)
                # drawn above half the room its tall inline icons need
                below = 0.0
                if "<img " in data.markup:
                    sized = icons.sized_icons(data.markup, size)
                    below = cardtext.icon_overhang(sized, size, style.leading) / 2
                found = (None, para, needed, below, size)
            if face.keep and self._laid_held < LAID_MEMO:
                laid[key] = found
                self._laid_held += 1
        plain, para, needed, below, size = found
        offset = {"top": h - needed, "middle": (h - needed) / 2, "bottom": 0.0}[style.valign]
        if plain is not None:
            draw_plain(canvas, plain, x, y + offset)
        elif effects:
            at = (x, y + offset + below)
            self._draw_with_effects(canvas, box, data, para, replace(style, size=size), at, (w, h))
        else:
            para.drawOn(canvas, x, y + offset + below)

    def _draw_with_effects(self, canvas: Canvas, box: Box, data: TextData, para, style: TextStyle,
                           at: tuple[float, float], room: tuple[float, float]) -> None:
        """The paragraph (fitted at style.size in `room`) with its halo (a wide stroke of the letters under
        them), its shadow (the text again in the shadow's colour, moved) and its outline (a stroke of the
        letters over them)."""
        halo, shadow, outline = box.get("halo"), box.get("shadow"), box.get("outline")
        if halo:
            _stroked(canvas, para, at, halo["color"], 2 * to_pt(halo["width"]))
        if shadow:
            markup = icons.sized_icons(data.markup, style.size)
            shade = make_paragraph(markup, paragraph_style(style.face, style.size, style.leading, style.align,
                                                           shadow.get("color", "#000000")))
            shade.wrap(*room)
            dx, dy = to_pt(shadow.get("dx", "0.5pt")), to_pt(shadow.get("dy", "0.5pt"))
            shade.drawOn(canvas, at[0] + dx, at[1] - dy)
        para.drawOn(canvas, *at)
        if outline:
            _stroked(canvas, para, at, outline["color"], to_pt(outline["width"]))

    def let_go(self, form: str) -> None:
        self._laid_held -= len(self._laid.pop(form, {}))

    def _draw_single_line(self, canvas: Canvas, markup: str, style: TextStyle, x, y, w, h,
                          outline: float = 0.0) -> bool:
        """Plain one-line text that fits at full size, drawn without a Paragraph (same placement, much
        faster). With `outline` (a line width) the letters are drawn as outlines only (the ink saver's large
        titles)."""
        text = self.single_line(markup, style, w, h)
        if text is None:
            return False
        leading = style.size * style.leading
        offset = {"top": h - leading, "middle": (h - leading) / 2, "bottom": 0.0}[style.valign]
        baseline = y + offset + leading - style.size  # where Paragraph puts a one-line baseline
        if outline:
            width = stringWidth(text, style.face, style.size)
            left = {"center": x + (w - width) / 2, "right": x + w - width}.get(style.align, x)
            canvas.saveState()
            canvas.setStrokeColor(HexColor(style.color))
            canvas.setLineWidth(outline)
            line = canvas.beginText(left, baseline)
            line.setFont(style.face, style.size)
            line.setTextRenderMode(1)  # stroke the letters, do not fill them
            line.textOut(text)
            canvas.drawText(line)
            canvas.restoreState()
            return True
        canvas.setFillColor(colour(style.color))
        canvas.setFont(style.face, style.size)
        if style.align == "center":
            canvas.drawCentredString(x + w / 2, baseline, text)
        elif style.align == "right":
            canvas.drawRightString(x + w, baseline, text)
        else:
            canvas.drawString(x, baseline, text)
        return True


def _stroked(canvas: Canvas, para, at: tuple[float, float], color: str, width: float) -> None:
    """The paragraph's letters stroked in `color`, `width` wide, round-joined, and not filled (text render
    mode 1, set for the paragraph's text objects: a part of the graphics state that they keep)."""
    canvas.saveState()
    canvas.setStrokeColor(colour(color))
    canvas.setLineWidth(width)
    canvas.setLineJoin(1)
    canvas._code.append("1 Tr")  # noqa: SLF001 - the render mode the paragraph's text objects inherit
    para.drawOn(canvas, *at)
    canvas.restoreState()


def _field_holding(cards: list[Card], markup: str, places) -> tuple[str, int] | None:
    """Where the card field is written whose text a box's markup shows, among the (key, where) pairs that
    `places(card)` gives for each card; the longest text found (the likeliest to overflow), else None."""
    # other tags may split a word (fallback faces)
    plain = html.unescape(_TAGS.sub("", markup.replace("<br/>", "\n")))
    shown = f" {' '.join(_WORD.findall(plain))} "
    found = [(len(text), where) for card in cards for key, where in places(card)
             for text in _texts(card, key) if text and (text in plain or _words_in(text, shown))]
    return max(found, key=lambda pair: pair[0])[1] if found else None


def _words_in(text: str, shown: str) -> bool:
    """Whether the words of `text` stand in a row among `shown` (' '-joined words with a space at each end): a
    template may have set the field's separators otherwise ('a · b' printed as two lines)."""
    words = _WORD.findall(text)
    return bool(words) and f" {' '.join(words)} " in shown


def _texts(card: Card, key: str) -> list[str]:
    """The texts of a card's field (a list field has several), stripped."""
    value = card.name if key == "name" else card.fields.get(key)
    return [str(text).strip() for text in (value if isinstance(value, list) else [value]) if text is not None]
