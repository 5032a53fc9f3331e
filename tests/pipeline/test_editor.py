"""Editor support: `pnp schema` (and `pnp new`, and then every `pnp build`) write a schema per file and VS
Code's `yaml.schemas` mapping; every bundled file validates against the schema it is mapped to, and held-out
slips are flagged by that schema exactly as pnp flags them."""

from __future__ import annotations

import fnmatch
import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from generator.data.project import Project
from generator.pipeline.editor import SCHEMA_DIR, SETTINGS, write_editor_files
from tests.conftest import run_pnp


def _mapping(project: Project) -> dict[str, list[str]]:
    settings = json.loads((project.root / SETTINGS).read_text(encoding="utf-8"))
    prefix = SCHEMA_DIR.as_posix() + "/"
    return {k.removeprefix(prefix): v for k, v in settings["yaml.schemas"].items() if k.startswith(prefix)}


def _schema_for(project: Project, relative: str) -> list[str]:
    """The schemas whose patterns match a file, as the editor matches them (globs from the project root)."""
    return [name for name, patterns in _mapping(project).items()
            if any(fnmatch.fnmatchcase(relative, pattern) for pattern in patterns)]


def _errors(project: Project, schema_name: str, data) -> list[str]:
    folder = project.root / SCHEMA_DIR
    schemas = {p.relative_to(folder).as_posix(): json.loads(p.read_text(encoding="utf-8"))
               for p in folder.rglob("*.schema.json")}
    registry = Registry().with_resources(
        (name, DRAFT202012.create_resource(schema)) for name, schema in schemas.items())
    validator = Draft202012Validator(schemas[schema_name], registry=registry)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)]


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Project:
    """A copy of the bundled games with their editor files written by `pnp schema`."""
    import shutil

    from tests.conftest import REPO

    root = tmp_path_factory.mktemp("editor")
    for name in ("cards", "templates"):
        shutil.copytree(REPO / name, root / name)
    project = Project(root)
    result = run_pnp("schema", project=project)
    assert result.exit_code == 0, result.output
    return project


def _yaml_files(project: Project) -> list[str]:
    return sorted(p.relative_to(project.root).as_posix() for p in project.cards_dir.rglob("*.yaml")
                  if "playtests" not in p.parts)


def test_every_bundled_file_has_exactly_one_schema_and_validates_against_it(written):
    files = _yaml_files(written)
    assert len(files) > 60
    for relative in files:
        names = _schema_for(written, relative)
        assert len(names) == 1, (relative, names)
        data = yaml.safe_load((written.root / relative).read_text(encoding="utf-8"))
        assert _errors(written, names[0], data) == [], (relative, names[0])
    # each file kind is mapped to its own exact schema, not the generic one that picks by the top key
    pizza = "cards/order-up-pizza"
    assert _schema_for(written, f"{pizza}/toppings.yaml") == ["order-up-pizza/toppings.schema.json"]
    assert _schema_for(written, f"{pizza}/dice.yaml") == ["component-die.schema.json"]
    assert _schema_for(written, f"{pizza}/layouts/order.yaml") == ["order-up-pizza/layout.schema.json"]
    assert _schema_for(written, "cards/order-up-pizza/i18n/cs.yaml") == [
        "order-up-pizza/translation.schema.json"]
    assert _schema_for(written, "cards/short-order-hero/rules.yaml") == ["rules.schema.json"]
    assert _schema_for(written, "cards/crazy-eights/scripts/01-an-eight-names-the-suit.yaml") == [
        "script.schema.json"]


def _edit(project: Project, relative: str, old: str, new: str) -> dict:
    path = project.root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, (relative, old)
    return yaml.safe_load(text.replace(old, new, 1))


# (file, as written, the slip): twenty slips a designer makes, held out of the making of the schemas
SLIPS = [
    ("cards/order-up-pizza/toppings.yaml", "copies: 12, icon: pepperoni", "coppies: 12, icon: pepperoni"),
    ("cards/order-up-pizza/toppings.yaml", "kind: topping, price: 2}", "kind: topping, price: two}"),
    ("cards/order-up-pizza/toppings.yaml", "{id: pepperoni, name: Pepperoni, ", "{id: pepperoni, "),
    ("cards/order-up-pizza/toppings.yaml", "{id: pepperoni,", "{id: Pepperoni,"),
    ("cards/order-up-pizza/toppings.yaml", "kind: topping, price: 2}", "kind: toping, price: 2}"),
    ("cards/order-up-pizza/toppings.yaml", "icon: pepperoni,", "icon: peperoni,"),
    ("cards/order-up-pizza/toppings.yaml", "layout: topping\n", "layout: toping\n"),
    ("cards/order-up-pizza/toppings.yaml", "copies: 12,", "copies: 0,"),
    ("cards/order-up-pizza/toppings.yaml", "name: Toppings deck", "nmae: Toppings deck"),
    ("cards/crazy-eights/cards.yaml", 'colour: "#1d1d1d"', 'colour: "#1d1d1"'),
    ("cards/crazy-eights/cards.yaml", "suit: clubs,", "suit: club,"),
    ("cards/crazy-eights/layouts/card.yaml", "font: title", "font: titel"),
    ("cards/order-up-pizza/layouts/car.yaml", "icon: delivery-car", "icon: delivery-cars"),
    ("cards/order-up-pizza/layouts/car.yaml", "width: 14mm", "widht: 14mm"),
    ("cards/order-up-pizza/dice.yaml", "copies: 2", "copies: -2"),
    ("cards/order-up-pizza/dice.yaml", "size: 16mm", "sise: 16mm"),
    ("cards/crazy-eights/game.yaml", "players:", "player:"),
    ("cards/order-up-pizza/i18n/cs.yaml", "decks:\n  toppings:", "decks:\n  topings:"),
    ("cards/crazy-eights/scripts/01-an-eight-names-the-suit.yaml", "  - act: draw ", "  - akt: draw "),
    ("cards/short-order-hero/rules.yaml", "\nzones:", "\nzone:"),
]


@pytest.mark.parametrize(("relative", "old", "new"), SLIPS, ids=[f"{i:02}" for i in range(len(SLIPS))])
def test_a_held_out_slip_is_flagged_by_the_schema_and_by_pnp(written, tmp_path, relative, old, new):
    [schema] = _schema_for(written, relative)
    assert _errors(written, schema, yaml.safe_load((written.root / relative).read_text("utf-8"))) == []
    assert _errors(written, schema, _edit(written, relative, old, new)), (relative, new)
    # pnp itself finds the same slip, located in that file
    import shutil

    game = relative.split("/")[1]
    shutil.copytree(written.cards_dir / game, tmp_path / "cards" / game)
    shutil.copytree(written.templates_dir, tmp_path / "templates")
    path = tmp_path / relative
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    python_engine = (written.cards_dir / game / "engine").is_dir()
    args = ["validate", game, "--no-sim", "--engine", "rules"] if relative.endswith("rules.yaml") else \
        ["validate", game, "--no-sim", *(["--no-engine"] if python_engine else [])]
    result = run_pnp(*args, project=Path(tmp_path))
    assert result.exit_code == 1, (relative, new, result.output)
    assert Path(relative).name in result.output, result.output


def test_build_keeps_the_editor_files_current_and_other_settings_are_kept(tmp_path):
    project = Project(tmp_path)
    assert run_pnp("new", "demo", project=project).exit_code == 0
    settings = tmp_path / SETTINGS
    current = json.loads(settings.read_text(encoding="utf-8"))
    current["editor.tabSize"] = 2
    current["yaml.schemas"]["https://example.invalid/other.json"] = "other/*.yaml"
    settings.write_text(json.dumps(current), encoding="utf-8")
    deck = tmp_path / "cards" / "demo" / "extra.yaml"
    deck.write_text("deck: extra\nname: Extra cards\ncode: EXT\nlayout: actions\nback: actions-back\n"
                    "fields: {value: {type: int, min: 0}, color: {type: color}, text: {type: text}}\n"
                    "cards:\n  - {id: spare, name: Spare, copies: 2, icon: hand, value: 1, color: '#1f5fbf',"
                    " text: Spare.}\n", encoding="utf-8")
    game = tmp_path / "cards" / "demo" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("decks: [actions]", "decks: [actions, extra]"),
                    encoding="utf-8")
    result = run_pnp("build", "--paper", "a4", project=project)
    assert result.exit_code == 0, result.output
    mapping = _mapping(project)
    assert mapping["demo/extra.schema.json"] == ["cards/demo/extra.yaml"]
    kept = json.loads(settings.read_text(encoding="utf-8"))
    assert kept["editor.tabSize"] == 2 and kept["yaml.schemas"]["https://example.invalid/other.json"]
    deck.unlink()
    game.write_text(game.read_text(encoding="utf-8").replace("decks: [actions, extra]", "decks: [actions]"),
                    encoding="utf-8")
    assert run_pnp("build", "--paper", "a4", project=project).exit_code == 0
    assert "demo/extra.schema.json" not in _mapping(project)
    assert not (tmp_path / SCHEMA_DIR / "demo" / "extra.schema.json").exists()


def test_a_game_with_an_error_still_gets_schemas(tmp_path):
    project = Project(tmp_path)
    assert run_pnp("new", "demo", project=project).exit_code == 0
    game = tmp_path / "cards" / "demo" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "\nnot_a_key: 1\n", encoding="utf-8")
    result = run_pnp("schema", project=project)
    assert result.exit_code == 0, result.output
    assert "not_a_key" in result.output and "generic schemas" in result.output
    assert _schema_for(project, "cards/demo/actions.yaml") == ["file.schema.json"]
    assert _errors(project, "file.schema.json", {"deck": "x", "name": "X", "coppies": 1}) != []
    done = write_editor_files(project)
    assert done.problems and not done.changed  # nothing new to write: the same fallback
