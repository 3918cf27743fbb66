"""python-constraint's adapter, on the edges of a csp: no variables at all (the empty
assignment is the one solution, which python-constraint alone does not see) and
constraints over constants only — the same answers from every engine."""

from __future__ import annotations

import shutil

import pytest

from cpsolve.answers.result import Status
from cpsolve.engines import Options, run
from cpsolve.model import Csp

ENGINES = ["cpsat", "search", "pyconstraint",
           pytest.param("minizinc", marks=pytest.mark.skipif(shutil.which("minizinc") is None,
                                                             reason="no minizinc"))]


def no_variables(holds: bool | None) -> Csp:
    """A csp without variables: no constraint (``None``), or one constant one."""
    csp = Csp("no variables")
    if holds is not None:
        csp.require(holds)
    return csp


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("holds", [None, True])
def test_a_csp_without_variables_has_exactly_one_solution(engine, holds):
    # every constraint holds of the empty assignment: it is a solution, and the only one
    csp = no_variables(holds)
    solved = run(engine, "solve", csp, Options(time_limit=60))
    assert solved.status is Status.SOLVED and solved.answer.values == {}
    counted = run(engine, "count", csp, Options(time_limit=60))
    assert (counted.status, counted.answer.count) == (Status.EXACT, 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_false_constant_constraint_leaves_no_solution(engine):
    csp = no_variables(False)
    assert run(engine, "solve", csp, Options(time_limit=60)).status is Status.INFEASIBLE
    counted = run(engine, "count", csp, Options(time_limit=60))
    assert (counted.status, counted.answer.count) == (Status.EXACT, 0)


@pytest.mark.parametrize("task", ["solve", "count"])
def test_a_run_stopped_at_its_limit_names_the_limit_s_figure(task):
    """Stopped at once (a limit of a millionth of a second), a solve said "time limit
    reached: no solution found yet", without the figure every other engine names; it names
    the command's limit (4 s here) as a count already did."""
    from cpsolve.engines.runtime.clock import state_limit
    from cpsolve.puzzles.files import load, resolve

    queens = load(resolve("queens8")).model
    state_limit(4.0)
    try:
        result = run("pyconstraint", task, queens, Options(time_limit=1e-6))
    finally:
        state_limit(None)
    assert result.status in (Status.UNKNOWN, Status.AT_LEAST), result.message
    assert "time limit 4 s reached" in result.message
