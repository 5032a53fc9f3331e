"""Fonts as found (issue 33): WOFF and WOFF2 files, a face of a TTC collection by `#index`, a WOFF named
.ttf, each unpacked once to a cached TrueType copy; a style the family lacks is synthesised (slanted and/or
struck twice) and drawn, never dropped; a file that is not what it says is one located line."""

from __future__ import annotations

import string
import textwrap
from pathlib import Path

import pypdfium2
import pytest
from fontTools.ttLib import TTCollection, TTFont

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.face import render_card_pdf, renderer_for
from tests.fixtures.fonts import write_font

GAME = "title: Fonts\ncode: FNT\nplayers: {min: 2, max: 4}\ndecks: [things]\nfonts:\n  box: %s\n"
DECK = "deck: things\nname: Things\ncode: THG\ncards:\n  - {id: alpha, name: Alpha, copies: 1}\n"
FRONT = """\
boxes:
  ground: {shape: rect, fill: "#ffffff"}
  words: {x: 5mm, y: 5mm, width: 53mm, height: 40mm, text: "%s", font: box, size: 20pt}
"""
BACK = "boxes:\n  back: {shape: rect, fill: \"#444444\"}\n"
LETTERS = string.ascii_letters


def _game(root: Path, font: str, text: str = "Abc"):
    folder = root / "cards" / "fonts"
    for name, content in {"game.yaml": GAME % font, "things.yaml": DECK, "layouts/things.yaml": FRONT % text,
                          "layouts/things-back.yaml": BACK}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(content), encoding="utf-8")
    (folder / "fonts").mkdir(exist_ok=True)
    return folder / "fonts"


def _plain(folder: Path, name: str = "plain.ttf", family: str = "Box Test") -> Path:
    return write_font(folder / name, LETTERS, family=family, cff=False)


def _load(root: Path):
    return load_game(Project(root), "fonts")


def _ink(root: Path, game) -> int:
    """How many dark pixels the card's text prints."""
    pdf = render_card_pdf(game, game.decks["things"].cards[0], root / "card.pdf")
    image = pypdfium2.PdfDocument(str(pdf))[0].render(scale=2).to_pil().convert("L")
    return sum(1 for value in image.tobytes() if value < 128)


@pytest.mark.parametrize("flavor", ["woff", "woff2"])
def test_a_web_font_is_unpacked_once_and_drawn(tmp_path, flavor):
    folder = _game(tmp_path, f"fonts/box.{flavor}")
    font = TTFont(str(_plain(folder)))
    font.flavor = flavor
    font.save(str(folder / f"box.{flavor}"))
    game = _load(tmp_path)
    face = game.fonts["box"].faces["regular"]
    assert face.path.suffix == ".ttf" and face.path.read_bytes()[:4] == b"\x00\x01\x00\x00"
    assert _ink(tmp_path, game) > 0
    copies = sorted((tmp_path / "build" / ".cache" / "fonts").glob("*.ttf"))
    _load(tmp_path)  # a second build reads the copy made by the first
    assert sorted((tmp_path / "build" / ".cache" / "fonts").glob("*.ttf")) == copies and len(copies) == 1


def test_a_woff_file_named_ttf_is_read_as_woff(tmp_path):
    folder = _game(tmp_path, "fonts/box.ttf")
    plain = _plain(folder, "source.ttf")
    font = TTFont(str(plain))
    font.flavor = "woff"
    font.save(str(folder / "box.ttf"))
    assert (folder / "box.ttf").read_bytes()[:4] == b"wOFF"
    game = _load(tmp_path)
    assert game.fonts["box"].faces["regular"].path.read_bytes()[:4] == b"\x00\x01\x00\x00"
    assert _ink(tmp_path, game) > 0


def test_a_face_of_a_collection_is_chosen_by_index(tmp_path):
    folder = _game(tmp_path, "fonts/both.ttc#1")
    collection = TTCollection()
    collection.fonts = [TTFont(str(_plain(folder, "a.ttf", "First Box"))),
                        TTFont(str(_plain(folder, "b.ttf", "Second Box")))]
    collection.save(str(folder / "both.ttc"))
    game = _load(tmp_path)
    face = game.fonts["box"].faces["regular"]
    assert TTFont(str(face.path))["name"].getDebugName(1) == "Second Box"


@pytest.mark.parametrize("font, make, message", [
    ("fonts/bad.woff2", lambda folder: (folder / "bad.woff2").write_bytes(b"wOF2" + b"\0" * 60),
     "font 'box' (regular): 'bad.woff2' is not a readable WOFF2 ("),
    ("fonts/bad.woff2", lambda folder: (folder / "bad.woff2").write_text("hello"),
     "font 'box' (regular): 'bad.woff2' is not a readable WOFF2 ("),
    ("fonts/plain.ttf#2", lambda folder: _plain(folder),
     "font 'box' (regular): 'plain.ttf' is not a font collection, so it has no face 2"),
])
def test_a_font_file_that_is_not_what_it_says_is_one_located_line(tmp_path, font, make, message):
    folder = _game(tmp_path, font)
    make(folder)
    with pytest.raises(InputError) as caught:
        _load(tmp_path)
    found = [str(problem) for problem in caught.value.problems]
    assert len(found) == 1 and found[0].startswith(f"cards/fonts/game.yaml:6: {message}"), found


def test_a_collection_without_the_face_asked_for_is_located(tmp_path):
    folder = _game(tmp_path, "fonts/both.ttc#5")
    collection = TTCollection()
    collection.fonts = [TTFont(str(_plain(folder, "a.ttf")))]
    collection.save(str(folder / "both.ttc"))
    with pytest.raises(InputError) as caught:
        _load(tmp_path)
    assert [str(p) for p in caught.value.problems] == [
        "cards/fonts/game.yaml:6: font 'box' (regular): 'both.ttc' is a font collection of 1 face, which has "
        "no face 5; expected 'both.ttc#<0 to 0>'"]


@pytest.mark.parametrize("markup", ["**Abc**", "*Abc*", "***Abc***", "<b>Abc</b>", "<i>Abc</i>",
                                    "<b><i>Abc</i></b>"])
def test_every_style_prints_formatted_in_a_font_declared_with_only_a_regular_face(tmp_path, markup):
    folder = _game(tmp_path, "fonts/plain.ttf", markup)
    _plain(folder)
    game = _load(tmp_path)
    renderer_for(game).check()
    styled = _ink(tmp_path, game)
    plain_root = tmp_path / "plain"
    _plain(_game(plain_root, "fonts/plain.ttf", "Abc"))
    plain = _ink(plain_root, _load(plain_root))
    faces = game.fonts["box"].faces
    assert len({face.path for face in faces.values()}) == 4  # three synthesised faces
    if "b>" in markup or "**" in markup:  # struck twice: more ink than the regular face
        assert styled > plain * 1.03, (styled, plain)
    else:  # slanted: about the same ink, elsewhere
        assert abs(styled - plain) < plain * 0.1
    text = pypdfium2.PdfDocument(str(tmp_path / "card.pdf"))[0].get_textpage().get_text_range()
    assert "Abc" in text  # no markup printed


def test_markup_means_the_same_with_or_without_a_template(tmp_path):
    folder = _game(tmp_path, "fonts/plain.ttf", "x <i>y</i><br/>z ***w***")
    _plain(folder)
    layout = folder.parent / "layouts" / "things.yaml"
    layout.write_text(layout.read_text() + '  same: {x: 5mm, y: 50mm, width: 53mm, height: 30mm, '
                      'text: "{{ \'x\' }} <i>y</i><br/>z ***w***", font: box}\n')
    game = _load(tmp_path)
    renderer = renderer_for(game)
    renderer.check()
    shown = {box.name: data.markup for box, data in renderer.resolved(game.decks["things"],
                                                                         game.decks["things"].cards[0])
             if box.name in ("words", "same")}
    assert shown == {"words": "x <i>y</i><br/>z <b><i>w</i></b>", "same": "x <i>y</i><br/>z <b><i>w</i></b>"}


def test_a_script_that_needs_shaping_is_refused_in_the_rules_too(designer_project):
    from tests.conftest import run_pnp

    template = designer_project.templates_dir / "rules" / "space-race.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nשלום\n", encoding="utf-8")
    line = len(template.read_text(encoding="utf-8").splitlines())
    result = run_pnp("validate", "space-race", "--no-sim", project=designer_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert any(out.startswith(f"templates/rules/space-race.md.j2:{line}: the rules text has Hebrew (")
               for out in result.output.splitlines()), result.output


def test_text_problems_refuse_a_script_that_needs_shaping():
    from generator.core.fonts import BUILT_IN
    from generator.data.fonts import text_problems

    [problem] = text_problems("Hello \u0645\u0631\u062d\u0628\u0627", BUILT_IN["body"], "board.yaml", 4,
                              "street 'x' name")
    assert str(problem).startswith("board.yaml:4: street 'x' name has Arabic ('\u0645', U+0645)")
