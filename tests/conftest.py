"""Shared fixtures: the repository's project, a throw-away copy of it, and a CLI runner."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.data.project import Project

REPO = Path(__file__).resolve().parents[1]
DESIGNER = REPO / "tests" / "fixtures" / "designer-project"
BUNDLED = ("order-up-pizza", "order-up-trading", "short-order-hero")


def _import_bundled_engines() -> None:
    """The bundled games' engines imported through the door a designer's engine uses (pnp_engine_<game>), so
    that their tests can import their modules by name."""
    from generator.data.load import load_game
    from generator.engines.registry import engine_for

    for game_id in BUNDLED:
        engine_for(load_game(Project(REPO), game_id))


_import_bundled_engines()


def pytest_collection_modifyitems(config, items) -> None:  # noqa: ARG001 - pytest's hook signature
    """Tests marked slow run only with PNP_SLOW=1 (`make test-slow`): `make test` stays short."""
    if os.environ.get("PNP_SLOW"):
        return
    skip = pytest.mark.skip(reason="slow: run with PNP_SLOW=1 (make test-slow)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def repo_project() -> Project:
    """The project in this repository (read-only use)."""
    return Project(REPO)


@pytest.fixture
def tmp_project(tmp_path: Path) -> Project:
    """A copy of cards/ and templates/ in a temporary folder, safe to break."""
    for name in ("cards", "templates"):
        if (REPO / name).exists():
            shutil.copytree(REPO / name, tmp_path / name)
    return Project(tmp_path)


@pytest.fixture
def designer_project(tmp_path: Path) -> Project:
    """A copy of the designer's game of tests/fixtures/designer-project (CSV and XLSX decks, Czech and Russian
    text, a card with its own back), with its events.xlsx written; safe to break."""
    from tests.fixtures.workbooks import write_events

    shutil.copytree(DESIGNER, tmp_path / "designer")
    write_events(tmp_path / "designer" / "cards" / "space-race")
    return Project(tmp_path / "designer")


@pytest.fixture
def demo(tmp_path: Path):
    """The card and face tests' small synthetic game (tests/fixtures/demo_game.py), loaded."""
    from tests.fixtures.demo_game import demo_game

    return demo_game(tmp_path)


def run_pnp(*args: str, project: Project | Path | None = None):
    """Invoke `pnp` in-process; returns click's Result (exit_code, output)."""
    from generator.cli.main import cli

    root = project.root if isinstance(project, Project) else project
    argv = (["--project", str(root)] if root else []) + list(args)
    return CliRunner().invoke(cli, argv, catch_exceptions=False)
