"""Honest blame for fonts: a damaged font is the designer's located line, a damaged cached copy of a good one
is made again (never blamed on the designer's file), a font whose licence forbids embedding is refused."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from generator.core.errors import InputError
from generator.data.load import load_game
from tests.conftest import run_pnp
from tests.fixtures.fonts import write_font

GAME = "space-race"
FONT = "fonts/NotoSerif-Bold-subset.ttf"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _use(project, name: str) -> int:
    """Make the game's display font cards/space-race/<name>; the line of game.yaml that names it."""
    path = project.cards_dir / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert f"display: {FONT}" in text
    path.write_text(text.replace(f"display: {FONT}", f"display: {name}", 1), encoding="utf-8")
    return next(n for n, line in enumerate(text.splitlines(), start=1) if f"display: {FONT}" in line)


def _problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        load_game(project, GAME)
    return [str(p) for p in caught.value.problems]


def test_a_font_with_damaged_cff_outlines_is_one_located_line(designer_project):
    font = write_font(designer_project.cards_dir / GAME / "fonts" / "broken.otf", LETTERS)
    table = TTFont(str(font)).reader.tables["CFF "]
    data = bytearray(font.read_bytes())
    end = table.offset + table.length  # the last charstrings: numbers running past the end (struct.error)
    data[end - 40: end] = bytes([28, 0x7F, 0xFF] * 13 + [11])
    font.write_bytes(bytes(data))
    line = _use(designer_project, "fonts/broken.otf")
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    first = result.output.splitlines()[0]
    assert first.startswith(f"cards/{GAME}/game.yaml:{line}: font 'display' (regular): 'broken.otf' has CFF "
                            "outlines that cannot be read ("), first
    assert first.endswith("expected an undamaged OpenType font (open it in a font editor and export it "
                          "again)")


def test_a_damaged_cached_copy_is_made_again_not_blamed_on_the_designers_font(designer_project):
    write_font(designer_project.cards_dir / GAME / "fonts" / "boxes.otf", LETTERS)
    _use(designer_project, "fonts/boxes.otf")
    load_game(designer_project, GAME)  # converts the CFF font once, into the cache
    copies = list((designer_project.build_dir / ".cache" / "fonts").glob("*.ttf"))
    assert len(copies) == 1
    good = copies[0].read_bytes()
    copies[0].write_bytes(good[: len(good) // 3])  # a cut write, a disk error
    game = load_game(designer_project, GAME)  # no problem: the copy is made again
    remade = TTFont(str(copies[0]))  # whole again: every glyph of the designer's font
    assert len(remade["glyf"].glyphs) == len(LETTERS) + 2 and len(copies[0].read_bytes()) == len(good)
    assert game.fonts.families["display"].face().path == copies[0]
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("fs_type, why", [(0x0002, "restricted licence embedding"),
                                          (0x0200, "bitmap embedding only")])
def test_a_font_whose_licence_forbids_embedding_is_a_located_error(designer_project, fs_type, why):
    font = write_font(designer_project.cards_dir / GAME / "fonts" / "locked.ttf", LETTERS, cff=False)
    opened = TTFont(str(font))
    opened["OS/2"].fsType = fs_type
    opened.save(str(font))
    line = _use(designer_project, "fonts/locked.ttf")
    assert _problems(designer_project) == [
        f"cards/{GAME}/game.yaml:{line}: font 'display' (regular): 'locked.ttf' forbids embedding in "
        f"documents (OS/2 fsType 0x{fs_type:04X}: {why}); expected a font whose licence allows embedding "
        "(installable, preview & print or editable), e.g. one under the SIL Open Font License"]


def test_a_font_that_allows_preview_and_print_is_embedded(designer_project):
    font = write_font(designer_project.cards_dir / GAME / "fonts" / "print.ttf", LETTERS, cff=False)
    opened = TTFont(str(font))
    opened["OS/2"].fsType = 0x0004
    opened.save(str(font))
    _use(designer_project, "fonts/print.ttf")
    assert load_game(designer_project, GAME).title
