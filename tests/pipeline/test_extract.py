"""`pnp i18n extract`: a complete translation file with the source text as comments, kept up to date."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, run_pnp

DEMO = REPO / "tests" / "fixtures" / "demo-project"


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(DEMO, root)
    game = root / "cards" / "demo" / "game.yaml"
    game.write_text(game.read_text() + "languages: [en, pl]\n")
    return root


def test_extract_writes_every_text_with_its_source_as_a_comment(demo: Path):
    result = run_pnp("i18n", "extract", "demo", "--lang", "pl", project=demo)
    assert result.exit_code == 0, result.output
    path = demo / "cards" / "demo" / "i18n" / "pl.yaml"
    assert "wrote cards/demo/i18n/pl.yaml:" in result.output and "0 translated" in result.output
    text = path.read_text()
    data = yaml.safe_load(text)
    assert data["toppings"]["olive"] == {"name": None}
    assert data["orders"]["ann"] == {"name": None}
    assert data["boards"]["town"]["streets"]["main"] == {"name": None, "color_name": None}
    assert '    # en: "Olive"\n    name: ~' in text
    # Polish has no built-in catalogue of the tool's words: they are in the file to translate too
    assert data["tool"]["sheets"]["fronts"] is None and '# en: "fronts"' in text
    assert data["tool"]["sheets"]["outline_deck"] is None
    # the empty file builds (English texts, a warning per text) and validates with warnings only
    checked = run_pnp("validate", "--no-sim", project=demo)
    assert checked.exit_code == 0, checked.output
    assert (
        "warning: cards/demo/toppings.yaml:9: toppings.olive.name ('Olive') has no Polish (pl) translation"
        in checked.output
    )
    assert (
        "of the tool's own words (sheet labels, print check, booklet cover, ...) have no Polish (pl) text"
        in checked.output
    )


def test_extract_keeps_translations_marks_changes_and_keeps_retired_texts(demo: Path):
    assert run_pnp("i18n", "extract", "demo", "--lang", "pl", project=demo).exit_code == 0
    path = demo / "cards" / "demo" / "i18n" / "pl.yaml"
    text = path.read_text()
    text = text.replace('    # en: "Olive"\n    name: ~', '    # en: "Olive"\n    name: "Oliwka"')
    text = text.replace('    # en: "Onion"\n    name: ~', '    # en: "Onion"\n    name: "Cebula"')
    text = text.replace('    # en: "Ann"\n    name: ~', '    # en: "Ann"\n    name: "Anna"')
    text = text.replace('    fronts: ~', '    fronts: "awersy"')
    path.write_text(text)
    # the source changes: Onion is renamed, Ann's card is gone, a new card comes
    deck = demo / "cards" / "demo" / "toppings.yaml"
    deck.write_text(deck.read_text().replace("name: Onion", "name: Red Onion"))
    orders = demo / "cards" / "demo" / "orders.yaml"
    orders.write_text(orders.read_text().replace("id: ann\n    name: Ann", "id: cat\n    name: Cat"))
    result = run_pnp("i18n", "extract", "demo", "--lang", "pl", project=demo)
    assert result.exit_code == 0, result.output
    assert "1 marked # CHANGED" in result.output and "1 no longer in the game" in result.output
    text = path.read_text()
    data = yaml.safe_load(text)
    assert data["toppings"]["olive"]["name"] == "Oliwka"           # kept
    assert data["toppings"]["onion"]["name"] == "Cebula"  # kept, and marked
    assert (
        '    # CHANGED: the English (en) text was "Onion"\n    # en: "Red Onion"\n    name: "Cebula"' in text
    )
    assert data["orders"]["cat"] == {"name": None}                  # new
    assert "ann" not in data["orders"]
    assert '# orders.ann.name: "Anna"' in text                      # retired, kept as a comment
    assert data["tool"]["sheets"]["fronts"] == "awersy"
    # validation warns at the mark until the translator removes it
    checked = run_pnp("validate", "--no-sim", project=demo)
    line = text.splitlines().index('    # CHANGED: the English (en) text was "Onion"') + 1
    assert f"warning: cards/demo/i18n/pl.yaml:{line}: Polish (pl): the source text changed after this was " \
           "translated" in checked.output
    # a second run changes nothing: the mark stays until it is deleted by hand
    again = run_pnp("i18n", "extract", "demo", "--lang", "pl", project=demo)
    assert again.exit_code == 0 and path.read_text() == text
    path.write_text(text.replace('    # CHANGED: the English (en) text was "Onion"\n', ""))
    assert "CHANGED" not in run_pnp("i18n", "extract", "demo", "--lang", "pl", project=demo).output


def test_extract_for_the_bundled_translation_changes_nothing(tmp_project):
    """The shipped Czech file is what extract writes: every text translated, comments in place."""
    path = tmp_project.root / "cards" / "order-up-pizza" / "i18n" / "cs.yaml"
    before = path.read_text()
    result = run_pnp("i18n", "extract", "order-up-pizza", "--lang", "cs", project=tmp_project)
    assert result.exit_code == 0 and ", 0 to do" in result.output, result.output
    assert path.read_text() == before


def test_a_game_written_in_a_language_pnp_has_no_catalogue_of_gets_the_tools_words_to_translate(tmp_project):
    """A game in Polish: its own texts are its files; pnp's words (sheet labels, print check, ...) print in
    English, with a warning saying how to give them, and `extract` writes only those for the source
    language."""
    import pypdfium2 as pdfium

    assert run_pnp("new", "wyprawa", project=tmp_project).exit_code == 0
    game = tmp_project.cards_dir / "wyprawa"
    (game / "game.yaml").write_text((game / "game.yaml").read_text() + "languages: [pl]\n")
    built = run_pnp("build", "wyprawa", "--paper", "a4", project=tmp_project)
    assert built.exit_code == 0, built.output
    warning = (
        "of the tool's own words (sheet labels, print check, booklet cover, ...) have no Polish (pl) text"
    )
    assert "warning: cards/wyprawa/game.yaml:" in built.output and warning in built.output
    assert "pnp i18n extract wyprawa --lang pl writes them" in built.output
    strict = run_pnp("validate", "wyprawa", "--no-sim", "--strict", project=tmp_project)
    assert strict.exit_code == 1 and warning in strict.output

    extracted = run_pnp("i18n", "extract", "wyprawa", "--lang", "pl", project=tmp_project)
    assert extracted.exit_code == 0, extracted.output
    path = game / "i18n" / "pl.yaml"
    data = yaml.safe_load(path.read_text())
    assert list(data) == ["tool"]  # only pnp's words: the game's texts are its own files
    assert data["tool"]["words"]["decimal"] is None  # a sign without letters is there too (20,0 mm in Polish)
    assert '# en: "Print at 100% (Actual size)"' in path.read_text()
    given = path.read_text().count("print_at_100: ~")  # the sheets', the print check's, ...
    path.write_text(path.read_text().replace("print_at_100: ~", 'print_at_100: "Drukuj w skali 100%"'))
    again = run_pnp("build", "wyprawa", "--paper", "a4", project=tmp_project)
    assert again.exit_code == 0, again.output
    counted = re.compile(r"warning: (cards/wyprawa/\S+): (\d+) of the tool's own words")
    (where, before), (now_where, after) = (
        counted.search(built.output).groups(),
        counted.search(again.output).groups(),
    )
    assert where.startswith("cards/wyprawa/game.yaml:") and now_where == "cards/wyprawa/i18n/pl.yaml:1"
    assert given > 1 and int(after) == int(before) - given == sum(
        1 for line in path.read_text().splitlines() if line.endswith(": ~")
    )
    assert "OK  wyprawa (pl):" in again.output
    nothing = run_pnp("build", "wyprawa", "--paper", "a4", project=tmp_project)  # nothing to do: same line
    assert "0 files written" in nothing.output and "OK  wyprawa (pl):" in nothing.output
    pages = pdfium.PdfDocument(tmp_project.build_dir / "wyprawa" / "cards-a4.pdf")
    text = "".join(pages[i].get_textpage().get_text_range() for i in range(len(pages)))
    assert "Drukuj w skali 100%" in text


def test_extract_bad_input(demo: Path):
    source = run_pnp("i18n", "extract", "demo", "--lang", "en", project=demo)
    assert source.exit_code == 1 and "English (en) is the source language of the game" in source.output
    code = run_pnp("i18n", "extract", "demo", "--lang", "Polish", project=demo)
    assert code.exit_code == 1 and "--lang Polish: not a language code" in code.output
    undeclared = run_pnp("i18n", "extract", "demo", "--lang", "fr", project=demo)
    assert undeclared.exit_code == 0
    assert "note: French (fr) is not in game.yaml `languages` yet" in undeclared.output
