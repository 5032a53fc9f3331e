"""The faces of components drawn with the card layout language: token and standee items, die faces.

`ComponentFaces` is the card face renderer seeing each component's items as the cards of a deck of the
item's size (generator.data.components.Component.face_deck). Templates see `item` (also as `card`, so a card
layout can be reused), `component` and `game`; a die face layout sees `face` (number, pips, text, icon).
Text and icons of a token stay inside its outline, not just inside the box around it.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.core.caching import per_game
from generator.core.errors import InputError, Problem, Problems
from generator.core.fonts import TITLE, draw_string
from generator.core.shapes import Path, pdf_path_ops
from generator.core.units import mm
from generator.data.components import Component
from generator.data.game import Card, Deck, Game
from generator.faces.backs import BackFace
from generator.faces.face import CardRenderer
from generator.faces.layout import Layout
from generator.faces.outline import check_inside

# text and icons keep this far inside a token, standee or die face (about the cut tolerance)
ITEM_SAFE = mm(1.5)
PIPS = {
    1: [(0, 0)],
    2: [(-1, 1), (1, -1)],
    3: [(-1, 1), (0, 0), (1, -1)],
    4: [(-1, 1), (1, 1), (-1, -1), (1, -1)],
    5: [(-1, 1), (1, 1), (0, 0), (-1, -1), (1, -1)],
    6: [(-1, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (1, -1)],
}


class ComponentFaces(CardRenderer):
    """Draws the items of a game's tokens and standees and the faces of its dice from their layouts."""

    def __init__(self, game: Game):
        super().__init__(game)
        self.safe = ITEM_SAFE
        self.components = {c.id: c for c in game.components.values() if c.items}
        self.sets = {cid: c.face_deck() for cid, c in self.components.items()}

    def deck_named(self, deck_id: str) -> Deck | None:
        return self.sets.get(deck_id)

    def has_layout(self, component: Component, card: Card | None) -> bool:
        """Die faces without a layout are drawn as pips, text or an icon instead."""
        return component.model.drawn_by_layout(card)

    def faces(self, problems: Problems) -> list[tuple[str, Deck, Card | None]]:  # noqa: ARG002 - an override
        faces: list[tuple[str, Deck, Card | None]] = []
        for cid, deck in self.sets.items():
            component = self.components[cid]
            if getattr(component.model, "back", None):  # tokens with two faces, standees with a back layout
                faces.append(("back", deck, None))
            faces += [("front", deck, card) for card in deck.cards if self.has_layout(component, card)]
        return faces

    def front_layout(self, card: Card) -> Layout:
        deck = self.sets[card.deck]
        component = self.components[card.deck]
        name = card.layout or deck.layout or deck.id
        line = card.line_of("layout") if "layout" in card.key_lines else component.line_of("layout")
        return self._layout(
            name, deck, Problem(card.file if "layout" in card.key_lines else component.file, line, "")
        )

    def back_layout(self, deck: Deck, card: Card | None = None) -> Layout:  # noqa: ARG002 - an override
        """The component's one `back:` layout (items have no backs of their own)."""
        component = self.components[deck.id]
        return self._layout(
            component.model.back, deck, Problem(component.file, component.line_of("back"), "")
        )

    def backs(self, deck: Deck) -> list[BackFace]:
        """One back shared by every item: drawn once, placed for every copy."""
        if deck.id not in self._backs:
            self._backs[deck.id] = [
                BackFace("B", self.components[deck.id].model.back or "", None, tuple(deck.cards))
            ]
        return self._backs[deck.id]

    def _layout(self, name: str, deck: Deck, wanted_by: Problem) -> Layout:
        layout = super()._layout(name, deck, wanted_by)
        component = self.components[deck.id]
        if component.shape is not None:
            problems = Problems()
            check_inside(component.shape, layout, f"{component.kind} '{component.id}'", problems, ITEM_SAFE)
            problems.raise_if_any()
        return layout

    def context(self, deck: Deck, card: Card | None, back: bool = False) -> dict:
        data = self.view["components"][deck.id]
        item = data["items"][card.index - 1] if card is not None and not back else None
        context = {"item": item, "card": item, "component": data, "deck": data, "game": self.view,
                   "side": "back" if back else "front", "build": self.build_values()}
        for alias in self.components[deck.id].model.face_aliases:  # a die's face layout sees `face`
            context[alias] = item
        return context

    def _where(self, context: dict) -> str:
        component = context["component"]
        item = context.get("item")
        if item is None:
            return f"the back of {component['kind']} '{component['id']}'"
        return f"{component['kind']} '{component['id']}' item '{item['id']}'"

    def form_name(self, deck: Deck, card: Card | None, back: bool = False, ink: str = "normal") -> str:
        suffix = f"F{card.index:03d}" if card is not None and not back else "B"
        return f"comp_{self.game.config.code}_{deck.code}_{suffix}" + ("_S" if ink == "saver" else "")

    def place_clipped(self, canvas: Canvas, component: Component, card: Card | None, cx: float, cy: float,
                      clip: Path, angle: float = 0.0, mirror: bool = False) -> None:
        """Draw a face centred on (cx, cy), turned by `angle`, clipped to `clip` (a path in page points)."""
        deck = self.sets[component.id]
        name = self.ensure_form(canvas, deck, card)
        w, h = self.size(deck)
        canvas.saveState()
        canvas._code.append(f"{pdf_path_ops(clip)}\nW n")  # noqa: SLF001 - clip to the outline, draw nothing
        canvas.translate(cx, cy)
        canvas.rotate(angle)
        if mirror:
            canvas.scale(-1, 1)
        canvas.translate(-w / 2 - self.bleed, -h / 2 - self.bleed)
        canvas.doForm(name)
        canvas.restoreState()


def draw_plain_face(canvas: Canvas, icons, card: Card, x: float, y: float, size: float, fill: str,
                    color: str) -> None:
    """A die face without a layout, lower-left corner at (x, y): pips, centred text or an icon."""
    fields = card.fields
    canvas.saveState()
    canvas.setFillColor(HexColor(fields.get("fill") or fill))
    canvas.rect(x, y, size, size, stroke=0, fill=1)
    ink = HexColor(fields.get("color") or color)
    canvas.setFillColor(ink)
    cx, cy = x + size / 2, y + size / 2
    if fields.get("pips"):
        step, radius = size * 0.27, size * 0.095
        for dx, dy in PIPS[fields["pips"]]:
            canvas.circle(cx + dx * step, cy + dy * step, radius, stroke=0, fill=1)
    elif fields.get("text") is not None:
        text = str(fields["text"])
        font_size = size * (0.55 if len(text) <= 2 else 0.3)
        canvas.setFont(TITLE, font_size)
        draw_string(canvas, cx, cy - font_size * 0.35, text, TITLE, font_size, "center")
    elif fields.get("icon"):
        side = size * 0.7
        icons.draw(canvas, fields["icon"], cx - side / 2, cy - side / 2, side, side)
    canvas.restoreState()


@per_game
def faces_for(game: Game) -> ComponentFaces:
    """The (cached) component face renderer of a loaded game."""
    return ComponentFaces(game)


def check_faces(game: Game) -> None:
    """Every layout of every component face resolved and rendered once; InputError with every problem."""
    faces = faces_for(game)
    problems = Problems()
    for component in faces.components.values():
        for card in component.items:
            if component.model.drawn_by_layout(card):
                continue
            name = card.fields.get("icon")  # a face drawn without a layout: pips, text or this icon
            if name and not faces.icons.exists(name):
                problems.add(card.file, card.line, f"{component.kind} '{component.id}' face {card.index}: "
                             f"icon '{name}' does not exist; known: {faces.icons.known_text(name)}")
    try:
        faces.check()
    except InputError as exc:
        problems.extend(exc.problems)
    problems.raise_if_any()
