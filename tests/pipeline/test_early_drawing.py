"""A rebuild starts drawing the outputs it planned while it plans the others (a worker per core): after a
card's text changed, the rules and their booklets (planned first, the longest to draw) are drawn by a worker
while the card sheets are planned, and the card sheets by another while the rest is planned and the checks
run. The PDFs are those of a build that plans everything first, and a problem planned later stops the early
drawing, removes what it drew and reports what such a build reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.data.project import Project
from generator.pipeline import drawing, planning
from generator.pipeline.build import build
from tests.fixtures.built import built_game, copy_of, edit
from tests.fixtures.processes import children

GAME = "order-up-pizza"
OPTIONS = BuildOptions(papers=("a4",), languages=("en",))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Order Up built once (A4) in a folder of its own."""
    return built_game(tmp_path_factory.mktemp("order-up"), GAME, OPTIONS)


def _watch(monkeypatch) -> list[tuple]:
    """The order in which units are planned and drawings started."""
    events: list[tuple] = []
    plan = planning.Planner.plan

    def watched_plan(self, games, on_planned=None):
        def told(game, producer, outputs):
            events.append(("planned", producer.name))
            on_planned(game, producer, outputs)
        return plan(self, games, told if on_planned is not None else None)

    start = drawing.start_drawing

    def watched_start(outputs, *args, **kwargs):
        if outputs:
            events.append(("drawing", sorted(Path(o.path).name for o in outputs)))
        return start(outputs, *args, **kwargs)

    monkeypatch.setattr(planning.Planner, "plan", watched_plan)
    monkeypatch.setattr(drawing, "start_drawing", watched_start)
    return events


def _files(project: Project) -> dict[str, bytes]:
    """The build folder's files but its caches (.cache/: what was worked out, by the inputs it was worked out
    from, whether the build ended well or not)."""
    return {
        str(p.relative_to(project.build_dir)): p.read_bytes()
        for p in sorted(project.build_dir.rglob("*"))
        if p.is_file() and p.relative_to(project.build_dir).parts[0] != ".cache"
    }


def test_the_rules_draw_while_the_card_sheets_are_planned(built, tmp_path, monkeypatch):
    early, planned_first = copy_of(built, tmp_path / "early"), copy_of(built, tmp_path / "first")
    for project in (early, planned_first):  # Grandma Rosa's order is on the rules' cover
        edit(project, f"cards/{GAME}/orders.yaml", "customer: Grandma Rosa", "customer: Grandma Rosie")
    events = _watch(monkeypatch)
    others = children()  # processes other tests left running (a studio server...)
    result = build(early, [GAME], BuildOptions(papers=("a4",), languages=("en",), jobs=2))
    assert {Path(entry["path"]).name for entry in result.written} == {
        "rules.pdf", "rules-booklet-a4.pdf", "cards-a4.pdf"}
    rules = ("drawing", ["rules-booklet-a4.pdf", "rules.pdf"])
    assert events.index(rules) == events.index(("planned", "rule booklets")) + 1
    # the card sheets as soon as they are planned too (two cores: two workers)
    cards = ("drawing", ["cards-a4.pdf"])
    assert events.index(rules) < events.index(("planned", "card sheets")) == events.index(cards) - 1
    assert events.index(cards) < events.index(("planned", "component sheets"))
    assert children() <= others  # every worker ended
    events.clear()
    # one process: no early start
    build(planned_first, [GAME], BuildOptions(papers=("a4",), languages=("en",), jobs=1))
    assert events == [("drawing", ["cards-a4.pdf", "rules-booklet-a4.pdf", "rules.pdf"])]  # all at once
    drawn_early, drawn_after = _files(early), _files(planned_first)
    assert [name for name in drawn_early if name.endswith(".pdf")] == [
        name for name in drawn_after if name.endswith(".pdf")]
    for name in drawn_early:
        if name.endswith(".pdf"):
            assert drawn_early[name] == drawn_after[name], name


def test_a_rules_edit_alone_draws_in_this_process(built, tmp_path, monkeypatch):
    project = copy_of(built, tmp_path)
    edit(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map")
    events = _watch(monkeypatch)
    forked: list = []
    monkeypatch.setattr(drawing.Drawing, "__init__", _recording_init(forked))
    build(project, [GAME], BuildOptions(papers=("a4",), languages=("en",), jobs=2))
    # nothing else to plan or check meanwhile: no worker is started for it
    assert events == [("planned", "rule booklets"), ("drawing", ["rules-booklet-a4.pdf", "rules.pdf"])]
    assert forked == [False]


def _recording_init(forked: list):
    init = drawing.Drawing.__init__

    def recording(self, *args, **kwargs):
        init(self, *args, **kwargs)
        forked.append(self.workers is not None)
    return recording


def test_a_problem_planned_after_the_early_start_stops_it(built, tmp_path, monkeypatch):
    projects = {jobs: copy_of(built, tmp_path / f"jobs{jobs}") for jobs in (1, 2)}
    for project in projects.values():
        # the rules change (drawn early), and a card the rules do not show gets a name its box cannot hold
        edit(project, f"templates/rules/{GAME}.md.j2", "The city board", "The city map")
        edit(
            project,
            f"cards/{GAME}/orders.yaml",
            "customer: Coach Carter",
            "customer: Coach Carter the Third, Marathon Champion of the Eastern Seaboard and the Great Lakes",
        )
    before = {jobs: _files(project) for jobs, project in projects.items()}
    problems = {}
    events = _watch(monkeypatch)
    others = children()
    for jobs, project in projects.items():
        events.clear()
        with pytest.raises(InputError) as caught:
            build(project, [GAME], BuildOptions(papers=("a4",), languages=("en",), jobs=jobs))
        problems[jobs] = [str(problem) for problem in caught.value.problems]
        assert _files(project) == before[jobs]  # nothing drawn is left, nothing put in place
        assert children() <= others
    # with two processes, the rules had started
    assert ("drawing", ["rules-booklet-a4.pdf", "rules.pdf"]) in events
    assert problems[2] == problems[1]
    assert any("Coach Carter the Third" in problem or "does not fit" in problem for problem in problems[2])
