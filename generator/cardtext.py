"""Card text: sandboxed Jinja templates (compiled once), rich-text shorthand, inline icons and shrink-to-fit."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from jinja2 import StrictUndefined, TemplateError, TemplateSyntaxError
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape
from reportlab.lib.colors import HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from generator.fonts import BODY, TITLE, register_fonts

ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
FACES = {"title": TITLE, "body": BODY}
SHRINK_STEP = 0.25  # points per shrink step: fine enough that text never looks needlessly small

_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", re.S)
_ICON = re.compile(r":([a-z0-9][a-z0-9_-]*):")
_TAG = re.compile(r"(<[^>]*>)")
# A hyphen before a number that starts a word is a minus sign ("-2", "(-5)"), but not inside a code ("OUP-TOP-01");
# a hyphen between two bare numbers is a range ("1-2"). Both fonts have U+2212 and U+2013.
_MINUS = re.compile(r"(?<![\w.\-])-(?=\d)")
_RANGE = re.compile(r"(?<![\w\-])(\d+)-(\d+)(?![\w\-])")


class TextOverflow(Exception):
    """Text that does not fit its box even at the minimum font size."""

    def __init__(self, size: float, needed: float, available: float):
        self.size, self.needed, self.available = size, needed, available
        super().__init__(f"needs {needed:.1f} pt of height at {size:g} pt, the box has {available:.1f} pt")


class TemplateProblem(Exception):
    """A template that does not compile or render; the message says why."""


def is_template(source: str) -> bool:
    """True when the string contains Jinja syntax (otherwise it is used as it is)."""
    return "{{" in source or "{%" in source or "{#" in source


class Templates:
    """One sandboxed Jinja environment per game; every template source is compiled once and cached."""

    def __init__(self, helpers: dict[str, Callable] | None = None):
        self.env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=True, trim_blocks=True,
                                        lstrip_blocks=True, keep_trailing_newline=False)
        self.env.globals.update(helpers or {})
        self._cache: dict[str, object] = {}

    def compile(self, source: str):
        """The compiled template of `source` (cached); raises TemplateProblem on a syntax error."""
        template = self._cache.get(source)
        if template is None:
            try:
                template = self.env.from_string(source)
            except TemplateSyntaxError as exc:
                raise TemplateProblem(f"template syntax error: {exc.message} (template line {exc.lineno})") from None
            self._cache[source] = template
        return template

    def render(self, source: str, context: dict) -> str:
        """Render `source` (compiled once) with `context`; plain strings are returned escaped, unrendered."""
        if not is_template(source):
            return str(escape(source))
        try:
            return self.compile(source).render(context)
        except TemplateProblem:
            raise
        except TemplateError as exc:
            raise TemplateProblem(f"template error: {exc}") from None
        except (AttributeError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as exc:
            raise TemplateProblem(f"template error: {type(exc).__name__}: {exc}") from None

    def render_plain(self, source: str, context: dict) -> str:
        """Render a template whose result is a value (a colour, an icon name, a path), not markup."""
        return Markup(self.render(source, context)).unescape().strip()


def typeset(markup: str) -> str:
    """Real minus signs and en-dash ranges in the text parts of markup (tags and entities are left alone)."""
    if "-" not in markup:
        return markup
    parts = _TAG.split(markup)
    for index in range(0, len(parts), 2):  # even parts are text, odd ones tags
        if "-" in parts[index]:
            parts[index] = _RANGE.sub("\\1\u2013\\2", _MINUS.sub("\u2212", parts[index]))
    return "".join(parts)


def rich_markup(text: str, icon_markup: Callable[[str], str | None], size: float = 0) -> str:
    """Rendered template text to Paragraph markup: **bold**, *italic*, :icon:, line breaks, minus signs."""
    text = typeset(text.strip())
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)

    def icon(match: re.Match) -> str:
        found = icon_markup(match.group(1))
        return found if found is not None else match.group(0)

    text = _ICON.sub(icon, text)
    return text.replace("\r\n", "\n").replace("\n", "<br/>")


@dataclass(frozen=True)
class TextStyle:
    """Everything that decides how a text box's paragraph looks, except its size."""

    face: str
    size: float
    min_size: float
    leading: float
    align: str
    valign: str
    color: str


_STYLES: dict[tuple, ParagraphStyle] = {}


def paragraph_style(face: str, size: float, leading: float, align: str, color: str) -> ParagraphStyle:
    """A cached ParagraphStyle (styles are immutable in use; building them is not free)."""
    key = (face, size, leading, align, color)
    style = _STYLES.get(key)
    if style is None:
        register_fonts()
        style = ParagraphStyle(f"card-{len(_STYLES)}", fontName=face, fontSize=size, leading=size * leading,
                               alignment=ALIGN[align], textColor=HexColor(color), splitLongWords=False,
                               allowWidows=1, allowOrphans=1)
        _STYLES[key] = style
    return style


def fit_text(markup: str, style: TextStyle, width: float, height: float,
             per_size: Callable[[str, float], str] | None = None) -> tuple[Paragraph, float, float]:
    """The largest paragraph from style.size down to style.min_size that fits; returns (para, size, height).

    `per_size(markup, size)` adapts the markup to a font size (inline icons grow and shrink with the text).
    """
    def attempt(size: float) -> tuple[Paragraph, float, bool]:
        text = per_size(markup, size) if per_size else markup
        para = Paragraph(text, paragraph_style(style.face, size, style.leading, style.align, style.color))
        _, needed = para.wrap(width, height)
        return para, needed, needed <= height + 0.01 and not _too_wide(para)

    para, needed, fits = attempt(style.size)
    if fits:
        return para, style.size, needed
    # Binary search over the sizes min_size, min_size + step, ... below style.size: height grows with size.
    steps = int((style.size - style.min_size) / SHRINK_STEP + 1e-9)
    low, high, best = 0, steps - 1, None
    smallest = None
    while low <= high:
        middle = (low + high) // 2
        size = round(style.min_size + middle * SHRINK_STEP, 2)
        result = attempt(size)
        if middle == 0:
            smallest = result
        if result[2]:
            best, low = (result, size), middle + 1
        else:
            high = middle - 1
    if best is None:
        if smallest is None:
            smallest = attempt(style.min_size)
        raise TextOverflow(style.min_size, smallest[1], height)
    (para, needed, _), size = best
    return para, size, needed


def _too_wide(para: Paragraph) -> bool:
    """True when a laid-out line is wider than the box (a single word longer than the box)."""
    for line in getattr(para.blPara, "lines", []):
        extra = line[0] if isinstance(line, tuple) else getattr(line, "extraSpace", 0.0)
        if extra is not None and extra < -0.5:
            return True
    return False


def _hex_rgb(color: str) -> tuple[int, int, int]:
    color = color.lstrip("#")
    return int(color[0:2], 16), int(color[2:4], 16), int(color[4:6], 16)


def contrast(color: str) -> str:
    """Dark or white text, whichever reads better on `color`."""
    r, g, b = _hex_rgb(color)
    return "#222222" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


def tint(color: str, amount: float = 0.8) -> str:
    """`color` mixed with white (amount 0 = unchanged, 1 = white), for pale backgrounds."""
    r, g, b = _hex_rgb(color)
    mix = [round(c + (255 - c) * float(amount)) for c in (r, g, b)]
    return "#{:02x}{:02x}{:02x}".format(*mix)


class GameView:
    """What templates see: `card`, `deck` and `game` as plain data, and the helper functions."""

    def __init__(self, game, inline_icon: Callable[[str, float | None], str | None] | None = None):
        self.game = game
        self.inline_icon = inline_icon or (lambda name, size=None: None)
        self.addresses = game.addresses()
        self.tables = {t.id: {row.id: row.as_dict() for row in t.rows} for t in game.tables.values()}
        self.decks = {}
        for deck in game.decks.values():
            cards = [card.as_dict() for card in deck.cards]
            self.decks[deck.id] = {
                "id": deck.id, "name": deck.name, "code": deck.code, "copies": deck.copies,
                "description": deck.description, "cards": cards, "by_id": {c["id"]: c for c in cards},
            }
        config = game.config
        self.game_data = {
            "id": game.id, "title": config.title, "subtitle": config.subtitle, "code": config.code,
            "ages": config.ages, "play_time": config.play_time, "settings": config.settings,
            "players": {"min": config.players.min, "max": config.players.max},
            "decks": self.decks, "tables": self.tables,
        }

    def context(self, deck, card) -> dict:
        """The template variables of one face (card is None for a back)."""
        data = self.decks[deck.id]
        return {"card": data["cards"][card.index - 1] if card is not None else None, "deck": data,
                "game": self.game_data}

    def street(self, address: str) -> dict:
        """The street of a printed address: name, color, color_name, id, number, board, space."""
        if address not in self.addresses:
            raise ValueError(f"address '{address}' is not on any board")
        board_id, space = self.addresses[address]
        number = int(address.split(" ", 1)[0])
        for street in self.game.boards[board_id].model.streets:
            if street.houses.get(number) == space:
                return {"id": street.id, "name": street.name, "color": street.color,
                        "color_name": street.color_name, "number": number, "board": board_id, "space": space}
        raise ValueError(f"address '{address}' has no street")

    def ref(self, collection: str, item: str) -> dict:
        """A card (by deck id) or table row (by table id) as data."""
        if collection in self.decks:
            return self.decks[collection]["by_id"][item]
        if collection in self.tables:
            return self.tables[collection][item]
        raise ValueError(f"no deck or table '{collection}'")

    def helpers(self) -> dict[str, Callable]:
        """Functions templates may call."""

        def icon(name: str, size: float | None = None) -> Markup:
            found = self.inline_icon(str(name), size)
            if found is None:
                raise ValueError(f"icon '{name}' does not exist")
            return Markup(found)

        def chip(color: str, label: str) -> Markup:
            return Markup('<font backColor="{0}" color="{1}">&nbsp;<b>{2}</b>&nbsp;</font>').format(
                color, contrast(color), label)

        def money(value) -> str:
            return f"${value}"

        def plural(count: int, word: str, many: str | None = None) -> str:
            return f"{count} {word if count == 1 else (many or word + 's')}"

        def setting(name: str, default=None):
            return self.game.setting(name, default)

        return {"icon": icon, "chip": chip, "money": money, "plural": plural, "setting": setting,
                "street": self.street, "ref": self.ref, "contrast": contrast, "tint": tint}
