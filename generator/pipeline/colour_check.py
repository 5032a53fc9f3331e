"""The colour-vision check of `pnp validate`: things a player must tell apart that look alike to a player with
protanopia, deuteranopia or tritanopia (generator.core.colour_vision).

What must be told apart: the backs of the decks that share a card size (a deck is found by its back while it
lies face down), and the kinds of piece of each token or standee component (player colours, token kinds).
Each pair is drawn small, as it prints, and compared as each deficiency sees it; a pair that differs only in
colours that collapse is a warning (an error with --strict) located at the layout box whose colour makes the
difference.
"""

from __future__ import annotations

from itertools import combinations

from PIL import Image

from generator.core.colour_vision import collapses
from generator.core.errors import Problem
from generator.data.game import Card, Deck, Game
from generator.exports.png import Face, face_images
from generator.faces.face import renderer_for

CHECK_NAME = "colour vision: decks' backs and pieces told apart with protanopia, deuteranopia, tritanopia"
PIXELS = 96           # the long side of each picture compared: enough for a letter or a mark
MM_PER_PT = 25.4 / 72
MOST_KINDS = 40       # kinds of piece compared per component (780 pairs)
REMEDY = "expected a difference a player sees without colour too: a letter, a symbol, a pattern or lightness"


def _size(width: float, height: float) -> tuple[int, int]:
    scale = PIXELS / max(width, height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _flat(image: Image.Image) -> list[tuple[int, int, int]]:
    """A picture on white (a piece's transparent outside is the table), as sRGB pixels."""
    if image.mode == "RGBA":
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        image = Image.alpha_composite(white, image)
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def _named(found: list[tuple[str, float, float]]) -> str:
    return ", ".join(f"{name} (ΔE {seen:.1f}, against {typical:.0f} with typical vision)"
                     for name, seen, typical in found)


def _deck_backs(game: Game) -> list[Problem]:
    renderer = renderer_for(game)
    by_size: dict[tuple[float, float], list[Deck]] = {}
    for deck in game.decks.values():
        if deck.cards:
            by_size.setdefault(tuple(deck.size_pt), []).append(deck)
    problems = []
    for (width, height), decks in by_size.items():
        if len(decks) < 2:
            continue
        size = _size(width, height)
        pixel_mm2 = (width / size[0] * MM_PER_PT) * (height / size[1] * MM_PER_PT)
        pictures = {deck.id: _flat(next(face_images(game, deck, [Face(None, width, height, trimmed=True,
                                                                       back=True)], sizes=[size])))
                    for deck in decks}
        for one, other in combinations(decks, 2):
            found = collapses(pictures[one.id], pictures[other.id], pixel_mm2)
            if found:
                layout = renderer.back_layout(other)
                problems.append(Problem(layout.file, 1, (
                    f"the backs of decks '{one.id}' and '{other.id}' look alike with {_named(found)}: a "
                    f"player cannot tell which deck a face-down card is from; {REMEDY}")))
    return problems


def _differing_box(game: Game, deck: Deck, one: Card, other: Card) -> tuple[str, int, str]:
    """(file, line, name) of the first layout box that draws the two pieces differently."""
    from generator.components.faces import faces_for

    renderer = faces_for(game)
    drawn_one, drawn_other = renderer.resolved(deck, one), renderer.resolved(deck, other)
    for (box, data), (_, data_other) in zip(drawn_one, drawn_other, strict=False):
        if data != data_other:
            return box.file, box.line, box.name
    layout = renderer.front_layout(other)
    return layout.file, 1, ""


def _pieces(game: Game) -> list[Problem]:
    from generator.components.faces import faces_for
    from generator.exports.components import face_pngs

    problems = []
    sets = faces_for(game).sets
    for component in game.components.values():
        items = list(component.items)[:MOST_KINDS] if component.model.lists_items else []
        if len(items) < 2:
            continue
        width, height = component.face_size()
        dpi = PIXELS / (max(width, height) / 72)
        fronts = dict(face_pngs(game, component, dpi))
        pixel_mm2 = (25.4 / dpi) ** 2
        pictures = {item.code: _flat(fronts[f"{item.code}.png"]) for item in items}
        for one, other in combinations(items, 2):
            found = collapses(pictures[one.code], pictures[other.code], pixel_mm2)
            if found:
                file, line, box = _differing_box(game, sets[component.id], one, other)
                where = f"box '{box}' " if box else ""
                problems.append(Problem(file, line, (
                    f"{where}makes {component.id}'s '{one.id}' and '{other.id}' differ only in colours that "
                    f"look alike with {_named(found)}: players cannot tell these pieces apart; {REMEDY}")))
    return problems


def colour_vision_problems(game: Game) -> list[Problem]:
    """Every pair of a game's decks' backs and of its kinds of piece that only colour tells apart, where that
    colour collapses for a deficiency."""
    return _deck_backs(game) + _pieces(game)
