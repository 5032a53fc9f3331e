"""`pnp build` draws while it runs the composition checks (game.yaml `checks:`, the engines' static checks): a
check that fails meanwhile stops the workers, removes what they drew and reports the same problems, in the
same order, as a build that checks first; nothing is put in place and no worker outlives a failure (a bug or
Ctrl-C in the checks)."""

from __future__ import annotations

import pytest

from generator.core.contract import BuildOptions
from generator.core.errors import InputError
from generator.pipeline import build as building
from generator.pipeline import drawing, gather
from generator.pipeline.build import build
from tests.fixtures import toy_engine as toy
from tests.fixtures.processes import children

OPTIONS = BuildOptions(papers=("a4", "letter"))  # two card sheets (drawn in turn by one worker with --jobs 2)
CHECKS = """\
checks:
  - name: numbers stay small
    for_each: {card: "decks.numbers.cards"}
    assert: card.value <= 4
    message: "number '{{ card.id }}' is worth {{ card.value }}; expected at most 4"
  - name: a deck of numbers
    assert: decks.numbers.copies >= 10
"""


@pytest.fixture
def project(tmp_path):
    """The toy game with two composition checks, built once (both papers)."""
    with toy.registered_project(tmp_path) as project:
        game = project.cards_dir / "toy" / "game.yaml"
        game.write_text(game.read_text(encoding="utf-8") + CHECKS, encoding="utf-8")
        assert len(build(project, ["toy"], OPTIONS).written) == 2
        yield project


def _break_the_checks(project) -> None:
    """Two numbers worth too much (and named so, which changes their cards): data that loads and whose
    references resolve, but fails a check twice."""
    numbers = project.cards_dir / "toy" / "numbers.yaml"
    text = numbers.read_text(encoding="utf-8")
    numbers.write_text(text.replace("name: Four, copies: 2, value: 4", "name: Nine, copies: 2, value: 9")
                       .replace("name: Three, copies: 4, value: 3", "name: Seven, copies: 4, value: 7"),
                       encoding="utf-8")


def _on_disk(project) -> dict[str, tuple[bytes, int]]:
    """The build folder's files but its caches (.cache/: kept by the inputs they were worked out from, whether
    the build ended well or not)."""
    folder = project.build_dir
    return {
        str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.relative_to(folder).parts[0] != ".cache"
    }


def _watch_the_checks(monkeypatch) -> list[int]:
    """The worker processes alive each time a game's composition checks start."""
    seen: list[int] = []
    real = gather.check_composition
    before = children()

    def watched(game, names, engines=False, passed=None):
        seen.append(len(children() - before))
        return real(game, names, engines, passed)

    monkeypatch.setattr(gather, "check_composition", watched)
    return seen


def _checks_first(project) -> list[str]:
    """The problems of loading and checking the game on its own, as a build reported them before it
    overlapped."""
    with pytest.raises(InputError) as caught:
        gather.gather(project, ["toy"])
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_check_failing_while_the_outputs_are_drawn_reports_its_problems_and_puts_nothing_in_place(
        project, monkeypatch, jobs):
    _break_the_checks(project)
    expected = _checks_first(project)
    assert expected == ["cards/toy/game.yaml:12: check 'numbers stay small' failed for card 'four' "
                        "(cards/toy/numbers.yaml:10): number 'four' is worth 9; expected at most 4",
                        "cards/toy/game.yaml:12: check 'numbers stay small' failed for card 'three' "
                        "(cards/toy/numbers.yaml:9): number 'three' is worth 7; expected at most 4"]
    before, workers = _on_disk(project), children()
    seen = _watch_the_checks(monkeypatch)
    with pytest.raises(InputError) as caught:
        build(project, ["toy"], BuildOptions(papers=OPTIONS.papers, jobs=jobs))
    assert [str(p) for p in caught.value.problems] == expected
    assert seen == [1 if jobs == 2 else 0]  # with two cores, a worker was drawing while the checks ran
    assert _on_disk(project) == before  # no output replaced, no temporary file left
    assert children() <= workers


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_drawing_bug_the_bad_data_caused_is_reported_as_the_checks_problem(project, monkeypatch, jobs):
    _break_the_checks(project)
    expected = _checks_first(project)

    def crashing(*args):
        raise ZeroDivisionError("drawn from data the checks refuse")

    monkeypatch.setattr(drawing, "_draw", crashing)  # the forked workers inherit it
    before, workers = _on_disk(project), children()
    with pytest.raises(InputError) as caught:
        build(project, ["toy"], BuildOptions(papers=OPTIONS.papers, jobs=jobs))
    assert [str(p) for p in caught.value.problems] == expected
    assert _on_disk(project) == before and children() <= workers


@pytest.mark.parametrize("checks_pass", [True, False])
def test_a_planning_bug_gives_way_to_the_checks_problems(project, monkeypatch, checks_pass):
    if not checks_pass:
        _break_the_checks(project)
    expected = None if checks_pass else _checks_first(project)

    def crashing(*args):
        raise ZeroDivisionError("planned from data the checks refuse")

    monkeypatch.setattr(building, "_plan", crashing)
    with pytest.raises(ZeroDivisionError if checks_pass else InputError) as caught:
        build(project, ["toy"], BuildOptions(papers=OPTIONS.papers, jobs=2, force=True))
    if not checks_pass:
        assert [str(p) for p in caught.value.problems] == expected


@pytest.mark.parametrize("failure", [RuntimeError("a bug in a check"), KeyboardInterrupt()])
def test_a_bug_or_ctrl_c_in_the_checks_stops_the_workers_and_removes_their_files(
    project, monkeypatch, failure
):
    seen = []

    before, workers = _on_disk(project), children()

    def broken(_game, _names, _engines=False, _passed=None):
        seen.append(len(children() - workers))
        raise failure

    monkeypatch.setattr(gather, "check_composition", broken)
    with pytest.raises(type(failure)):
        build(project, ["toy"], BuildOptions(papers=OPTIONS.papers, jobs=2, force=True))
    assert seen == [1]
    assert _on_disk(project) == before
    assert children() <= workers


def test_a_game_whose_data_is_wrong_is_reported_with_the_others_checks_in_the_order_asked_for(
    project, tmp_path
):
    # a second game whose data is wrong: both games' problems, in order
    other = tmp_path / "cards" / "sum-down"
    (other / "layouts").mkdir(parents=True)
    for path in (project.cards_dir / "toy").rglob("*.yaml"):
        (other / path.relative_to(project.cards_dir / "toy")).write_text(path.read_text(encoding="utf-8"),
                                                                         encoding="utf-8")
    (other / "numbers.yaml").write_text((other / "numbers.yaml").read_text(encoding="utf-8")
                                        .replace("value: 1}", "value: one}"), encoding="utf-8")
    _break_the_checks(project)
    for names in (["toy", "sum-down"], ["sum-down", "toy"]):
        with pytest.raises(InputError) as checked_first:
            gather.gather(project, names)
        with pytest.raises(InputError) as caught:
            build(project, names, BuildOptions(papers=OPTIONS.papers, jobs=2))
        assert caught.value.problems == checked_first.value.problems
        messages = [p.message for p in caught.value.problems]
        assert any("numbers stay small" in m for m in messages) and any("one" in m for m in messages)
        assert ("numbers stay small" in messages[0]) == (names[0] == "toy")
