"""Tasks in forked workers: results in order from other processes, a task's exception with its worker's
traceback, and no wait that never ends when a worker dies, is killed half-way through a result, or is
stopped."""

from __future__ import annotations

import os
import signal
import time
import traceback
from pathlib import Path

import pytest

from generator.core import forked
from generator.core.forked import ForkedWorkers, WorkerEnded
from tests.fixtures.processes import children


@pytest.fixture(autouse=True)
def _never_hang():
    """A test here that waits for ever fails after a minute instead of stopping the suite."""
    def timeout(*_):
        raise TimeoutError("waited more than 60 s")
    previous = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def test_results_come_in_task_order_from_the_workers():
    before = children()
    with ForkedWorkers(_square_and_pid, list(range(50)), workers=2) as workers:
        results = list(workers.results())
    assert [square for square, _ in results] == [n * n for n in range(50)]
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    assert children() <= before


def test_more_tasks_than_a_pipe_holds_are_all_done():
    # 80,000 bytes of task numbers: more than a pipe holds, written as they are taken
    tasks = list(range(20_000))
    with ForkedWorkers(abs, tasks, workers=2) as workers:
        assert list(workers.results()) == tasks


def _fails_at_three(n: int) -> int:
    if n == 3:
        error = ValueError("three is wrong")
        error.add_note("while doing task three")
        raise error
    return n


def test_a_task_exception_is_raised_here_with_the_workers_traceback_and_the_workers_end():
    before = children()
    workers = ForkedWorkers(_fails_at_three, list(range(8)), workers=2)
    seen = []
    with pytest.raises(ValueError, match="three is wrong") as info:
        for result in workers.results():
            seen.append(result)
    assert seen == [0, 1, 2]
    assert info.value.__notes__ == ["while doing task three"]
    # the worker's traceback, as cause
    assert "_fails_at_three" in "".join(traceback.format_exception(info.value))
    assert children() <= before


def _dies_at_two(n: int) -> int:
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_worker_killed_during_a_task_is_reported_not_waited_for():
    before = children()
    with (ForkedWorkers(_dies_at_two, list(range(4)), workers=1) as workers,
          pytest.raises(WorkerEnded, match=r"task 3 of 4 \(ended by SIGKILL\)")):
        list(workers.results())
    assert children() <= before


def test_a_worker_killed_half_way_through_a_result_is_reported_not_waited_for(monkeypatch):
    """A Pool's result thread waits for the rest of such a message for ever; here the pipe's end is seen."""
    write_all, write_some = forked._write_all, forked._write_some

    def half_then_killed(fd: int, data) -> None:
        if len(data) > 100_000:  # the big result: half of it, then the worker is killed
            os.set_blocking(fd, True)
            write_all(fd, data[:len(data) // 2])
            os.kill(os.getpid(), signal.SIGKILL)

    def some_then_killed(fd: int, unsent: bytearray) -> None:
        half_then_killed(fd, unsent)
        write_some(fd, unsent)

    def all_then_killed(fd: int, data) -> None:
        half_then_killed(fd, data)
        write_all(fd, data)

    # the forked workers inherit them: the big result is cut wherever it is written
    monkeypatch.setattr(forked, "_write_some", some_then_killed)
    monkeypatch.setattr(forked, "_write_all", all_then_killed)
    with ForkedWorkers(lambda n: "x" * n, [10, 200_000, 10], workers=1) as workers:
        results = workers.results()
        assert next(results) == "x" * 10
        with pytest.raises(WorkerEnded, match="task 2 of 3"):
            next(results)


def _slow_first(n: int) -> int:
    time.sleep(1.0 if n == 0 else 0)
    return n


def test_finished_tasks_come_in_any_order_without_waiting_unless_asked():
    with ForkedWorkers(_slow_first, list(range(6)), workers=2) as workers:
        seen = workers.finished()  # without waiting: what is done already, never task 0, which takes a second
        assert 0 not in seen
        while len(seen) < 6:
            got = workers.finished(wait=True)
            assert got and not got.keys() & seen.keys()  # at least one, each once
            seen |= got
        assert seen == {n: (True, n) for n in range(6)}
        assert list(seen)[-1] == 0  # the slow one came last, after those the other worker did meanwhile
        assert workers.finished(wait=True) == {}  # nothing left: no wait


def test_finished_hands_out_what_was_done_then_names_the_task_no_worker_is_left_to_do():
    before = children()
    with ForkedWorkers(_dies_at_two, list(range(5)), workers=1) as workers:
        seen: dict = {}
        with pytest.raises(WorkerEnded, match=r"task 3 of 5 \(ended by SIGKILL\)") as ended:
            while True:
                seen |= workers.finished(wait=True)
        assert seen == {0: (True, 0), 1: (True, 1)} and ended.value.task == 2
    assert children() <= before


def test_a_task_exception_is_handed_out_by_finished_and_the_other_tasks_go_on():
    with ForkedWorkers(_fails_at_three, list(range(6)), workers=2) as workers:
        seen: dict = {}
        while len(seen) < 6:
            seen |= workers.finished(wait=True)
    assert [n for n, (ok, _) in seen.items() if not ok] == [3]
    assert isinstance(seen[3][1], ValueError) and seen[5] == (True, 5)


def test_stopping_ends_busy_workers_at_once():
    before = children()
    workers = ForkedWorkers(time.sleep, [30, 30, 30], workers=2)
    assert len(children() - before) == 2
    started = time.monotonic()
    workers.stop()
    assert time.monotonic() - started < 5 and children() <= before
    workers.stop()  # harmless again


def test_a_result_that_cannot_be_sent_back_is_that_tasks_error():
    with (ForkedWorkers(lambda n: (lambda: n), [1], workers=1) as workers,
          pytest.raises(TypeError, match="the result of task 1 cannot be sent back")):
        list(workers.results())


def test_no_tasks_start_no_worker():
    before = children()
    with ForkedWorkers(abs, [], workers=2) as workers:
        assert list(workers.results()) == [] and children() <= before


def _always_dies(n: int) -> int:
    os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_workers_dying_while_the_task_numbers_are_written_do_not_leave_this_process_waiting():
    """More task numbers than a pipe holds are written as the workers take them; when no worker is left,
    writing stops instead of waiting for a reader that will never come."""
    before = children()
    with (ForkedWorkers(_always_dies, list(range(40_000)), workers=2) as workers,
          pytest.raises(WorkerEnded, match=r"task 1 of 40000 \(ended by SIGKILL\)")):
        list(workers.results())
    assert children() <= before


def _big_result(n: int) -> str:
    # 200 characters: the results fill a pipe long before the task numbers are all written
    return f"{n:05d}" * 40


def test_results_that_fill_a_pipe_while_task_numbers_wait_do_not_stop_the_work():
    with ForkedWorkers(_big_result, list(range(20_000)), workers=1) as workers:
        results = list(workers.results())
    assert len(results) == 20_000 and results[12_345] == "12345" * 40


def _noted_big_result(task: tuple[str, int]) -> str:
    folder, n = task
    (Path(folder) / f"{n}.done").touch()
    return "x" * 200_000  # three times what a pipe holds


def test_a_worker_plays_on_while_its_results_wait_for_this_process(tmp_path):
    """validate's checks run between its looks at the games: a worker whose pipe is full keeps the results
    and goes on with the next task instead of waiting."""
    tasks = [(str(tmp_path), n) for n in range(6)]
    with ForkedWorkers(_noted_big_result, tasks, workers=1) as workers:
        waited = time.monotonic()
        # nothing read yet: every task gets done all the same (a blocked worker would stop after the first)
        while len(list(tmp_path.glob("*.done"))) < len(tasks):
            assert time.monotonic() - waited < 50, "the worker stopped while its results waited"
            time.sleep(0.01)
        assert list(workers.results()) == ["x" * 200_000] * len(tasks)


def _naps(n: float) -> int:
    time.sleep(n)
    return os.getpid()


def test_workers_leave_ctrl_c_to_the_process_that_forked_them():
    with ForkedWorkers(_naps, [0.5, 0.5], workers=2) as workers:
        time.sleep(0.1)
        for pid in list(workers.workers):
            os.kill(pid, signal.SIGINT)  # what Ctrl-C sends the whole process group
        assert sorted(workers.results()) == sorted(workers.workers)


class _NeedsTwo(Exception):
    def __init__(self, first, second):
        super().__init__(f"{first} and {second}")  # its args cannot rebuild it


def _raises_what_cannot_travel(kind: str) -> None:
    if kind == "rebuild":
        error = _NeedsTwo("salt", "pepper")
    else:
        error = ValueError("holds a lambda")
        error.attached = lambda: None
    error.add_note("while drawing g/rules.pdf")
    raise error


@pytest.mark.parametrize("kind", ["rebuild", "attribute"])
def test_an_exception_that_cannot_travel_comes_back_as_its_type_text_notes_and_traceback(kind):
    with (ForkedWorkers(_raises_what_cannot_travel, [kind], workers=1) as workers,
          pytest.raises(forked.WorkerError) as info):
        list(workers.results())
    name = "_NeedsTwo: salt and pepper" if kind == "rebuild" else "ValueError: holds a lambda"
    assert name in str(info.value) and info.value.__notes__ == ["while drawing g/rules.pdf"]
    assert "_raises_what_cannot_travel" in "".join(traceback.format_exception(info.value))


def _prints(n: int) -> int:
    print(f"task {n} says hello")  # buffered: stdout is a file here
    return n


def test_what_a_task_prints_is_not_lost(capfd):
    with ForkedWorkers(_prints, [1, 2], workers=1) as workers:
        assert list(workers.results()) == [1, 2]
    assert capfd.readouterr().out.splitlines() == ["task 1 says hello", "task 2 says hello"]


def _forks_and_returns(n: int) -> tuple[int, int]:
    os.fork()  # the second process returns from here too
    return n, os.getpid()


def test_a_process_a_task_forks_does_not_become_a_worker():
    with ForkedWorkers(_forks_and_returns, list(range(6)), workers=1) as workers:
        results = list(workers.results())
    assert [n for n, _ in results] == list(range(6)) and len({pid for _, pid in results}) == 1
