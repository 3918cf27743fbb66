"""``--jobs``: numbered pieces of work in forked workers, answers in order; a dead worker,
the deadline and Ctrl-C each end as answers of their own, never as a lost batch."""

from __future__ import annotations

import os
import signal
import time

import pytest

from cpsolve.engines.runtime import interrupt
from cpsolve.engines.runtime.clock import state_limit
from cpsolve.workflows.jobs import in_order


@pytest.fixture(autouse=True)
def no_stop_asked():
    interrupt.clear()
    yield
    interrupt.clear()


def failed(index: int, why: str) -> tuple[int, str]:
    return index, why


def test_answers_come_in_order_whatever_order_they_finish_in():
    """Piece 0 takes longest: the others finish first, and wait for it."""
    def work(index, time_limit):
        time.sleep(0.3 if index == 0 else 0.01)
        return index, os.getpid()

    answers = list(in_order(6, work, failed, workers=3))
    assert [a[0] for a in answers] == list(range(6))
    assert os.getpid() not in {a[1] for a in answers}  # every piece ran in a worker


def test_a_worker_that_dies_is_a_failed_piece_and_is_replaced():
    def work(index, time_limit):
        if index == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return index, "done"

    answers = list(in_order(5, work, failed, workers=2))
    assert answers[1] == (1, "the worker process ended without an answer (exit -9)")
    assert [a for i, a in enumerate(answers) if i != 1] == [(i, "done") for i in (0, 2, 3, 4)]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_worker_stopped_in_its_piece_answers_and_the_next_pieces_go_to_others(workers):
    """A piece whose own stop was asked for in its worker (its memory limit): the worker
    answered, then ended; it was kept idle, and the next piece sent to it broke its pipe,
    which the command took for a closed stdout: exit 0, the batch's other rows and summary
    lost (``solve A B C --jobs 2 --memory-limit 1G``)."""
    def work(index, time_limit):
        if index == 0:
            interrupt.request()  # in the worker only, as its memory watch asks
        return index, "done"

    answers = list(in_order(4, work, failed, workers=workers))
    assert answers == [(i, "done") for i in range(4)]


def test_a_piece_that_raises_is_a_failed_piece():
    def work(index, time_limit):
        if index == 0:
            raise RuntimeError("broken")
        return index, "done"

    answers = list(in_order(3, work, failed, workers=2))
    assert answers[0] == (0, "the worker failed: RuntimeError: broken")
    assert answers[1:] == [(1, "done"), (2, "done")]


def test_each_piece_gets_what_is_left_of_the_deadline_and_none_starts_after_it():
    """Piece 0 (alone: one worker) works until its limit; nothing is handed over after the
    deadline.  Orders only: every limit given is at most what was left at the start."""
    budget = 0.5
    deadline = time.monotonic() + budget

    def work(index, time_limit):
        time.sleep(time_limit)
        return index, time_limit

    answers = list(in_order(3, work, failed, workers=1, deadline=deadline))
    assert answers[0][0] == 0 and 0 < answers[0][1] <= budget
    assert answers[1:] == [(1, "not started: time limit reached"),
                           (2, "not started: time limit reached")]


def test_a_piece_not_started_names_the_commands_time_limit():
    """docs/reference/engines.md: a run stopped by the limit says so in the limit's own
    figure, whatever share of it each piece had (``time limit 3 s reached``)."""
    state_limit(3.0)
    try:
        answers = list(in_order(2, lambda index, limit: (index, "ran"), failed, workers=1,
                                deadline=time.monotonic() - 1))
    finally:
        state_limit(None)
    assert answers == [(i, "not started: time limit 3 s reached") for i in range(2)]


def test_a_piece_past_the_deadline_is_stopped_and_gives_what_it_has():
    """A piece that ignores its time limit but returns when asked to stop (SIGINT: an
    engine's interrupt) is stopped after the deadline's grace and its answer kept."""
    def work(index, time_limit):
        while not interrupt.requested():
            time.sleep(0.01)
        return index, f"partial ({interrupt.reason()})"

    deadline = time.monotonic() + 0.2
    answers = list(in_order(2, work, failed, workers=1, deadline=deadline))
    assert answers == [(0, "partial (interrupted)"), (1, "not started: time limit reached")]


def test_a_piece_the_deadline_came_before_or_stopped_silent_has_a_callback_of_its_own():
    """Not an error, and not the worker's failure: a piece never handed over goes to
    ``unstarted``, one stopped past the deadline without a word (it ignores the stop and
    is killed) to ``stopped``."""
    def deaf(index, time_limit):
        end = time.monotonic() + 30
        while time.monotonic() < end:  # never looks at the stop asked for
            time.sleep(0.01)
        return index, "not stopped"

    answers = list(in_order(2, deaf, failed, workers=1, deadline=time.monotonic() + 0.2,
                            grace=0.4, unstarted=lambda i, why: ("unstarted", i, why),
                            stopped=lambda i, why: ("stopped", i, why)))
    assert answers == [("stopped", 0, "stopped: time limit reached"),
                       ("unstarted", 1, "not started: time limit reached")]


def test_after_ctrl_c_nothing_new_starts():
    interrupt.request()
    answers = list(in_order(3, lambda index, limit: (index, "ran"), failed, workers=2))
    assert answers == [(i, "not started: interrupted") for i in range(3)]


def test_ctrl_c_in_a_batch_with_jobs_prints_every_row_and_the_summary():
    """Ctrl-C from a terminal (the whole process group) after the first row: every instance
    is a JSON line (solved, stopped with what it had, or not started), then the summary."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    top95 = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "top95.toml"
    process = subprocess.Popen([sys.executable, "-m", "cpsolve", "solve", str(top95),
                                "--engine", "cpsat", "--jobs", "2", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    first = process.stdout.readline()
    os.killpg(process.pid, signal.SIGINT)
    rest = process.stdout.read()  # (communicate() would skip what readline() buffered)
    err = process.stderr.read()
    process.wait(120)  # a guard against a hang, not a time check
    lines = [json.loads(line) for line in (first + rest).splitlines()]
    assert process.returncode == 130, err
    assert len(lines) == 96 and lines[-1]["batch"]["instances"] == 95
    assert lines[0]["status"] == "solved"
    sources = [line["source"] for line in lines[:-1]]
    assert sources == [f"{top95}#{i}" for i in range(1, 96)]  # in order, none lost
