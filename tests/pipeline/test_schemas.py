"""`pnp schema`: the schemas the README maps are right for the files they are mapped to. Every YAML file of
the bundled games and of the designer's game validates (file.schema.json for cards/*/*.yaml,
layout.schema.json for layouts), and a misspelt key in any of them is flagged, as an editor would underline
it."""

from __future__ import annotations

import json

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from tests.conftest import run_pnp


@pytest.fixture(scope="module")
def schemas(tmp_path_factory, repo_project):
    folder = tmp_path_factory.mktemp("schema")
    result = run_pnp("schema", "--out", str(folder), project=repo_project)
    assert result.exit_code == 0, result.output
    loaded = {path.name: json.loads(path.read_text()) for path in folder.glob("*.schema.json")}
    registry = Registry().with_resources(
        (name, DRAFT202012.create_resource(schema)) for name, schema in loaded.items()
    )
    return loaded, registry


def errors(schemas, name: str, data) -> list[str]:
    loaded, registry = schemas
    return [
        error.message for error in Draft202012Validator(loaded[name], registry=registry).iter_errors(data)
    ]


def test_every_game_folder_file_and_layout_validates(schemas, repo_project):
    checked = 0
    for game_dir in sorted(repo_project.cards_dir.iterdir()):
        for path in sorted(game_dir.glob("*.yaml")):
            assert errors(schemas, "file.schema.json", yaml.safe_load(path.read_text())) == [], path
            checked += 1
        for path in sorted((game_dir / "layouts").glob("*.yaml")):
            assert errors(schemas, "layout.schema.json", yaml.safe_load(path.read_text())) == [], path
            checked += 1
    assert checked > 40


@pytest.mark.parametrize(
    "kind, data, wrong",
    [
        (
            "game",
            {"title": "T", "code": "TT", "players": {"min": 2, "max": 3}, "decks": ["a"], "titel": "x"},
            "titel",
        ),
        ("deck", {"deck": "a", "name": "A", "code": "AA", "cards_from": "a.csv", "backk": "x"}, "backk"),
        ("table", {"table": "t", "name": "T", "rows": [{"id": "r", "name": "R"}], "feilds": {}}, "feilds"),
        (
            "board",
            {
                "board": "b",
                "name": "B",
                "grid": {"cols": 2, "rows": 2, "cell": "1in"},
                "spaces": [{"id": "s", "at": [0, 0]}],
                "zonez": [],
            },
            "zonez",
        ),
    ],
)
def test_a_misspelt_key_is_flagged_whatever_the_kind(schemas, kind, data, wrong):  # noqa: ARG001 - an id
    found = errors(schemas, "file.schema.json", data)
    assert any(wrong in message for message in found), found
    data.pop(wrong)
    assert errors(schemas, "file.schema.json", data) == []


def test_the_layout_schema_knows_every_box_key(schemas):
    assert (
        errors(schemas, "layout.schema.json", {"boxes": {"t": {"text": "x", "font": "display", "x": "4mm"}}})
        == []
    )
    found = errors(schemas, "layout.schema.json", {"boxes": {"t": {"txt": "x"}}})
    assert any("txt" in message for message in found), found


def test_the_designer_game_validates_too(schemas, designer_project):
    game_dir = designer_project.cards_dir / "space-race"
    for path in sorted(game_dir.glob("*.yaml")):
        assert errors(schemas, "file.schema.json", yaml.safe_load(path.read_text(encoding="utf-8"))) == [], (
            path
        )
