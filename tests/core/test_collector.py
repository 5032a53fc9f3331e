"""A build pauses Python's cycle collector while it loads and plans, collects again while it draws, and leaves
the collector as it found it (a test run or the studio builds many times in one process)."""

from __future__ import annotations

import gc

import pytest

from generator.core.collector import Paused
from generator.core.contract import BuildOptions
from generator.pipeline import planning
from generator.pipeline.build import build
from tests.fixtures import toy_engine as toy


@pytest.fixture(autouse=True)
def _collector_restored():
    """Whatever a test does, the collector is enabled and nothing frozen afterwards."""
    yield
    gc.unfreeze()
    gc.enable()


@pytest.fixture
def project(tmp_path):
    """The toy game (two card sheets)."""
    with toy.registered_project(tmp_path) as project:
        yield project


def test_paused_until_resumed_then_frozen_until_the_end():
    kept = [object() for _ in range(10)]
    with Paused() as collector:
        assert not gc.isenabled()
        collector.resume()
        assert gc.isenabled()
        assert gc.get_freeze_count() >= len(kept)  # what was made before drawing is out of later collections
        collector.resume()  # a second call changes nothing
        assert gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_build_that_stops_early_resumes_the_collector():
    with pytest.raises(RuntimeError), Paused():
        assert not gc.isenabled()
        raise RuntimeError("a problem while loading")
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_a_disabled_collector_stays_disabled():
    gc.disable()
    with Paused() as collector:
        collector.resume()
        assert not gc.isenabled()
    assert not gc.isenabled()
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_build_plans_without_collections_and_draws_with_them(project, monkeypatch, jobs):
    seen: dict[str, list] = {"planning": [], "drawing": []}
    plan = planning.Planner.plan

    def watched_plan(self, games, *args, **kwargs):
        seen["planning"].append(gc.isenabled())
        return plan(self, games, *args, **kwargs)

    monkeypatch.setattr(planning.Planner, "plan", watched_plan)
    import generator.pipeline.drawing as drawing

    start = drawing.start_drawing

    def watched_start(*args, **kwargs):
        seen["drawing"].append((gc.isenabled(), gc.get_freeze_count() > 0))
        return start(*args, **kwargs)

    monkeypatch.setattr(drawing, "start_drawing", watched_start)
    result = build(project, ["toy"], BuildOptions(papers=("a4", "letter"), jobs=jobs))
    assert len(result.written) == 2
    assert seen["planning"] == [False]
    assert seen["drawing"] == [(True, True)]  # collecting again, with the loaded game frozen
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0  # handed back to the collector


def test_a_build_with_a_problem_leaves_the_collector_enabled(project):
    numbers = project.cards_dir / "toy" / "numbers.yaml"
    numbers.write_text(numbers.read_text(encoding="utf-8") + "  - {nonsense\n", encoding="utf-8")
    from generator.core.errors import InputError

    with pytest.raises(InputError):
        build(project, ["toy"], BuildOptions(papers=("a4",)))
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
