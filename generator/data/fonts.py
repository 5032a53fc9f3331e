"""The fonts a game declares in game.yaml `fonts:`, read into the families layouts, boards and rules use.

    fonts:
      display: fonts/Orbitron-Bold.ttf                 # one face for plain text
      body:                                            # redefines the built-in body font everywhere
        regular: fonts/PTSans-Regular.ttf
        bold: fonts/PTSans-Bold.ttf
        italic: fonts/PTSans-Italic.ttf
        bold_italic: fonts/PTSans-BoldItalic.ttf
        fallback: [display]                            # tried before the built-in Noto Sans

Files are .ttf or .otf (CFF-flavoured OpenType is converted to TrueType once and cached in
build/.cache/fonts/) inside the game folder or templates/. Each family ends with the built-in fallback of
matching weight, so European languages need no declaration; a character no face covers fails the build, naming
font and character.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from reportlab.pdfbase.ttfonts import TTFError, TTFont

from generator.core.errors import InputError, Problem, Problems, did_you_mean, known_list
from generator.core.fontfiles import FontFileError, inspect_font, sha256, synthetic_copy, truetype_copy
from generator.core.fonts import (
    BUILT_IN,
    STYLES,
    Face,
    Family,
    FontTable,
    cannot_draw,
    fallback_for,
    register_family,
    uncovered,
)
from generator.core.scripts import first_shaped, shaping_message
from generator.core.yamlio import YDict, load_yaml
from generator.data.models import FontSpec, GameConfig
from generator.data.project import Project

if TYPE_CHECKING:
    from generator.data.game import Game, Record

CACHE = ".cache/fonts"


def _line(raw_fonts, key: str, style: str | None = None) -> int:
    if not isinstance(raw_fonts, YDict):
        return 0
    entry = raw_fonts.get(key)
    if style and isinstance(entry, YDict) and style in entry:
        return entry.line_of(style)
    return raw_fonts.line_of(key)


def _face(project: Project, game_id: str, key: str, style: str, path_text: str, shown: str, line: int,
          problems: Problems) -> Face | None:
    """The registered face of one declared file (`file.ttc#2`: face 2 of a collection), or None with a located
    problem."""
    index = 0
    name, hash_sign, number = path_text.rpartition("#")
    if hash_sign and number.isdigit() and name:
        path_text, index = name, int(number)
    try:
        path = project.in_game(game_id, path_text, file=shown, line=line, what=f"font file of '{key}'")
    except InputError as exc:
        problems.extend(exc.problems)
        return None
    if not path.is_file():
        problems.add(
            shown,
            line,
            f"font '{key}' ({style}): file '{path_text}' not found; expected a .ttf or .otf "
            f"file inside {project.show(project.game_dir(game_id))}/ or templates/",
        )
        return None
    try:
        drawn = truetype_copy(path, project.build_dir / CACHE, index)
        digest = sha256(drawn)
        name = f"U{digest[:12]}-{key}-{style}"
        TTFont(name, str(drawn))  # ReportLab's own reading: refuses fonts that forbid embedding
    except FontFileError as exc:
        problems.add(shown, line, f"font '{key}' ({style}): {exc}")
        return None
    except (TTFError, OSError, ValueError, KeyError, IndexError, AssertionError) as exc:
        problems.add(
            shown,
            line,
            f"font '{key}' ({style}): '{path_text}' cannot be embedded ({exc}); expected a "
            "font whose licence allows embedding in documents",
        )
        return None
    return Face(name, drawn, digest[:8])


def _built_in_copy(key: str) -> Family:
    """The built-in family `key` with faces registered under names of their own: the fallbacks a game adds to
    it change no other game's (ReportLab face names map to one family each)."""
    faces = {}
    for style, face in BUILT_IN[key].faces.items():
        digest = sha256(face.path)
        faces[style] = Face(f"U{digest[:12]}-{key}-{style}", face.path, digest[:8])
    return Family(key, faces)


def load_fonts(project: Project, game_id: str, config: GameConfig, raw_game: YDict, shown: str,
               problems: Problems) -> FontTable:
    """The game's font table: the built-in title and body, then every declared font (which may redefine
    them)."""
    if not config.fonts:
        return BUILT_IN
    raw_fonts = raw_game.get("fonts")
    families = dict(BUILT_IN.families)
    wanted: dict[str, list[str]] = {}
    for key, spec in config.fonts.items():
        spec = FontSpec(regular=spec) if isinstance(spec, str) else spec
        if spec.regular is None and key in BUILT_IN.families and not any(getattr(spec, s) for s in STYLES):
            # `title: {fallback: [symbols]}`: the built-in faces, more fallbacks
            families[key] = _built_in_copy(key)
            wanted[key] = list(spec.fallback)
            continue
        if spec.regular is None:
            only = (
                " (only title and body are built in: they alone may name just a fallback)"
                if spec.fallback
                else ""
            )
            problems.add(
                shown,
                _line(raw_fonts, key),
                f"font '{key}' has no regular face; expected `regular: <file>` "
                f"(the face plain text is set in){only}",
            )
            continue
        faces: dict[str, Face] = {}
        for style in STYLES:
            path_text = getattr(spec, style)
            if path_text is not None:
                face = _face(
                    project, game_id, key, style, path_text, shown, _line(raw_fonts, key, style), problems
                )
                if face is not None:
                    faces[style] = face
        if "regular" not in faces:
            continue
        if key == "body" and "bold" not in faces:
            problems.add(
                shown,
                _line(raw_fonts, key),
                "font 'body' has no bold face, which headings, tables and "
                "board labels are set in; expected `bold: <file>`",
            )
        else:
            line = _line(raw_fonts, key)
            _synthesise_styles(project, key, faces, lambda text, line=line: problems.add(shown, line, text))
        families[key] = Family(key, faces)
        wanted[key] = list(spec.fallback)
    for key, names in wanted.items():
        family = families[key]
        for name in names:
            if name not in families:
                problems.add(
                    shown,
                    _line(raw_fonts, key, "fallback"),
                    f"font '{key}' falls back to '{name}', which is not a "
                    f"font{did_you_mean(name, families)}; "
                    f"known: {known_list(families)}",
                )
            elif name != key:
                family.fallbacks.append(families[name])
        family.fallbacks.append(fallback_for(inspect_font(family.face().path)))
    for family in families.values():
        register_family(family)
    return FontTable(families)


def _synthesise_styles(project: Project, key: str, faces: dict[str, Face], problem) -> None:
    """Give a declared family a face for each style it lacks, a slanted and/or emboldened copy of a face it
    has (never text silently set in another style): bold from the regular face struck twice, italic from it
    slanted, bold italic from the declared bold slanted, else the declared italic emboldened, else both."""
    declared = set(faces)
    plan = {"bold": ("regular", False, True), "italic": ("regular", True, False)}
    if "bold" in declared or "italic" not in declared:
        plan["bold_italic"] = ("bold", True, False) if "bold" in declared else ("regular", True, True)
    else:
        plan["bold_italic"] = ("italic", False, True)
    for style, (source, slant, embolden) in plan.items():
        if style in declared:
            continue
        try:
            made = synthetic_copy(faces[source].path, project.build_dir / CACHE / "synthetic", slant,
                                  embolden)
        except (OSError, ValueError, KeyError, IndexError, AttributeError, AssertionError, TypeError) as exc:
            problem(f"font '{key}' has no {style.replace('_', ' ')} face and pnp cannot make one from its "
                    f"{source} face ({type(exc).__name__}: {exc}); expected `{style}: <file>`")
            continue
        digest = sha256(made)
        faces[style] = Face(f"U{digest[:12]}-{key}-{style}", made, digest[:8])


def missing_styles(family: Family, styles: set[str]) -> list[str]:
    """The styles text needs that a declared family has no face for (built-in families have every style)."""
    return [style for style in STYLES if style in styles and style not in family.faces]


def unknown_font(name: str, table: FontTable) -> str:
    """The message for a font name no family of the game has."""
    return (
        f"font '{name}' is not declared{did_you_mean(str(name), table.names)}; known: "
        f"{known_list(table.names)}; "
        "expected title, body or a name declared under fonts: in game.yaml"
    )


def text_problems(text: str, family: Family, file: str, line: int, what: str,
                  styles: tuple[str, ...] = ("regular",)) -> list[Problem]:
    """One located problem naming the characters of `text` no face of `family` draws in any of `styles`, or
    the script that needs shaping it holds (core.scripts)."""
    shaped = first_shaped(str(text))
    if shaped is not None:
        return [Problem(file, line, shaping_message(shaped, what))]
    chars = [char for style in styles for char, _ in uncovered(str(text), family, style)]
    return [Problem(file, line, cannot_draw(chars, family, what))] if chars else []


def _holds(value: Any, char: str) -> bool:
    if isinstance(value, str):
        return char in value
    if isinstance(value, dict):
        return any(_holds(k, char) or _holds(v, char) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_holds(item, char) for item in value)
    return False


def field_with(record: Record, char: str) -> str | None:
    """The first field of a card or table row (name first, then its fields in order) whose value holds
    `char`."""
    for key, value in record.as_dict().items():
        if key not in ("code", "deck") and _holds(value, char):
            return key
    return None


def where_in_game(game: Game, char: str) -> tuple[str, int, str] | None:
    """Where a character is written in the game's data, as (file, line, what): a game.yaml text, a card or a
    table row; None when it is in none of them (then it is written in a template)."""
    shown = game.show(game.dir / "game.yaml")
    config = game.config
    texts = {
        "title": config.title,
        "subtitle": config.subtitle,
        "ages": config.ages,
        "play_time": config.play_time,
    }
    for key, value in {**texts, "settings": config.settings}.items():
        if _holds(value, char):
            raw = load_yaml(game.dir / "game.yaml", shown)
            return *game.text_where(("game", key), shown, raw.line_of(key)), f"game.yaml {key}"
    for deck in game.decks.values():
        if _holds(deck.name, char):
            return (
                *game.text_where(
                    ("decks", deck.id, "name"), deck.file, deck.key_lines.get("name", deck.line)
                ),
                f"deck '{deck.id}' name",
            )
        for card in deck.cards:
            field = field_with(card, char)
            if field is not None:
                return *card.where(field), f"card '{card.id}' {field}"
    for table in game.tables.values():
        for row in table.rows:
            field = field_with(row, char)
            if field is not None:
                return *row.where(field), f"{table.id} row '{row.id}' {field}"
    return None
