"""No character of the rules is lost: the rendered Markdown is checked against the fonts that will set it.

Headings `#` and `##` and the cover are set in the game's title font, the rest in its body font (bold headings
`###`, **bold** and *italic* text in those styles). A character no face covers is reported where it is
written: the template line that holds it, else the card, table row or game.yaml text it comes from.
"""

from __future__ import annotations

import json
import unicodedata

from generator.core.errors import Problem
from generator.core.fonts import Family, cannot_draw, show_char, uncovered
from generator.core.scripts import first_shaped, shaping_message
from generator.data.fonts import where_in_game
from generator.data.game import Game


def _segments(markdown: str, game: Game) -> list[tuple[str, Family, tuple[str, ...]]]:
    """(text, family, styles) for every piece of the rules as it will be set."""
    title, body = game.fonts["title"], game.fonts["body"]
    config = game.config
    out = [(config.title, title, ("regular",)), (config.subtitle, title, ("regular",))]
    fence: list[str] | None = None
    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith("```"):
                try:
                    caption = json.loads("\n".join(fence)).get("caption", "")
                except (ValueError, AttributeError):
                    caption = "\n".join(fence)
                out.append((str(caption), body, ("regular",)))
                fence = None
            else:
                fence.append(line)
            continue
        if stripped.startswith("```figure"):
            fence = []
            continue
        if stripped.startswith(("# ", "## ")):
            out.append((stripped.lstrip("#").strip(), title, ("regular",)))
        elif stripped.startswith("#"):
            out.append((stripped.lstrip("#").strip(), body, ("bold",)))
        else:
            styles = ("regular",) + (("bold",) if "**" in line or "|" in line else ()) + \
                     (("italic",) if "*" in line.replace("**", "") or "_" in line else ())
            out.append((line, body, styles))
    return out


def rules_character_problems(game: Game, markdown: str, template: str, source: str) -> list[Problem]:
    """Located problems for the characters of the rules no face of their font can draw."""
    found: dict[tuple[str, int, str, str], list[str]] = {}
    families: dict[str, Family] = {}
    shaping: dict[tuple[str, int], Problem] = {}
    template_lines = source.splitlines()
    for text, family, styles in _segments(markdown, game):
        shaped = first_shaped(text)
        if shaped is not None:  # a script that needs shaping: refused, once per place (core.scripts)
            line = next((n for n, written in enumerate(template_lines, start=1) if shaped in written), 0)
            located = None if line else where_in_game(game, shaped)
            file, line, what = (template, line, "the rules text") if line or located is None else \
                (located[0], located[1], f"{located[2]} (printed in the rules)")
            shaping.setdefault((file, line), Problem(file, line, shaping_message(shaped, what)))
            continue
        for style in styles:
            for char, _ in uncovered(text, family, style):
                key = (*_place(game, char, template, template_lines), family.key)
                families[family.key] = family
                if char not in found.setdefault(key, []):
                    found[key].append(char)
    return list(shaping.values()) + [Problem(file, line, cannot_draw(chars, families[font], what))
                                     for (file, line, what, font), chars in found.items()]


def _place(game: Game, char: str, template: str, template_lines: list[str]) -> tuple[str, int, str]:
    """(file, line, what) where a character of the rules is written: the template line that holds it, else
    the card, table row or game.yaml text it comes from."""
    line = next((n for n, written in enumerate(template_lines, start=1) if char in written), 0)
    if line:
        return template, line, "the rules text"
    located = where_in_game(game, char)
    return (located[0], located[1], f"{located[2]} (printed in the rules)") if located else \
        (template, 0, "the rules text")


def rules_fallback_warnings(game: Game, markdown: str, template: str, source: str) -> list[Problem]:
    """Located warnings for the letters of the rules that a fallback face draws (their font's own face lacks
    them, so a heading or a line mixes two typefaces): one per place, font and fallback face."""
    found: dict[tuple[str, int, str, str, str], list[str]] = {}
    families: dict[str, Family] = {}
    template_lines = source.splitlines()
    for text, family, styles in _segments(markdown, game):
        if family.draws_all(set(text)) or first_shaped(text) is not None:
            continue
        for style in styles:
            for char in dict.fromkeys(text):
                owner = family.drawing_family(char, style) if not family.face(style).covers(char) else family
                # a format character (a zero-width space) shows in no face: never a letter of another one
                if owner is None or owner is family or not char.strip() or unicodedata.category(char) == "Cf":
                    continue
                families[family.key] = family
                label = owner.face(style).info.label
                key = (*_place(game, char, template, template_lines), family.key, label)
                if char not in found.setdefault(key, []):
                    found[key].append(char)
    out = []
    for (file, line, what, font, label), chars in found.items():
        shown = ", ".join(show_char(c) for c in chars[:4]) + (f" and {len(chars) - 4} more" * bool(chars[4:]))
        own = families[font].face().info.label
        message = (f"{what} has {shown}, which the own face of font '{font}' ({own}) lacks: drawn in its "
                   f"fallback {label} (the rules); for one typeface in the text, declare a font that has "
                   "them under fonts: in game.yaml")
        out.append(Problem(file, line, message))
    return out
