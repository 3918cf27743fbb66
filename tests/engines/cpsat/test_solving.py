"""CP-SAT's solve is stopped when a stop is asked for, and waited for whatever happens to
the thread that waits: a process that ends while CP-SAT's threads run aborts
("terminate called without an active exception", exit 134)."""

from __future__ import annotations

import signal
import threading
import time

import pytest
from ortools.sat.python import cp_model

from cpsolve.engines.cpsat import solving
from cpsolve.engines.runtime import interrupt


@pytest.fixture(autouse=True)
def fresh():
    interrupt.clear()
    yield
    interrupt.clear()


def pigeons(holes: int = 14) -> cp_model.CpModel:
    """One pigeon more than holes: infeasible, and beyond clause learning without the
    linear relaxation (which would see it at once)."""
    model = cp_model.CpModel()
    sits = [[model.new_bool_var(f"p{p}h{h}") for h in range(holes)] for p in range(holes + 1)]
    for row in sits:
        model.add_bool_or(row)
    for h in range(holes):
        model.add_at_most_one(row[h] for row in sits)
    return model


def blind_solver() -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    for name, value in {"num_workers": 1, "linearization_level": 0, "symmetry_level": 0,
                        "cp_model_presolve": False, "cp_model_probing_level": 0,
                        "catch_sigint_signal": False}.items():
        setattr(solver.parameters, name, value)
    return solver


def solving_threads() -> list[threading.Thread]:
    """CP-SAT solves under way (the helper threads of :func:`solving.run`)."""
    return [t for t in threading.enumerate() if t.name == "cp-sat" and t.is_alive()]


def test_the_pigeons_keep_cp_sat_busy():
    """What the tests below stand on: without a stop, this solve does not end soon."""
    solver = blind_solver()
    solver.parameters.max_time_in_seconds = 1.0
    assert solving.run(solver, pigeons()) == cp_model.UNKNOWN


def test_a_stop_asked_for_in_another_thread_ends_the_solve():
    def ask() -> None:
        while not solving_threads():
            threading.Event().wait(0.01)
        interrupt.request()

    asker = threading.Thread(target=ask)
    asker.start()
    assert solving.run(blind_solver(), pigeons()) == cp_model.UNKNOWN  # no time limit
    asker.join()
    assert not solving_threads()


class Slow(cp_model.CpSolverSolutionCallback):
    """Holds CP-SAT's thread for a second at each solution: a solve slow to stop."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False

    def on_solution_callback(self) -> None:
        self.inside = True
        time.sleep(1.0)
        self.inside = False


def test_an_exception_in_the_waiting_thread_comes_out_once_cp_sat_has_returned():
    """A second Ctrl-C or the clock's alarm (which fires again every 50 ms until its block
    is left) while CP-SAT solves: ``run`` stops the solve and waits for it, however often
    it is interrupted meanwhile, then raises the first exception.  (Thread.join, once
    interrupted, takes the thread for ended: Python 3.11 would let the solve run on.)"""
    model = cp_model.CpModel()
    for i in range(20):
        model.new_bool_var(f"x{i}")
    solver = blind_solver()
    solver.parameters.enumerate_all_solutions = True
    slow, raised = Slow(), []

    def alarm(signum, frame):  # noqa: ARG001
        raised.append(KeyboardInterrupt)
        if len(raised) >= 6:
            signal.setitimer(signal.ITIMER_REAL, 0)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.2, 0.01)
    try:
        with pytest.raises(KeyboardInterrupt):
            solving.run(solver, model, slow)
        assert not slow.inside  # CP-SAT had returned before the exception came out
        assert len(raised) >= 2  # alarms came while it waited, and were dropped
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
