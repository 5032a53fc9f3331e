"""Rule booklets: build/<game>/rules.pdf (reading order, half-letter) and saddle-stitch booklets per paper size."""

from __future__ import annotations

import functools
import importlib
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, NextPageTemplate, PageBreak, Paragraph, Spacer

from generator.booklet import fit, halves, imposition
from generator.build import BuildOptions, Output
from generator.errors import InputError, Problem
from generator.fonts import BODY, BODY_BOLD, TITLE, font_files, register_fonts
from generator.load import Game
from generator.markdown_pdf import Converter, build_document, contents, hidden_heading, make_styles
from generator.rules_text import render_rules, template_file
from generator.units import INCH, MM

# Reading pages are half-letter (5.5 x 8.5 in): exactly half a Letter sheet, and 97 % of half an A4 sheet.
PAGE_SIZE = (5.5 * INCH, 8.5 * INCH)
PAPERS = {"letter": landscape(letter), "a4": landscape(A4)}
PRINT_NOTE = "Print double-sided, flip on short edge, fold, staple."


def _optional(module: str):
    """A module written by another part of the project, or None while it does not exist yet."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


# --- pictures: real cards and boards from the card and board pipelines ---------------------------------------

class CardFigure(Flowable):
    """One or more real cards drawn by generator.cardface (vector), with optional numbered callouts."""

    def __init__(self, game: Game, cards: list, card_w: float, callouts: list, caption_style: ParagraphStyle,
                 caption: str = ""):
        super().__init__()
        # Callouts are numbered top to bottom so their leader lines never cross.
        self.game, self.cards, self.card_w = game, cards, card_w
        self.callouts = sorted(callouts, key=lambda c: c[2])
        deck = game.decks[cards[0].deck]
        self.native = _card_size(game, deck)
        self.scale = card_w / self.native[0]
        self.card_h = self.native[1] * self.scale
        self.caption = Paragraph(caption, caption_style) if caption else None
        self.label_style = ParagraphStyle("callout", parent=caption_style, alignment=0, fontSize=7.5, leading=9,
                                          textColor=colors.HexColor("#222222"))

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
            canv.setStrokeColor(colors.HexColor("#b8401f"))
            canv.setLineWidth(0.7)
            canv.line(px, py, label_x - 2, ly)
            canv.setFillColor(colors.HexColor("#b8401f"))
            canv.circle(px, py, 5.5, stroke=0, fill=1)
            canv.setFillColor(colors.white)
            canv.setFont(BODY_BOLD, 7)
            canv.drawCentredString(px, py - 2.4, str(n))
            canv.restoreState()
            para = Paragraph(f"<b>{n}</b>&nbsp; {label}", self.label_style)
            _, h = para.wrap(label_w, 40)
            para.drawOn(canv, label_x, ly - h / 2)


class BoardFigure(Flowable):
    """A board drawn by generator.board_render (vector), scaled to the text width."""

    def __init__(self, game: Game, board_id: str, width: float, caption_style: ParagraphStyle, caption: str = ""):
        super().__init__()
        self.game, self.board = game, game.boards[board_id]
        bw, bh = self.board.size_pt
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
        renderer = _optional("generator.board_render")
        if renderer and hasattr(renderer, "draw_board"):
            renderer.draw_board(self.canv, self.game, self.board, x, self.cap_h + 4, scale=self.scale)
        else:
            _placeholder_board(self.canv, self.board, x, self.cap_h + 4, self.scale)
        if self.caption:
            self.caption.drawOn(self.canv, 0, 0)


def _card_size(game: Game, deck) -> tuple[float, float]:
    face = _optional("generator.cardface")
    if face and hasattr(face, "card_size_pt"):
        size = face.card_size_pt(game, deck)
        return size[0], size[1]
    return deck.size_mm[0] * MM, deck.size_mm[1] * MM


def _draw_card(canv, game: Game, card) -> None:
    face = _optional("generator.cardface")
    if face and hasattr(face, "draw_front"):
        try:
            face.draw_front(canv, game, card, 0, 0, bleed=False)
            return
        except InputError:
            pass  # a missing card layout is reported by the card-sheet outputs; the rules show a plain card
    # Placeholder until the card pipeline exists: a framed card with its name and data.
    w, h = _card_size(game, game.decks[card.deck])
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


def _placeholder_board(canv, board, x: float, y: float, scale: float) -> None:
    model = board.model
    from generator.units import to_pt

    cell, margin = to_pt(model.grid.cell), to_pt(model.grid.margin)
    bw, bh = board.size_pt
    canv.saveState()
    canv.translate(x, y)
    canv.scale(scale, scale)
    canv.setStrokeColor(colors.HexColor("#666666"))
    canv.rect(0, 0, bw, bh)
    for space in model.spaces:
        cx = margin + space.at[0] * cell
        cy = bh - margin - (space.at[1] + 1) * cell
        canv.setFillColor(colors.HexColor(space.color or "#dddddd"))
        canv.rect(cx + 1, cy + 1, cell - 2, cell - 2, fill=1, stroke=1)
    canv.restoreState()


# --- inline icons ----------------------------------------------------------------------------------------------

def _icon_markup(game: Game):
    """The Paragraph markup of an inline icon: generator.icons' vector helper, else our own onDraw fallback."""
    icons = _optional("generator.icons")
    helper = getattr(icons, "inline_icon_image", None) if icons else None

    def markup(name: str, size: float) -> str:
        if helper is not None:
            return helper(name, size, extra_dirs=[game.dir / "icons"], root=game.project.templates_dir / "icons")
        return f'<onDraw name="pnp_icon" label="{name}:{size:.2f}"/><img src="{_gap_png()}" width="{size:.2f}" height="{size:.2f}" valign="middle"/>'

    return markup


@functools.cache
def _gap_png() -> str:
    """A 1x1 transparent PNG that reserves room in a line for a vector icon drawn by the onDraw callback."""
    import tempfile

    from PIL import Image

    path = Path(tempfile.gettempdir()) / "pnp-icon-gap.png"
    if not path.is_file():
        Image.new("RGBA", (1, 1), (0, 0, 0, 0)).save(path)
    return str(path)


def _svg_drawing(game: Game, name: str):
    from svglib.svglib import svg2rlg

    for folder in (game.dir / "icons", game.project.templates_dir / "icons"):
        path = folder / f"{name}.svg"
        if path.is_file():
            drawing = svg2rlg(str(path))
            if drawing is not None:  # otherwise renderPDF starts every drawing in Helvetica
                drawing.initialFontName, drawing.initialFontSize = BODY, 8
            return drawing
    return None


def _register_icon_callback(canv, game: Game) -> None:
    """Draw `<onDraw name="pnp_icon">` icons (vector SVG via svglib) at the text position."""
    from reportlab.graphics import renderPDF
    from reportlab.platypus.paragraph import imgVRange

    cache: dict[str, object] = {}

    def draw(canvas, kind, label):
        name, _, size_text = label.rpartition(":")
        size = float(size_text)
        info = canvas._curr_tx_info
        font_size = info["xs"].style.fontSize
        y0, _ = imgVRange(size, "middle", font_size)
        x, y = info["cur_x"], info["cur_y"] + y0
        if name not in cache:
            cache[name] = _svg_drawing(game, name)
        drawing = cache[name]
        canvas.saveState()
        if drawing is None:
            canvas.setFillColor(colors.HexColor("#b8401f"))
            canvas.circle(x + size / 2, y + size / 2, size / 2, stroke=0, fill=1)
        else:
            scale = size / max(drawing.width, drawing.height)
            canvas.translate(x, y)
            canvas.scale(scale, scale)
            renderPDF.draw(drawing, canvas, 0, 0)
        canvas.restoreState()

    canv.setNamedCB("pnp_icon", draw)
    icons = _optional("generator.icons")
    if icons and hasattr(icons, "enable_inline_icons"):
        icons.enable_inline_icons(canv)


# --- the reading PDF -------------------------------------------------------------------------------------------

def figure_factory(game: Game, styles: dict[str, ParagraphStyle]):
    """Figures named in the rules text (```figure blocks) as Flowables of real cards and boards."""
    from generator.units import to_pt

    def make(spec: dict, width: float) -> Flowable:
        kind = spec.get("kind")
        caption = spec.get("caption", "")
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
        raise InputError(Problem(game.project.show(template_file(game)), 0,
                                 f"unknown figure kind '{kind}'; expected card or board"))

    return make


def _cover(game: Game, styles: dict[str, ParagraphStyle], width: float) -> list[Flowable]:
    config = game.config
    title = ParagraphStyle("cover-title", parent=styles["h1"], fontName=TITLE, fontSize=34, leading=38,
                           alignment=1, spaceBefore=0, spaceAfter=4)
    sub = ParagraphStyle("cover-sub", parent=styles["body"], fontName=TITLE, fontSize=13, leading=16, alignment=1,
                         textColor=colors.HexColor("#b8401f"))
    info = ParagraphStyle("cover-info", parent=styles["body"], fontSize=10, leading=13, alignment=1)
    players = f"{config.players.min}\u2013{config.players.max} players"
    facts = [players] + ([f"ages {config.ages}"] if config.ages else []) + (
        [config.play_time.replace("-", "\u2013")] if config.play_time else [])
    story: list[Flowable] = [Spacer(1, 30), Paragraph(config.title, title)]
    if config.subtitle:
        story.append(Paragraph(config.subtitle, sub))
    story += [Spacer(1, 6), Paragraph(" \u00b7 ".join(facts), info), Spacer(1, 22)]
    # A fan of real cards: the first card type of each deck (at most three).
    cards = [deck.cards[0] for deck in game.decks.values() if deck.cards][:3]
    if cards:
        story.append(CardFigure(game, cards, min(1.45 * INCH, (width - 16) / len(cards)), [], styles["caption"]))
    story += [Spacer(1, 18), Paragraph("Rules", ParagraphStyle("cover-rules", parent=sub, fontSize=18, leading=22))]
    return story


def reading_story(game: Game, markdown: str, width: float) -> list[Flowable]:
    """Cover, contents and the rules text as flowables."""
    styles = make_styles()
    converter = Converter(width=width, styles=styles, figures=figure_factory(game, styles), icons=_icon_markup(game))
    body = converter.convert(markdown)
    story = _cover(game, styles, width)
    story += [NextPageTemplate("body"), PageBreak(), hidden_heading("Contents", styles["h1"], "contents"),
              contents(styles), PageBreak()]
    return story + body


def render_reading_pdf(game: Game, markdown: str, path: Path) -> int:
    """Write the reading-order rules PDF; returns its page count."""
    width = PAGE_SIZE[0] - 2 * 36
    story = reading_story(game, markdown, width)
    build_document(str(path), story, title=f"{game.title} \u2013 Rules", header=f"{game.title} \u00b7 Rules",
                   page_size=PAGE_SIZE, subject=game.config.subtitle or "Rules",
                   canvas_hooks=[lambda canv: _register_icon_callback(canv, game)])
    return _page_count(path)


def _page_count(path: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(path)).pages)


# --- the imposed booklet ---------------------------------------------------------------------------------------

def _overlay(sheet: tuple[float, float], sides: int, path: Path) -> None:
    """Per sheet side: fold ticks at the spine, and the printing note at the foot of the cover on sheet 1."""
    register_fonts()
    w, h = sheet
    canv = Canvas(str(path), pagesize=sheet, invariant=1, initialFontName=BODY)
    for index in range(sides):
        canv.setStrokeColor(colors.HexColor("#999999"))
        canv.setLineWidth(0.5)
        canv.line(w / 2, h - 12, w / 2, h - 4)
        canv.line(w / 2, 4, w / 2, 12)
        if index == 0:
            canv.setFont(BODY_BOLD, 8)
            canv.setFillColor(colors.HexColor("#555555"))
            canv.drawCentredString(w * 0.75, 24, PRINT_NOTE)
        canv.showPage()
    canv.save()


def _page_form(writer, page):
    """A reading page as a Form XObject in `writer`: its content bytes are copied, never parsed (fast)."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    form = DecodedStreamObject()
    contents = page.get_contents()
    form.set_data(contents.get_data() if contents is not None else b"")
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        NameObject("/Resources"): page["/Resources"].get_object().clone(writer),
    })
    return writer._add_object(form.flate_encode())


def impose(reading_pdf: Path, paper: str, path: Path) -> int:
    """Write the saddle-stitch booklet of a reading PDF on landscape `paper`; returns the number of sheet sides.

    Each reading page becomes a Form XObject placed (scaled) on its half of the sheet; links are dropped,
    since a booklet is for paper.
    """
    import tempfile

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    reader = PdfReader(str(reading_pdf))
    sheet = PAPERS[paper]
    sides = imposition(len(reader.pages))
    with tempfile.TemporaryDirectory() as tmp:
        overlay_path = Path(tmp) / "overlay.pdf"
        _overlay(sheet, len(sides), overlay_path)
        overlay = PdfReader(str(overlay_path))
        writer = PdfWriter()
        forms: dict[int, object] = {}
        for index, side in enumerate(sides):
            target = writer.add_blank_page(width=sheet[0], height=sheet[1])
            xobjects, ops = DictionaryObject(), []
            for cell, number in zip(halves(*sheet), (side.left, side.right), strict=True):
                if number is None:
                    continue
                source = reader.pages[number - 1]
                if number not in forms:
                    forms[number] = _page_form(writer, source)
                box = source.mediabox
                place = fit(float(box.width), float(box.height), *cell)
                name = f"/Pg{number}"
                xobjects[NameObject(name)] = forms[number]
                ops.append(f"q {place.scale:.6f} 0 0 {place.scale:.6f} {place.x:.4f} {place.y:.4f} cm {name} Do Q")
            content = DecodedStreamObject()
            content.set_data(("\n".join(ops) + "\n").encode("ascii"))
            target[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
            target[NameObject("/Contents")] = writer._add_object(content)
            target.merge_page(overlay.pages[index])
            target.compress_content_streams()
        writer.add_metadata({"/Title": f"{reader.metadata.title or 'Rules'} (booklet, {paper})", "/Producer": "pnp"})
        with open(path, "wb") as handle:
            writer.write(handle)
    return len(sides)


# --- outputs ---------------------------------------------------------------------------------------------------

def _inputs(game: Game) -> list[Path]:
    paths = [template_file(game), *sorted(game.dir.glob("*.yaml"))]
    paths += sorted((game.project.templates_dir / "icons").glob("*.svg")) + sorted((game.dir / "icons").glob("*.svg"))
    return paths + list(font_files().values())


def outputs(game: Game, options: BuildOptions) -> list[Output]:
    """rules.pdf plus rules-booklet-<paper>.pdf per paper; the template is rendered now, so errors stop the build early."""
    if not template_file(game).is_file():
        return []
    markdown = render_rules(game)
    inputs = _inputs(game)
    base = Path(game.id)
    laid_out: dict[str, bytes] = {}  # the reading PDF is laid out once and reused by the booklets

    def reading_bytes() -> bytes:
        if "pdf" not in laid_out:
            import tempfile

            with tempfile.TemporaryDirectory() as folder:
                source = Path(folder) / "rules.pdf"
                render_reading_pdf(game, markdown, source)
                laid_out["pdf"] = source.read_bytes()
        return laid_out["pdf"]

    def reading(tmp: Path) -> dict:
        tmp.write_bytes(reading_bytes())
        return {"pages": _page_count(tmp), "page_size": "5.5x8.5in"}

    def booklet(paper: str):
        def render(tmp: Path) -> dict:
            import tempfile

            with tempfile.TemporaryDirectory() as folder:
                source = Path(folder) / "rules.pdf"
                source.write_bytes(reading_bytes())
                sides = impose(source, paper, tmp)
                return {"pages": sides, "reading_pages": _page_count(source), "paper": paper}
        return render

    result = [Output(game.id, base / "rules.pdf", "rules", reading, inputs)]
    for paper in options.papers:
        if paper in PAPERS:
            result.append(Output(game.id, base / f"rules-booklet-{paper}.pdf", "rules-booklet", booklet(paper), inputs))
    return result
