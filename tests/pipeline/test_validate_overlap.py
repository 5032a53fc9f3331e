"""`pnp validate` plays the games while it checks the rest: same results and problems in the same order
whatever overlaps, and no worker process outlives a failure (a bug or Ctrl-C in this process's checks, a bug
in a worker)."""

from __future__ import annotations

import os

import pytest

from generator.core import forked
from generator.core.errors import InputError
from generator.engines import registry
from generator.pipeline import validate as validating
from generator.pipeline.validate import validate
from generator.validator import executors
from generator.validator.executors import Executor, LocalProcesses
from generator.validator.simulate import SimSettings, play_chunk_packed
from tests.fixtures import toy_engine as toy
from tests.fixtures.processes import children

FAINT_LAYOUT = toy.LAYOUT_YAML.replace("size: 12pt", "size: 12pt, color: '#dddddd'")


@pytest.fixture
def project(tmp_path):
    """The toy game with a faint card text (a legibility finding), a failing script and a rule that leaks
    cards (a problem found by playing)."""
    registry.register(toy.LEAKY)
    project = toy.make_toy_project(tmp_path)
    (project.cards_dir / "toy" / "layouts" / "numbers.yaml").write_text(FAINT_LAYOUT, encoding="utf-8")
    (project.cards_dir / "toy" / "scripts" / "bad.yaml").write_text(
        "players: 2\nsteps:\n  - expect: {round: 2}\n", encoding="utf-8"
    )
    yield project
    registry.unregister(toy.LEAKY.name)


class MapOnly(Executor):
    """An executor that only knows `map`: the games are played after the checks, none while they run."""

    workers = 2

    def map(self, payloads, chunks, progress=None):
        return LocalProcesses(2).map(payloads, chunks, progress)


def _validate(project, jobs: int, strict: bool, executor=None):
    report = project.root / "report.json"
    started, played = [], []
    result = validate(
        project,
        ["toy"],
        SimSettings(games=40, seed=3, jobs=jobs),
        report_path=report,
        on_start=lambda games, workers: started.append((games, workers)),
        progress=played.append,
        strict=strict,
        executor=executor,
    )
    assert started == [(result.games_played, result.workers)] and sum(played) == result.games_played == 120
    entry = result.games[0]
    return (
        result.problems,
        result.warnings,
        entry.report.checks,
        entry.scripts,
        entry.scripts_failing,
        entry.figures,
        report.read_bytes(),
        (project.build_dir / "toy" / "balance.pdf").read_bytes(),
    )


@pytest.mark.parametrize("strict", [False, True])
def test_results_and_problems_are_the_same_whether_the_checks_overlap_the_games_or_not(project, strict):
    alone = _validate(project, 1, strict)  # one process: the checks, then the games
    overlapped = _validate(project, 2, strict)  # two forked workers play while this process checks
    after = _validate(project, 2, strict, executor=MapOnly())
    assert overlapped == alone == after
    problems, warnings = alone[0], alone[1]
    faint = [p for p in problems + warnings if "contrast" in p.message and "#dddddd" in p.message]
    assert faint and (faint[0] in problems) == strict
    messages = [p.message for p in problems]
    script = next(i for i, m in enumerate(messages) if "expected round = 2, got 1" in m)
    leak = next(i for i, m in enumerate(messages) if "conservation failure in" in m)
    # reported in the order of the checks: legibility (with --strict), scripts, then what playing found
    assert script < leak and (not strict or messages.index(faint[0].message) < script)


@pytest.mark.parametrize("failure", [RuntimeError("a bug in a check"), KeyboardInterrupt()])
def test_a_failing_check_stops_the_games_and_leaves_no_worker(project, monkeypatch, failure):
    seen = []

    def broken_check(_renderer, *args):
        seen.append(len(children() - before))  # the workers are playing meanwhile
        raise failure

    monkeypatch.setattr(validating, "check_legibility", broken_check)
    before = children()  # processes other tests left (a browser, a cluster) are not ours
    with pytest.raises(type(failure)):
        validate(project, ["toy"], SimSettings(games=20_000, jobs=2))
    assert seen == [2]
    assert children() <= before


def _crash(_chunk):
    os._exit(3)  # a worker killed (out of memory, a signal) on every try


def _bug(chunk):
    if chunk.players == 3:
        raise ZeroDivisionError("a bug in a worker")
    return play_chunk_packed(executors._PAYLOADS[chunk.key], chunk)


@pytest.mark.parametrize(("play", "expected"), [(_crash, "worker processes died 3 times"),
                                                (_bug, "simulating toy with 3 players (games ")])
def test_a_failing_worker_is_one_problem_and_leaves_no_worker(project, monkeypatch, play, expected):
    monkeypatch.setattr(executors, "_play_installed", play)  # the forked workers inherit it
    before = children()
    with pytest.raises(InputError) as caught:
        validate(project, ["toy"], SimSettings(games=200, jobs=2))
    assert expected in str(caught.value)
    assert children() <= before


def test_chunks_of_a_worker_killed_mid_run_are_played_again_with_the_same_results(project, monkeypatch):
    """A worker killed (out of memory, a signal) while it plays: the chunks it did not send back are played
    again by new workers, and the results are those of one process."""
    import signal

    alone = _validate(project, 1, False)
    marker = project.root / "killed-once"

    def killed_once(chunk):
        if chunk.players == 3 and chunk.start > 0 and not marker.exists():
            marker.write_text("", encoding="utf-8")
            os.kill(os.getpid(), signal.SIGKILL)
        return play_chunk_packed(executors._PAYLOADS[chunk.key], chunk)

    monkeypatch.setattr(executors, "_play_installed", killed_once)  # the forked workers inherit it
    before = children()
    assert _validate(project, 2, False) == alone
    assert marker.exists()  # a worker was killed, and the run went on
    assert children() <= before


def test_workers_stopped_while_writing_a_result_do_not_hang_the_build(project, monkeypatch):
    import signal
    import time

    def broken_check(_renderer, *args):
        time.sleep(1.5)  # the workers have written half a result by now
        raise RuntimeError("a bug in a check")

    def hung(*args):
        raise TimeoutError("validate still waits for the stopped workers after 60 s")

    write_all = forked._write_all

    def half_written(fd: int, data: bytes) -> None:  # half a result in the pipe when the workers are stopped
        write_all(fd, data[:len(data) // 2])
        time.sleep(120)

    monkeypatch.setattr(forked, "_write_all", half_written)  # the forked workers inherit it
    monkeypatch.setattr(validating, "check_legibility", broken_check)
    before = children()
    previous = signal.signal(signal.SIGALRM, hung)  # a hang fails this test instead of stopping the whole run
    signal.alarm(60)
    try:
        with pytest.raises(RuntimeError, match="a bug in a check"):
            validate(project, ["toy"], SimSettings(games=200, jobs=2))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert children() <= before
