"""Compiled rules templates kept between runs: a rebuild compiles only the templates that changed, and renders
the same Markdown as a fresh compile."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from generator.booklet import text
from generator.data.load import load_game
from generator.data.sandbox import BoundedSandbox


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own; each render gets a fresh environment, as a new `pnp build` process
    does."""
    folder = tmp_path / "compiled"
    folder.mkdir()
    monkeypatch.setattr(text, "compiled_templates", lambda: text.CompiledTemplates(str(folder)))
    compiled: list[str] = []
    original = BoundedSandbox.compile

    def counting(self, source, name=None, filename=None, *args, **kwargs):
        if filename and filename.endswith(".md.j2"):
            compiled.append(Path(filename).name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(BoundedSandbox, "compile", counting)
    yield folder, compiled
    text._environment.cache_clear()


def _render(project, game_id: str) -> str:
    text._environment.cache_clear()  # a new process: nothing compiled in memory
    return text._render_rules(load_game(project, game_id))


def test_a_second_run_compiles_nothing_and_renders_the_same(tmp_project, cache):
    folder, compiled = cache
    first = _render(tmp_project, "order-up-pizza")
    assert "order-up-pizza.md.j2" in compiled and "_making-the-pieces.md.j2" in compiled
    assert len(list(folder.iterdir())) == len(compiled)
    compiled.clear()
    assert _render(tmp_project, "order-up-pizza") == first
    assert compiled == []


def test_an_edited_template_is_compiled_again_and_its_include_is_not(tmp_project, cache):
    _folder, compiled = cache
    _render(tmp_project, "order-up-pizza")
    path = Path(tmp_project.templates_dir) / "rules" / "order-up-pizza.md.j2"
    path.write_text(
        path.read_text(encoding="utf-8").replace("The city board", "The city map"), encoding="utf-8"
    )
    compiled.clear()
    markdown = _render(tmp_project, "order-up-pizza")
    assert "The city map" in markdown and "The city board" not in markdown
    assert compiled == ["order-up-pizza.md.j2"]


def test_code_compiled_by_another_sandbox_is_not_used(tmp_project, cache, monkeypatch):
    folder, compiled = cache
    _render(tmp_project, "order-up-pizza")
    monkeypatch.setattr(text.CompiledTemplates, "compiler", lambda _self: "another version of pnp")
    compiled.clear()
    _render(tmp_project, "order-up-pizza")
    assert "order-up-pizza.md.j2" in compiled


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="a private cache folder needs POSIX users")
def test_the_default_folder_is_private_to_the_user():
    cache = text.compiled_templates()
    assert cache is not None
    mode = os.stat(cache.directory)
    assert mode.st_uid == os.getuid() and stat.S_IMODE(mode.st_mode) == 0o700
