"""Fonts: the character check (text + font in, missing characters out), per-character fallback in markup and
in single strings, and the one-time TrueType copy of CFF-flavoured OpenType faces."""

from __future__ import annotations

import random

import pypdfium2
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from generator.core.fontfiles import inspect_font, truetype_copy
from generator.core.fonts import (
    BODY_FAMILY,
    TITLE,
    TITLE_FAMILY,
    Face,
    Family,
    cannot_draw,
    draw_string,
    fallback_letters,
    fallback_markup,
    markup_units,
    register_family,
    register_fonts,
    string_width,
    styles_used,
    uncovered,
)
from tests.fixtures.fonts import write_font


def test_markup_the_faces_cover_is_left_exactly_as_it_is():
    register_fonts()
    markup = 'Pepperoni <b>Pizza</b> &amp; \u2212 2 \u00b7 \u201cOK\u201d <img src="x.png" width="9"/>'
    assert fallback_markup(markup, BODY_FAMILY) == markup
    assert fallback_markup("Order Up!", TITLE_FAMILY) == "Order Up!"


def test_missing_letters_are_set_in_the_fallback_face_of_their_style():
    register_fonts()
    assert (
        fallback_markup("Kapitán Дворак", TITLE_FAMILY) == 'Kapitán <font name="FallbackHeavy">Дворак</font>'
    )
    # Lato 2.0 has Russian but not the Abkhaz letters
    assert (fallback_markup("<b>Аԥсуа</b> <i>ԛ</i> Çaԝ", BODY_FAMILY) ==
            '<b>А<font name="Fallback-Bold">ԥ</font>суа</b> <i><font name="Fallback-Italic">ԛ</font></i> '
            'Ça<font name="Fallback">ԝ</font>')
    assert uncovered("Дракон Çağ ő řěčů șț İ ąęśćńżź αβγ", TITLE_FAMILY) == []


def test_the_built_in_faces_draw_latin_extended_themselves():
    """One typeface per heading: Czech, Polish, Hungarian, Romanian, Turkish, Croatian and Baltic letters are
    in the title face and every body face, and only the letters a fallback draws are reported, by face."""
    register_fonts()
    european = "Příliš žluťoučký kůň úpěl ďábelské ódy ĎŤŇ ąęłśćńżź ŁŚŻ őű șțȘȚ ăâî ğışİŞ đĐ āēīūļņķģ ėįųž ß"
    for text in (european, european.upper()):
        assert fallback_markup(text, TITLE_FAMILY) == text
        assert fallback_markup(f"<b>{text}</b> <i>{text}</i> <b><i>{text}</i></b>", BODY_FAMILY) == \
            f"<b>{text}</b> <i>{text}</i> <b><i>{text}</i></b>"
        assert fallback_letters(text, TITLE_FAMILY) == {}
    assert fallback_letters("Kapitán Дворак Д", TITLE_FAMILY) == {"Noto Sans Bold": list("Дворак")}
    assert fallback_letters("<i>Аԥ</i> ԥ", BODY_FAMILY) == {"Noto Sans Italic": ["ԥ"], "Noto Sans": ["ԥ"]}


def test_uncovered_characters_and_the_message(tmp_path):
    path = write_font(tmp_path / "abc.ttf", "ABC", family="Box Test", cff=False)
    family = register_family(Family("display", {"regular": Face("BoxTest-Test", path)}))
    assert uncovered("CAB Д \u4e2d", family) == [("Д", "regular"), ("\u4e2d", "regular")]
    assert uncovered("<b>A&#1044;</b>", family, markup=True) == [("Д", "bold")]
    assert (
        cannot_draw(["Д"], family, "card 'draw-two' name") == "card 'draw-two' name has 'Д' (U+0414), which "
        "font 'display' (Box Test) cannot draw; expected a font that covers it (declare one under fonts: in "
        "game.yaml and name it in the box, or as a fallback)"
    )
    assert "expected a font that covers them for Russian" in cannot_draw(
        ["Д", "ж"], family, "x", language="Russian"
    )
    assert uncovered("中", BODY_FAMILY) == [("中", "regular")]  # CJK is never covered by the built-in faces


def test_a_character_only_a_fallback_draws_is_lost_in_the_style_whose_fallback_face_lacks_it(tmp_path):
    own = write_font(tmp_path / "own.ttf", "ABC", family="Box Own", cff=False)
    regular = write_font(tmp_path / "fallback.ttf", "DE", family="Box Fallback", cff=False)
    bold = write_font(tmp_path / "fallback-bold.ttf", "E", family="Box Fallback", cff=False, weight=700)
    fallback = Family("box-fallback", {"regular": Face("BoxFallback-Test", regular),
                                       "bold": Face("BoxFallback-Bold-Test", bold)})
    family = Family("box", {"regular": Face("BoxOwn-Test", own)}, [fallback])
    assert uncovered("ABE\n", family, "bold") == [] and uncovered("ADE", family) == []
    assert uncovered("ADDE", family, "bold") == [("D", "bold")]
    assert uncovered("<b>AD</b> D &#68;", family, markup=True) == [("D", "bold")]
    assert uncovered("<i>D</i>", family, markup=True) == []  # no italic face: the regular one answers


def test_the_styles_markup_uses_are_those_of_its_visible_characters():
    assert styles_used("Plain <b>bold</b> <i> </i><b><i>both</i></b>") == {"regular", "bold", "bold_italic"}
    assert styles_used("<b> </b><i>&nbsp;</i><br/>") == {"italic"}  # an entity is drawn, white space is not
    assert styles_used("<b/>x<strong>y</strong></b>z") == {"regular", "bold"}  # <b/> opens nothing
    pieces = [
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<strong>",
        "</em>",
        "<em>",
        "<br/>",
        "<b/>",
        "< b >",
        "</ B>",
        "<",
        ">",
        "&amp;",
        "&#68;",
        "&nbsp;",
        " ",
        "\n",
        "\u00a0",
        "a",
        "Ř",
        "<font name='x'>",
        "</font>",
        "<<b>",
        "<bx>",
    ]
    rng = random.Random(14)
    for _ in range(3000):  # the same answer as reading the markup unit by unit
        markup = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        by_unit = {style for kind, raw, style in markup_units(markup) if kind == "char" and raw.strip()}
        assert styles_used(markup) == by_unit, markup


def test_a_plain_string_is_drawn_with_fallback_runs(tmp_path):
    register_fonts()
    path = tmp_path / "title.pdf"
    canvas = Canvas(str(path), invariant=1, initialFontName=TITLE)
    canvas.setFont(TITLE, 20)
    draw_string(canvas, 300, 700, "Kapitán Дворак", TITLE, 20, "center")  # the title face has no Cyrillic
    canvas.save()
    fonts = {
        font["/BaseFont"].split("+")[-1]
        for font in PdfReader(str(path)).pages[0]["/Resources"]["/Font"].values()
    }
    assert fonts == {"Fredoka-SemiBold", "NotoSans-Bold"}
    text = pypdfium2.PdfDocument(str(path))[0].get_textpage().get_text_range()
    assert text.strip() == "Kapitán Дворак"
    assert string_width("Двоак", TITLE, 20) > string_width("Двак", TITLE, 20)


def test_cff_opentype_is_converted_to_truetype_once(tmp_path):
    source = write_font(tmp_path / "boxes.otf", "ABŘ", cff=True)
    assert inspect_font(source).cff
    copy = truetype_copy(source, tmp_path / "cache")
    info = inspect_font(copy)
    assert not info.cff and {ord("A"), ord("Ř")} <= info.characters and copy.parent == tmp_path / "cache"
    stamp = copy.stat().st_mtime_ns
    assert truetype_copy(source, tmp_path / "cache") == copy and copy.stat().st_mtime_ns == stamp
    ttf = write_font(tmp_path / "boxes.ttf", "AB", cff=False)
    assert truetype_copy(ttf, tmp_path / "cache") == ttf  # TrueType outlines are used as they are
