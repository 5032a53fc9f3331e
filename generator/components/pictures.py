"""Pictures for the rules: each component flat (as printed) and made up, drawn by the same art as the sheets.

A made-up piece is drawn in cabinet projection: its front face as it is, its top and right side slanted back
at 45 degrees at half depth, so the front art of a tuck box or die reads undistorted. `Picture` measures
itself first (natural size) and is scaled to the room the rules give it.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.components.art import (
    draw_die,
    draw_die_face,
    draw_standee,
    draw_tuckbox,
    draw_tuckbox_panel,
    region_clip,
)
from generator.components.draw import draw_cuts, draw_net_lines, shade_glue
from generator.components.faces import faces_for
from generator.components.nets import Net, Region, rect_path
from generator.components.sheets import net_of, sheet_size
from generator.components.table_sheet import draw_sheet, sheet_texts
from generator.core.units import mm
from generator.data.components import Component, tuckbox_plan
from generator.data.game import Game

DEPTH = 0.35     # cabinet projection: depth drawn at half length, 45 degrees (0.5 x cos 45)
GAP = mm(10)     # between the flat piece and the made-up one
ARROW = "#9a9a9a"


@dataclass
class Picture:
    """A component flat and made up, side by side; (width, height) in points before scaling."""

    game: Game
    component: Component
    width: float = 0.0
    height: float = 0.0

    def __post_init__(self):
        self.flat = self._flat()
        self.made = self._made_size()
        w1, h1 = self.flat
        w2, h2 = self.made
        self.width = w1 + (GAP * 2 + w2 if w2 else 0.0)
        self.height = max(h1, h2)

    def _flat(self) -> tuple[float, float]:
        component = self.component
        if component.kind == "token":
            shape = component.shape
            shown = self._tokens()
            return len(shown) * shape.width + (len(shown) - 1) * mm(3), shape.height
        if component.kind == "sheet":
            return sheet_size(component, "letter")
        net = self._net()
        return net.width, net.height

    def _tokens(self):
        """The tokens shown: the first copy of up to four items, and the back of the first when it has one."""
        items = self.component.items[:4]
        return [(item, "front") for item in items] + ([(items[0], "back")] if self.component.two_sided else [])

    def _net(self) -> Net:
        return net_of(self.game, self.component, 1)

    def _box(self) -> tuple[float, float, float]:
        """Width, height and depth of the made-up piece (none for tokens and sheets)."""
        component = self.component
        if component.kind == "die":
            edge = self._net_edge()
            return edge, edge, edge
        if component.kind == "tuckbox":
            box = tuckbox_plan(component, self.game.decks)[0]
            return box.width, box.height, box.depth
        if component.kind == "standee":
            net = self._net()
            front = next(r for r in net.regions if r.name == "front")
            base = next(r for r in net.regions if r.name == "base")
            return front.width, front.height + base.height, base.width
        return 0.0, 0.0, 0.0

    def _net_edge(self) -> float:
        return next(r for r in self._net().regions if r.name == "face-1").width

    def _made_size(self) -> tuple[float, float]:
        w, h, d = self._box()
        if not w:
            return 0.0, 0.0
        return w + d * DEPTH, h + d * DEPTH

    def draw(self, canvas: Canvas, x: float, y: float, scale: float) -> None:
        """Draw the picture with its lower-left corner at (x, y), scaled."""
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        w1, h1 = self.flat
        canvas.saveState()
        canvas.translate(0, (self.height - h1) / 2)
        self._draw_flat(canvas)
        canvas.restoreState()
        if self.made[0]:
            mid = self.height / 2
            canvas.setStrokeColor(HexColor(ARROW))
            canvas.setFillColor(HexColor(ARROW))
            canvas.setLineWidth(1.5 / scale)
            ax0, ax1 = w1 + GAP * 0.25, w1 + GAP * 1.6
            canvas.line(ax0, mid, ax1, mid)
            head = GAP * 0.3
            path = canvas.beginPath()
            path.moveTo(ax1 + head, mid)
            path.lineTo(ax1, mid + head * 0.6)
            path.lineTo(ax1, mid - head * 0.6)
            path.close()
            canvas.drawPath(path, stroke=0, fill=1)
            canvas.translate(w1 + GAP * 2, (self.height - self.made[1]) / 2)
            self._draw_made(canvas)
        canvas.restoreState()

    # -- flat ---------------------------------------------------------------------------------------------------
    def _draw_flat(self, canvas: Canvas) -> None:
        game, component = self.game, self.component
        faces = faces_for(game)
        if component.kind == "token":
            shape = component.shape
            for n, (item, side) in enumerate(self._tokens()):
                cx = n * (shape.width + mm(3)) + shape.width / 2
                cy = shape.height / 2
                faces.place_clipped(canvas, component, item if side == "front" else None, cx, cy, shape.path(cx, cy))
                draw_cuts(canvas, [shape.path(cx, cy)])
            return
        if component.kind == "sheet":
            w, h = sheet_size(component, "letter")
            draw_sheet(canvas, game, component, sheet_texts(game, component), 0, 0, w, h)
            if component.model.size != "page":
                draw_cuts(canvas, [rect_path(0, 0, w, h)])
            return
        net = self._net()
        shade_glue(canvas, net)
        if component.kind == "die":
            draw_die(canvas, faces, component, net)
        elif component.kind == "standee":
            draw_standee(canvas, faces, component, component.items[0], net)
        else:
            draw_tuckbox(canvas, game, component, tuckbox_plan(component, game.decks)[0], net)
        draw_net_lines(canvas, net)

    # -- made up ------------------------------------------------------------------------------------------------
    def _faces(self, canvas: Canvas, w: float, h: float, d: float, front, top, side) -> None:
        """Draw front (w x h), top (w x d) and right side (d x h) of a box in cabinet projection."""
        k = DEPTH
        for draw, matrix, size in ((side, (k, k, 0, 1, w, 0), (d, h)), (top, (1, 0, k, k, 0, h), (w, d)),
                                   (front, (1, 0, 0, 1, 0, 0), (w, h))):
            canvas.saveState()
            canvas.transform(*matrix)
            clip = canvas.beginPath()
            clip.rect(0, 0, size[0], size[1])
            canvas.clipPath(clip, stroke=0, fill=0)
            draw(Region("face", size[0] / 2, size[1] / 2, size[0], size[1]))
            canvas.setStrokeColor(HexColor("#333333"))
            canvas.setLineWidth(0.6)
            canvas.rect(0, 0, size[0], size[1], stroke=1, fill=0)
            canvas.restoreState()

    def _draw_made(self, canvas: Canvas) -> None:
        game, component = self.game, self.component
        faces = faces_for(game)
        w, h, d = self._box()
        if component.kind == "die":
            def face(number):
                return lambda region: draw_die_face(canvas, faces, component, number, region)
            self._faces(canvas, w, h, d, face(2), face(1), face(3))
        elif component.kind == "tuckbox":
            box = tuckbox_plan(component, game.decks)[0]

            def panel(name: str, angle: float = 0.0):
                def draw(region: Region) -> None:
                    across = angle % 180 == 90
                    turned = Region(name, region.cx, region.cy, region.height if across else region.width,
                                    region.width if across else region.height, angle=angle)
                    draw_tuckbox_panel(canvas, game, component, box, turned)
                return draw
            self._faces(canvas, w, h, d, panel("front"), panel("lid", 180), panel("side-left", 90))
        elif component.kind == "standee":
            self._draw_standing(canvas, w, h, d)

    def _draw_standee_front(self, canvas: Canvas, region: Region) -> None:
        faces = faces_for(self.game)
        item = self.component.items[0]
        faces.place_clipped(canvas, self.component, item, region.cx, region.cy, region_clip(region))

    def _draw_standing(self, canvas: Canvas, w: float, h: float, d: float) -> None:
        """The figure upright on its feet, the base crossing under it from front to back."""
        net = self._net()
        figure = next(r for r in net.regions if r.name == "front")
        foot = h - figure.height
        k = DEPTH
        # the base: a strip running back through the middle of the feet; its front half is drawn again on top
        def base(fraction: float) -> None:
            canvas.saveState()
            canvas.setFillColor(HexColor("#dddddd"))
            canvas.setStrokeColor(HexColor("#333333"))
            canvas.setLineWidth(0.6)
            path = canvas.beginPath()
            x0, x1 = w / 2, w / 2 + d * k * fraction
            path.moveTo(x0, 0)
            path.lineTo(x1, d * k * fraction)
            path.lineTo(x1, d * k * fraction + foot)
            path.lineTo(x0, foot)
            path.close()
            canvas.drawPath(path, stroke=1, fill=1)
            canvas.restoreState()

        base(1.0)
        canvas.saveState()
        canvas.translate(d * k / 2, d * k / 2)
        canvas.setStrokeColor(HexColor("#333333"))
        canvas.setLineWidth(0.6)
        canvas.setFillColor(HexColor("#ffffff"))
        canvas.rect(0, 0, w, foot, stroke=1, fill=1)
        self._draw_standee_front(canvas, Region("front", w / 2, foot + figure.height / 2, w, figure.height))
        canvas.rect(0, foot, w, figure.height, stroke=1, fill=0)
        canvas.restoreState()
        base(0.5)
