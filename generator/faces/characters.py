"""No character on a card is lost: every text box is checked against the font that will draw it, before
drawing.

A character that no face of the box's font (own face, declared fallbacks, built-in Noto Sans) has is reported
at the card field it came from (`cards/x/actions.yaml:12: card 'draw-two' name has 'Д' (U+0414), which font
'title' (Fredoka SemiBold, then Noto Sans Bold) cannot draw; ...`), or at the layout box when the character is
written in the layout itself. Text set in a style the font has no face for (bold in a font declared with one
file) is an error at the box too.
"""

from __future__ import annotations

from generator.core.errors import Problem
from generator.core.fonts import Family, cannot_draw, styles_used, uncovered
from generator.core.scripts import shaped_script, shaping_message
from generator.data.fonts import field_with, missing_styles
from generator.data.game import Card
from generator.faces.boxes.base import Box

_FIRST_SHAPED = "\u0590"  # below it, no character of a script that needs shaping (core.scripts)
_STYLE_WORDS = {"bold": "bold", "italic": "italic", "bold_italic": "bold italic"}
def _script_problems(box: Box, where: str, markup: str, card: Card | None) -> list[Problem]:
    """One located problem per script of the text that needs shaping (at the card field holding it)."""
    problems, seen = [], set()
    if not markup or max(markup) < _FIRST_SHAPED:  # almost every text: no letter of such a script
        return problems
    for char in markup:
        found = shaped_script(char)
        if found is None or found[0] in seen:
            continue
        seen.add(found[0])
        key = field_with(card, char) if card is not None else None
        if key is not None:
            file, line = card.where(key)
            what = f"card '{card.id}' {key}"
        else:
            file, line = box.translated or (box.file, box.line)
            what = f"{where}: box '{box.name}': its text"
        problems.append(Problem(file, line, shaping_message(char, what)))
    return problems


def character_problems(box: Box, where: str, family: Family, markup: str, card: Card | None) -> list[Problem]:
    """Located problems for the characters of a text box's markup its font cannot draw and the styles it
    lacks."""
    problems = _script_problems(box, where, markup, card)
    if problems:  # a script refused: its characters are not looked for in the fonts too
        return problems
    for style in missing_styles(family, styles_used(markup)):
        word = _STYLE_WORDS[style]
        problems.append(
            Problem(
                box.file,
                box.line,
                f"{where}: box '{box.name}' sets text in {word}, but font "
                f"'{family.key}' has no {word} face; expected `{style}: <file>` "
                f"under fonts: {family.key} in game.yaml (or no {word} text here)",
            )
        )
    gaps = [char for char, _style in uncovered(markup, family, markup=True)]
    by_field: dict[str | None, list[str]] = {}
    for char in gaps:
        by_field.setdefault(field_with(card, char) if card is not None else None, []).append(char)
    for key, chars in by_field.items():
        if key is None:
            file, line = box.translated or (box.file, box.line)
            problems.append(
                Problem(file, line, f"{where}: box '{box.name}': " + cannot_draw(chars, family, "its text"))
            )
        else:
            file, line = card.where(key)
            problems.append(Problem(file, line, cannot_draw(chars, family, f"card '{card.id}' {key}")))
    return problems
