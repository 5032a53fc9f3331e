"""The tool's words per language: complete catalogues, plural forms, number words, lists and numbers."""

from __future__ import annotations

import pytest

from generator.core.phrases import (
    CATALOGUES,
    SOURCE,
    Phrases,
    builtin,
    language_name,
    placeholders,
    plural_form,
)


@pytest.mark.parametrize("language", sorted(p.stem for p in CATALOGUES.glob("*.yaml") if p.stem != SOURCE))
def test_every_catalogue_has_every_english_key_with_its_placeholders(language):
    english, other = builtin(SOURCE), builtin(language)
    assert set(other) == set(english)
    for key, value in other.items():
        wanted = placeholders(english[key])
        allowed = wanted | {n.removesuffix("_lower") for n in wanted} | {f"{n}_lower" for n in wanted}
        assert placeholders(value) <= allowed, key
        assert (
            type(value) is type(english[key]) or isinstance(value, dict) or isinstance(english[key], dict)
        ), key
    assert len(other["numbers"]) == len(english["numbers"]) and all(
        isinstance(n, str) for n in other["numbers"]
    )


@pytest.mark.parametrize("language, counts", [
    ("en", {1: "one", 2: "other", 5: "other", 0: "other"}),
    ("de", {1: "one", 2: "other"}),
    ("cs", {1: "one", 2: "few", 4: "few", 5: "other", 22: "other"}),
    ("pl", {1: "one", 2: "few", 5: "many", 12: "many", 22: "few", 25: "many"}),
    ("ru", {1: "one", 21: "one", 3: "few", 11: "many"}),
    ("fr", {0: "one", 1: "one", 2: "other"}),
    ("ja", {1: "other"}),
])
def test_plural_forms(language, counts):
    assert {n: plural_form(language, n) for n in counts} == counts


def test_words_in_a_language():
    cs, de, en = Phrases("cs"), Phrases("de"), Phrases("en")
    assert cs.t("sheets.outline_deck", deck="Přísady", count=1) == "Přísady (1 karta)"
    assert cs.t("sheets.outline_deck", deck="Přísady", count=3) == "Přísady (3 karty)"
    assert cs.t("sheets.outline_deck", deck="Přísady", count=91) == "Přísady (91 karet)"
    assert en.t("sheets.outline_deck", deck="Toppings", count=91) == "Toppings (91 cards)"
    assert cs.join_and(["červená", "žlutá", "modrá"]) == "červená, žlutá a modrá"
    assert de.join_and(["Rind", "Hähnchen", "Schwein"], "oder") == "Rind, Hähnchen oder Schwein"
    assert (cs.words(2), de.words(12), en.words(13)) == ("dvě", "zwölf", "13")
    assert (cs.plural(1, "karta", "karty", "karet"), cs.plural(3, "karta", "karty", "karet"),
            cs.plural(7, "karta", "karty", "karet")) == ("1 karta", "3 karty", "7 karet")
    assert (en.plural(1, "card"), en.plural(2, "card"), en.plural(2, "die", "dice")) == (
        "1 card",
        "2 cards",
        "2 dice",
    )
    assert (en.number(20.04, 1), de.number(20.04, 1)) == ("20.0", "20,0")
    assert de.t("words.money", value=5) == "5 $" and en.t("words.money", value=5) == "$5"
    assert de.pattern("words.address").format(number=11, street="Hauptstraße") == "Hauptstraße 11"


def test_a_game_may_change_or_add_words_and_the_rest_stays_english():
    words = Phrases("pl", {"sheets.fronts": "awersy"})
    assert words.t("sheets.fronts") == "awersy"
    assert words.t("sheets.backs") == "backs"  # pnp has no Polish catalogue: English until translated
    assert "sheets.backs" in words.missing() and "sheets.fronts" not in words.missing()
    assert Phrases("cs").missing() == [] and Phrases("en").missing() == []


def test_language_names():
    assert (language_name("cs"), language_name("pt-BR"), language_name("xx")) == (
        "Czech (cs)",
        "Portuguese (pt-BR)",
        "'xx'",
    )
