"""Image boxes: a PNG, JPG or SVG inside the game folder (`image:` a path or a template giving one), `fit:
contain` (whole, the default) or `cover` (the box filled, cropped); see generator.faces.image."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.core.errors import Problems
from generator.faces import icons
from generator.faces import image as cardimage
from generator.faces.boxes.base import Box, BoxKind, Drawing, Picture, Rect4


@dataclass(frozen=True, slots=True, kw_only=True)
class ImageData(Picture):
    """What an image box shows on one card: the picture's file, its name as written and how it fits the
    box."""

    image: Path
    image_name: str
    fit: str


class ImageBox(BoxKind):
    """A box of `image: <path>`."""

    key = "image"
    templated = ("image",)
    inside_safe = False
    worded = False

    @classmethod
    def check(cls, box: Box, problems: Problems) -> None:
        return None  # the picture is looked for on each card (its path may be a template)

    @classmethod
    def fonts(cls, box: Box) -> tuple[str, ...]:
        return ()

    @classmethod
    def bleeds(cls, box: Box) -> bool:
        return True

    def resolve(self, box: Box, context: dict) -> ImageData:
        renderer, game = self.renderer, self.renderer.game
        value = renderer.value(box, "image", context)
        try:
            path = cardimage.locate(game.project, game.dir, value, game.show(game.dir))
        except cardimage.ImageProblem as exc:
            raise renderer.fail_at_field(box, context, value, str(exc)) from None
        fill, stroke = renderer.paints(box, context)
        return ImageData(
            image=path, image_name=value, fit=box.get("fit", "contain"), fill=fill, stroke=stroke
        )

    def warnings(self, box: Box, data: ImageData, deck, context: dict) -> list[str]:
        """A located warning when the box's raster image prints below 300 dpi."""
        renderer = self.renderer
        _x, _y, w, h = renderer._placed_rect(box, *renderer.size(deck))  # noqa: SLF001
        message = cardimage.low_dpi_message(data.image, data.image_name, w, h, data.fit)
        where = f"{box.file}:{box.line}: {renderer.where(context)}: box '{box.name}'"
        found = [f"{where}: {message}"] if message else []
        if data.image.suffix.lower() == ".svg":
            found += [f"{line} (box '{box.name}' of {box.file}:{box.line})" for line in
                      icons.undrawn_messages(data.image, f"image '{data.image_name}'", renderer.game.show)]
        return found

    def draw(self, canvas: Canvas, box: Box, data: ImageData, rect: Rect4, face: Drawing) -> None:
        cardimage.draw_image(canvas, data.image, *rect, data.fit, fade=data.fade)

    def let_go(self, form: str) -> None:
        return None  # it keeps nothing per face
