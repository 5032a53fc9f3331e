"""Pictures in the rules: real cards (with numbered callouts) and boards, drawn by the card and board renderers."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph

from generator.boards.draw import board_plan, draw_board
from generator.booklet.document import ACCENT, INK
from generator.booklet.text import template_file
from generator.cards.face import draw_front
from generator.cards.icons import inline_icon_image
from generator.components.pictures import Picture
from generator.core.errors import InputError, Problem
from generator.core.fonts import BODY, BODY_BOLD, TITLE
from generator.core.units import to_pt
from generator.data.game import Game


class CardFigure(Flowable):
    """One or more real cards drawn by generator.cards.face (vector), with optional numbered callouts."""

    def __init__(self, game: Game, cards: list, card_w: float, callouts: list, caption_style: ParagraphStyle,
                 caption: str = ""):
        super().__init__()
        # Callouts are numbered top to bottom so their leader lines never cross.
        self.game, self.cards, self.card_w = game, cards, card_w
        self.callouts = sorted(callouts, key=lambda c: c[2])
        self.native = game.decks[cards[0].deck].size_pt
        self.scale = card_w / self.native[0]
        self.card_h = self.native[1] * self.scale
        self.caption = Paragraph(caption, caption_style) if caption else None
        self.label_style = ParagraphStyle("callout", parent=caption_style, alignment=0, fontSize=7.5, leading=9,
                                          textColor=INK)

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        self.height = self.card_h + self.cap_h + 4
        return self.width, self.height

    def draw(self):
        canv = self.canv
        gap = 8
        row_w = len(self.cards) * self.card_w + (len(self.cards) - 1) * gap
        label_w = 0.0 if not self.callouts else min(self.width * 0.42, 130)
        x0 = (self.width - row_w - label_w - (12 if label_w else 0)) / 2
        y0 = self.cap_h + 4
        for i, card in enumerate(self.cards):
            x = x0 + i * (self.card_w + gap)
            canv.saveState()
            canv.translate(x, y0)
            canv.scale(self.scale, self.scale)
            _draw_card(canv, self.game, card)
            canv.restoreState()
        if self.callouts:
            self._draw_callouts(x0, y0, x0 + row_w + 12, label_w)
        if self.caption:
            self.caption.drawOn(canv, 0, 0)

    def _draw_callouts(self, card_x: float, card_y: float, label_x: float, label_w: float) -> None:
        canv = self.canv
        slots = len(self.callouts)
        for n, (label, fx, fy) in enumerate(self.callouts, start=1):
            px, py = card_x + fx * self.card_w, card_y + (1 - fy) * self.card_h
            ly = card_y + self.card_h - (n - 0.5) * self.card_h / slots
            canv.saveState()
            canv.setStrokeColor(ACCENT)
            canv.setLineWidth(0.7)
            canv.line(px, py, label_x - 2, ly)
            canv.setFillColor(ACCENT)
            canv.circle(px, py, 5.5, stroke=0, fill=1)
            canv.setFillColor(colors.white)
            canv.setFont(BODY_BOLD, 7)
            canv.drawCentredString(px, py - 2.4, str(n))
            canv.restoreState()
            para = Paragraph(f"<b>{n}</b>&nbsp; {label}", self.label_style)
            _, h = para.wrap(label_w, 40)
            para.drawOn(canv, label_x, ly - h / 2)


class BoardFigure(Flowable):
    """A board drawn by generator.boards.draw (vector), scaled to the text width."""

    def __init__(self, game: Game, board_id: str, width: float, caption_style: ParagraphStyle, caption: str = ""):
        super().__init__()
        self.game, self.board = game, game.boards[board_id]
        self.plan = board_plan(game, self.board)  # planned once, drawn on every pass of the multi-pass build
        bw, bh = self.plan.width, self.plan.height
        self.scale = width / bw
        self.fig_w, self.fig_h = width, bh * self.scale
        self.caption = Paragraph(caption, caption_style) if caption else None

    def wrap(self, avail_w, avail_h):
        if self.fig_w > avail_w:
            self.scale *= avail_w / self.fig_w
            self.fig_h *= avail_w / self.fig_w
            self.fig_w = avail_w
        self.width = avail_w
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        self.height = self.fig_h + self.cap_h + 4
        return self.width, self.height

    def draw(self):
        x = (self.width - self.fig_w) / 2
        draw_board(self.canv, self.game, self.board, x, self.cap_h + 4, scale=self.scale, plan=self.plan)
        if self.caption:
            self.caption.drawOn(self.canv, 0, 0)


class ComponentFigure(Flowable):
    """A component flat (as printed) and made up, drawn by generator.components.pictures, at most `max_h` high."""

    def __init__(self, game: Game, component_id: str, width: float, caption_style: ParagraphStyle,
                 caption: str = "", max_h: float = 2.1 * 72):
        super().__init__()
        self.picture = Picture(game, game.components[component_id])
        self.fig_w, self.max_h = width, max_h
        self.caption = Paragraph(caption, caption_style) if caption else None

    def wrap(self, avail_w, avail_h):
        self.width = avail_w
        self.scale = min(min(self.fig_w, avail_w) / self.picture.width, self.max_h / self.picture.height, 1.0)
        self.cap_h = self.caption.wrap(avail_w, avail_h)[1] + 4 if self.caption else 0
        self.height = self.picture.height * self.scale + self.cap_h + 4
        return self.width, self.height

    def draw(self):
        x = (self.width - self.picture.width * self.scale) / 2
        self.picture.draw(self.canv, x, self.cap_h + 4, self.scale)
        if self.caption:
            self.caption.drawOn(self.canv, 0, 0)


def _draw_card(canv, game: Game, card) -> None:
    """A card's front as printed; a card whose layout is missing shows as a plain framed card with its data."""
    try:
        draw_front(canv, game, card, 0, 0, bleed=False)
        return
    except InputError:
        pass  # the missing layout is reported by the card-sheet outputs
    w, h = game.decks[card.deck].size_pt
    canv.setFillColor(colors.HexColor("#fffaf0"))
    canv.setStrokeColor(colors.HexColor("#444444"))
    canv.roundRect(0, 0, w, h, 8, stroke=1, fill=1)
    canv.setFillColor(colors.black)
    canv.setFont(TITLE, 14)
    canv.drawCentredString(w / 2, h - 24, card.name)
    canv.setFont(BODY, 8)
    y = h - 44
    for key, value in card.fields.items():
        if value not in (None, "", [], {}):
            canv.drawString(10, y, f"{key}: {value}"[:48])
            y -= 11


def icon_markup(game: Game):
    """(icon name, size) -> Paragraph markup of the icon inline in running text, from the game's or the shared icons."""

    def markup(name: str, size: float) -> str:
        return inline_icon_image(name, size, dirs=game.project.icon_dirs(game.id))

    return markup


def _from_reference(game: Game, kind: str, ref: str) -> dict:
    """The figure spec of a picture reference `card:deck/card-id` or `board:board-id`; a located error if unknown."""
    where = game.project.show(template_file(game))
    if kind == "card":
        deck_id, _, card_id = ref.partition("/")
        deck = game.decks.get(deck_id)
        if deck is None or card_id not in deck.by_id():
            raise InputError(Problem(where, 0, f"picture 'card:{ref}' names no card; expected card:<deck>/<card id> "
                                               f"with a deck of {', '.join(game.decks)}"))
        return {"kind": "card", "deck": deck_id, "card": card_id}
    if kind == "component":
        if ref not in game.components:
            raise InputError(Problem(where, 0, f"picture 'component:{ref}' names no component; expected one of: "
                                               f"{', '.join(game.components) or 'none (the game has no component files)'}"))
        return {"kind": "component", "component": ref}
    if kind == "board":
        if ref not in game.boards:
            raise InputError(Problem(where, 0, f"picture 'board:{ref}' names no board; expected one of: "
                                               f"{', '.join(game.boards) or 'none (the game has no board)'}"))
        return {"kind": "board", "board": ref}
    raise InputError(Problem(where, 0, f"picture '{kind}:{ref}' has an unknown kind; expected card:<deck>/<card id>, "
                                       f"board:<board id> or component:<component id>"))


def figure_factory(game: Game, styles: dict[str, ParagraphStyle]):
    """Figures named in the rules text (```figure blocks) as Flowables of real cards, boards and components."""
    def make(spec: dict, width: float) -> Flowable:
        kind = spec.get("kind")
        caption = spec.get("caption", "")
        if "ref" in spec:  # Markdown picture syntax: ![caption](card:deck/card-id) or ![caption](board:board-id)
            spec = _from_reference(game, kind, spec["ref"]) | {"caption": caption}
        if kind == "board":
            fraction = float(spec.get("fraction", 1.0))
            return BoardFigure(game, spec["board"], width * fraction, styles["caption"], caption)
        if kind == "card":
            deck = game.decks[spec["deck"]]
            cards = []
            for ref in spec.get("cards") or [spec["card"]]:  # "id" in the figure's deck, or "deck/id"
                other, _, card_id = ref.rpartition("/")
                cards.append(game.decks[other or deck.id].card(card_id))
            card_w = to_pt(spec.get("width", "1.6in"))
            row_w = len(cards) * card_w + (len(cards) - 1) * 8
            if row_w > width:  # several cards side by side shrink to fit the text width
                card_w *= width / row_w
            return CardFigure(game, cards, card_w, spec.get("callouts", []), styles["caption"], caption)
        if kind == "component":
            return ComponentFigure(game, spec["component"], width * float(spec.get("fraction", 1.0)),
                                   styles["caption"], caption)
        raise InputError(Problem(game.project.show(template_file(game)), 0,
                                 f"unknown figure kind '{kind}'; expected card, board or component"))

    return make
