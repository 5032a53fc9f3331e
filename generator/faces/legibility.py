"""Legibility of every text drawn on a card: contrast against what lies under it, and a minimum size.

For each face (every card front and every deck back) each text box is laid out as it is drawn (the same
fitting), its inked area is found from its lines, and the colours under that area come from the filled boxes
drawn before it (`paint.backdrop`). Every run of the text (a chip's label on its own background, an inline
colour) is checked:
- contrast (WCAG 2.x, `core.colours.contrast_ratio`) at least 4.5:1 below 14 pt and 3:1 from 14 pt;
- size at least 6 pt (print.md section 5: the smallest reference text a print shop accepts);
- a text over a picture has no single backdrop colour, so it cannot be checked and is reported as such.
A finding is a located Problem at the layout box (`file:line`), naming the card and the colours; the same
finding on many cards is reported once with their count. `pnp validate` shows them as warnings, `--strict` as
errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.core.colours import contrast_ratio
from generator.core.errors import InputError, Problem
from generator.core.geometry import Rect
from generator.data.game import Card, Deck
from generator.faces import inksaver
from generator.faces.boxes.text import TextData
from generator.faces.face import CardRenderer
from generator.faces.paint import PAPER, backdrop, face_paints
from generator.faces.text import MIN_TEXT_SIZE

LARGE_TEXT = 14.0    # pt: from this size 3:1 is enough
NORMAL_RATIO = 4.5
LARGE_RATIO = 3.0
MIN_SIZE = MIN_TEXT_SIZE  # pt (cards.text: the overflow message names the same floor)


@dataclass(frozen=True)
class Run:
    """A piece of a text in one colour and size; `back` is its own background (a chip), else None."""

    text: str
    color: str
    size: float
    back: str | None = None


def _hex(color) -> str | None:
    if color is None:
        return None
    if isinstance(color, Color):
        r, g, b = (round(c * 255) for c in color.rgb())
        return f"#{r:02x}{g:02x}{b:02x}"
    return str(color)


def needed_ratio(size: float) -> float:
    """The contrast a text of this size needs."""
    return LARGE_RATIO if size >= LARGE_TEXT else NORMAL_RATIO


def text_layout(renderer: CardRenderer, box, data: TextData, deck: Deck, card: Card | None,
                back: bool = False) -> tuple[Rect, list[Run]]:
    """Where a text box's letters are on the face form, and its runs, laid out exactly as they are drawn."""
    # the renderer's own geometry
    x, y, w, h = renderer._placed_rect(box, *renderer.size(deck))  # noqa: SLF001
    angle = float(box.get("rotate", 0.0)) % 360
    if abs(angle % 180 - 90) < 1e-9:  # turned by 90 or 270: laid out in the box turned, as it is drawn
        (lx, ly, lw, lh), runs = _laid_out(renderer, box, data, (deck, card, back), (0.0, 0.0, h, w))
        a0, a1, b0, b1 = lx - h / 2, lx + lw - h / 2, ly - w / 2, ly + lh - w / 2  # about the box's centre
        # clockwise by 90 on the page (y up): (a, b) -> (b, -a); by 270: (a, b) -> (-b, a)
        xs, ys = ((b0, b1), (-a1, -a0)) if angle == 90 else ((-b1, -b0), (a0, a1))
        return Rect(x + w / 2 + xs[0], y + h / 2 + ys[0], xs[1] - xs[0], ys[1] - ys[0]), runs
    (left, bottom, width, height), runs = _laid_out(renderer, box, data, (deck, card, back), (x, y, w, h))
    return Rect(left, bottom, width, height), runs


def _laid_out(renderer: CardRenderer, box, data: TextData, face: tuple[Deck, Card | None, bool],
              rect: tuple[float, float, float, float]) -> tuple[tuple[float, float, float, float], list[Run]]:
    """(left, bottom, width, height) of a text box's letters laid out in the rectangle `rect` (x, y, w, h)
    of a face (deck, card, back), and its runs."""
    deck, card, back = face
    x, y, w, h = rect
    kind = renderer.kind(box)  # the box's text kind: its fitting and the font sizes it found
    style = kind.text_style(box, data)
    plain = kind.single_line(data.markup, style, w, h)
    if plain is not None:
        widths, needed = [stringWidth(plain, style.face, style.size)], style.size * style.leading
        runs = [Run(plain, style.color, style.size)]
    else:
        para, _size, needed = kind.fit(box, data, w, h, renderer.context(deck, card, back))
        lines = getattr(para.blPara, "lines", [])
        widths = [w - (line[0] if isinstance(line, tuple) else getattr(line, "extraSpace", 0.0) or 0.0)
                  for line in lines] or [w]
        runs = _runs(para.blPara, style.color)
    width = min(w, max(widths))
    left = {"center": x + (w - width) / 2, "right": x + w - width}.get(style.align, x)
    if style.align == "justify" and len(widths) > 1:
        left, width = x, w
    offset = {"top": h - needed, "middle": (h - needed) / 2, "bottom": 0.0}[style.valign]
    return (left, y + offset, width, min(needed, h)), runs


def _runs(lines, color: str) -> list[Run]:
    """The runs of laid-out paragraph lines: kind 1 lines hold fragments (own colour, size, background), kind
    0 lines plain words in the paragraph's one style."""
    if getattr(lines, "kind", 0) == 1:
        return [
            Run(
                frag.text,
                _hex(frag.textColor) or color,
                frag.fontSize,
                _hex(getattr(frag, "backColor", None)),
            )
            for line in lines.lines
            for frag in line.words
            if getattr(frag, "text", "").strip() and not getattr(frag, "cbDefn", None)
        ]
    own = _hex(getattr(lines, "textColor", None)) or color
    return [Run(" ".join(words), own, lines.fontSize) for _extra, words in lines.lines if words]


def _face(renderer: CardRenderer, deck: Deck, card: Card | None, back: bool, ink: str = "normal") -> list:
    """The resolved boxes of a front, or of the back `card` shows, as drawn with `ink`."""
    resolved = renderer.resolved(deck, card, back)
    if ink == "saver":
        tw, th = renderer.size(deck)
        b = renderer.bleed
        resolved = inksaver.adapt(resolved, lambda box: renderer._placed_rect(box, tw, th),  # noqa: SLF001
                                  Rect(b, b, tw, th), back=back)
    return resolved


def face_findings(renderer: CardRenderer, deck: Deck, card: Card | None, back: bool = False,
                  ink: str = "normal") -> list[tuple[tuple, str]]:
    """(key, message) of every legibility problem of one face; the key groups the same finding across
    cards."""
    resolved = _face(renderer, deck, card, back, ink)
    tw, th = renderer.size(deck)
    paints = face_paints(resolved, lambda b: renderer._placed_rect(b, tw, th))  # noqa: SLF001
    found = []
    for index, (box, data) in enumerate(resolved):
        if not data or not data.lettered or not data.markup:
            continue
        area, runs = text_layout(renderer, box, data, deck, card, back)
        under = backdrop(paints, area, index)
        pictures = [p.name for p in under if p is not None and p.color is None]
        colours = {(p.color if p is not None else PAPER): (p.name if p is not None else "the paper")
                   for p in under if p is None or p.color is not None}
        place = (box.file, box.line, box.name)
        for run in runs:
            if run.size < MIN_SIZE - 0.01:
                found.append(
                    (
                        place + ("size", run.size),
                        f"text at {run.size:g} pt; expected at least {MIN_SIZE:g} pt",
                    )
                )
            need = needed_ratio(run.size)
            pairs = [(run.back, "its own background")] if run.back else list(colours.items())
            for back, what in pairs:
                ratio = contrast_ratio(run.color, back)
                if ratio < need - 1e-9:
                    found.append(
                        (
                            place + ("contrast", run.color, back, round(run.size, 2)),
                            f"contrast {ratio:.2f}:1 ({run.color} on {back} of {_named(what)}) at "
                            f"{run.size:g} pt; expected at least {need:g}:1 (3:1 from {LARGE_TEXT:g} pt)",
                        )
                    )
            if pictures and not run.back:
                found.append((place + ("picture", pictures[0]),
                              f"text lies over the picture of box '{pictures[0]}', so its contrast cannot be "
                              "checked; expected a filled shape under it"))
    return found


def _named(what: str) -> str:
    return what if what in ("the paper", "its own background") else f"box '{what}'"


def check_legibility(renderer: CardRenderer, ink: str = "normal") -> list[Problem]:
    """Located warnings for every text of every face that is too faint or too small (the renderer is checked);
    `ink="saver"` checks the faces as the ink saver draws them."""
    seen: dict[tuple, list] = {}
    for deck in renderer.game.decks.values():
        try:
            backs = [(face.cards[0], True, face.card) for face in renderer.backs(deck)]
        except InputError:
            backs = []  # a back that cannot be drawn fails the build checks with its own message
        for card, back, shown in backs + [(card, False, card) for card in deck.cards]:
            try:
                findings = face_findings(renderer, deck, card, back, ink)
            except InputError:
                continue  # a face that cannot be drawn fails the build checks with its own message
            if not back:
                where = f"card {card.code} ({card.id})"
            else:
                where = (
                    f"the back of card {shown.code} ({shown.id})"
                    if shown
                    else f"the back of deck '{deck.id}'"
                )
            for key, message in dict(findings).items():  # each finding once per face
                entry = seen.setdefault(key, [where, message, 0])
                entry[2] += 1
    problems = []
    for (file, line, name, *_rest), (where, message, count) in seen.items():
        more = f" (and {count - 1} more face{'s' if count > 2 else ''})" if count > 1 else ""
        problems.append(Problem(file, line, f"{where}: box '{name}': {message}{more}"))
    return list(dict.fromkeys(problems))


def text_areas(renderer: CardRenderer, deck: Deck, card: Card | None,
               back: bool = False) -> list[tuple[Rect, float]]:
    """Where the texts of a face are (trim coordinates: origin at the trim's lower-left) and the smallest size
    in each, as drawn. For pictures of cards: keep callouts off the text, and keep the text large enough."""
    b = renderer.bleed
    areas = []
    for box, data in _face(renderer, deck, card, back):
        if not data or not data.lettered or not data.markup:
            continue
        area, runs = text_layout(renderer, box, data, deck, card, back)
        if runs:
            areas.append((area.shifted(-b, -b), min(run.size for run in runs)))
    return areas
