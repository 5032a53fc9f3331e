"""Image boxes: a PNG, JPG or SVG inside the game folder (`image:` a path, a template giving one, or
`auto`), `fit: contain` (whole, the default) or `cover` (the box filled, cropped); see generator.faces.image.

`image: auto` finds the card's art by the game's pattern (game.yaml `art:`, default `images/{deck}/{id}`,
each of .png, .jpg, .jpeg and .svg tried). Art that is not there (`auto` finding nothing, or a template that
renders empty) is a located warning and a placeholder: the card's name on a grey field with crossed lines
(`placeholder: none` leaves the box empty); `pnp validate --strict` fails on it. A path written out that
does not exist stays an error (a typo). `bleed: mirror` or `bleed: extend` runs raster art drawn only to the
trim into the bleed: its edges mirrored, or their last pixels stretched.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Problems
from generator.core.fonts import BODY
from generator.faces import icons
from generator.faces import image as cardimage
from generator.faces.boxes.base import Box, BoxKind, Drawing, Picture, Rect4
from generator.faces.boxes.shape import colour

AUTO = "auto"
DEFAULT_ART = "images/{deck}/{id}"
ART_BLEEDS = ("mirror", "extend")  # `bleed:` values that make a bleed from the art's own edges
PLACEHOLDER_FILL, PLACEHOLDER_LINES, PLACEHOLDER_TEXT = "#d9d9d9", "#a6a6a6", "#4d4d4d"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImageData(Picture):
    """What an image box shows on one card: the picture's file, its name as written and how it fits the box;
    or, for missing art, `image` None and the `placeholder` label (None: nothing drawn). `inner` is the box
    without its bleed when the bleed is made from the art (`bleed: mirror | extend`)."""

    image: Path | None
    image_name: str
    fit: str
    placeholder: str | None = None
    art_bleed: str | None = None
    inner: Rect4 | None = None


class ImageBox(BoxKind):
    """A box of `image: <path | auto>`."""

    key = "image"
    templated = ("image",)
    inside_safe = False
    worded = False

    @classmethod
    def check(cls, box: Box, problems: Problems) -> None:
        """`bleed: mirror | extend` needs a picture the box fills."""
        if box.get("bleed") in ART_BLEEDS and box.get("fit", "contain") != "cover":
            problems.add(box.file, box.line, f"box '{box.name}' has bleed: {box.get('bleed')}, which makes "
                         "the bleed from the edges of art that fills the box; expected fit: cover with it")

    @classmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        return ()

    @classmethod
    def bleeds(cls, box: Box) -> bool:
        return True

    def resolve(self, box: Box, context: dict) -> ImageData | None:
        renderer, game = self.renderer, self.renderer.game
        value = renderer.value(box, "image", context) or ""
        fill, stroke = renderer.paints(box, context)
        fit = box.get("fit", "contain")
        if value.strip().lower() == AUTO:
            value = self._auto(context)
        path = None
        if value:
            try:
                path = cardimage.locate(game.project, game.dir, value, game.show(game.dir))
            except cardimage.ImageProblem as exc:
                missing = value == self._auto_name(context) and not Path(value).suffix
                if not missing:
                    raise renderer.fail_at_field(box, context, value, str(exc)) from None
        art_bleed = box.get("bleed") if box.get("bleed") in ART_BLEEDS else None
        inner = None
        if art_bleed and path is not None:
            if path.suffix.lower() == ".svg":
                raise renderer.fail(box, context, f"bleed: {art_bleed} makes the bleed from the pixels of "
                                    f"raster art, and image '{value}' is an SVG; expected a PNG or JPG (or "
                                    "bleed: true, which draws the SVG into the bleed)")
            deck = renderer.deck_named(context["deck"]["id"])
            inner = renderer._box_rect(box, *renderer.size(deck), False)  # noqa: SLF001 - the box at the trim
        if path is None:  # the art is missing: a placeholder (or nothing), with a warning
            card = context.get("card")
            label = str(card.get("name", "")) if card is not None else str(context["deck"].get("name", ""))
            return ImageData(image=None, image_name=value, fit=fit, fill=fill, stroke=stroke,
                             placeholder=None if box.get("placeholder") == "none" else label)
        return ImageData(image=path, image_name=value, fit=fit, fill=fill, stroke=stroke, art_bleed=art_bleed,
                         inner=inner)

    def _auto_name(self, context: dict) -> str:
        card = context.get("card")
        pattern = self.renderer.game.config.art or DEFAULT_ART
        card_id = str(card.get("id", "")) if card is not None and context.get("side") != "back" else "back"
        code = str(card.get("code", "")) if card is not None else ""
        return pattern.replace("{deck}", str(context["deck"].get("id", ""))).replace("{id}", card_id) \
            .replace("{code}", code)

    def _auto(self, context: dict) -> str:
        """The card's art by the game's pattern: the first of its picture files that exists, else the pattern
        as filled in (missing)."""
        name = self._auto_name(context)
        if Path(name).suffix.lower() in cardimage.SUFFIXES:
            return name
        game, first = self.renderer.game, cardimage.SUFFIXES[0]
        try:
            base = str(game.project.inside(name + first, game.dir, what="image"))[:-len(first)]
        except Exception:  # noqa: BLE001 - outside the project: locate() says so for the name itself
            return name + first
        # the folder resolved once; locate() checks the file found (a link included) as any other
        for suffix in cardimage.SUFFIXES:
            if os.path.isfile(base + suffix):
                return name + suffix
        return name

    def warnings(self, box: Box, data: ImageData, deck, context: dict) -> list[str]:
        """A located warning when the art is missing, when a raster image prints below 300 dpi, and for what
        of an SVG is not drawn."""
        renderer = self.renderer
        where = f"{box.file}:{box.line}: {renderer.where(context)}: box '{box.name}'"
        if data.image is None:
            looked = f"image '{data.image_name}' (.png, .jpg or .svg) not found" if data.image_name else \
                "its image is empty"
            shown = "a placeholder is printed" if data.placeholder is not None else "nothing is printed"
            return [f"{where}: {looked}, so {shown}; expected the card's art in "
                    f"{renderer.game.show(renderer.game.dir)}/ (pnp validate --strict fails on missing art)"]
        _x, _y, w, h = renderer._placed_rect(box, *renderer.size(deck))  # noqa: SLF001
        message = cardimage.low_dpi_message(data.image, data.image_name, w, h, data.fit)
        found = [f"{where}: {message}"] if message else []
        if data.image.suffix.lower() == ".svg":
            found += [f"{line} (box '{box.name}' of {box.file}:{box.line})" for line in
                      icons.undrawn_messages(data.image, f"image '{data.image_name}'", renderer.game.show)]
        return found

    def draw(self, canvas: Canvas, box: Box, data: ImageData, rect: Rect4, face: Drawing) -> None:
        if data.image is None:
            if data.placeholder is not None:
                draw_placeholder(canvas, data.placeholder, *rect)
            return
        max_dpi = self.renderer.game.config.max_image_dpi
        if data.art_bleed and data.inner is not None:
            cardimage.draw_art_bleed(canvas, data.image, data.inner, rect, data.art_bleed, max_dpi=max_dpi)
            return
        cardimage.draw_image(canvas, data.image, rect, data.fit, fade=data.fade, max_dpi=max_dpi)

    def let_go(self, form: str) -> None:
        return None  # it keeps nothing per face


def missing_art(warning: str) -> bool:
    """Whether a renderer warning is one of missing art (which `pnp validate --strict` fails on)."""
    return "(pnp validate --strict fails on missing art)" in warning


def draw_placeholder(canvas: Canvas, label: str, x: float, y: float, w: float, h: float) -> None:
    """Missing art: a grey field with its diagonals crossed and `label` (the card's name) in the middle."""
    canvas.saveState()
    canvas.setFillColor(colour(PLACEHOLDER_FILL))
    canvas.setStrokeColor(colour(PLACEHOLDER_LINES))
    canvas.setLineWidth(0.75)
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    canvas.line(x, y, x + w, y + h)
    canvas.line(x, y + h, x + w, y)
    if label:
        size = min(10.0, h / 3, 0.85 * w / max(stringWidth(label, BODY, 1.0), 1e-6))
        if size >= 3:
            width = stringWidth(label, BODY, size)
            canvas.setFillColor(colour("#ffffff"))
            canvas.rect(x + (w - width) / 2 - 2, y + h / 2 - size * 0.45, width + 4, size * 1.2, stroke=0,
                        fill=1)
            canvas.setFillColor(colour(PLACEHOLDER_TEXT))
            canvas.setFont(BODY, size)
            canvas.drawCentredString(x + w / 2, y + h / 2 - size * 0.2, label)
    canvas.restoreState()
