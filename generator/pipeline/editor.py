"""Editor support: every YAML file of the project mapped to its own exact JSON Schema, so an editor flags a
slip where the designer types it.

`pnp new`, `pnp schema` and (once either has run) every `pnp build` write the schemas into `.pnp/schema/` of
the project (outside build/, which `make clean` empties) and VS Code's settings (`.vscode/settings.json`,
`yaml.schemas`, read by the YAML extension) mapping each file to the schema made for it: a deck to a schema
that knows its card fields, a layout to one that knows the game's fonts, icons and sizes, a component to its
kind's, a translation to the texts the game has, a script to the script keys. Other settings in the file are
kept; only the entries pointing into `.pnp/schema/` are replaced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator import __version__
from generator.core.contract import BuildOptions
from generator.core.errors import InputError, Problem
from generator.core.write import atomic_write
from generator.data.project import Project

if TYPE_CHECKING:
    from generator.data.game import Game

# The schema makers (pydantic's schemas, the icon library, the validator's script keys) are imported when a
# game changed: a `pnp build` with nothing new pays only for comparing the games' keys.

SCHEMA_DIR = Path(".pnp") / "schema"
SETTINGS = Path(".vscode") / "settings.json"
SETTINGS_KEY = "yaml.schemas"
COMMON_MAPPING = {"layout.schema.json": ["templates/layouts/*.yaml"]}  # the project's shared layouts
RECORD = ".games.json"  # per game: the key of the inputs its schemas were made from, its files, its mapping
TEMPLATE = {"type": "string", "pattern": r"\{\{"}  # a value written as a template is checked by pnp itself


@dataclass
class EditorFiles:
    """What writing the editor files did: the files that changed, the problems of games that did not load."""

    changed: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def schema_dir(project: Project) -> Path:
    """Where the project's schemas live: .pnp/schema/ of the project."""
    return project.root / SCHEMA_DIR


def _one_of_names(names: list[str], what: str) -> dict:
    """A string that is one of `names` (or a template): an editor completes the names."""
    return {"anyOf": [{"enum": sorted(set(names)), "description": what}, TEMPLATE]}


def _with_enum(schema: dict, key: str, choice: dict) -> None:
    """Every property `key` of the schema's objects (the schema's own and its $defs) takes `choice`."""
    for part in [schema, *schema.get("$defs", {}).values()]:
        props = part.get("properties", {})
        if key in props:
            kept = {k: v for k, v in props[key].items() if k in ("title", "description", "default")}
            props[key] = {**kept, "anyOf": [choice, {"type": "null"}]}


def _layout_names(project: Project, game: Game) -> list[str]:
    return sorted({p.stem for folder in project.layout_dirs(game.id) if folder.is_dir()
                   for p in folder.glob("*.yaml")})


def game_layout_schema(project: Project, game: Game) -> dict:
    """The layout schema of one game: its fonts, its icons (its own, the project's, the built-in ones)."""
    from generator.faces.icons import icon_names
    from generator.pipeline.schemas import layout_schema

    schema = layout_schema()
    _with_enum(schema, "font", _one_of_names(list(game.fonts.names), "a font of the game"))
    _with_enum(schema, "icon", _one_of_names(icon_names(project.icon_dirs(game.id)), "an icon"))
    schema["title"] = f"a card layout of {game.id} (cards/{game.id}/layouts/*.yaml)"
    return schema


def game_deck_schema(project: Project, game: Game, deck) -> dict:
    """A deck's schema with the game's layout names and the card size presets as choices."""
    from generator.core.units import CARD_SIZES_MM
    from generator.data.schema import deck_schema

    schema = deck_schema(deck)
    layouts = _one_of_names(_layout_names(project, game), "a layout of the game")
    for key in ("layout", "back"):
        _with_enum(schema, key, layouts)
    from generator.faces.icons import icon_names

    icon_fields = ["icon", *(name for name, spec in deck.field_specs.items() if spec.type == "icon")]
    icons = _one_of_names(icon_names(project.icon_dirs(game.id)), "an icon")
    for key in icon_fields:
        _with_enum(schema, key, icons)
    size = schema.get("properties", {}).get("size")
    if size is not None:
        size["anyOf"] = [{"enum": sorted(CARD_SIZES_MM), "description": "a card size preset"},
                         {"type": "object"}, {"type": "null"}]
        size.pop("$ref", None)
    return schema


def translation_schema(game: Game) -> dict:
    """What a translation file of the game may hold: exactly the texts the game has (`~`: not yet)."""
    from generator.data.translatable import translatable

    tree: dict = {}
    for entry in translatable(game):
        node = tree
        for part in entry.path[:-1]:
            node = node.setdefault(part, {})
        node[entry.path[-1]] = entry

    def schema_of(node: dict) -> dict:
        properties = {}
        for key, value in node.items():
            if isinstance(value, dict):
                properties[key] = schema_of(value)
            elif value.is_list:
                properties[key] = {"type": ["array", "null"], "items": {"type": ["string", "number"]}}
            else:
                properties[key] = {"type": ["string", "number", "null"]}
        return {"type": ["object", "null"], "additionalProperties": False, "properties": properties}

    schema = schema_of(tree)
    schema["type"] = "object"
    schema["properties"] |= {"layouts": {"type": "object"}, "tool": {"type": "object"}}
    schema["title"] = f"a translation of {game.id} (cards/{game.id}/i18n/<language>.yaml)"
    return schema


def script_schema() -> dict:
    """A scripted game (cards/<game>/scripts/*.yaml): its keys and step kinds (a step is one of them)."""
    from generator.validator.scripts import STEP_KINDS, TOP_KEYS

    step = {"type": "object", "minProperties": 1, "maxProperties": 1,
            "properties": {kind: {} for kind in STEP_KINDS}, "additionalProperties": False}
    chance = {"type": "object", "required": ["label"], "additionalProperties": False,
              "properties": {"label": {"type": "string"}, "top": {"type": "array"},
                             "values": {"type": "array"}}}
    typed = {"name": {"type": "string"}, "players": {"type": "integer", "minimum": 1},
             "options": {"type": "object"}, "seed": {"type": "integer"},
             "chance": {"type": "array", "items": chance},
             "steps": {"type": "array", "minItems": 1, "items": step}}
    return {"$schema": "http://json-schema.org/draft-07/schema#", "title": "a scripted game",
            "type": "object", "required": ["steps"], "additionalProperties": False,
            "properties": {key: typed.get(key, {}) for key in TOP_KEYS}}


def common_plan() -> tuple[dict[str, dict], dict[str, list[str]]]:
    """The schemas every project has (generic kinds, layouts, rules files, scripts) and the files of the
    project's own templates/ they are for."""
    from generator.data.load import RULES_KEY
    from generator.data.schema import RULES_FILE_SCHEMA, file_schema, generic_schemas
    from generator.pipeline.schemas import layout_schema

    schemas: dict[str, dict] = {f"{kind}.schema.json": schema for kind, schema in generic_schemas().items()}
    schemas |= {"file.schema.json": file_schema(), "layout.schema.json": layout_schema(),
                "rules.schema.json": {"$schema": "http://json-schema.org/draft-07/schema#",
                                      **RULES_FILE_SCHEMA, "required": [RULES_KEY]},
                "script.schema.json": script_schema()}
    return schemas, dict(COMMON_MAPPING)


def game_plan(project: Project, game: Game) -> tuple[dict[str, dict], dict[str, list[str]]]:
    """One game's own schemas and which of its files each schema (its own or a common one) is for."""
    own = f"{game.id}/"
    schemas = {f"{own}layout.schema.json": game_layout_schema(project, game),
               f"{own}translation.schema.json": translation_schema(game)}
    mapping: dict[str, list[str]] = {"game.schema.json": [game.show(game.dir / "game.yaml")],
                                     f"{own}layout.schema.json": [f"cards/{game.id}/layouts/*.yaml"],
                                     f"{own}translation.schema.json": [f"cards/{game.id}/i18n/*.yaml"],
                                     "script.schema.json": [f"cards/{game.id}/scripts/*.yaml"]}
    for deck in game.decks.values():
        schemas[f"{own}{deck.id}.schema.json"] = game_deck_schema(project, game, deck)
        mapping[f"{own}{deck.id}.schema.json"] = [deck.file]
    for kind, files in (("table", [t.file for t in game.tables.values()]),
                        ("board", [b.file for b in game.boards.values()]),
                        *((f"component-{c.kind}", [c.file]) for c in game.components.values())):
        mapping.setdefault(f"{kind}.schema.json", []).extend(files)
    rules = [game.show(p) for p in sorted(game.dir.glob("*.yaml")) if _is_rules_file(p)]
    if rules:
        mapping["rules.schema.json"] = rules
    return schemas, mapping


def fallback_mapping(game_id: str) -> dict[str, list[str]]:
    """A game that does not load (yet): its files get the generic schemas, which pick by the top key."""
    return {"file.schema.json": [f"cards/{game_id}/*.yaml"],
            "layout.schema.json": [f"cards/{game_id}/layouts/*.yaml"],
            "script.schema.json": [f"cards/{game_id}/scripts/*.yaml"]}


def _is_rules_file(path: Path) -> bool:
    """A rules file of the rules language: its top-level `turn:` key (as the loader tells it apart)."""
    from generator.data.load import RULES_KEY

    try:
        return any(line.startswith(f"{RULES_KEY}:") for line in path.read_text(encoding="utf-8").splitlines())
    except (OSError, UnicodeDecodeError):
        return False


def _write_if_changed(path: Path, text: str) -> bool:
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    atomic_write(path, text)
    return True


def _settings(project: Project, mapping: dict[str, list[str]]) -> str:
    """.vscode/settings.json with our `yaml.schemas` entries replaced and every other setting kept."""
    path = project.root / SETTINGS
    current: dict = {}
    if path.is_file():
        try:
            current = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise InputError([Problem(project.show(path), 0, f"not JSON ({exc}); expected VS Code's settings "
                                      "(pnp only adds `yaml.schemas` entries to it)")]) from None
        if not isinstance(current, dict):
            raise InputError([Problem(project.show(path), 0, "expected a JSON object of settings")])
    ours = SCHEMA_DIR.as_posix() + "/"
    schemas = {k: v for k, v in (current.get(SETTINGS_KEY) or {}).items() if not str(k).startswith(ours)}
    schemas |= {f"{ours}{name}": files for name, files in sorted(mapping.items())}
    current[SETTINGS_KEY] = schemas
    return json.dumps(current, indent=2, ensure_ascii=False) + "\n"


def _merge(into: dict[str, list[str]], mapping: dict[str, list[str]]) -> None:
    for name, files in mapping.items():
        into.setdefault(name, []).extend(files)


def _record(folder: Path) -> dict:
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("version") == __version__ else {}


def write_editor_files(project: Project, loaded: dict[str, Game] | None = None) -> EditorFiles:
    """Write the schemas into .pnp/schema/ and the editor's mapping into .vscode/settings.json. A game whose
    inputs did not change since the last time keeps its schemas; `loaded` may give games already loaded.
    A game that does not load gets the generic schemas and its problems are returned."""
    from generator.pipeline.incremental import game_keys

    folder = schema_dir(project)
    ids = project.game_ids()
    keys = {name: key.content for name, key in game_keys(project, ids, BuildOptions()).items()}
    record = _record(folder)
    before = record.get("games", {})
    common = record.get("common") or []
    if common and all((folder / name).is_file() for name in common):
        schemas: dict[str, dict] = {}  # the common schemas of this version of pnp are there
        mapping = {name: list(files) for name, files in COMMON_MAPPING.items()}
    else:
        schemas, mapping = common_plan()
        common = sorted(schemas)
    result = EditorFiles()
    kept: set[str] = set(common)
    games_record = {}
    for name in ids:
        old = before.get(name)
        if old and old.get("key") == keys[name] and all((folder / f).is_file() for f in old["schemas"]):
            kept.update(old["schemas"])
            _merge(mapping, old["mapping"])
            games_record[name] = old
            continue
        from generator.data.load import load_game  # only when a game's inputs changed: YAML, pydantic

        try:
            game = (loaded or {}).get(name) or load_game(project, name)
        except InputError as exc:
            result.problems += exc.problems
            fallback = fallback_mapping(name)
            _merge(mapping, fallback)
            games_record[name] = {"key": None, "schemas": [], "mapping": fallback}
            continue
        own, own_mapping = game_plan(project, game)
        schemas |= own
        _merge(mapping, own_mapping)
        games_record[name] = {"key": keys[name], "schemas": sorted(own), "mapping": own_mapping}
    for name, schema in sorted(schemas.items()):
        path = folder / name
        if _write_if_changed(path, json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"):
            result.changed.append(path)
    if folder.is_dir():
        for old_file in sorted(folder.rglob("*.schema.json")):  # games, decks and kinds that are gone
            if old_file.relative_to(folder).as_posix() not in schemas.keys() | kept:
                old_file.unlink()
    settings = project.root / SETTINGS
    files = {name: sorted(dict.fromkeys(paths)) for name, paths in mapping.items() if paths}
    if _write_if_changed(settings, _settings(project, files)):
        result.changed.append(settings)
    _write_if_changed(folder / RECORD, json.dumps(
        {"version": __version__, "common": common, "games": games_record}, indent=1, sort_keys=True) + "\n")
    return result


def editor_files_wanted(project: Project) -> bool:
    """True once `pnp new` or `pnp schema` wrote the editor files: `pnp build` then keeps them current."""
    return schema_dir(project).is_dir()
