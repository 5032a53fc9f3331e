"""A non-editable install works from any folder: the wheel carries the icons, presets and `pnp new`
template."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest
from pypdf import PdfReader

from tests.conftest import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)],
                   check=True, capture_output=True)
    [built] = out.glob("pnp_forge-*.whl")
    return built


def test_the_wheel_holds_the_package_data_and_the_licence(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    icons = [n for n in names if n.startswith("generator/assets/icons/") and n.endswith(".svg")]
    assert len(icons) == len(list((REPO / "generator" / "assets" / "icons").glob("*.svg"))) > 100
    assert "generator/assets/presets/gamecrafter.yaml" in names
    assert "generator/assets/scaffold/game/game.yaml" in names
    assert {
        "generator/assets/studio/templates/cards.html",
        "generator/assets/studio/static/studio.js",
    } <= set(names)
    assert {"generator/assets/fonts/NotoSans-Regular.ttf", "generator/assets/fonts/OFL.txt"} <= set(names)
    fonts = "generator/assets/fonts"
    assert {f"{fonts}/fredoka/Fredoka-SemiBold.ttf", f"{fonts}/fredoka/OFL.txt",
            f"{fonts}/lato/Lato-BoldItalic.ttf", f"{fonts}/lato/OFL.txt"} <= set(names)
    # the press CMYK profile of --colour cmyk and the PDF/X presets, with its licence notes
    profile = zipfile.ZipFile(wheel).read("generator/assets/profiles/pnp-fogra39.icc")
    assert profile == (REPO / "generator" / "assets" / "profiles" / "pnp-fogra39.icc").read_bytes()
    assert profile[36:40] == b"acsp" and profile[12:16] == b"prtr" and profile[16:20] == b"CMYK"
    assert "generator/assets/profiles/README.md" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    # the documentation pages, for `pnp docs` where pnp was installed with pip
    pages = {n for n in names if n.startswith("generator/assets/docs/") and n.endswith(".md")}
    assert {f"generator/assets/docs/{p.name}" for p in (REPO / "docs").glob("*.md")} == pages
    entry = [n for n in names if n.endswith("entry_points.txt")][0]
    assert "pnp = generator.cli.main:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_installed_copy_makes_and_builds_a_new_game_in_an_empty_folder(wheel, tmp_path):
    target, project = tmp_path / "site", tmp_path / "empty"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    project.mkdir()
    env = {**os.environ, "PYTHONPATH": str(target)}  # the installed copy, not this checkout

    def pnp(*args: str) -> str:
        result = subprocess.run([sys.executable, "-m", "generator", *args], cwd=project, env=env,
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    where = subprocess.run([sys.executable, "-c", "import generator; print(generator.__file__)"], cwd=project,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(target))
    press = subprocess.run([sys.executable, "-c", "from generator.cards.colour import press_spec; "
                            "print(press_spec().profile)"], cwd=project, env=env, capture_output=True,
                           text=True, check=True).stdout.strip()
    assert press.startswith(str(target)) and press.endswith("pnp-fogra39.icc")  # --colour cmyk: the wheel's
    pnp("new", "demo")
    assert "pnp docs" in (project / "cards" / "demo" / "game.yaml").read_text(encoding="utf-8")
    assert pnp("docs", "data-format").startswith("# Game data format")  # the wheel's copy of the page
    pnp("build")
    assert "card layouts and text fit" in pnp("validate")
    # the built-in icons are drawn on the cards and in the rules
    for pdf in ("cards-letter.pdf", "rules.pdf"):
        forms = _forms(PdfReader(project / "build" / "demo" / pdf))
        assert {"hand", "dice", "star"} <= {
            name.split("-")[1] for name in forms if name.startswith("/FormXob.icon-")
        }


def _forms(reader: PdfReader) -> set[str]:
    """Names of every Form XObject used on the pages, including forms inside forms (icons inside card
    faces)."""
    names: set[str] = set()
    todo = [page.get("/Resources", {}) for page in reader.pages]
    while todo:
        xobjects = todo.pop().get("/XObject", {})
        for name, ref in xobjects.items():
            if name not in names:
                names.add(name)
                todo.append(ref.get_object().get("/Resources", {}))
    return names
