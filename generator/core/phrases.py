"""The tool's own words in the language of a build: what pnp itself prints on the pages players and printers
read (sheet labels, the print check, board assembly pages, the booklet's cover, tuck box panels, the inventory
and assembly paragraphs of the rules), number words, "a, b and c" lists and plural forms.

Catalogues are data: `generator/assets/i18n/<lang>.yaml`, keyed like `sheets.fronts`. `en` is complete and is
the reference every other catalogue is checked against (same keys, same {placeholders}). A value is a text
with `{name}` placeholders (str.format), or for counts a mapping of plural forms (`one`, `few`, `many`,
`other`) picked by the language's plural rule from the `count` value. A game's translation file may add or
change entries under `tool:` (a language pnp has no catalogue for, or a word a designer prefers); what neither
gives stays English.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

CATALOGUES = Path(__file__).resolve().parent.parent / "assets" / "i18n"
SOURCE = "en"
CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")  # BCP 47 style: de, cs, pt-BR, zh-Hant
PLURAL_FORMS = ("one", "few", "many", "other")

# English names of languages, for messages ("no Czech (cs) translation ...").
LANGUAGE_NAMES = {
    "ar": "Arabic",
    "bg": "Bulgarian",
    "ca": "Catalan",
    "cs": "Czech",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "eo": "Esperanto",
    "es": "Spanish",
    "et": "Estonian",
    "eu": "Basque",
    "fi": "Finnish",
    "fr": "French",
    "ga": "Irish",
    "gl": "Galician",
    "he": "Hebrew",
    "hi": "Hindi",
    "hr": "Croatian",
    "hu": "Hungarian",
    "id": "Indonesian",
    "is": "Icelandic",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "lt": "Lithuanian",
    "lv": "Latvian",
    "nb": "Norwegian Bokmål",
    "nl": "Dutch",
    "no": "Norwegian",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "sr": "Serbian",
    "sv": "Swedish",
    "th": "Thai",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "vi": "Vietnamese",
    "zh": "Chinese",
}


def language_name(code: str) -> str:
    """'Czech (cs)'; an unknown code is shown as it is."""
    name = LANGUAGE_NAMES.get(code.split("-")[0].lower())
    return f"{name} ({code})" if name else f"'{code}'"


# The plural forms each language uses, in the order `plural(count, ...)` takes them.
FORMS_OF = {"cs": ("one", "few", "other"), "sk": ("one", "few", "other"), "pl": ("one", "few", "many"),
            "ru": ("one", "few", "many"), "uk": ("one", "few", "many"), "be": ("one", "few", "many"),
            "sr": ("one", "few", "many"), "hr": ("one", "few", "many"), "bs": ("one", "few", "many"),
            "ja": ("other",), "zh": ("other",), "ko": ("other",), "th": ("other",), "vi": ("other",),
            "id": ("other",)}


def plural_form(lang: str, count: int | float) -> str:
    """The plural form of a count in a language (CLDR's rules for whole numbers, for the languages pnp
    knows)."""
    base = lang.split("-")[0].lower()
    n = abs(int(count)) if float(count).is_integer() else None
    if n is None:
        return "other"
    if base in ("ja", "zh", "ko", "th", "vi", "id"):
        return "other"
    if base in ("cs", "sk"):
        return "one" if n == 1 else "few" if 2 <= n <= 4 else "other"
    if base == "pl":
        if n == 1:
            return "one"
        return "few" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "many"
    if base in ("ru", "uk", "be", "sr", "hr", "bs"):
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        return "few" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "many"
    if base == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


@functools.cache
def builtin(lang: str) -> Mapping[str, Any]:
    """The built-in catalogue of a language, flattened to dotted keys (empty when pnp has none)."""
    path = CATALOGUES / f"{lang}.yaml"
    if not path.is_file():
        return {}
    # libyaml when there is one: the English catalogue is read by every command that starts
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    # a safe loader
    return flatten(yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {})  # noqa: S506


def flatten(tree: Mapping, prefix: str = "") -> dict[str, Any]:
    """{'a': {'b': 'x'}} -> {'a.b': 'x'}; a mapping of plural forms (or `numbers:`, a list) is one entry."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and not is_plural(value):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


def is_plural(value: Any) -> bool:
    """True for a mapping of plural forms ({one: ..., other: ...})."""
    return isinstance(value, Mapping) and bool(value) and set(value) <= set(PLURAL_FORMS) and "other" in value


def placeholders(value: Any) -> set[str]:
    """The {names} a catalogue value uses (every plural form together)."""
    texts = value.values() if isinstance(value, Mapping) else value if isinstance(value, list) else [value]
    names = set()
    for text in texts:
        for _literal, name, _spec, _conv in string.Formatter().parse(str(text)):
            if name:
                names.add(name)
    return names


def known_keys() -> list[str]:
    """Every key of the tool's words (the English catalogue)."""
    return list(builtin(SOURCE))


class Phrases:
    """The tool's words in one language: the built-in catalogue, then a game's `tool:` entries, then
    English."""

    def __init__(self, lang: str = SOURCE, overrides: Mapping[str, Any] | None = None):
        self.lang = lang
        self.own = dict(builtin(lang)) | dict(overrides or {})
        self.entries = dict(builtin(SOURCE)) | self.own

    def missing(self) -> list[str]:
        """The keys this language has no words for (they print in English)."""
        return [key for key in builtin(SOURCE) if key not in self.own] if self.lang != SOURCE else []

    def t(self, key: str, **values: Any) -> str:
        """The text of `key` with its {placeholders} filled; a plural entry picks its form by `count`."""
        entry = self.entries[key]
        if isinstance(entry, Mapping):
            form = plural_form(self.lang, values.get("count", 0))
            entry = entry.get(form, entry.get("other"))
        return str(entry).format(**values)

    def pattern(self, key: str) -> str:
        """The text of `key` with its {placeholders} unfilled (e.g. the address form '{number} {street}')."""
        return str(self.entries[key])

    def number(self, value: float, digits: int = 0) -> str:
        """A number with `digits` decimals and the language's decimal sign ('20.0' in English, '20,0' in
        German)."""
        return f"{value:.{digits}f}".replace(".", self.entries.get("words.decimal", "."))

    def words(self, number: Any) -> str:
        """'six' for 6 in this language (numbers the catalogue has no word for stay digits)."""
        names = self.entries.get("numbers") or []
        return str(names[number]) if isinstance(number, int) and 0 <= number < len(names) else str(number)

    def join_and(self, items: list[Any], last: str | None = None) -> str:
        """'a, b and c' in this language (`last` replaces the word before the last item, e.g. 'or')."""
        items = [str(i) for i in items]
        if len(items) <= 1:
            return "".join(items)
        word = self.t("words.and") if last is None else last
        return f"{', '.join(items[:-1])} {word} {items[-1]}"

    def plural(self, count: int, *forms: str) -> str:
        """'1 card', '3 cards': the count and the form of the word it needs. Forms are given in the language's
        order (English: one, other; Czech: one, few, other; Polish: one, few, many); English adds an s when
        only one form is given."""
        if not forms:
            return str(count)
        if len(forms) == 1 and self.lang == SOURCE:
            forms = (forms[0], forms[0] + "s")
        order = FORMS_OF.get(self.lang.split("-")[0].lower(), ("one", "other"))
        form = plural_form(self.lang, count)
        index = order.index(form) if form in order else len(order) - 1
        return f"{count} {forms[min(index, len(forms) - 1)]}"


@functools.cache
def phrases_for(lang: str) -> Phrases:
    """The tool's words of a language without a game's changes (shared, read once)."""
    return Phrases(lang)


ENGLISH = phrases_for(SOURCE)
