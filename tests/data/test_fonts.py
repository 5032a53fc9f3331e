"""Fonts a designer declares in game.yaml, and no silent loss of a character anywhere: cards, backs, boards,
rules and the labels of the card sheets. Every bad font and every character no face covers is one located
line."""

from __future__ import annotations

import re

import pypdfium2
import pytest
from pypdf import PdfReader

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.faces.face import renderer_for
from generator.pipeline.gather import check_game
from tests.conftest import REPO, run_pnp
from tests.fixtures.fonts import write_font

GAME = "space-race"
GAME_YAML = f"cards/{GAME}/game.yaml"
FONT = "fonts/NotoSerif-Bold-subset.ttf"
EXPECT = ("expected a font that covers {} (declare one under fonts: in game.yaml and name it in the box, or "
          "as a fallback)")


def game_dir(project):
    return project.cards_dir / GAME


def edit(project, name: str, old: str, new: str) -> None:
    path = game_dir(project) / name
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def embedded_fonts(path) -> set[str]:
    """Base names of every font a PDF embeds (in pages and in the card forms)."""
    names = set()
    for page in PdfReader(str(path)).pages:
        resources = page["/Resources"]
        holders = [resources] + [
            x.get_object().get("/Resources", {}) for x in resources.get("/XObject", {}).values()
        ]
        for holder in holders:
            for font in holder.get("/Font", {}).values():
                names.add(font.get_object()["/BaseFont"].split("+")[-1])
    return names


def pdf_text(path) -> str:
    pdf = pypdfium2.PdfDocument(str(path))
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


def problems(project) -> list[str]:
    with pytest.raises(InputError) as caught:
        game = load_game(project, GAME)
        check_game(game)
        renderer_for(game).check()
    return [str(p) for p in caught.value.problems]


def test_a_declared_font_draws_its_boxes_and_every_letter_of_every_language(designer_project):
    edit(designer_project, "crew.csv", "Medic Ana", "Дракон Çağ ő")  # the card title, in Fredoka
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 0, result.output
    cards = designer_project.build_dir / GAME / "cards-letter.pdf"
    fonts = embedded_fonts(cards)
    assert {"Fredoka-SemiBold", "NotoSans-Bold", "Lato-Regular"} <= fonts
    assert any(name.startswith("NotoSerif-Bold-") for name in fonts)
    text = pdf_text(cards)
    for words in ("Дракон Çağ ő", "Pilotka Řehořová", "Инженер Петров", "Kapitán Dvořák", "Метеоритный дождь",
                  "Sluneční erupce", "Žluťoučký kůň úpěl ďábelské ódy"):
        assert words in text.replace("\r", "").replace("\n", " "), words
    rules = pdf_text(designer_project.build_dir / GAME / "rules.pdf")
    assert "Závod ke hvězdám · Гонка к звёздам" in rules and "Каждый игрок берёт 3 карты." in rules.replace(
        "\r\n", " "
    )


def test_a_character_no_face_has_fails_build_and_validate_naming_card_field_and_character(designer_project):
    edit(designer_project, "crew.csv", "Medic Ana", "Medic \u4e2d")
    line = (
        f"cards/{GAME}/crew.csv:4: card 'medic' name has '\u4e2d' (U+4E2D), which font 'title' (Fredoka "
        "SemiBold, "
        "then "
        f"Noto Sans Bold) cannot draw; {EXPECT.format('it')}"
    )
    for command in (["build"], ["validate", "--no-sim"]):
        result = run_pnp(*command, project=designer_project)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert line in result.output.splitlines(), result.output
    assert not (designer_project.build_dir / GAME / "cards-letter.pdf").exists()


def test_a_character_in_the_layout_itself_is_located_at_the_box(designer_project):
    edit(designer_project, "layouts/event-back.yaml", "Události · События", "Události ✓")
    assert problems(designer_project) == [
        f"cards/{GAME}/layouts/event-back.yaml:3: the back of deck 'events': box 'title': its text has '✓' "
        "(U+2713), "
        f"which font 'title' (Fredoka SemiBold, then Noto Sans Bold) cannot draw; {EXPECT.format('it')}"
    ]


@pytest.mark.parametrize(
    "fonts, line, message",
    [
        (
            "  display: fonts/missing.ttf\n",
            10,
            "font 'display' (regular): file 'fonts/missing.ttf' not found; expected a .ttf or .otf file "
            "inside "
            f"cards/{GAME}/ or templates/",
        ),
        (
            "  display: crew.csv\n",
            10,
            "font 'display' (regular): 'crew.csv' is not a font file pnp reads; expected a "
            "TrueType or OpenType font (.ttf, .otf, .woff, .woff2, or a .ttc collection)",
        ),
        (
            "  display: fonts/fake.ttf\n",
            10,
            "font 'display' (regular): 'fake.ttf' is not a font (TTLibError: Not a "
            "TrueType or OpenType font (...)); expected a TrueType (.ttf) or OpenType "
            "(.otf) font",
        ),
        (
            "  display: {bold: " + FONT + "}\n",
            10,
            "font 'display' has no regular face; expected `regular: <file>` (the face plain text is set in)",
        ),
        (
            "  display: {regular: " + FONT + ", fallback: [dispaly]}\n",
            10,
            "font 'display' falls back to 'dispaly', which is not a font (did you mean 'display'?); known: "
            "body, display, title",
        ),
        (
            "  body: " + FONT + "\n",
            10,
            "font 'body' has no bold face, which headings, tables and board labels are set in; expected "
            "`bold: <file>`",
        ),
        (
            "  display: ../../../outside.ttf\n",
            10,
            "font file of 'display' '../../../outside.ttf' is outside the project folder; expected a path "
            "inside "
            "designer/ (symbolic links are followed before checking)",
        ),
    ],
)
def test_each_bad_font_is_one_located_line(designer_project, fonts, line, message):
    (game_dir(designer_project) / "fonts" / "fake.ttf").write_text("not a font")
    line += (
        next(
            n
            for n, text in enumerate((game_dir(designer_project) / "game.yaml").read_text().splitlines())
            if text.startswith("  display:")
        )
        - 9
    )  # the parameters count from line 10
    edit(
        designer_project, "game.yaml", f"  display: {FONT}   # the event titles (layouts/event.yaml)\n", fonts
    )
    with pytest.raises(InputError) as caught:
        load_game(designer_project, GAME)
    found = [str(p) for p in caught.value.problems]
    pattern = re.escape(f"{GAME_YAML}:{line}: {message}").replace(re.escape("(...)"), r"\([^)]*\)")
    assert len(found) == 1 and re.fullmatch(pattern, found[0]), found


def test_bold_text_in_a_font_without_a_bold_face_is_set_in_a_synthesised_bold(designer_project):
    # issue 33: a style the font lacks is made from the face it has (struck twice), never dropped
    edit(designer_project, "layouts/event.yaml", "size: 10pt, align: center, valign: middle}",
         "size: 10pt, align: center, valign: middle, font: display}")
    game = load_game(designer_project, GAME)
    check_game(game)
    family = game.fonts["display"]
    assert set(family.faces) == {"regular", "bold", "italic", "bold_italic"}
    assert family.faces["bold"].path != family.faces["regular"].path
    assert family.faces["bold"].path.parent.name == "synthetic"


def test_an_undeclared_font_in_a_layout(designer_project):
    edit(designer_project, "layouts/event.yaml", "title: {font: display", "title: {font: dispaly")
    assert problems(designer_project) == [
        f"cards/{GAME}/layouts/event.yaml:3: font 'dispaly' is not declared (did you mean 'display'?); "
        "known: body, "
        "display, title; expected title, body or a name declared under fonts: in game.yaml"
    ]


def test_an_opentype_cff_font_is_converted_and_embedded(designer_project):
    write_font(
        game_dir(designer_project) / "fonts" / "boxes.otf",
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        family="Box Test",
    )
    edit(designer_project, "game.yaml", f"display: {FONT}", "display: fonts/boxes.otf")
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 0, result.output
    # embedded under its PostScript name plus a hash of the file, so another 'Box-Test' can never stand in for
    # it
    assert any(
        name.startswith("Box-Test-")
        for name in embedded_fonts(designer_project.build_dir / GAME / "cards-letter.pdf")
    )
    assert len(list((designer_project.build_dir / ".cache" / "fonts").glob("*.ttf"))) == 1
    # 'ě', 'í' and Cyrillic are not in the box font: drawn by its fallback (Noto Sans), nothing is lost
    text = pdf_text(designer_project.build_dir / GAME / "cards-letter.pdf")
    assert "Sluneční erupce" in text


def test_redefined_body_sets_the_rules_and_the_cards(designer_project):
    edit(designer_project, "game.yaml", f"  display: {FONT}",
         f"  display: {FONT}\n  body: {{regular: {FONT}, bold: {FONT}, italic: {FONT}, bold_italic: {FONT}}}")
    result = run_pnp("build", "--paper", "letter", project=designer_project)
    assert result.exit_code == 0, result.output
    assert "Lato-Regular" not in embedded_fonts(designer_project.build_dir / GAME / "rules.pdf")
    assert any(
        name.startswith("NotoSerif-Bold-")
        for name in embedded_fonts(designer_project.build_dir / GAME / "rules.pdf")
    )


def test_a_character_of_the_rules_is_located_in_the_template_or_the_data(designer_project):
    template = designer_project.templates_dir / "rules" / f"{GAME}.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nDone ✓\n", encoding="utf-8")
    edit(designer_project, "resources.yaml", "name: Metal", "name: Metal \u91d1")
    template.write_text(
        template.read_text(encoding="utf-8") + "{{ game.tables.resources.by_id.metal.name }}\n"
    )
    result = run_pnp("validate", "--no-sim", project=designer_project)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert (
        f"templates/rules/{GAME}.md.j2:21: the rules text has '✓' (U+2713), which font 'body' (Lato, then "
        f"Noto Sans) cannot draw; {EXPECT.format('it')}"
    ) in lines
    assert (
        f"cards/{GAME}/resources.yaml:8: resources row 'metal' name (printed in the rules) has '\u91d1' "
        "(U+91D1), "
        f"which font 'body' (Lato, then Noto Sans) cannot draw; {EXPECT.format('it')}"
    ) in lines


def test_a_board_text_no_face_has_is_located_in_the_board_file(tmp_project):
    path = tmp_project.cards_dir / "order-up-pizza" / "board.yaml"
    text = path.read_text()
    path.write_text(text.replace("name: Basil Boulevard", "name: Basil Boulevard \u2606", 1))
    line = next(n for n, content in enumerate(path.read_text().splitlines(), start=1) if "\u2606" in content)
    with pytest.raises(InputError) as caught:
        check_game(load_game(tmp_project, "order-up-pizza"))
    found = [str(p) for p in caught.value.problems]
    assert (
        f"cards/order-up-pizza/board.yaml:{line}: street 'basil-boulevard' name has '\u2606' (U+2606), which "
        "font "
        f"'body' (Lato, then Noto Sans) cannot draw; {EXPECT.format('it')}"
    ) in found


def test_a_deck_name_is_checked_where_the_sheets_print_it(designer_project):
    edit(designer_project, "crew.yaml", "name: Crew", "name: Crew \u2606")
    assert (
        "cards/space-race/crew.yaml:2: deck 'crew' name (on the card sheets) has '\u2606' (U+2606), which "
        "font "
        f"'body' (Lato, then Noto Sans) cannot draw; {EXPECT.format('it')}"
    ) in run_pnp("build", project=designer_project).output.splitlines()


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key)
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def test_the_bundled_games_need_no_fallback(repo_project):
    """Every text of the bundled games is in Fredoka SemiBold and Lato themselves: their PDFs embed no
    fallback face."""
    from generator.core.fonts import BODY_FAMILY, TITLE_FAMILY, fallback_markup

    for game_id in ("order-up-pizza", "order-up-trading", "short-order-hero"):
        game = load_game(repo_project, game_id)
        values = [game.config.model_dump(), [board.model.model_dump() for board in game.boards.values()]]
        values += [[deck.name, [card.as_dict() for card in deck.cards]] for deck in game.decks.values()]
        values += [[row.as_dict() for row in table.rows] for table in game.tables.values()]
        values.append((repo_project.templates_dir / "rules" / f"{game_id}.md.j2").read_text(encoding="utf-8"))
        for text in _texts(values):
            for family in (TITLE_FAMILY, BODY_FAMILY):
                assert fallback_markup(text, family) == text, (game_id, text)


def test_fonts_are_copied_with_their_licence():
    from generator.core.fonts import FONTS, NOTO

    assert sorted(p.name for p in NOTO.glob("*.ttf")) == [
        "NotoSans-Bold.ttf", "NotoSans-BoldItalic.ttf", "NotoSans-Italic.ttf", "NotoSans-Regular.ttf"]
    assert "SIL OPEN FONT LICENSE Version 1.1" in (NOTO / "OFL.txt").read_text()
    assert all(p.stat().st_size < 2_000_000 for p in NOTO.glob("*.ttf"))
    # the title and body faces, each folder with the licence (OFL 1.1) and where the files come from
    assert sorted(p.name for p in (FONTS / "lato").glob("*.ttf")) == [
        "Lato-Bold.ttf", "Lato-BoldItalic.ttf", "Lato-Italic.ttf", "Lato-Regular.ttf"]
    assert [p.name for p in (FONTS / "fredoka").glob("*.ttf")] == ["Fredoka-SemiBold.ttf"]
    for folder in ("lato", "fredoka"):
        assert "SIL OPEN FONT LICENSE Version 1.1" in (FONTS / folder / "OFL.txt").read_text()
        assert (FONTS / folder / "README.md").is_file()


def test_a_fallback_added_to_a_built_in_font_draws_what_it_lacks_in_this_game_only(
    designer_project, repo_project
):
    """`title: {fallback: [symbols]}` keeps the built-in title faces and tries `symbols` first for what they
    lack; the built-in title of another game (in the same process) still cannot draw it."""
    write_font(game_dir(designer_project) / "fonts" / "Symbols.ttf", "\u2713", family="Check Box", cff=False)
    edit(designer_project, "layouts/event-back.yaml", "Události · События", "Události \u2713")
    edit(
        designer_project,
        "game.yaml",
        "  display: fonts/NotoSerif-Bold-subset.ttf",
        "  symbols: fonts/Symbols.ttf\n  title: {fallback: [symbols]}\n  display: "
        "fonts/NotoSerif-Bold-subset.ttf",
    )
    built = run_pnp("build", "--paper", "a4", project=designer_project)
    assert built.exit_code == 0, built.output
    sheet = designer_project.build_dir / GAME / "cards-a4.pdf"
    assert "Události \u2713" in pdf_text(sheet)
    assert {"Fredoka-SemiBold", "Check-Box"} <= {
        re.sub(r"-[0-9a-f]{8}$", "", n) for n in embedded_fonts(sheet)
    }
    mine = load_game(designer_project, GAME).fonts["title"]
    assert mine.chain_draws("\u2713") and mine.describe().startswith(
        "font 'title' (Fredoka SemiBold, then Check Box"
    )
    # the built-in title elsewhere: as it was
    other = load_game(repo_project, "order-up-pizza").fonts["title"]
    assert (
        not other.chain_draws("\u2713")
        and other.describe() == "font 'title' (Fredoka SemiBold, then Noto Sans Bold)"
    )
    bare = "  display: {fallback: [symbols]}"  # a font that is not built in needs its own regular face
    edit(designer_project, "game.yaml", "  display: fonts/NotoSerif-Bold-subset.ttf", bare)
    with pytest.raises(InputError, match="only title and body are built in"):
        load_game(designer_project, GAME)


def test_every_text_of_every_shipped_language_is_in_the_bundled_faces(repo_project):
    """Every character of the bundled games' files (their data, layouts and translations), of their rules
    templates in every language and of the tool's word catalogues is in Fredoka SemiBold and in every style of
    Lato themselves (read from the font files with fontTools): no heading mixes in a fallback face."""
    import yaml

    from generator.core.fonts import BODY_FAMILY, TITLE_FAMILY

    files = [path for game_id in ("order-up-pizza", "order-up-trading", "short-order-hero")
             for path in sorted((repo_project.cards_dir / game_id).rglob("*.y*ml"))]
    files += sorted((repo_project.templates_dir / "rules").glob("*.j2"))
    files += sorted((REPO / "generator" / "assets" / "i18n").glob("*.yaml"))
    languages = {path.stem for path in files if path.parent.name == "i18n"}
    assert {"cs", "de"} <= languages  # the shipped translations are among the files read
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix in (".yaml", ".yml"):
            text = " ".join(_texts(yaml.safe_load(text)))
        chars = {char for char in text if not char.isspace()}
        for family in (TITLE_FAMILY, BODY_FAMILY):
            lacking = sorted(char for char in chars if ord(char) not in family.own_characters)
            assert not lacking, (path.name, family.describe(), lacking)


def test_a_letter_drawn_by_a_fallback_face_is_a_warning_naming_the_text_and_the_face(designer_project):
    """Russian in a title: Fredoka SemiBold has no Cyrillic, so Noto Sans Bold draws it (the same weight class
    as the heavy title face); the warning names the card field, its text, the letters and the faces, once per
    box and face. A text the title face draws itself warns of nothing."""
    game = load_game(designer_project, GAME)
    renderer = renderer_for(game)
    renderer.check()
    fallbacks = [w for w in renderer.warnings if "drawn in its fallback" in w]
    lead = f"cards/{GAME}/crew.csv:3: card 'engineer' name 'Инженер Петров' has 'И' (U+0418), "
    rest = ("which the own face of font 'title' (Fredoka SemiBold) lacks: drawn in its fallback Noto Sans "
            "Bold (box ")
    assert any(w.startswith(lead) and rest in w for w in fallbacks), fallbacks
    assert not any("Dvořák" in w or "Řehořová" in w for w in renderer.warnings)  # Czech: no fallback
    assert len(fallbacks) == len({w.split("(box ")[1] for w in fallbacks})  # once per box and face
    result = run_pnp("validate", "--no-sim", project=designer_project)
    assert "drawn in its fallback Noto Sans Bold (box 'title'" in result.output, result.output
    # the rules too: their title, in the title font, is Czech and Russian
    rules = [line for line in result.output.splitlines() if "(the rules)" in line]
    assert any("'Г' (U+0413)" in line and "which the own face of font 'title' (Fredoka SemiBold) lacks: "
               "drawn in its fallback Noto Sans Bold (the rules)" in line for line in rules), result.output
    assert not any("'ě'" in line or "'ř'" in line for line in rules)  # Czech is in Fredoka itself
