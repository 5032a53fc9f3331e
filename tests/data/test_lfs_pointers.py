"""Git LFS pointers (issue 32): a picture, font, spreadsheet or YAML file checked out as an LFS pointer is one
located line that says so and how to fetch it."""

from __future__ import annotations

import pytest

from generator.core.errors import InputError
from generator.data.load import load_game
from generator.data.project import Project
from generator.faces.image import ImageProblem, locate
from tests.conftest import run_pnp

GAME = "space-race"


def pointer(size: int) -> str:
    return ("version https://git-lfs.github.com/spec/v1\n"
            "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
            f"size {size}\n")


def said(name: str, size: str) -> str:
    return (f"'{name}' is a Git LFS pointer, not the file itself (the {size}-byte file was never fetched); "
            f"expected the file: run `git lfs pull` in the project (`git lfs pull --include=\"{name}\"` for "
            "this one; `git lfs install` first on a new machine)")


@pytest.mark.parametrize("file, size", [("crew.csv", 12_345), ("events.xlsx", 987_654)])
def test_a_spreadsheet_that_is_a_pointer(designer_project, file, size):
    (designer_project.cards_dir / GAME / file).write_text(pointer(size))
    with pytest.raises(InputError) as caught:
        load_game(designer_project, GAME)
    shown = f"cards/{GAME}/{file}"
    assert [str(p) for p in caught.value.problems] == [f"{shown}: {said(shown, f'{size:,}')}"]


def test_a_font_and_a_yaml_file_that_are_pointers(designer_project):
    game = designer_project.cards_dir / GAME
    (game / "fonts" / "NotoSerif-Bold-subset.ttf").write_text(pointer(40_000))
    result = run_pnp("validate", GAME, "--no-sim", project=designer_project)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert said("NotoSerif-Bold-subset.ttf", "40,000") in result.output, result.output
    (game / "resources.yaml").write_text(pointer(200))
    result = run_pnp("validate", GAME, "--no-sim", project=designer_project)
    assert f"cards/{GAME}/resources.yaml:1: {said('resources.yaml', '200')}" in result.output, result.output


@pytest.mark.parametrize("name", ["art/hero.png", "art/map.svg"])
def test_a_picture_that_is_a_pointer(tmp_path, name):
    game = tmp_path / "cards" / "g"
    (game / "art").mkdir(parents=True)
    (game / name).write_text(pointer(5_000_000))
    with pytest.raises(ImageProblem) as caught:
        locate(Project(tmp_path), game, name, "cards/g/")
    assert str(caught.value) == said(name, "5,000,000")
