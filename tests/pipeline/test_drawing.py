"""Outputs drawn in worker processes: the same bytes whatever the number of workers, problems still
reported."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.core.contract import BuildOptions, Output
from generator.core.errors import InputError, Problem
from generator.data.project import Project
from generator.pipeline.build import build
from generator.pipeline.drawing import draw_outputs, start_drawing, tasks_of
from tests.conftest import REPO


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".state.json"}


def test_one_or_two_workers_write_the_same_bytes(tmp_path):
    for game in ("order-up-trading", "short-order-hero"):
        shutil.copytree(REPO / "cards" / game, tmp_path / "cards" / game)
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    project = Project(tmp_path)
    names = ["order-up-trading", "short-order-hero"]
    outputs = {}
    for jobs in (1, 2):
        out = tmp_path / f"out-{jobs}"
        result = build(project, names, BuildOptions(papers=("a4",), out_dir=out, jobs=jobs))
        assert len(result.written) > 8
        outputs[jobs] = _files(out)
    assert outputs[1].keys() == outputs[2].keys()
    # the German translation too (game.yaml declares it)
    assert "short-order-hero/de/cards-a4.pdf" in outputs[1]
    assert [name for name in outputs[1] if outputs[1][name] != outputs[2][name]] == []
    assert not [name for name in outputs[2] if name.endswith(".tmp")]


def _pid_output(path: str, kind: str = "cards") -> Output:
    def render(tmp: Path) -> dict:
        tmp.write_text(str(os.getpid()))
        return {"pid": os.getpid()}
    return Output("g", Path(path), kind, render)


def test_workers_are_other_processes_and_the_rules_and_card_sheets_stay_together(tmp_path):
    outputs = [_pid_output("g/board-a4.pdf", "board-tiled"), _pid_output("g/cards-a4.pdf"),
               _pid_output("g/cards-letter.pdf"), _pid_output("g/rules.pdf", "rules"),
               _pid_output("g/rules-booklet-a4.pdf", "rules-booklet")]
    assert tasks_of(outputs) == [[0], [1, 2], [3, 4]]
    german = [Output("g", Path("g/de/rules.pdf"), "rules", _broken, language="de"),
              Output("g", Path("g/de/cards-a4.pdf"), "cards", _broken, language="de"),
              Output("g", Path("g/de/rules-booklet-a4.pdf"), "rules-booklet", _broken, language="de")]
    assert tasks_of(outputs + german) == [[0], [1, 2], [3, 4], [5, 7], [6]]  # each language's on their own
    serial = draw_outputs(outputs, tmp_path, jobs=1)
    assert {found.facts["pid"] for found in serial} == {os.getpid()}
    parallel = draw_outputs(outputs, tmp_path, jobs=2)
    pids = [found.facts["pid"] for found in parallel]
    assert os.getpid() not in pids and pids[1] == pids[2] and pids[3] == pids[4]
    assert [found.file.read_text() for found in parallel] == [str(pid) for pid in pids]
    for found in serial + parallel:
        found.file.unlink()


def _broken(tmp: Path) -> dict:
    tmp.write_text("half")
    raise InputError(Problem("cards/g/deck.yaml", 3, "text does not fit"))


def _crashing(_tmp: Path) -> dict:
    raise ZeroDivisionError("division by zero")


def test_a_problem_in_a_worker_is_reported_and_its_file_removed(tmp_path):
    outputs = [_pid_output("g/cards-a4.pdf"), Output("g", Path("g/board-a4.pdf"), "board-tiled", _broken)]
    found = draw_outputs(outputs, tmp_path, jobs=2)
    assert [str(p) for p in found[1].problems] == ["cards/g/deck.yaml:3: text does not fit"]
    assert not found[1].file.exists() and found[0].file.exists() and not found[0].problems
    found[0].file.unlink()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_bug_in_a_worker_reaches_the_build_named_with_its_traceback(tmp_path, jobs):
    import traceback

    outputs = [_pid_output("g/cards-a4.pdf"), Output("g", Path("g/rules.pdf"), "rules", _crashing)]
    with pytest.raises(ZeroDivisionError) as info:
        draw_outputs(outputs, tmp_path, jobs=jobs)
    assert info.value.__notes__ == ["while drawing g/rules.pdf"]
    assert "_crashing" in "".join(traceback.format_exception(info.value))
    assert list(tmp_path.rglob("*.tmp")) == []


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failed_build_leaves_no_drawn_file_behind(tmp_project, jobs):
    deck = tmp_project.cards_dir / "order-up-pizza" / "orders.yaml"
    deck.write_text(
        deck.read_text().replace("customer: Grandma Rosa", "customer: " + "Grandma Rosa " * 40, 1)
    )
    with pytest.raises(InputError):
        build(tmp_project, ["order-up-pizza"], BuildOptions(papers=("a4",), jobs=jobs))
    leftovers = [p for p in tmp_project.build_dir.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_one_task_is_drawn_by_a_worker_only_while_this_process_has_other_work(tmp_path):
    outputs = [_pid_output("g/cards-a4.pdf"), _pid_output("g/cards-letter.pdf")]  # one task
    for busy, jobs, here in ((False, 2, True), (True, 2, False), (True, 1, True)):
        with start_drawing(outputs, tmp_path, jobs, busy=busy) as drawing:
            found = drawing.results()
        assert ({one.facts["pid"] for one in found} == {os.getpid()}) == here
        for one in found:
            one.file.unlink()


def test_two_drawings_at_once_each_draw_their_own_outputs(tmp_path):
    """A build starts its first outputs early and the others later (generator.pipeline.build): a worker of the
    first and this process drawing the second (after the first ended) each draw their own outputs."""
    from generator.pipeline.drawing import Drawings

    early = [_pid_output("g/rules.pdf", "rules"), _pid_output("g/rules-booklet-a4.pdf", "rules-booklet")]
    later = [_pid_output("g/board-a4.pdf", "board-tiled"), _pid_output("g/cards-a4.pdf")]
    with Drawings() as drawings:
        # one task, forked now (this process is busy meanwhile)
        drawings.start(early, tmp_path, jobs=2, busy=True)
        drawings.start(later, tmp_path, jobs=1)  # drawn by this process when its results are asked for
        assert drawings.outputs == early + later
        found = drawings.results(later + early)
    assert [one.file.read_text() for one in found] == [str(one.facts["pid"]) for one in found]
    pids = [one.facts["pid"] for one in found]
    assert pids[:2] == [os.getpid()] * 2 and os.getpid() not in pids[2:]
    assert [one.file.name.split(".")[1] for one in found] == [
        "board-a4", "cards-a4", "rules", "rules-booklet-a4"]
    for one in found:
        one.file.unlink()


def _killed(tmp: Path) -> dict:
    tmp.write_text("half")
    os.kill(os.getpid(), 9)  # as the system does to a process when memory runs out
    return {}


def test_a_worker_killed_from_outside_is_reported_as_a_problem_and_nothing_is_left(tmp_path):
    outputs = [_pid_output("g/cards-a4.pdf"), Output("g", Path("g/board-a4.pdf"), "board-tiled", _killed)]
    with pytest.raises(InputError) as info:
        draw_outputs(outputs, tmp_path, jobs=2)
    assert [str(p) for p in info.value.problems] == [
        "the process drawing g/board-a4.pdf was ended by SIGKILL before it finished, so no output was "
        "replaced; "
        "expected it to finish: if the machine ran short of memory, --jobs 1 draws one output at a time in "
        "one "
        "process"
    ]
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_a_later_drawing_failing_removes_what_the_earlier_ones_drew(tmp_path):
    """A build draws in two goes (generator.pipeline.build); when the second fails, the files of the first,
    already finished, are not left behind either."""
    from generator.pipeline.drawing import Drawings

    early = [_pid_output("g/rules.pdf", "rules")]
    later = [_pid_output("g/cards-a4.pdf"), Output("g", Path("g/board-a4.pdf"), "board-tiled", _crashing)]
    with pytest.raises(ZeroDivisionError), Drawings() as drawings:
        drawings.start(early, tmp_path, jobs=2, busy=True)
        drawings.start(later, tmp_path, jobs=2)
        drawings.results(early + later)
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []
