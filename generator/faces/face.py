"""Drawing one card face or back from its layout; each face becomes a PDF Form XObject drawn once per canvas.

Public API (used by the card sheets, rule booklets and PNG exports):
- `draw_front(canvas, game, card, x, y, bleed=True)` / `draw_back(canvas, game, deck, x, y, bleed=True, card=None)`:
  (x, y) is the lower-left corner of the bleed box; with bleed=False the card is clipped to its trim box and
  (x, y) is the trim's lower-left corner. `draw_back` draws the back `card` shows (generator.faces.backs); without
  a card, the deck's usual back.
- `render_card_pdf(game, card_or_deck, path, side='front'|'back', bleed_pt=None)`: a one-page PDF of trim + bleed
  with TrimBox and BleedBox set.
"""

from __future__ import annotations

import functools
import hashlib
import html
import re
import weakref
from dataclasses import replace
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.core.caching import per_game
from generator.core.errors import Cell, InputError, Problem, Problems, did_you_mean
from generator.core.fonts import BODY, fallback_markup, register_fonts
from generator.core.geometry import Rect
from generator.core.pdfstream import form_made
from generator.core.units import to_pt
from generator.data.fonts import field_with, unknown_font
from generator.data.game import Card, Deck, Game
from generator.data.templating import GameHelpers, game_view
from generator.faces import icons, inksaver
from generator.faces import image as cardimage
from generator.faces import text as cardtext
from generator.faces.backs import BackFace, back_name, group_backs, layout_uses_card
from generator.faces.characters import character_problems
from generator.faces.layout import Box, Layout, LayoutLoader
from generator.faces.outline import check_inside
from generator.faces.plain_text import draw_plain, plain_lines
from generator.faces.text import (
    MIN_TEXT_SIZE,
    TemplateProblem,
    Templates,
    TextOverflow,
    TextStyle,
    card_helpers,
    fit_text,
)

DEFAULTS = {"font": "body", "size": "9pt", "min_size": "7pt", "leading": 1.15, "align": "left",
            "valign": "top", "color": "#222222"}
EDGE_TOL = 0.01
SHAPE_MEMO = 20_000  # recorded shapes per canvas (a few MB at most), for decks whose every card differs
LAID_MEMO = 1_000  # laid-out texts kept for the next paper: a fitted paragraph holds some 18 kB, so 18 MB at most
_TAGS = re.compile(r"<[^>]*>")
_WORD = re.compile(r"\w+")  # the words of a text, without its punctuation and separators


class CardRenderer:
    """Everything needed to draw a game's cards: layouts (resolved once), templates (compiled once), helpers."""

    def __init__(self, game: Game):
        register_fonts()
        self.game = game
        self.fonts = game.fonts
        self.bleed = game.bleed_pt
        self.safe = game.safe_pt
        self.icons = icons.IconSource(game.project.icon_dirs(game.id), game.project)
        self.view = game_view(game)
        self.templates = Templates(GameHelpers(game, self.view).functions()
                                   | card_helpers(self.icons.inline_markup, self.icons.problem))
        words = game.translation.box_texts() if game.translation is not None else None
        self.loader = LayoutLoader(game.project.layout_dirs(game.id), game.show, game.project, words)
        self._layouts: dict[tuple[str, str], Layout] = {}
        self._forms: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._shapes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # canvas -> key -> operators
        self._resolved: dict[str, list] = {}
        # form name -> laid-out text of its boxes: each fitted paragraph (or plain lines) is made once and drawn
        # again on the next paper; let go with the face's rendered data (see `last_use`)
        self._laid: dict[str, dict[tuple, tuple]] = {}
        self._laid_held = 0  # texts in `_laid`, at most LAID_MEMO
        self._backs: dict[str, list[BackFace]] = {}
        self._back_of: dict[str, dict[int, BackFace]] = {}  # deck id -> card index -> the back it shows
        self._fitted: dict[tuple, float] = {}  # (markup, style, w, h) -> font size that fits
        self.checked = False  # `check` went through without a problem
        self._colours: set[str] = set()  # colour values that passed the check
        self._last_use: weakref.WeakSet = weakref.WeakSet()  # canvases after which no drawing needs `_resolved`
        self.warnings: list[str] = []  # located, for the build's output and the manifest (low-resolution images)

    # -- layouts -------------------------------------------------------------------------------------------------
    def size(self, deck: Deck) -> tuple[float, float]:
        """Trim width and height of the deck's cards in points."""
        return deck.size_pt

    def _layout(self, name: str, deck: Deck, wanted_by: Problem) -> Layout:
        key = (name, deck.id)
        if key not in self._layouts:
            w, h = self.size(deck)
            layout = self.loader.resolve(name, w, h, self.bleed, self.safe, wanted_by)
            if deck.shape is not None:  # round and hex cards: text and icons stay inside the outline
                problems = Problems()
                check_inside(deck.shape, layout, f"deck '{deck.id}'", problems)
                problems.raise_if_any()
            unknown = [box for box in layout.boxes if box.kind == "text" and self.fonts.get(box.get("font", "body")) is None]
            if unknown:
                raise InputError([Problem(box.file, box.line, unknown_font(box.get("font"), self.fonts)) for box in unknown])
            self._layouts[key] = layout
        return self._layouts[key]

    def front_layout(self, card: Card) -> Layout:
        """The card's own `layout:`, else the deck's, else the layout named like the deck."""
        deck = self.game.decks[card.deck]
        name = card.layout or deck.layout or deck.id
        if "layout" in card.key_lines:
            where = Problem(card.file, card.line_of("layout"), "")
        else:
            where = Problem(deck.file, deck.key_lines.get("layout", deck.line), "")
        return self._layout(name, deck, where)

    def back_layout(self, deck: Deck, card: Card | None = None) -> Layout:
        """The card's own `back:` layout, else the deck's `back:`, else `<deck id>-back`."""
        if card is not None and card.back:
            where = Problem(card.file, card.line_of("back"), "")
        else:
            where = Problem(deck.file, deck.key_lines.get("back", deck.line), "")
        return self._layout(back_name(deck, card), deck, where)

    def backs(self, deck: Deck) -> list[BackFace]:
        """The deck's drawn backs (generator.faces.backs); InputError naming every back layout that fails."""
        if deck.id not in self._backs:
            problems = Problems()
            uses: dict[str, bool] = {}
            for card in deck.cards:
                name = back_name(deck, card)
                if name not in uses:
                    try:
                        uses[name] = layout_uses_card(self.back_layout(deck, card), self.templates.env)
                    except InputError as exc:
                        problems.extend(exc.problems)
                        uses[name] = False
            problems.raise_if_any()
            self._backs[deck.id] = group_backs(deck, lambda card: uses[back_name(deck, card)])
            self._back_of[deck.id] = {card.index: face for face in self._backs[deck.id] for card in face.cards}
        return self._backs[deck.id]

    def back_of(self, deck: Deck, card: Card | None) -> BackFace:
        """The drawn back a card shows; without a card, the deck's usual back (or its first back)."""
        faces = self.backs(deck)
        if card is None:
            return next((face for face in faces if face.key == "B"), faces[0])
        face = self._back_of[deck.id].get(card.index)  # a card's index is its place in its deck
        return face if face is not None else next(f for f in faces if card in f.cards)

    def context(self, deck: Deck, card: Card | None, back: bool = False) -> dict:
        """The template variables of one face: `card` (None on a back shared by several cards), `deck`, `game`
        and `side` ('front' or 'back')."""
        data = self.view["decks"][deck.id]
        if back:
            card = self.back_of(deck, card).card
        return {"card": data["cards"][card.index - 1] if card is not None else None, "deck": data, "game": self.view,
                "side": "back" if back else "front"}

    # -- checking ------------------------------------------------------------------------------------------------
    def faces(self, problems: Problems) -> list[tuple[str, Deck, Card]]:
        """Every face `check` covers: ('back', deck, a card showing it) per drawn back, ('front', deck, card)."""
        faces = []
        for deck in self.game.decks.values():
            try:
                faces += [("back", deck, face.cards[0]) for face in self.backs(deck)]
            except InputError as exc:
                problems.extend(exc.problems)
            faces += [("front", deck, card) for card in deck.cards]
        return faces

    def check(self) -> None:
        """Resolve every layout and render every box of every card once; raise all problems together.

        The same mistake in the same box for many cards (a template typo, a missing picture) is one problem
        naming the first card and how many more."""
        problems = Problems()
        grouped: dict[tuple[str, int, str], list[str]] = {}  # (file, line, message) -> the faces it concerns
        warnings: dict[str, None] = {}  # ordered and without repeats
        for side, deck, card in self.faces(problems):
            back = side == "back"
            try:
                layout = self.back_layout(deck, card) if back else self.front_layout(card)
            except InputError as exc:
                problems.extend(exc.problems)
                continue
            context = self.context(deck, card, back)
            where = self._where(context) + ": "
            resolved = []
            for box in layout.boxes:
                try:
                    data = self._resolve_box(box, context)
                except InputError as exc:
                    for problem in exc.problems:
                        if problem.message.startswith(where):
                            key = (problem.file, problem.line, problem.message[len(where):])
                            grouped.setdefault(key, []).append(where[:-2])
                        else:
                            problems.items.append(problem)
                    continue
                resolved.append((box, data))
                for name in (data or {}).get("unknown_icons", []):
                    warnings[self._icon_warning(box, context, name)] = None
                if data and "image" in data:
                    warning = self._image_warning(box, data, deck, context)
                    if warning:
                        warnings[warning] = None
            # kept so drawing (for every paper) does not render the templates again
            self._resolved[self.form_name(deck, card, back)] = resolved
        for (file, line, message), faces in grouped.items():
            more = f" and {len(faces) - 1} more card{'s' if len(faces) > 2 else ''}" if len(faces) > 1 else ""
            problems.add(file, line, f"{faces[0]}{more}: {message}")
        slips = [str(slip) for slip in self.game.warnings] + list(self.loader.warnings)
        self.warnings = list(dict.fromkeys(slips + list(warnings)))
        problems.raise_if_any()
        self.checked = True

    def resolved(self, deck: Deck, card: Card | None, back: bool = False) -> list[tuple[Box, dict | None]]:
        """What `check` rendered for each box of a face or back (texts, colours, icons, images): what it is drawn
        from, so a caller can tell whether it changed without drawing it. A face `check` did not see is rendered
        now (None for a box whose `when` is false)."""
        found = self._resolved.get(self.form_name(deck, card, back))
        if found is None:
            layout = self.back_layout(deck, card) if back or card is None else self.front_layout(card)
            context = self.context(deck, card, back or card is None)
            found = [(box, self._resolve_box(box, context)) for box in layout.boxes]
        return list(found)

    def last_use(self, canvas: Canvas) -> None:
        """This canvas is the last this process draws the faces on for the build (the last paper): each face's
        rendered data is let go once its form is drawn there (a later picture of a card renders it again)."""
        self._last_use.add(canvas)

    def drawn_digest(self) -> str:
        """A hash of everything `check` rendered, face by face: each box's geometry and style (the layouts, after
        `extends`) and its rendered data (texts, colours, icon names, image paths). Whatever a template read, from
        any file of the game, shows here; the incremental build fingerprints the card sheets with it."""
        # The bytes hashed are those of repr((box.name, ..., box.spec, data)) per box, put together from parts
        # worked out once: a box's own part is shared by every card of its layout, and a font family (in every
        # text box's data, a dataclass whose repr is slow) is written once per family.
        sha = hashlib.sha256()
        heads: dict[int, tuple[Box, str]] = {}  # id(box) -> (box, repr of the tuple up to its data)
        families: dict[int, _Shown] = {}
        for name, resolved in self._resolved.items():
            parts = [name]
            for box, data in resolved:
                head = heads.get(id(box))
                if head is None:
                    shown = repr((box.name, box.kind, box.x, box.y, box.w, box.h, box.spec, None))
                    head = heads[id(box)] = (box, shown[:-len("None)")])  # box kept: its id stays its own
                if data is not None and "family" in data:
                    family = data["family"]
                    stand_in = families.get(id(family))
                    if stand_in is None:
                        stand_in = families[id(family)] = _Shown(repr(family), family)
                    data = {**data, "family": stand_in}
                parts += (head[1], repr(data), ")")
            sha.update("".join(parts).encode())
        return sha.hexdigest()

    def _image_warning(self, box: Box, data: dict, deck: Deck, context: dict) -> str | None:
        """A located warning when the box's raster image prints below 300 dpi."""
        _x, _y, w, h = self._placed_rect(box, *self.size(deck))
        message = cardimage.low_dpi_message(data["image"], data["image_name"], w, h, data["fit"])
        return message and f"{box.file}:{box.line}: {self._where(context)}: box '{box.name}': {message}"

    def _icon_warning(self, box: Box, context: dict, name: str) -> str:
        """A located warning for `:name:` in a text that names no icon (it is printed as it is)."""
        card = self._card_of(context)
        key = field_with(card, f":{name}:") if card is not None else None
        where = f"{card.file}:{card.line_of(key)}: card '{card.id}' {key}" if key else \
            f"{box.file}:{box.line}: {self._where(context)}: box '{box.name}'"
        return (f"{where} has ':{name}:', which is no icon{did_you_mean(name, self.icons.names)}, so it is printed "
                f"as it is; expected an icon name (known: {icons.known_icons(self.icons.dirs)})")

    def _where(self, context: dict) -> str:
        card = context.get("card")
        back = context.get("side") == "back"
        if card is not None:
            return f"{'the back of ' if back else ''}card {card['code']} ({card['id']})"
        return f"the back of deck '{context['deck']['id']}'"

    def deck_named(self, deck_id: str) -> Deck | None:
        """The deck a face's context names (component renderers look in their own item sets)."""
        return self.game.decks.get(deck_id)

    def _card_of(self, context: dict) -> Card | None:
        """The card a face shows, to locate a problem at the card field it comes from."""
        card, deck = context.get("card"), self.deck_named(context["deck"]["id"])
        if card is None or deck is None or not 0 < card.get("index", 0) <= len(deck.cards):
            return None
        return deck.cards[card["index"] - 1]

    def text_origin(self, box: Box, context: dict, markup: str) -> tuple[str, int]:
        """Where the words of a text box are written: in a translated game the translation that gave the box's
        words or the translated card field the text holds, else the layout box."""
        if self.game.translation is not None:
            if box.translated is not None:
                return box.translated
            card = self._card_of(context)
            own = [card] if card is not None else []
            others = [other for deck in self.game.decks.values() for other in deck.cards if other is not card]
            for cards in (own, others):  # the card's own words first, then those it shows of other cards
                found = _field_holding(cards, markup, lambda other: other.sources.items())
                if found:
                    return found
        return box.file, box.line

    def _text_cell(self, context: dict, markup: str) -> str:
        """The spreadsheet cell whose words a text box shows ('cards/g/akcje.xlsx:Karty!G2'): the field of the
        card the face shows, when the card came from a spreadsheet (and the game is not translated); else ''."""
        card = self._card_of(context)
        if card is None or self.game.translation is not None:
            return ""
        found = _field_holding([card], markup, lambda other: [(key, other.where(key)) for key, line
                                                              in other.key_lines.items() if isinstance(line, Cell)])
        return f"{found[0]}:{found[1].cell}" if found else ""

    def _fail(self, box: Box, context: dict, message: str) -> InputError:
        return InputError(Problem(box.file, box.line, f"{self._where(context)}: box '{box.name}': {message}"))

    def _fail_at_field(self, box: Box, context: dict, value: str, message: str) -> InputError:
        """A problem with a name a box drew (an icon, an image) located where it is written: the card field that
        holds it (a YAML line or a spreadsheet cell), else the layout box."""
        card = self._card_of(context)
        key = next((key for key, held in card.as_dict().items() if key not in ("id", "code", "deck")
                    and isinstance(held, str) and held.strip() == str(value).strip()), None) if card else None
        if key is None:
            return self._fail(box, context, message)
        file, line = card.where(key)
        return InputError(Problem(file, line, f"{self._where(context)} {key}: {message} (drawn by box '{box.name}' "
                                              f"of {box.file}:{box.line})"))

    def _value(self, box: Box, key: str, context: dict, default=None) -> str | None:
        source = box.get(key)
        if source is None:
            return default
        if not isinstance(source, str):
            return source
        try:
            return self.templates.render_plain(source, context)
        except TemplateProblem as exc:
            raise self._fail(box, context, f"{key}: {exc}") from None

    def _color(self, box: Box, key: str, context: dict, default: str | None = None) -> str | None:
        value = self._value(box, key, context, default)
        if value in (None, "", "none"):
            return None
        if isinstance(value, str) and value in self._colours:  # checked before
            return value
        try:
            HexColor(value)
        except (ValueError, TypeError):
            raise self._fail(box, context, f"{key} '{value}' is not a colour; expected #rrggbb") from None
        if not str(value).startswith("#") or len(value) != 7:
            raise self._fail(box, context, f"{key} '{value}' is not a colour; expected #rrggbb")
        self._colours.add(value)
        return value

    def _resolve_box(self, box: Box, context: dict) -> dict | None:
        """The data a box needs to be drawn (rendered texts, colours, paths), or None when `when` is false."""
        if box.get("when") is not None:
            flag = self._value(box, "when", context)
            if flag.strip().lower() in ("", "false", "0", "none", "no"):
                return None
        out: dict = {}
        if box.kind == "text":
            try:
                rendered = self.templates.render(box.spec["text"], context)
            except TemplateProblem as exc:
                raise self._fail(box, context, str(exc)) from None
            family = self.fonts[box.get("font", DEFAULTS["font"])]
            markup = cardtext.rich_markup(rendered, self.icons.inline_markup, family)
            found = character_problems(box, self._where(context), family, markup, self._card_of(context))
            if found:
                raise InputError(found)
            out["family"], out["markup"] = family, fallback_markup(markup, family)
            unknown = list(dict.fromkeys(cardtext.inline_icon_names(markup)))  # left as written: no such icon
            if unknown:
                out["unknown_icons"] = unknown
            out["color"] = self._color(box, "color", context, DEFAULTS["color"])
        elif box.kind == "icon":
            name = self._value(box, "icon", context)
            if not name:
                return None
            problem = self.icons.problem(name)
            if problem is not None:
                raise self._fail_at_field(box, context, name, problem)
            out["icon"] = name
        elif box.kind == "image":
            value = self._value(box, "image", context)
            try:
                out["image"] = cardimage.locate(self.game.project, self.game.dir, value, self.game.show(self.game.dir))
            except cardimage.ImageProblem as exc:
                raise self._fail_at_field(box, context, value, str(exc)) from None
            out["image_name"], out["fit"] = value, box.get("fit", "contain")
        out["fill"] = self._color(box, "fill", context)
        out["stroke"] = self._color(box, "stroke", context)
        return out

    # -- drawing -------------------------------------------------------------------------------------------------
    def draw_layout(self, canvas: Canvas, layout: Layout, deck: Deck, card: Card | None, back: bool = False,
                    ink: str = "normal") -> None:
        """Draw a face with the lower-left corner of its bleed box at the current origin (`ink`: normal or saver)."""
        tw, th = self.size(deck)
        context = self.context(deck, card, back)
        key = self.form_name(deck, card, back)
        keep = canvas not in self._last_use  # the texts laid out here are kept for the next paper
        if keep:
            found, laid = self._resolved.get(key), self._laid.setdefault(key, {})
        else:
            found, laid = self._resolved.pop(key, None), self._laid.pop(key, {})
            self._laid_held -= len(laid)
        resolved = found if found is not None else [(box, self._resolve_box(box, context)) for box in layout.boxes]
        if ink == "saver":
            b = self.bleed
            resolved = inksaver.adapt(resolved, lambda box: self._placed_rect(box, tw, th), Rect(b, b, tw, th),
                                      back=back)
        for box, data in resolved:
            if data is not None:
                self._draw_box(canvas, box, data, tw, th, context, laid, keep)

    def _box_rect(self, box: Box, tw: float, th: float, into_bleed: bool) -> tuple[float, float, float, float]:
        b = self.bleed
        x0, y0, x1, y1 = box.x, box.y, box.x + box.w, box.y + box.h  # top-left origin, y down
        if into_bleed:
            x0 = -b if x0 <= EDGE_TOL else x0
            y0 = -b if y0 <= EDGE_TOL else y0
            x1 = tw + b if x1 >= tw - EDGE_TOL else x1
            y1 = th + b if y1 >= th - EDGE_TOL else y1
        return b + x0, b + th - y1, x1 - x0, y1 - y0  # PDF: lower-left x, y, width, height

    def _placed_rect(self, box: Box, tw: float, th: float) -> tuple[float, float, float, float]:
        """The box on the face form (PDF coordinates), run into the bleed where the box asks for it."""
        default_bleed = box.kind in ("shape", "image") or box.get("shape") == "band"
        return self._box_rect(box, tw, th, bool(box.get("bleed", default_bleed)))

    def _draw_box(self, canvas: Canvas, box: Box, data: dict, tw: float, th: float, context: dict,
                  laid: dict[tuple, tuple] | None = None, keep: bool = False) -> None:
        """Draw one resolved box; `laid` holds the face's texts laid out before (and, with `keep`, the texts laid
        out now, for the next paper)."""
        x, y, w, h = self._placed_rect(box, tw, th)
        if box.kind == "shape":
            self._draw_shape(canvas, box, data, x, y, w, h)
        elif box.kind == "text":
            if data.get("fill") or data.get("stroke"):
                self._draw_shape(canvas, box, data, x, y, w, h)
            self._draw_text(canvas, box, data, x, y, w, h, context, laid, keep)
        elif box.kind == "icon":
            side = min(w, h)
            self.icons.draw(canvas, data["icon"], x + (w - side) / 2, y + (h - side) / 2, side, side,
                            fade=data.get("fade", 0.0))
        elif box.kind == "image":
            cardimage.draw_image(canvas, data["image"], x, y, w, h, data["fit"], fade=data.get("fade", 0.0))

    def _draw_shape(self, canvas: Canvas, box: Box, data: dict, x, y, w, h) -> None:
        fill, stroke = data.get("fill"), data.get("stroke")
        if not fill and not stroke:
            return
        width = (data.get("stroke_width") or to_pt(box.get("stroke_width", "0.75pt"))) if stroke else None
        shape = box.get("shape", "rect")
        # A shape is a closed run of operators (q ... Q) that depends only on these: the same box in the same
        # colours on every card of a deck is written from the operators recorded on its first drawing on this
        # canvas. Only while no transparency is set, since a colour then writes no graphics-state change.
        key = (fill, stroke, width, shape, box.get("radius"), x, y, w, h, canvas._fillMode)  # noqa: SLF001
        opaque = canvas._extgstate.getValue("ca") == 1 and canvas._extgstate.getValue("CA") == 1  # noqa: SLF001
        known = self._shapes.setdefault(canvas, {})
        if opaque and key in known:
            canvas._code.append(known[key])  # noqa: SLF001
            return
        start = len(canvas._code)  # noqa: SLF001
        canvas.saveState()
        if fill:
            canvas.setFillColor(_colour(fill))
        if stroke:
            canvas.setStrokeColor(_colour(stroke))
            canvas.setLineWidth(width)
        args = {"stroke": 1 if stroke else 0, "fill": 1 if fill else 0}
        if shape == "rounded":
            canvas.roundRect(x, y, w, h, to_pt(box.get("radius", "2mm")), **args)
        elif shape == "circle":
            r = min(w, h) / 2
            canvas.circle(x + w / 2, y + h / 2, r, **args)
        elif shape == "ellipse":
            canvas.ellipse(x, y, x + w, y + h, **args)
        else:
            canvas.rect(x, y, w, h, **args)
        canvas.restoreState()
        if opaque and len(known) < SHAPE_MEMO:
            known[key] = "\n".join(canvas._code[start:])  # noqa: SLF001

    def text_style(self, box: Box, data: dict) -> TextStyle:
        """How a text box's paragraph looks, before fitting (font, sizes, leading, alignment, colour)."""
        return TextStyle(
            face=data["family"].name,
            size=to_pt(box.get("size", DEFAULTS["size"])),
            min_size=to_pt(box.get("min_size", DEFAULTS["min_size"])),
            leading=float(box.get("leading", DEFAULTS["leading"])),
            align=box.get("align", DEFAULTS["align"]),
            valign=box.get("valign", DEFAULTS["valign"]),
            color=data["color"],
            wrap=box.get("wrap", True) is not False,
        )

    def fit(self, box: Box, data: dict, w: float, h: float, context: dict):
        """(paragraph, font size, height) of a text box's markup shrunk to fit w x h (sizes found are cached)."""
        style = self.text_style(box, data)
        key = (data["markup"], style, round(w, 3), round(h, 3))
        known = self._fitted.get(key)
        if known is not None:  # the second paper: no search, straight to the size that fits
            style = replace(style, size=known, min_size=known)
        try:
            para, size, needed = fit_text(data["markup"], style, w, h, icons.sized_icons)
            self._fitted[key] = size
        except TextOverflow as exc:
            cell = self._text_cell(context, data["markup"])
            message = (f"text{' from ' + cell if cell else ''} does not fit even at {style.min_size:g} pt ({exc}); "
                       f"expected shorter text, a larger box or a smaller min_size (not below {MIN_TEXT_SIZE:g} pt)")
            file, line = self.text_origin(box, context, data["markup"])
            raise InputError(Problem(file, line, f"{self._where(context)}: box '{box.name}': {message}")) from None
        except ValueError as exc:  # broken markup from a template, e.g. an unclosed <b>
            raise self._fail(box, context, f"text markup is not valid: {exc}") from None
        return para, size, needed

    def _draw_text(self, canvas: Canvas, box: Box, data: dict, x, y, w, h, context: dict,
                   laid: dict[tuple, tuple] | None = None, keep: bool = False) -> None:
        style = self.text_style(box, data)
        if not data["markup"]:
            return
        if self._draw_single_line(canvas, data["markup"], style, x, y, w, h, data.get("outline", 0.0)):
            return
        key = (data["markup"], style, w, h)
        found = laid.get(key) if laid is not None else None
        if found is None:
            # explicit lines that fit at full size are drawn with Paragraph's operators, without a Paragraph
            plain = plain_lines(data["markup"], style, w, h, icons.sized_icons)
            if plain is not None:
                found = (plain, None, plain.height)
            else:
                para, _size, needed = self.fit(box, data, w, h, context)
                found = (None, para, needed)
            if keep and laid is not None and self._laid_held < LAID_MEMO:
                laid[key] = found
                self._laid_held += 1
        plain, para, needed = found
        offset = {"top": h - needed, "middle": (h - needed) / 2, "bottom": 0.0}[style.valign]
        if plain is not None:
            draw_plain(canvas, plain, x, y + offset)
        else:
            para.drawOn(canvas, x, y + offset)

    @staticmethod
    def single_line(markup: str, style: TextStyle, w: float, h: float) -> str | None:
        """The plain text of markup that fits on one line at full size (drawn without a Paragraph), else None."""
        if "<" in markup or "\n" in markup:
            return None
        text = html.unescape(markup)
        if style.size * style.leading > h + 0.01 or stringWidth(text, style.face, style.size) > w:
            return None
        return text

    def _draw_single_line(self, canvas: Canvas, markup: str, style: TextStyle, x, y, w, h,
                          outline: float = 0.0) -> bool:
        """Plain one-line text that fits at full size, drawn without a Paragraph (same placement, much faster).
        With `outline` (a line width) the letters are drawn as outlines only (the ink saver's large titles)."""
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
        canvas.setFillColor(_colour(style.color))
        canvas.setFont(style.face, style.size)
        if style.align == "center":
            canvas.drawCentredString(x + w / 2, baseline, text)
        elif style.align == "right":
            canvas.drawRightString(x + w, baseline, text)
        else:
            canvas.drawString(x, baseline, text)
        return True

    # -- forms ---------------------------------------------------------------------------------------------------
    def form_name(self, deck: Deck, card: Card | None, back: bool = False, ink: str = "normal") -> str:
        """A name unique within a PDF for this face (game and deck codes keep games apart). Fronts are F<index>;
        a back shared by several cards is B (the deck's usual back) or BL<n>, a back drawn per card B<index>;
        the ink saver's faces end in _S."""
        if back or card is None:
            suffix = self.back_of(deck, card).key
        else:
            suffix = f"F{card.index:03d}"
        return f"card_{self.game.config.code}_{deck.code}_{suffix}" + ("_S" if ink == "saver" else "")

    def ensure_form(self, canvas: Canvas, deck: Deck, card: Card | None, back: bool = False,
                    ink: str = "normal") -> str:
        """Define the face (or the back `card` shows) as a Form XObject on this canvas once; returns its name."""
        back = back or card is None
        name = self.form_name(deck, card, back, ink)
        done = self._forms.setdefault(canvas, set())
        if name in done:
            return name
        tw, th = self.size(deck)
        if back:
            card = self.back_of(deck, card).cards[0]
        layout = self.back_layout(deck, card) if back else self.front_layout(card)
        icons.enable_inline_icons(canvas)
        canvas.beginForm(name, 0, 0, tw + 2 * self.bleed, th + 2 * self.bleed)
        canvas.setFont(BODY, 9)
        self.draw_layout(canvas, layout, deck, card, back, ink)
        canvas.endForm()
        form_made(canvas, name)
        done.add(name)
        return name

    def place(self, canvas: Canvas, deck: Deck, card: Card | None, x: float, y: float, bleed: bool = True,
              clip: tuple[float, float, float, float] | None = None, back: bool = False,
              ink: str = "normal") -> None:
        """Draw the face (or with back=True the back `card` shows) with its bleed box's lower-left at (x, y),
        optionally clipped to a page rectangle; `ink="saver"` draws the ink saver's version."""
        name = self.ensure_form(canvas, deck, card, back, ink)
        canvas.saveState()
        if not bleed:
            tw, th = self.size(deck)
            clip = (x, y, tw, th)
            x, y = x - self.bleed, y - self.bleed
        if clip is not None:
            path = canvas.beginPath()
            path.rect(*clip)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(x, y)
        canvas.doForm(name)
        canvas.restoreState()


    @staticmethod
    def placement(x: float, y: float, clip: tuple[float, float, float, float]) -> str:
        """The PDF operators that `place` writes before a face (save, clip, move), formatted once per slot."""
        return f"q\n{fp_str(*clip)} re W n\n1 0 0 1 {fp_str(x, y)} cm"

    def place_prepared(self, canvas: Canvas, deck: Deck, card: Card | None, prefix: str, back: bool = False,
                       ink: str = "normal") -> None:
        """`place` with operators from `placement`: the card sheets place thousands of faces in the same slots,
        so the numbers are formatted once per slot instead of once per copy (same PDF operators as `place`)."""
        name = self.ensure_form(canvas, deck, card, back, ink)
        canvas._code.append(f"{prefix}\n/{canvas._doc.getXObjectName(name)} Do\nQ")  # noqa: SLF001
        canvas._formsinuse.append(name)  # noqa: SLF001 - what doForm records so the page lists the form


@functools.lru_cache(maxsize=4096)
def _colour(value: str) -> HexColor:
    """The ReportLab colour of a checked #rrggbb value (made once: every card of a deck asks for the same few)."""
    return HexColor(value)


class _Shown:
    """Stands in for an object in a repr: shows the text worked out once (the object is kept alive with it)."""

    __slots__ = ("text", "held")

    def __init__(self, text: str, held: object):
        self.text, self.held = text, held

    def __repr__(self) -> str:
        return self.text


def _field_holding(cards: list[Card], markup: str, places) -> tuple[str, int] | None:
    """Where the card field is written whose text a box's markup shows, among the (key, where) pairs that
    `places(card)` gives for each card; the longest text found (the likeliest to overflow), else None."""
    plain = html.unescape(_TAGS.sub("", markup.replace("<br/>", "\n")))  # other tags may split a word (fallback faces)
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


@per_game
def renderer_for(game: Game) -> CardRenderer:
    """The (cached) renderer of a loaded game."""
    return CardRenderer(game)


def draw_front(canvas: Canvas, game: Game, card: Card, x: float, y: float, bleed: bool = True,
               ink: str = "normal") -> None:
    """Draw a card's front with the lower-left of its bleed box at (x, y) (trim box when bleed=False)."""
    renderer_for(game).place(canvas, game.decks[card.deck], card, x, y, bleed, ink=ink)


def draw_back(canvas: Canvas, game: Game, deck: Deck, x: float, y: float, bleed: bool = True,
              card: Card | None = None, ink: str = "normal") -> None:
    """Draw the back of `card` (default: the deck's usual back) with the lower-left of its bleed box at (x, y)
    (trim box when bleed=False)."""
    renderer_for(game).place(canvas, deck, card, x, y, bleed, back=True, ink=ink)


def render_card_pdf(game: Game, card_or_deck: Card | Deck, path: Path, side: str = "front",
                    bleed_pt: float | None = None, ink: str = "normal") -> Path:
    """Write a one-page PDF of one card face: trim plus bleed, with TrimBox and BleedBox set."""
    renderer = renderer_for(game)
    deck = card_or_deck if isinstance(card_or_deck, Deck) else game.decks[card_or_deck.deck]
    card = card_or_deck if isinstance(card_or_deck, Card) else None
    if side == "front" and card is None:
        raise ValueError("the front needs a card, not a deck")
    tw, th = renderer.size(deck)
    b = renderer.bleed if bleed_pt is None else min(bleed_pt, renderer.bleed)
    page = (tw + 2 * b, th + 2 * b)
    canvas = Canvas(str(path), pagesize=page, invariant=1, initialFontName=BODY, pageCompression=1,
                    trimBox=(b, b, b + tw, b + th), bleedBox=(0, 0, page[0], page[1]))
    canvas.setTitle(f"{game.title} - {card.code if card else deck.name + ' back'}")
    renderer.place(canvas, deck, card, b - renderer.bleed, b - renderer.bleed, clip=(0, 0, page[0], page[1]),
                   back=side == "back", ink=ink)
    canvas.showPage()
    canvas.save()
    return Path(path)
