"""Card text: sandboxed Jinja templates (compiled once), rich-text shorthand, inline icons and
shrink-to-fit."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from jinja2 import TemplateError, TemplateSyntaxError
from markupsafe import Markup
from reportlab.lib.colors import Color, HexColor
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph

from generator.core.colours import contrast
from generator.core.fonts import Family, register_fonts
from generator.core.limits import MAX_CARD_TEXT_STEPS, MAX_CARD_TEXT_WORK, LimitExceeded
from generator.data.compiled import SandboxedCache, private_cache
from generator.data.templating import environment
from generator.faces.fragments import make_paragraph

ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT, "justify": TA_JUSTIFY}
SHRINK_STEP = 0.25  # points per shrink step: fine enough that text never looks needlessly small

_BOLD_ITALIC = re.compile(r"\*\*\*(?=\S)(.+?)(?<=\S)\*\*\*", re.S)
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", re.S)
# :name: or :name@8pt: (its own size, in pt or mm, instead of the text's)
_ICON = re.compile(r":([a-z0-9][a-z0-9_-]*)(?:@(\d{1,3}(?:\.\d{1,2})?)(pt|mm))?:")
MAX_INLINE_ICON_PT = 144.0  # an inline icon's own size is above 0 and at most this
_INLINE_IMG = re.compile(r'<img [^>]*?height="([0-9.]+)"')
_TAG = re.compile(r"(<[^>]*>)")
# A hyphen before a number that starts a word is a minus sign ("-2", "(-5)"), but not inside a code
# ("OUP-TOP-01");
# a hyphen between two bare numbers is a range ("1-2"). Both fonts have U+2212 and U+2013.
_MINUS = re.compile(r"(?<![\w.\-])-(?=\d)")
_RANGE = re.compile(r"(?<![\w\-])(\d+)-(\d+)(?![\w\-])")


MIN_TEXT_SIZE = 6.0  # pt: the smallest text the legibility check accepts (print.md section 5)

class TextOverflow(Exception):
    """Text that does not fit its box even at the minimum font size: too tall, or a word wider than the
    box."""

    def __init__(self, size: float, needed: float, available: float, word: str = "", word_width: float = 0.0,
                 box_width: float = 0.0, unwrapped: bool = False):
        self.size, self.needed, self.available = size, needed, available
        shown = word if len(word) <= 40 else word[:37] + "..."
        if unwrapped:  # a box with `wrap: false`
            message = f"the line '{shown}' still wraps at {size:g} pt (the box has wrap: false)"
        elif word:
            message = (f"the word '{shown}' is {word_width:.1f} pt wide at {size:g} pt, the box is "
                       f"{box_width:.1f} pt wide")
        else:
            message = f"needs {needed:.1f} pt of height at {size:g} pt, the box has {available:.1f} pt"
        super().__init__(message)


class TemplateProblem(Exception):
    """A template that does not compile or render; the message says why."""


def _blank_none(value):
    return "" if value is None else value


def is_template(source: str) -> bool:
    """True when the string contains Jinja syntax (otherwise it is used as it is)."""
    return "{{" in source or "{%" in source or "{#" in source


class CompiledCardTemplates(SandboxedCache):
    """Card text templates as Jinja compiled them, kept between runs: a rebuild compiles only the templates
    that changed (Jinja checks each one against its source)."""

    kind = "cards"
    module = __file__


@functools.cache
def compiled_card_templates() -> CompiledCardTemplates | None:
    """The cache; None where the user has no private cache folder (then each run compiles)."""
    return private_cache(CompiledCardTemplates)


class Templates:
    """One bounded sandbox per game; every template source is compiled once and cached.

    Each render has the budget of generator.data.sandbox; all the card texts of a game together get
    MAX_CARD_TEXT_STEPS loop steps and MAX_CARD_TEXT_WORK characters, and a template that went over a bound is
    not rendered again (the next card would only fail the same way, slowly)."""

    def __init__(self, helpers: dict[str, Callable] | None = None):
        # A missing optional field prints as nothing, not "None" (so `icon: "{{ card.icon }}"` skips the box).
        self.env = environment(autoescape=True, helpers=helpers, finalize=_blank_none)
        self._cache: dict[str, object] = {}
        self._plain_values: dict[str, str] = {}  # a layout's plain string -> its value (render_plain)
        self._over: dict[str, str] = {}  # source -> the limit it went over
        self.steps_used = self.work_used = 0

    def compile(self, source: str):
        """The compiled template of `source` (cached); raises TemplateProblem on a syntax error."""
        template = self._cache.get(source)
        if template is None:
            try:
                template = self._cached(source) or self.env.from_string(source)
            except TemplateSyntaxError as exc:
                raise TemplateProblem(
                    f"template syntax error: {exc.message} (template line {exc.lineno})"
                ) from None
            except RecursionError:
                raise TemplateProblem(
                    "the template is nested too deeply to read; expected simpler expressions"
                ) from None
            self._cache[source] = template
        return template

    def _cached(self, source: str):
        """The template from the cache of compiled card templates, compiled into it if new; None when there is
        no cache or the source does not compile (then `from_string` says why, as it always does)."""
        cache = compiled_card_templates()
        if cache is None:
            return None
        try:
            bucket = cache.get_bucket(self.env, source, None, source)
            if bucket.code is None:
                try:
                    bucket.code = self.env.compile(source)
                except (TemplateSyntaxError, RecursionError):
                    return None
                cache.set_bucket(bucket)
        except OSError:  # a full or read-only cache folder only costs the compiling
            return None
        return self.env.template_class.from_code(self.env, bucket.code, self.env.make_globals(None), None)

    def render(self, source: str, context: dict) -> str:
        """Render `source` (compiled once) with `context`; a plain string is its own markup, as a template
    without variables renders (its `<i>` and `<br/>` mean what they mean in a template)."""
        if not is_template(source):  # as Jinja renders a template without variables: markup as written
            return source
        if source in self._over:
            raise TemplateProblem(self._over[source])
        if self.steps_used > MAX_CARD_TEXT_STEPS or self.work_used > MAX_CARD_TEXT_WORK:
            raise TemplateProblem(
                f"the card text templates of this game loop or build more than {MAX_CARD_TEXT_STEPS:,} "
                f"steps or {MAX_CARD_TEXT_WORK:,} characters in all; expected less work per card"
            )
        template = self.compile(source)
        try:
            return self.env.render_bounded(template, context)
        except TemplateProblem:
            raise
        except LimitExceeded as exc:
            self._over[source] = str(exc)
            raise TemplateProblem(str(exc)) from None
        except RecursionError:
            self._over[source] = (
                "the template calls itself too deeply (a macro calling itself?); expected calls that end"
            )
            raise TemplateProblem(self._over[source]) from None
        except TemplateError as exc:
            raise TemplateProblem(f"template error: {exc}") from None
        except (
            AttributeError,
            KeyError,
            TypeError,
            ValueError,
            IndexError,
            ZeroDivisionError,
            OverflowError,
        ) as exc:
            raise TemplateProblem(f"template error: {type(exc).__name__}: {exc}") from None
        finally:
            budget = self.env.budget
            self.steps_used += budget.used_steps
            self.work_used += budget.used_work

    def render_plain(self, source: str, context: dict) -> str:
        """Render a template whose result is a value (a colour, an icon name, a path), not markup."""
        if is_template(source):
            return Markup(self.render(source, context)).unescape().strip()
        found = self._plain_values.get(source)  # a plain string is its own value, whatever the card
        if found is None:
            found = self._plain_values[source] = Markup(self.render(source, context)).unescape().strip()
        return found


def typeset(markup: str, family: Family | None = None) -> str:
    """Real minus signs and en-dash ranges in the text parts of markup (tags and entities are left alone),
    where the font (with its fallbacks) has those characters: a hyphen is never turned into a character it
    lacks."""
    if "-" not in markup:
        return markup
    minus = family is None or family.drawing_family("\u2212", "regular") is not None
    dash = family is None or family.drawing_family("\u2013", "regular") is not None
    parts = _TAG.split(markup)
    for index in range(0, len(parts), 2):  # even parts are text, odd ones tags
        if "-" in parts[index]:
            text = _MINUS.sub("\u2212", parts[index]) if minus else parts[index]
            parts[index] = _RANGE.sub("\\1\u2013\\2", text) if dash else text
    return "".join(parts)


def inline_icon_names(markup: str) -> list[str]:
    """The `:name:` (or `:name@8pt:`) shorthands left in markup, without their colons (rich_markup turns every
    known icon of a size within bounds into a picture)."""
    parts = _TAG.split(markup)
    return [match.group(0)[1:-1] for index in range(0, len(parts), 2)
            for match in _ICON.finditer(parts[index])]


def rich_markup(text: str, icon_markup: Callable[..., str | None], family: Family | None = None,
                typography: bool = True) -> str:
    """Rendered template text to Paragraph markup: **bold**, *italic*, :icon:, line breaks, and (with
    `typography`, game.yaml's switch) minus signs and en-dash ranges."""
    text = typeset(text.strip(), family) if typography else text.strip()
    text = _BOLD_ITALIC.sub(r"<b><i>\1</i></b>", text)
    text = _BOLD.sub(r"<b>\1</b>", text)
    text = _ITALIC.sub(r"<i>\1</i>", text)

    def icon(match: re.Match) -> str:
        name, amount, unit = match.groups()
        if amount is None:
            found = icon_markup(name)
        else:  # its own size; one out of bounds is printed as written (and warned about as no icon)
            size = float(amount) * (72 / 25.4 if unit == "mm" else 1.0)
            found = icon_markup(name, size) if 0 < size <= MAX_INLINE_ICON_PT else None
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
    wrap: bool = True  # False: no line of the text may wrap (it shrinks instead)


class PaintColour(Color):
    """A #rrggbb colour that carries no alpha of its own: ReportLab sets a colour's alpha whenever the colour
    is set, which would make a box with `opacity` opaque again at its first colour; drawn opaque it writes
    exactly what the same HexColor does."""

    def __init__(self, value: str):
        found = HexColor(value)
        super().__init__(found.red, found.green, found.blue)
        self.alpha = None  # the transparency of what it is drawn in is kept

    def __repr__(self) -> str:
        return f"PaintColour({self.hexval()})"


_STYLES: dict[tuple, ParagraphStyle] = {}


def paragraph_style(face: str, size: float, leading: float, align: str, color: str) -> ParagraphStyle:
    """A cached ParagraphStyle (styles are immutable in use; building them is not free)."""
    key = (face, size, leading, align, color)
    style = _STYLES.get(key)
    if style is None:
        register_fonts()
        style = ParagraphStyle(f"card-{len(_STYLES)}", fontName=face, fontSize=size, leading=size * leading,
                               alignment=ALIGN[align], textColor=PaintColour(color), splitLongWords=False,
                               allowWidows=1, allowOrphans=1)
        _STYLES[key] = style
    return style


def icon_overhang(markup: str, size: float, leading: float) -> float:
    """How much taller than a line (`size` x `leading`) the tallest inline icon of Paragraph markup is, in pt:
    the room the fit leaves for it (half above the text, half below), as the lines do not grow around it."""
    heights = [float(height) for height in _INLINE_IMG.findall(markup)]
    return max(0.0, max(heights, default=0.0) - size * leading)


def fit_text(markup: str, style: TextStyle, width: float, height: float,
             per_size: Callable[[str, float], str] | None = None) -> tuple[Paragraph, float, float]:
    """The largest paragraph from style.size down to style.min_size that fits; returns (para, size, height).

    `per_size(markup, size)` adapts the markup to a font size (inline icons grow and shrink with the text).
    The height returned includes the room inline icons taller than the lines need (`icon_overhang`).
    """
    lines = markup.count("<br/>") + 1  # as written: with `wrap: false`, as laid out too

    def attempt(size: float) -> tuple[Paragraph, float, bool]:
        text = per_size(markup, size) if per_size else markup
        para = make_paragraph(
            text, paragraph_style(style.face, size, style.leading, style.align, style.color)
        )
        _, needed = para.wrap(width, height)
        if "<img " in text:  # inline icons count in the fit: room for those taller than the lines
            needed += icon_overhang(text, size, style.leading)
        return (
            para,
            needed,
            needed <= height + 0.01 and not _too_wide(para) and (style.wrap or _lines(para) <= lines),
        )

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
        if smallest[1] <= height + 0.01 and not style.wrap and _lines(smallest[0]) > lines:
            raise TextOverflow(
                style.min_size, smallest[1], height, _wrapped_line(smallest[0]), unwrapped=True
            )
        if smallest[1] <= height + 0.01:  # tall enough: what does not fit is a word wider than the box
            word, word_width = _widest_line(smallest[0], width)
            raise TextOverflow(
                style.min_size, smallest[1], height, word or "(an inline icon)", word_width, width
            )
        raise TextOverflow(style.min_size, smallest[1], height)
    (para, needed, _), size = best
    return para, size, needed


def _widest_line(para: Paragraph, box_width: float) -> tuple[str, float]:
    """The text of the laid-out line that overruns the box most (a word too long to break) and its width, as
    drawn: in its own faces (a bold word is wider than the same word in the regular face)."""
    widest = (float("inf"), "")
    for line in getattr(para.blPara, "lines", []):
        if isinstance(line, tuple):  # a paragraph in one face: (extra space, words)
            extra, text = line[0], " ".join(line[1])
        else:  # fragments in several faces
            extra, text = line.extraSpace, "".join(getattr(frag, "text", "") for frag in line.words)
        if extra is not None and extra < widest[0]:
            widest = (extra, text)
    extra, text = widest
    return " ".join(text.split()), box_width - extra if extra != float("inf") else 0.0


def _lines(para: Paragraph) -> int:
    """How many lines the laid-out paragraph has."""
    return len(getattr(para.blPara, "lines", []))


def _line_text(line) -> str:
    if isinstance(line, tuple):  # a paragraph in one face: (extra space, words)
        return " ".join(line[1])
    return "".join(getattr(frag, "text", "") for frag in line.words)


def _wrapped_line(para: Paragraph) -> str:
    """The first written line that the layout broke in two (its first laid-out part and the next)."""
    laid = getattr(para.blPara, "lines", [])
    for index, line in enumerate(laid[:-1]):
        if not getattr(line, "lineBreak", False):  # broken by the layout, not by a <br/>
            return " ".join(f"{_line_text(line)} {_line_text(laid[index + 1])}".split())
    return " ".join(_line_text(laid[0]).split()) if laid else ""


def _too_wide(para: Paragraph) -> bool:
    """True when a laid-out line is wider than the box (a single word longer than the box)."""
    for line in getattr(para.blPara, "lines", []):
        extra = line[0] if isinstance(line, tuple) else getattr(line, "extraSpace", 0.0)
        if extra is not None and extra < -0.5:
            return True
    return False



def card_helpers(inline_icon: Callable[[str, float | None], str | None],
                 icon_problem: Callable[[str], str | None] | None = None) -> dict[str, Callable]:
    """The helpers only card text has: `icon(name)` inline in the text and `chip(color, label)`."""

    def icon(name: str, size: float | None = None) -> Markup:
        found = inline_icon(str(name), size)
        if found is None:
            raise ValueError((icon_problem and icon_problem(str(name))) or f"icon '{name}' does not exist")
        return Markup(found)

    def chip(color: str, label: str) -> Markup:
        return Markup('<font backColor="{0}" color="{1}">&nbsp;<b>{2}</b>&nbsp;</font>').format(
            color, contrast(color), label)

    return {"icon": icon, "chip": chip}
