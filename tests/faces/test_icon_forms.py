"""Icon forms made once: the operators of an icon's form kept in the process and on disk, replayed byte for
byte."""

from __future__ import annotations

import io
import json
import os
import re

import pypdfium2
import pytest
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from generator.core import fonts
from generator.faces import icon_forms, icons

CIRCLE = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
          '<circle cx="50" cy="50" r="40" fill="{fill}" stroke="#000000" stroke-width="4"{extra}/></svg>')


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A fresh disk cache in a temporary folder and an empty process memory: every test starts cold."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setattr(icon_forms, "_cache", lambda: icon_forms.IconForms(str(folder)))
    forget()
    yield folder
    icons._ART.clear()  # what the tests drew went to this folder only


def forget() -> None:
    """Forget what this process parsed and drew (as a new process would), keeping the disk cache."""
    icons._ART.clear()
    icons._parse.cache_clear()


def entries(folder) -> list:
    return sorted(folder.glob("pnp-icon-*.json"))


def pdf(draw) -> bytes:
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(300, 300), invariant=1, pageCompression=0)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def several_icons(canvas) -> None:
    icons.draw_icon(canvas, "pepperoni", (10, 10, 40, 40))
    icons.draw_icon(canvas, "pepperoni", (60, 10, 20, 20))
    icons.draw_icon(canvas, "star", (100, 10, 40, 40), fade=0.6)
    icons.draw_icon(canvas, "pizza", (150, 10, 80, 40), fit="cover")


def no_svglib(monkeypatch) -> None:
    def refuse(*args):
        raise AssertionError("an SVG was parsed although its form was in the cache")
    monkeypatch.setattr(icons, "_parse", refuse)


def test_a_warm_cache_gives_the_same_pdf_without_parsing_any_svg(cache, monkeypatch):
    cold = pdf(several_icons)
    assert len(entries(cache)) == 3  # pepperoni, the faded star, pizza: one entry per icon and fade
    forget()
    no_svglib(monkeypatch)
    assert pdf(several_icons) == cold
    # and in the same process, a second canvas replays what the first one drew
    assert pdf(several_icons) == cold


def test_operators_recorded_in_a_process_are_replayed_to_the_same_bytes_without_a_disk_cache(monkeypatch):
    monkeypatch.setattr(icon_forms, "_cache", lambda: None)  # no private folder: the process still draws once
    forget()
    first = pdf(several_icons)
    no_svglib(monkeypatch)
    assert pdf(several_icons) == first
    icons._ART.clear()  # nothing of this test stays for the next


@pytest.mark.usefixtures("cache")
def test_the_pdf_is_the_same_as_renderpdf_draws_it():
    """The recorded operators are exactly renderPDF's: a form drawn the old way gives the same file."""
    from generator.faces.icon_render import draw_drawing

    def by_renderpdf(canvas):
        drawing = icons.load_icon(icons.icon_path("pepperoni"))
        name = f"icon-pepperoni-{icon_forms.file_digest(icons.icon_path('pepperoni').read_bytes())[:12]}"
        canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
        draw_drawing(drawing, canvas)
        canvas.endForm()
        canvas.saveState()
        scale = min(40 / drawing.width, 40 / drawing.height)
        canvas.translate(10 + (40 - drawing.width * scale) / 2, 10 + (40 - drawing.height * scale) / 2)
        canvas.scale(scale, scale)
        canvas.doForm(name)
        canvas.restoreState()

    def by_icons(canvas):
        icons.draw_icon(canvas, "pepperoni", (10, 10, 40, 40))

    expected = pdf(by_renderpdf)
    assert pdf(by_icons) == expected  # cold: drawn and recorded
    forget()
    assert pdf(by_icons) == expected  # warm: replayed from the disk cache


def test_an_edited_svg_gets_new_operators(cache, tmp_path):
    svg = tmp_path / "dot.svg"
    svg.write_text(CIRCLE.format(fill="#ff0000", extra=""))
    red = pdf(lambda c: icons.draw_icon(c, svg, (100, 100, 100, 100)))
    svg.write_text(CIRCLE.format(fill="#0000ff", extra=""))
    os.utime(svg, ns=(svg.stat().st_atime_ns, svg.stat().st_mtime_ns + 10**9))  # a later edit, same size
    blue = pdf(lambda c: icons.draw_icon(c, svg, (100, 100, 100, 100)))
    assert len(entries(cache)) == 2
    for data, colour in ((red, (255, 0, 0)), (blue, (0, 0, 255))):
        page = pypdfium2.PdfDocument(data)[0].render(scale=1).to_pil().convert("RGB")
        assert page.getpixel((150, 150)) == colour
    forget()  # a new process: the disk cache has both versions, each under its own content
    assert pdf(lambda c: icons.draw_icon(c, svg, (100, 100, 100, 100))) == blue


@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign", "edited"])
def test_a_damaged_or_foreign_cache_file_is_ignored_and_written_again(cache, damage):
    cold = pdf(several_icons)
    files = entries(cache)
    good = {f: f.read_bytes() for f in files}
    for file in files:
        data = good[file]
        if damage == "garbage":
            file.write_bytes(b"\x00\xffnot json{")
        elif damage == "truncated":
            file.write_bytes(data[: len(data) // 2])
        elif damage == "foreign":  # another icon's entry under this name
            other = files[(files.index(file) + 1) % len(files)]
            file.write_bytes(good[other])
        else:  # valid JSON, one operator changed
            entry = json.loads(data)
            entry["ops"][3] = entry["ops"][3] + " 0 0 m"
            file.write_text(json.dumps(entry))
    forget()
    assert pdf(several_icons) == cold
    assert {f: f.read_bytes() for f in entries(cache)} == good  # rebuilt as they were


def test_icons_with_shared_names_or_outside_references_are_drawn_every_time(cache, tmp_path):
    # Transparency is a named graphics state of the PDF, so such an icon is not replayed; nor one whose SVG
    # may
    # read another file (which may change without the SVG).
    faint = tmp_path / "faint.svg"
    faint.write_text(CIRCLE.format(fill="#ff0000", extra=' fill-opacity="0.5"'))
    styled = tmp_path / "styled.svg"
    styled.write_text(CIRCLE.format(fill="#00ff00", extra="").replace(
        "<circle", "<style>@import url(colours.css);</style><circle"))

    def draw(canvas):
        icons.draw_icon(canvas, faint, (10, 10, 100, 100))
        icons.draw_icon(canvas, styled, (150, 10, 100, 100))

    first = pdf(draw)
    assert entries(cache) == []
    assert re.search(rb"/gRLs\d+ gs", first)  # the transparency is in the form
    assert pdf(draw) == first
    forget()
    assert pdf(draw) == first


def test_refers_outside_spots_every_way_an_svg_reads_another_file():
    inside = [b'<use href="#dot"/>', b'<use xlink:href = "#a"/>', b'fill="url(#grad)"', b"fill:url( '#g' )"]
    outside = [b'<use href="other.svg#dot"/>', b"<image xlink:href='pic.png'/>", b"fill:url(pattern.svg#p)",
               b"<style>@import 'x.css';</style>", b'<!DOCTYPE svg [<!ENTITY x SYSTEM "f">]>',
               b'<?xml-stylesheet href="s.css"?>', b'<image href="data:image/png;base64,AAAA"/>']
    assert [icon_forms.refers_outside(b) for b in inside] == [False] * len(inside)
    assert [icon_forms.refers_outside(b) for b in outside] == [True] * len(outside)


@pytest.mark.usefixtures("cache")
def test_inline_icons_put_no_spacer_image_into_the_pdf():
    """The spacer PNG only reserves the icon's box in the line (issue 34): the PDF holds no image XObject,
    every icon is still placed as its vector form, and the words stand where ReportLab puts them when it
    draws the spacer itself."""
    import pypdf

    fonts.register_fonts()
    style = ParagraphStyle("body", fontName=fonts.BODY, fontSize=11, leading=15, alignment=TA_LEFT)
    names = ("egg", "star", "egg", "dice") * 3
    text = " ".join(f"word {icons.inline_icon_image(name, 12)}" for name in names)

    def draw(canvas, enabled: bool):
        if enabled:
            icons.enable_inline_icons(canvas)
        else:  # the callback alone: ReportLab's drawImage places each spacer
            canvas.setNamedCB(icons.INLINE_CALLBACK, icons._draw_inline)
        para = Paragraph(text, style)
        _, height = para.wrap(220, 280)
        para.drawOn(canvas, 40, 280 - height)

    def read(data: bytes) -> tuple[list[str], str, list[str]]:
        page = pypdf.PdfReader(io.BytesIO(data)).pages[0]
        xobjects = page["/Resources"].get("/XObject", {})
        subtypes = [xobjects[name].get_object()["/Subtype"] for name in xobjects]
        content = page.get_contents().get_data().decode("latin-1")
        return subtypes, page.extract_text(), re.findall(r"[-\d. ]+ cm\s+/FormXob.icon-\S+ Do", content)

    new, old = read(pdf(lambda c: draw(c, True))), read(pdf(lambda c: draw(c, False)))
    assert "/Image" in old[0] and "/Image" not in new[0]
    assert new[0] and set(new[0]) == {"/Form"}
    assert new[1] == old[1] and new[2] == old[2] and len(new[2]) == len(names)
