"""Games in a second language: the bundled games built in Czech and German (every page read back), a held-out
translation's three located messages, and every bad input of a translation as one located line."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml

from generator.data.load import load_game
from generator.data.project import Project
from tests.conftest import REPO, run_pnp
from tests.fixtures.languages import demo_in_german

WORD = re.compile(r"[^\W\d_]{3,}")


def _page_texts(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    try:
        return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    finally:
        pdf.close()


def _words(value) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_words(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_words(v) for v in value)) if value else set()
    return {w.lower() for w in WORD.findall(re.sub(r"\{[{%#].*?[}%#]\}", " ", str(value), flags=re.S))}


def _vocabulary(project: Path, game: str, language: str) -> tuple[set[str], set[str]]:
    """Words of the translation (its file, its rules template, the tool's catalogue) and of the source."""
    translated = _words(yaml.safe_load((project / "cards" / game / "i18n" / f"{language}.yaml").read_text()))
    translated |= _words(
        yaml.safe_load((REPO / "generator" / "assets" / "i18n" / f"{language}.yaml").read_text())
    )
    rules = project / "templates" / "rules"
    translated |= _words((rules / f"{game}.{language}.md.j2").read_text())
    translated |= _words((rules / f"_making-the-pieces.{language}.md.j2").read_text())
    source = _words(yaml.safe_load((REPO / "generator" / "assets" / "i18n" / "en.yaml").read_text()))
    source |= _words((rules / f"{game}.md.j2").read_text())
    for path in (project / "cards" / game).rglob("*.yaml"):
        if "i18n" not in path.parts:
            source |= _words(yaml.safe_load(path.read_text()))
    return translated, source


@pytest.fixture(scope="module")
def translated(tmp_path_factory) -> Path:
    """The repository's games built in their second languages (pizza in Czech, the diner game in German),
    A4."""
    root = tmp_path_factory.mktemp("translated")
    for name in ("cards", "templates"):
        shutil.copytree(REPO / name, root / name)
    result = run_pnp(
        "build",
        "order-up-pizza",
        "short-order-hero",
        "--lang",
        "cs",
        "--lang",
        "de",
        "--paper",
        "a4",
        project=root,
    )
    assert result.exit_code == 0, result.output
    return root


@pytest.mark.parametrize(
    "game, language, musts",
    [
        (
            "order-up-pizza",
            "cs",
            {
                "cards-a4.pdf": [
                    "Přísady na pizzu",
                    "Salámová třída 11",
                    "KONEC HRY",
                    "PŘÍSADA",
                    "zkouška tisku",
                ],
                "board-full.pdf": ["Bazalkový bulvár", "Odhazovací balíček", "ČERVENÁ"],
                "rules.pdf": ["Příprava hry", "Výroba herních dílů", "Dvojčata Nguyenova"],
                "components-a4.pdf": ["Červené auto", "Tiskněte ve 100 %"],
            },
        ),
        (
            "short-order-hero",
            "de",
            {
                "cards-a4.pdf": ["Käsetoast", "DU BRAUCHST", "Fleisch nach Wahl", "Druckprüfung"],
                "board-full.pdf": ["FEIERABEND", "Rundenleiste", "2 Sp. START"],
                "rules.pdf": ["Spielmaterial", "Kartenwirkungen", "Schwarzes Haar"],
                "tuckboxes-full.pdf": ["Held am Herd", "KLEBEN"],
            },
        ),
    ],
)
def test_bundled_games_build_complete_in_their_second_language(translated, game, language, musts):
    folder = translated / "build" / game / language
    manifest = json.loads((translated / "build" / "manifest.json").read_text())
    mine = {o["path"]: o for o in manifest["outputs"] if o["game"] == game and o.get("language") == language}
    pdfs = sorted(folder.glob("*.pdf"))
    kinds = {o["kind"] for o in mine.values()}
    assert {
        "cards",
        "board-full",
        "board-tiled",
        "rules",
        "rules-booklet",
        "components",
        "tuckboxes",
    } <= kinds
    assert {f"{game}/{language}/{p.name}" for p in pdfs} == set(mine)
    assert all(
        d.get("language") == language for d in manifest["decks"] if d["game"] == game and "language" in d
    )
    ours, theirs = _vocabulary(translated, game, language)
    only_translated, only_source = ours - theirs, theirs - ours
    source_game = load_game(Project(translated), game)
    codes = {part.lower() for deck in source_game.decks.values() for card in deck.cards
             for part in card.code.split("-")}  # 'OUP-TOP-01': card codes are the same in every language
    for pdf in pdfs:
        for number, text in enumerate(_page_texts(pdf), start=1):
            assert "\ufffd" not in text, f"{pdf.name} page {number}: a character did not make it"
            words = {w.lower() for w in WORD.findall(text)}
            assert words & only_translated, (
                f"{pdf.name} page {number} shows no {language} text: {text[:200]!r}"
            )
            left = sorted(words & only_source - codes)
            assert not left, f"{pdf.name} page {number}: English words left on a {language} page: {left}"
    for name, strings in musts.items():
        text = " ".join(_page_texts(folder / name)).replace("\r\n", " ").replace("\n", " ")
        for string in strings:
            assert string in text, f"{name}: '{string}' is missing"


def test_czech_letters_are_drawn_by_the_bundled_faces_themselves(translated):
    """Fredoka SemiBold and Lato 2.0 have ř, ě, č, ů, ď, ť and ň: the Czech pages embed no fallback face (one
    typeface per heading), and extracting the text gives the letters back (nothing dropped)."""
    folder = translated / "build" / "order-up-pizza" / "cs"
    text = " ".join(_page_texts(folder / "cards-a4.pdf"))
    for letter in "řěčůŘ":
        assert letter in text
    for pdf in folder.glob("*.pdf"):
        fonts = pdf.read_bytes()
        assert b"NotoSans" not in fonts and b"Lato" in fonts, pdf.name
    assert b"Fredoka-SemiBold" in (folder / "cards-a4.pdf").read_bytes()


@pytest.mark.slow  # four builds of two languages; test_language_fingerprints is the quick case
def test_source_language_stays_where_it_is_and_translations_are_incremental(translated):
    build = translated / "build"
    both = run_pnp("build", "order-up-pizza", "--paper", "a4", project=translated)  # English and Czech
    assert both.exit_code == 0, both.output
    assert (build / "order-up-pizza" / "cards-a4.pdf").is_file()  # the source language, where it always was
    assert "skipped order-up-pizza/cs/cards-a4.pdf (up to date)" in both.output
    assert "wrote order-up-pizza/cards-a4.pdf" in both.output
    again = run_pnp("build", "order-up-pizza", "--paper", "a4", project=translated)
    assert again.exit_code == 0 and "0 files written" in again.output
    path = translated / "cards" / "order-up-pizza" / "i18n" / "cs.yaml"
    path.write_text(path.read_text().replace('"Radar"', '"Rychlostní radar"'))
    changed = run_pnp("build", "order-up-pizza", "--paper", "a4", project=translated)
    assert changed.exit_code == 0, changed.output
    written = [line.split()[-1] for line in changed.output.splitlines() if line.strip().startswith("wrote")]
    assert written and all(path.startswith("order-up-pizza/cs/") for path in written), written
    assert "order-up-pizza/cs/cards-a4.pdf" in written
    assert "Rychlostní radar" in " ".join(_page_texts(build / "order-up-pizza" / "cs" / "cards-a4.pdf"))


# --- a held-out translation: a missing key, an unknown key and an over-long text
# --------------------------------

def test_held_out_translation_gets_three_located_messages(tmp_project: Project):
    """One `pnp validate` run on a translation with a missing key, an unknown key and an over-long text."""
    root = tmp_project.root
    path = root / "cards" / "order-up-pizza" / "i18n" / "cs.yaml"
    text = path.read_text()
    text = text.replace('    name: "Žampiony"\n', "")  # missing
    text = text.replace("  pizza-plunder:\n", "  pizza-plundr:\n")  # unknown
    text = text.replace(
        '"Platí jako libovolná jedna přísada."',  # over-long on the reference cards
        '"Platí jako libovolná jedna přísada na pizze, kterou právě doručuješ, a to i tehdy, když ji '
        'zákazník výslovně nechtěl, protože žolík je žolík a zákazník to nepozná, dokud neochutná."',
    )
    path.write_text(text)
    lines = text.splitlines()
    unknown_line = lines.index("  pizza-plundr:") + 1
    long_line = next(n for n, t in enumerate(lines, start=1) if "výslovně nechtěl" in t)
    result = run_pnp("validate", "order-up-pizza", "--no-sim", "--lang", "cs", project=root)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    out = result.output.splitlines()
    assert (
        "warning: cards/order-up-pizza/toppings.yaml:15: toppings.mushrooms.name ('Mushrooms') has no Czech "
        "(cs) "
        "translation; expected it in cards/order-up-pizza/i18n/cs.yaml (the English (en) text is printed "
        "until "
        "then)"
    ) in out
    assert (
        f"cards/order-up-pizza/i18n/cs.yaml:{unknown_line}: Czech (cs): toppings.pizza-plundr: deck "
        "'toppings' "
        "has no card 'pizza-plundr' (did you mean 'pizza-plunder'?); known: anchovies, black-olives, "
        "energy-drink, "
        "green-peppers, ham, mushrooms, onions, pepperoni, pineapple, pizza-plunder, sausage, speed-trap, ..."
    ) in out
    overflow = [line for line in out if "does not fit" in line]
    assert overflow and all(
        line.startswith(f"cards/order-up-pizza/i18n/cs.yaml:{long_line}: Czech (cs): card OUP-REF-")
        for line in overflow
    ), overflow
    assert "box 'actions': text does not fit even at 7.5 pt" in overflow[0]
    # a field the layout prints otherwise than written (the note's ' · ' parts on lines of their own) is found
    # too
    original = (REPO / "cards" / "order-up-pizza" / "i18n" / "cs.yaml").read_text()
    note = next(t for t in original.splitlines() if t.startswith("    note: ") and " · " in t)
    path.write_text(
        original.replace(note, note[:-1] + " · a ještě mnohem delší poznámka na konec" * 12 + '"', 1)
    )
    note_line = original.splitlines().index(note) + 1
    noted = run_pnp(
        "validate", "order-up-pizza", "--no-sim", "--lang", "cs", project=root
    ).output.splitlines()
    assert any(
        line.startswith(f"cards/order-up-pizza/i18n/cs.yaml:{note_line}: Czech (cs): card OUP-REF-")
        and "box 'note': text does not fit" in line
        for line in noted
    ), [t for t in noted if "fit even" in t]
    path.write_text(text)
    strict = run_pnp("validate", "order-up-pizza", "--no-sim", "--lang", "cs", "--strict", project=root)
    assert strict.exit_code == 1
    assert "\ncards/order-up-pizza/toppings.yaml:15: toppings.mushrooms.name" in "\n" + strict.output


# --- bad input: one located line each, exit 1, no traceback; the source language always builds
# ---------------

@pytest.fixture
def demo(tmp_path: Path) -> Path:
    """The demo game declaring English and German, with a small German translation and rules in both."""
    root = demo_in_german(
        tmp_path, "game:\n  title: Demo-Pizza\n"
        "toppings:\n  olive: {name: Olive}\n  onion: {name: Zwiebel}\n"
        "orders:\n  ann: {name: Anna}\n  bob: {name: Bernd}\n")
    rules = root / "templates" / "rules"
    rules.mkdir(parents=True)
    (rules / "demo.md.j2").write_text("# Rules of {{ game.title }}\n\nPlay {{ game.decks.toppings.name }}.\n")
    (rules / "demo.de.md.j2").write_text(
        "# Regeln von {{ game.title }}\n\nSpielt {{ game.decks.toppings.name }}.\n"
    )
    return root


def _one_located(result, pattern: str) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    problems = [
        line
        for line in result.output.splitlines()
        if not line.startswith(("warning:", "  wrote", "OK ", "--", "BAD"))
        and "problem" not in line
        and "written to" not in line
        and "not translated" not in line
        and not line.startswith("      - ")
        and not re.match(r"\d+ warnings? (\(|above about)", line)
    ]
    assert len(problems) == 1, result.output
    assert re.match(pattern, problems[0]), problems[0]
    return problems[0]


def test_demo_builds_in_both_languages(demo: Path):
    result = run_pnp("build", "--paper", "a4", project=demo)
    assert result.exit_code == 0, result.output
    assert (demo / "build" / "demo" / "de" / "rules.pdf").is_file()
    assert "Regeln von Demo-Pizza" in " ".join(_page_texts(demo / "build" / "demo" / "de" / "rules.pdf"))
    # the address printed on a German order card follows the board's street name, in the German address form
    assert "Main Street 11" in " ".join(_page_texts(demo / "build" / "demo" / "de" / "cards-a4.pdf"))


def test_language_not_declared(demo: Path):
    _one_located(
        run_pnp("build", "--lang", "fr", "--paper", "a4", project=demo),
        r"cards/demo/game\.yaml:\d+: language 'fr' is not declared for game 'demo'; expected one of en, de",
    )
    assert not (demo / "build").exists()


def test_translation_file_of_an_undeclared_language(demo: Path):
    (demo / "cards" / "demo" / "i18n" / "fr.yaml").write_text("game: {title: Pizza démo}\n")
    _one_located(run_pnp("build", "--paper", "a4", project=demo),
                 r"cards/demo/i18n/fr\.yaml: translates French \(fr\), which game\.yaml does not declare; "
                 r"expected `languages: \[en, de, fr\]` in game\.yaml")
    assert (demo / "build" / "demo" / "cards-a4.pdf").is_file()  # the source language built anyway


def test_translated_count_field(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text().replace("olive: {name: Olive}", "olive: {name: Olive, copies: 4}"))
    result = run_pnp("build", "--paper", "a4", project=demo)
    _one_located(
        result,
        r"cards/demo/i18n/de\.yaml:4: German \(de\): toppings\.olive\.copies: 'copies' is a count, "
        r"not words, and is never translated",
    )
    assert "OK  demo (en; de not built):" in result.output
    assert (demo / "build" / "demo" / "cards-a4.pdf").is_file()
    assert not (demo / "build" / "demo" / "de").exists()


def test_key_for_a_card_that_does_not_exist(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text().replace("bob: {name: Bernd}", "bobb: {name: Bernd}"))
    _one_located(run_pnp("validate", "--no-sim", project=demo),
                 r"cards/demo/i18n/de\.yaml:8: German \(de\): orders\.bobb: deck 'orders' has no card 'bobb' "
                 r"\(did you mean 'bob'\?\)")


def test_rules_template_missing_in_one_language_builds_its_cards_and_warns(demo: Path):
    # as a card text not translated yet: the language's cards are built, its booklet waits for the template
    (demo / "templates" / "rules" / "demo.de.md.j2").unlink()
    result = run_pnp("build", "--paper", "a4", project=demo)
    assert result.exit_code == 0, result.output
    assert re.search(r"^warning: cards/demo/game\.yaml:\d+: the rules have no German \(de\) template; "
                     r"expected templates/rules/demo\.de\.md\.j2 .*; its booklet is left out until that file "
                     r"exists$",
                     result.output, re.M), result.output
    assert "OK  demo (en, de):" in result.output
    assert (demo / "build" / "demo" / "rules.pdf").is_file()
    assert (demo / "build" / "demo" / "de" / "cards-a4.pdf").is_file()
    assert not list((demo / "build" / "demo" / "de").glob("rules*.pdf"))
    strict = run_pnp("validate", "--no-sim", "--strict", project=demo)
    assert strict.exit_code == 1 and "the rules have no German (de) template" in strict.output


def test_settings_are_never_translated(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text() + "settings: {start_hand: 4}\n")
    _one_located(run_pnp("validate", "--no-sim", project=demo),
                 r"cards/demo/i18n/de\.yaml:9: German \(de\): settings: settings are rule parameters, never "
                 r"translated")


def test_broken_translation_never_stops_the_source_language(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text("game: [not, a, mapping\n")
    result = run_pnp("build", "--paper", "a4", project=demo)
    assert result.exit_code == 1 and "cards/demo/i18n/de.yaml:" in result.output
    manifest = json.loads((demo / "build" / "manifest.json").read_text())
    assert {o["path"] for o in manifest["outputs"]} >= {"demo/cards-a4.pdf", "demo/rules.pdf"}
    assert not any(o.get("language") for o in manifest["outputs"])


def test_missing_translations_are_warnings_and_strict_errors(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text().replace("  onion: {name: Zwiebel}\n", ""))
    built = run_pnp("build", "--paper", "a4", project=demo)
    assert built.exit_code == 0
    assert ("warning: cards/demo/toppings.yaml:13: toppings.onion.name ('Onion') has no German (de) "
            "translation") in built.output
    strict = run_pnp("validate", "--no-sim", "--strict", project=demo)
    assert strict.exit_code == 1
    assert "\ncards/demo/toppings.yaml:13: toppings.onion.name" in "\n" + strict.output


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_translation_that_fails_while_drawing_keeps_its_last_good_files(demo: Path, monkeypatch, jobs):
    """A problem found only while drawing a German output (in a worker or not): the English outputs are
    written, the German ones stay as the last good build left them (files and manifest entries), nothing
    half-drawn is left."""
    from generator.core.contract import BuildOptions
    from generator.core.errors import InputError, Problem
    from generator.pipeline import translations
    from generator.pipeline.build import build

    project = Project(demo)
    first = build(project, ["demo"], BuildOptions(papers=("a4",), jobs=jobs))
    assert not first.problems
    german = demo / "build" / "demo" / "de" / "cards-a4.pdf"
    before = german.read_bytes()
    entries = [
        o for o in json.loads((demo / "build" / "manifest.json").read_text())["outputs"] if o.get("language")
    ]

    def fails(tmp: Path) -> dict:
        tmp.write_text("half")
        raise InputError(Problem("cards/demo/toppings.yaml", 3, "text does not fit"))

    real = translations.in_language

    def broken(game, outputs):
        return [
            replace(o, render=fails) if o.kind == "cards" and o.language else o for o in real(game, outputs)
        ]

    monkeypatch.setattr(translations, "in_language", broken)
    again = build(project, ["demo"], BuildOptions(papers=("a4",), jobs=jobs, force=True))
    assert [str(p) for p in again.problems] == ["cards/demo/toppings.yaml:3: German (de): text does not fit"]
    assert again.not_built == {"demo": ["de"]}
    assert {o["path"] for o in again.written} >= {"demo/cards-a4.pdf", "demo/rules.pdf"}
    assert not any(o.get("language") for o in again.written)
    assert german.read_bytes() == before
    manifest = json.loads((demo / "build" / "manifest.json").read_text())
    assert [o for o in manifest["outputs"] if o.get("language")] == entries
    assert not [p for p in (demo / "build").rglob("*") if p.name.endswith(".tmp")]


def test_a_character_no_font_draws_in_one_language(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text().replace("olive: {name: Olive}", "olive: {name: Olive \u4e2d}"))
    _one_located(
        run_pnp("validate", "--no-sim", project=demo),
        r"cards/demo/i18n/de\.yaml:4: German \(de\): card 'olive' name has '\u4e2d' \(U\+4E2D\), which font "
        r"'title' \(Fredoka SemiBold, then Noto Sans Bold\) cannot draw",
    )


def test_a_letter_a_fallback_face_draws_in_one_language_is_a_warning_naming_it(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    # Fredoka has no Cyrillic: the card's title and the rules' title (the game's) take Noto Sans Bold
    path.write_text(path.read_text().replace("olive: {name: Olive}", "olive: {name: Олива}")
                    .replace("title: Demo-Pizza", "title: Демо-Pizza"))
    result = run_pnp("validate", "--no-sim", project=demo)
    found = [line for line in result.output.splitlines() if "drawn in its fallback" in line]
    lead = "warning: cards/demo/i18n/de.yaml:4: German (de): card 'olive' name 'Олива' has 'О' (U+041E)"
    assert any(line.startswith(lead) and "which the own face of font 'title' (Fredoka SemiBold) lacks: "
               "drawn in its fallback Noto Sans Bold (box 'title' of cards/demo/layouts/base.yaml:4)" in line
               for line in found), result.output
    assert any(line.startswith("warning: cards/demo/i18n/de.yaml:2: German (de): ") and "'Д' (U+0414)" in line
               and "font 'title' (Fredoka SemiBold) lacks: drawn in its fallback Noto Sans Bold (the rules)"
               in line for line in found), result.output
    assert not [line for line in found if "German" not in line]  # the English game needs no fallback


def test_only_a_failed_language_asked_for_reads_as_such(demo: Path):
    path = demo / "cards" / "demo" / "i18n" / "de.yaml"
    path.write_text(path.read_text().replace("olive: {name: Olive}", "olive: {name: Olive, copies: 4}"))
    result = run_pnp("build", "--paper", "a4", "--lang", "de", project=demo)
    assert result.exit_code == 1
    assert re.search(r"^OK  demo \((en; )?de not built\):", result.output, re.M), result.output
    assert "(; " not in result.output
