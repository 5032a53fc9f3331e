"""The vector icon library: files, lookup, parsing, and drawing as shared Form XObjects."""

from __future__ import annotations

import hashlib
import io
import os
import re
import xml.etree.ElementTree as ET

import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.core import fonts
from generator.core.errors import InputError
from generator.data.project import BUILTIN_ICONS
from generator.faces import icons

SVG_NS = "{http://www.w3.org/2000/svg}"
SHAPES = {"path", "circle", "ellipse", "rect", "polygon", "polyline", "line"}
STYLE_ATTRS = {"fill", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap", "opacity"}
GEOMETRY_ATTRS = {
    "d",
    "cx",
    "cy",
    "r",
    "rx",
    "ry",
    "x",
    "y",
    "width",
    "height",
    "points",
    "x1",
    "y1",
    "x2",
    "y2",
}

# Icons that games and templates refer to by name (the library may hold more).
REQUIRED = """
pepperoni mushrooms sausage onions black-olives green-peppers ham pineapple anchovies
wild-card speed-trap energy-drink pizza-plunder game-over pizza delivery-car restaurant star dollar dice hand
order-ticket burrito burger salad-bowl pizza-slice spaghetti-bowl pancake-stack
tortilla rice ground-beef black-beans sour-cream lettuce tomato hamburger-bun cheese milkshake onion pickles
french-fries croutons ham-slice egg ranch-dressing cucumber flour pepperoni-slices sausage-links parmesan
mozzarella mushroom spaghetti garlic-bread meatballs butter garlic toast bacon milk strawberries
grains protein dairy produce bell beef chicken pork bread bun potato pickle
salt pepper hot-sauce black-hair cockroach fresh-delivery five-finger-discount secret-ingredient
buttered-toast grilled-cheese fried-egg-sandwich scrambled-eggs pancakes french-toast hash-browns fries
cheeseburger sliders club-sandwich blt chicken-sandwich pork-chop-plate meatloaf country-fried-steak
fried-chicken omelette patty-melt chili-cheese-fries chef-salad short-order-special
chef-hat round-marker frying-pan any-meat card-back-pizza card-back-diner card-back-trading
""".split()

ALL = icons.icon_names()

SIMPLE_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
    '<circle cx="50" cy="50" r="30" fill="{fill}" stroke="#000000" stroke-width="4"/></svg>'
)


class CountingCanvas(Canvas):
    """A real canvas that also counts how often each form is built."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.forms_built: list[str] = []

    def beginForm(self, name, *args, **kwargs):
        self.forms_built.append(name)
        super().beginForm(name, *args, **kwargs)


def _pdf_bytes(draw, built: list[str] | None = None) -> bytes:
    fonts.register_fonts()
    buf = io.BytesIO()
    canvas = CountingCanvas(buf, pagesize=(400, 400), invariant=1, initialFontName=fonts.BODY)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    if built is not None:
        built.extend(canvas.forms_built)
    return buf.getvalue()


def _forms(pdf: bytes) -> dict[str, object]:
    """XObject resource name -> object, for the Form XObjects used on page 1."""
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    xobjects = page["/Resources"].get("/XObject", {})
    return {k: v.get_object() for k, v in xobjects.items() if v.get_object()["/Subtype"] == "/Form"}


def test_library_has_every_required_icon_and_nothing_unnamed():
    assert set(REQUIRED) <= set(ALL), sorted(set(REQUIRED) - set(ALL))
    assert len(ALL) >= 95


@pytest.mark.parametrize("name", ALL)
def test_name_follows_the_naming_rule(name):
    assert icons.NAME_RE.match(name), name
    assert (BUILTIN_ICONS / f"{name}.svg").is_file()


@pytest.mark.parametrize("name", ALL)
def test_icon_svg_uses_only_plain_shapes(name):
    root = ET.parse(icons.icon_path(name)).getroot()
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == "0 0 100 100"
    shapes = 0
    for el in root.iter():
        if el is root or not isinstance(el.tag, str):  # comments are fine
            continue
        tag = el.tag.removeprefix(SVG_NS)
        assert tag in SHAPES, f"{name}: <{tag}> is not allowed (no text, gradients, filters, clips, styles)"
        unknown = set(el.attrib) - STYLE_ATTRS - GEOMETRY_ATTRS
        assert not unknown, f"{name}: <{tag}> has attributes {sorted(unknown)}"
        assert "url(" not in " ".join(el.attrib.values()), f"{name}: external/paint-server reference"
        shapes += 1
    assert shapes >= 2, f"{name}: too few shapes to be a drawn icon"


@pytest.mark.parametrize("name", ALL)
def test_icon_parses_into_a_drawing_inside_the_viewbox(name):
    drawing = icons.load_icon(icons.icon_path(name))
    assert drawing.contents
    x0, y0, x1, y1 = drawing.getBounds()
    w, h = drawing.width, drawing.height
    assert w == pytest.approx(h) and w > 0
    eps = 0.01 * w
    assert -eps <= x0 < x1 <= w + eps and -eps <= y0 < y1 <= h + eps, (name, (x0, y0, x1, y1), w)
    # drawn big enough to read: the art spans at least half the box one way and a third the other
    assert max(x1 - x0, y1 - y0) >= 0.5 * w and min(x1 - x0, y1 - y0) >= 0.33 * w, name


def test_no_two_icons_are_the_same_file():
    digests: dict[str, str] = {}
    for name in ALL:
        digest = hashlib.sha256(icons.icon_path(name).read_bytes()).hexdigest()
        assert digest not in digests, f"{name} is identical to {digests.get(digest)}"
        digests[digest] = name


def test_unknown_icon_names_the_closest_one_and_where():
    with pytest.raises(InputError) as err:
        icons.icon_path("pepperonni", file="cards/pizza/orders.yaml", line=14)
    text = str(err.value)
    assert text.startswith("cards/pizza/orders.yaml:14: unknown icon 'pepperonni'")
    assert "did you mean 'pepperoni'?" in text
    assert "known: " in text
    assert icons.icon_problem("pepperoni") is None
    assert "black-olives" in str(icons.icon_problem("black-olive"))


@pytest.mark.parametrize("bad", ["../generator/icons", "Pepperoni", "black_olives", "", "a/b"])
def test_malformed_names_never_reach_the_file_system(bad):
    with pytest.raises(InputError) as err:
        icons.icon_path(bad)
    assert "not valid" in str(err.value) or "unknown icon" in str(err.value)


def test_game_folders_add_and_override_icons(tmp_path):
    game = tmp_path / "cards" / "pizza" / "icons"
    game.mkdir(parents=True)
    (game / "oven-mitt.svg").write_text(SIMPLE_SVG.format(fill="#ff0000"))
    (game / "star.svg").write_text(SIMPLE_SVG.format(fill="#00ff00"))
    names = icons.icon_names([game, BUILTIN_ICONS])
    assert "oven-mitt" in names and "pepperoni" in names
    assert names == sorted(names) and len(names) == len(ALL) + 1
    assert icons.icon_path("star", [game, BUILTIN_ICONS]) == game / "star.svg"
    assert icons.icon_path("star") == BUILTIN_ICONS / "star.svg"
    # only the folders given are searched
    assert icons.icon_names([game]) == ["oven-mitt", "star"]
    with pytest.raises(InputError, match="did you mean 'oven-mitt'"):
        icons.icon_path("oven-mit", [game, BUILTIN_ICONS])
    with pytest.raises(InputError, match="unknown icon 'oven-mitt'"):
        icons.icon_path("oven-mitt")


def test_load_icon_parses_once_until_the_file_changes(tmp_path):
    svg = tmp_path / "thing.svg"
    svg.write_text(SIMPLE_SVG.format(fill="#ff0000"))
    first = icons.load_icon(svg)
    assert icons.load_icon(svg) is first
    svg.write_text(SIMPLE_SVG.format(fill="#0000ff").replace('r="30"', 'r="20"'))
    st = svg.stat()
    os.utime(svg, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))
    second = icons.load_icon(svg)
    assert second is not first
    assert second.getBounds() != first.getBounds()


def test_unreadable_svg_is_an_input_error(tmp_path):
    svg = tmp_path / "broken.svg"
    svg.write_text("<svg this is not xml")
    with pytest.raises(InputError, match="broken.svg"):
        icons.load_icon(svg)
    (tmp_path / "empty.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"></svg>'
    )
    with pytest.raises(InputError, match="empty.svg: not a readable SVG icon"):
        icons.load_icon(tmp_path / "empty.svg")
    with pytest.raises(InputError, match="missing.svg"):
        icons.load_icon(tmp_path / "missing.svg")


def test_fifty_placements_share_one_form_xobject():
    def draw(canvas):
        for i in range(50):
            icons.draw_icon(canvas, "pepperoni", (10 + (i % 10) * 38, 10 + (i // 10) * 38, 30, 30))
        for i in range(3):
            icons.draw_icon(canvas, "star", (10 + i * 40, 300, 24, 24))

    built: list[str] = []
    pdf = _pdf_bytes(draw, built)
    assert sorted(built) == sorted(set(built)) and len(built) == 2  # each SVG rendered once
    forms = _forms(pdf)
    pepperoni = [k for k in forms if "pepperoni" in k]
    star = [k for k in forms if "star" in k]
    assert len(pepperoni) == 1 and len(star) == 1 and len(forms) == 2
    form = forms[pepperoni[0]]
    assert len(form.get_data()) > 200  # the drawing itself, stored once
    content = PdfReader(io.BytesIO(pdf)).pages[0].get_contents().get_data().decode("latin-1")
    assert len(re.findall(re.escape(pepperoni[0]) + r"\s+Do", content)) == 50
    assert len(re.findall(re.escape(star[0]) + r"\s+Do", content)) == 3
    # the icons reference no font (never a base-14 one) and the output is reproducible
    assert b"/Helvetica" not in pdf and b"/BaseFont" not in pdf
    assert _pdf_bytes(draw) == pdf


def test_icon_is_fitted_centred_with_its_aspect_kept():
    pdf = _pdf_bytes(lambda c: icons.draw_icon(c, "pizza", (100, 150, 200, 100)))
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("L")
    x0, top, x1, bottom = image.point(lambda v: 255 if v < 200 else 0).getbbox()
    y0, y1 = 400 - bottom, 400 - top  # pixel rows count down from the top of the page
    # a round pizza in a 200x100 box: a 100x100 square in the middle of it
    assert 145 <= x0 <= 156 and 244 <= x1 <= 255, (x0, x1)
    assert 148 <= y0 <= 156 and 244 <= y1 <= 252, (y0, y1)
    assert abs((x0 + x1) / 2 - 200) <= 2 and abs((y0 + y1) / 2 - 200) <= 2


def _form_refs(xobjects, found=None) -> dict[str, set[int]]:
    """Form XObject name -> object numbers, following forms nested inside forms."""
    found = {} if found is None else found
    for key, ref in xobjects.items():
        obj = ref.get_object()
        if obj["/Subtype"] == "/Form":
            found.setdefault(str(key), set()).add(ref.idnum)
            _form_refs(obj.get("/Resources", {}).get("/XObject", {}), found)
    return found


def test_icons_can_be_placed_inside_another_form():
    def draw(canvas):
        canvas.beginForm("card-face", 0, 0, 100, 100)
        icons.draw_icon(canvas, "burger", (10, 10, 80, 80))
        canvas.endForm()
        for i in range(3):
            canvas.saveState()
            canvas.translate(20 + i * 120, 20)
            canvas.doForm("card-face")
            canvas.restoreState()
        icons.draw_icon(canvas, "burger", (150, 250, 80, 80))

    built: list[str] = []
    pdf = _pdf_bytes(draw, built)
    assert len([n for n in built if "burger" in n]) == 1
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    refs = _form_refs(page["/Resources"]["/XObject"])
    burgers = {num for name, nums in refs.items() if "burger" in name for num in nums}
    assert len(burgers) == 1 and any("card-face" in name for name in refs)
    image = pypdfium2.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("L")
    dark = image.point(lambda v: 255 if v < 200 else 0)
    for left in (20, 140, 260):  # each card shows the burger
        assert dark.crop((left + 10, 400 - 110, left + 90, 400 - 30)).getbbox() is not None
    assert dark.crop((150, 400 - 330, 230, 400 - 250)).getbbox() is not None


def _paragraph_pdf(text: str, enable: bool = True, spacers: bool = False) -> bytes:
    """A paragraph drawn on a canvas; `spacers`: with the callback alone, so ReportLab places each spacer."""
    fonts.register_fonts()
    style = ParagraphStyle("body", fontName=fonts.BODY, fontSize=11, leading=15, alignment=TA_LEFT)

    def draw(canvas):
        if spacers:
            canvas.setNamedCB(icons.INLINE_CALLBACK, icons._draw_inline)
        elif enable:
            icons.enable_inline_icons(canvas)
        para = Paragraph(text, style)
        _, height = para.wrap(220, 400)
        para.drawOn(canvas, 40, 360 - height)

    return _pdf_bytes(draw)


def test_inline_icons_sit_in_the_text_as_vector_forms():
    pepperoni = icons.inline_icon_image("pepperoni", 12)
    text = (
        f"Add {pepperoni} pepperoni, then {icons.inline_icon_image('star', 12)} a star, and more {pepperoni} "
        f"pepperoni until the line wraps around {icons.inline_icon_image('dice', 14)} the dice twice over."
    )
    pdf = _paragraph_pdf(text)
    assert {k for k in _forms(pdf) if "pepperoni" in k} and len(_forms(pdf)) == 3
    page = pypdfium2.PdfDocument(pdf)[0]
    objects = list(page.get_objects(max_depth=0))
    # the boxes the line layout reserved: where ReportLab itself draws the spacers
    placed = list(pypdfium2.PdfDocument(_paragraph_pdf(text, spacers=True))[0].get_objects(max_depth=0))
    spacers = [o.get_bounds() for o in placed if o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE]
    drawn = [o.get_bounds() for o in objects if o.type == pdfium_c.FPDF_PAGEOBJ_FORM]
    assert not [o for o in objects if o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE]  # no spacer image (issue 34)
    assert len(spacers) == len(drawn) == 4
    lines = {round(b[1]) for b in spacers}
    assert len(lines) >= 2  # the paragraph wrapped and icons followed their lines
    for (sx0, sy0, sx1, sy1), (fx0, fy0, fx1, fy1) in zip(sorted(spacers), sorted(drawn), strict=True):
        assert sx0 - 0.5 <= fx0 < fx1 <= sx1 + 0.5 and sy0 - 0.5 <= fy0 < fy1 <= sy1 + 0.5
        assert fx1 - fx0 > 0.6 * (sx1 - sx0)
    words = page.get_textpage().get_text_range()
    assert "pepperoni" in words and "dice" in words


def test_inline_icon_markup_checks_names_early_and_needs_the_canvas_hook():
    with pytest.raises(InputError, match="did you mean 'mushrooms'"):
        icons.inline_icon_image("mushroms")
    with pytest.raises(AttributeError, match="generator.faces.icons.enable_inline_icons"):
        _paragraph_pdf(f"A {icons.inline_icon_image('egg')} egg", enable=False)
