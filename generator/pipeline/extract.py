"""`pnp i18n extract GAME --lang LANGUAGE`: the translation file a translator starts from, kept up to date.

Every text of the game (generator.data.translatable), every layout box with words of its own
(generator.pipeline.translations.layout_texts) and, for a language pnp has no catalogue of, the tool's own
words are written with the source text as a comment above the key:

    toppings:
      pepperoni:
        # en: "Pepperoni"
        name: "Feferonky"

`~` marks a text not translated yet. Run again after the game changed: translations are kept, new texts come
as `~`, and a translated text whose source changed since gets a `# CHANGED: the English text was "..."` line
(the translator checks the translation and deletes that line; until then validation warns). Translations of
texts the game no longer has are kept at the end of the file as comments, so nothing is lost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.core.errors import InputError, Problem
from generator.core.phrases import SOURCE, builtin, language_name
from generator.core.write import atomic_write
from generator.core.yamlio import YDict, load_yaml
from generator.data.game import Game
from generator.data.translatable import Translatable, translatable
from generator.data.translation import CHANGED_MARK, translation_file
from generator.pipeline.translations import has_words, layout_texts


@dataclass
class Extracted:
    """What `extract` wrote: the file, how many texts it holds, how many are translated, marked or kept
    aside."""

    path: Path
    texts: int
    translated: int
    changed: int
    new: int
    retired: int
    declared: bool


def _dump(value: Any) -> str:
    """A value as one line of YAML (JSON is a subset of YAML's flow style); `~` for none."""
    return "~" if value is None else json.dumps(value, ensure_ascii=False)


RETIRED = "# No longer in the game:"


@dataclass
class _Existing:
    """What an existing translation file holds: values by path, per path the source text its comment recorded
    and its CHANGED line (verbatim), and the retired translations kept as comments at its end."""

    values: dict[tuple, Any]
    recorded: dict[tuple, Any]
    changed: dict[tuple, str]
    retired: dict[tuple, Any]


def _existing(path: Path, shown: str) -> _Existing:
    found = _Existing({}, {}, {}, {})
    if not path.is_file():
        return found
    raw = load_yaml(path, shown)
    lines = path.read_text(encoding="utf-8").splitlines()

    def walk(node: YDict, prefix: tuple) -> None:
        for key, value in node.items():
            here = prefix + (str(key),)
            if isinstance(value, YDict) and not (prefix and prefix[0] == "tool" and _plural_like(value)):
                walk(value, here)
                continue
            found.values[here] = value
            number = node.line_of(key) - 2  # the line above the key (0-based)
            while number >= 0 and lines[number].strip().startswith("#"):
                text = lines[number].strip()
                if text.startswith(CHANGED_MARK):
                    found.changed[here] = text
                elif text.startswith("# ") and ": " in text and here not in found.recorded:
                    try:
                        found.recorded[here] = json.loads(text.split(": ", 1)[1])
                    except ValueError:
                        pass
                number -= 1

    walk(raw, ())
    if RETIRED in lines:
        for text in lines[lines.index(RETIRED) + 1:]:
            key, _, value = text.removeprefix("# ").partition(": ")
            if text.startswith("# ") and value and " " not in key:
                try:
                    found.retired[tuple(key.split("."))] = json.loads(value)
                except ValueError:
                    pass
    return found


def _plural_like(value: YDict) -> bool:
    return bool(value) and all(str(k) in ("one", "few", "many", "other") for k in value)


def _tool_entries(language: str) -> list[Translatable]:
    """The tool's words, for a language pnp has no catalogue of."""
    if builtin(language):
        return []
    return [Translatable(("tool",) + tuple(key.split(".")), value, "generator/assets/i18n/en.yaml", 0)
            for key, value in builtin(SOURCE).items()]


def _entries(game: Game, language: str) -> list[Translatable]:
    out = [entry for entry in translatable(game)]
    for boxes in layout_texts(game).values():
        out += boxes.values()
    return out + _tool_entries(language)


def extract(game: Game, language: str) -> Extracted:
    """Write (or bring up to date) cards/<game>/i18n/<language>.yaml for the source game `game`."""
    path = translation_file(game, language)
    shown = game.show(path)
    source = game.source_language
    own = language == source  # only the tool's words: the game's texts are its own files
    if own and builtin(language):
        raise InputError(
            Problem(
                game.show(game.dir / "game.yaml"),
                0,
                f"{language_name(language)} is the source "
                "language of the game: its texts are the game's own files, and pnp's own words come "
                f"from its {language_name(language)} catalogue (a tool: section in {shown} may "
                "change any of them); expected another language",
            )
        )
    existing = _existing(path, shown)
    values = existing.values | {p: v for p, v in existing.retired.items() if existing.values.get(p) is None}
    entries = _tool_entries(language) if own else _entries(game, language)
    written: set[tuple] = set()
    if own:
        out = [
            f"# pnp's own words in {language_name(language)} for \"{game.title}\" ({game.id}): sheet labels, "
            "the "
            "print check, the booklet cover, ...",
            f"# Written by `pnp i18n extract {game.id} --lang {language}`; see `pnp docs translations`.",
            f"# Each key holds the {language_name(language).split(' (')[0]} words for the English ones in "
            "the "
            "comment above it; `~` means not translated yet",
            "# (the English words are printed and pnp validate warns). The game's own texts are its files: "
            "only "
            "tool: belongs here.",
        ]
    else:
        out = [
            f"# {language_name(language)} translation of \"{game.title}\" ({game.id}), from "
            f"{language_name(source)}.",
            f"# Written by `pnp i18n extract {game.id} --lang {language}`; see `pnp docs translations`.",
            f"# Each key holds the {language_name(language).split(' (')[0]} text of the "
            f"{language_name(source).split(' (')[0]} text in the comment above it; `~` means not translated "
            "yet",
            "# (the source text is printed and pnp validate warns). Run the command again after changing the "
            "game:",
            "# translations are kept, new texts come as ~, and a text whose source changed is marked \"# "
            "CHANGED\".",
            "# Rules booklets are translated as a whole: "
            f"{game.project.show(game.project.rules_template(game.id, language))}.",
        ]
    if builtin(language):
        out.append(
            f"# The words pnp prints itself come from its {language_name(language)} catalogue; a `tool:` "
            "section here may change any of them."
        )
    counts = {"translated": 0, "changed": 0, "new": 0}
    opened: tuple = ()
    for entry in entries:
        is_layout = entry.path[0] == "layouts"
        # a sign without letters is a word of the tool too (the decimal sign)
        is_tool = entry.path[0] == "tool"
        if entry.empty and not is_tool and entry.path not in values \
                or is_layout and not has_words(entry.source) and entry.path not in values:
            continue
        parents = entry.path[:-1]
        common = 0
        while common < min(len(opened), len(parents)) and opened[common] == parents[common]:
            common += 1
        if common < len(opened) or common < len(parents):
            if not common:
                out.append("")
            for depth in range(common, len(parents)):
                out.append("  " * depth + f"{_key(parents[depth])}:")
        opened = parents
        indent = "  " * len(parents)
        value = values.get(entry.path)
        old = existing.recorded.get(entry.path)
        if value is not None:
            counts["translated"] += 1
            if old is not None and old != entry.source:  # the source changed since the last extract
                counts["changed"] += 1
                was = language_name(SOURCE if is_tool else source)
                out.append(f"{indent}{CHANGED_MARK}: the {was} text was {_dump(old)}")
            elif entry.path in existing.changed:  # marked before and not checked yet: the mark stays as it is
                counts["changed"] += 1
                out.append(f"{indent}{existing.changed[entry.path]}")
        else:
            counts["new"] += entry.path not in existing.recorded
        # the tool's words: English
        out.append(f"{indent}# {SOURCE if is_tool else source}: {_dump(entry.source)}")
        out.append(f"{indent}{_key(entry.path[-1])}: {_dump(value)}")
        written.add(entry.path)
    retired = [(p, v) for p, v in values.items() if p not in written and v is not None]
    if retired:
        out += [
            "",
            "# Translations of texts the game no longer has, kept as comments so nothing is lost (a text "
            "that",
            "# comes back gets its translation again); delete them when they are no longer needed.",
            RETIRED,
        ]
        out += [f"# {'.'.join(p)}: {_dump(v)}" for p, v in retired]
    atomic_write(path, "\n".join(out) + "\n")
    texts = len(written)
    return Extracted(path, texts, counts["translated"], counts["changed"], counts["new"], len(retired),
                     language in game.languages)


def _key(name: str) -> str:
    """A mapping key as YAML reads it back as the same text (quoted when it would read as a number or
    keyword)."""
    plain = name.replace("-", "").replace("_", "").isalnum() and not name.isdigit() and \
        name.lower() not in ("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~")
    return name if plain else (name if name.isdigit() else _dump(name))
