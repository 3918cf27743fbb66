"""Options that choose what one engine alone has: refused by any other engine, through the
Python API as on the command line (``--engine cpsat --algorithm astar``, exit 2)."""

from __future__ import annotations

import pytest

from cpsolve import Csp
from cpsolve.answers.result import Unsupported
from cpsolve.engines import Options, run
from cpsolve.engines.option_choices import OWNERS, lacking, usable


def small_csp() -> Csp:
    """x, y in 0..1 with x < y: one solution, x = 0, y = 1."""
    csp = Csp("two")
    x, y = csp.add_variable("x", 0, 1), csp.add_variable("y", 0, 1)
    csp.require(x < y)
    return csp


@pytest.mark.parametrize(("engine", "fields", "field"), [
    ("cpsat", {"algorithm": "astar"}, "algorithm"),  # the tester's run("cpsat", ...)
    ("cpsat", {"algorithm": "backtracking"}, "algorithm"),
    ("search", {"solver": "gecode"}, "solver"),
    ("pyconstraint", {"satisficing": True}, "satisficing"),
    ("cpsat", {"satisficing": True}, "satisficing"),
])
def test_an_option_for_another_engine_is_refused_naming_it(engine, fields, field):
    """The engine would ignore it and answer as if it had not been given: refused before it
    runs, naming the field and the engine it is for."""
    with pytest.raises(Unsupported, match=rf"^engine '{engine}': Options\.{field}=.* chooses "
                       rf".*, which only engine '{OWNERS[field][0]}' has"):
        run(engine, "solve", small_csp(), Options(time_limit=30, **fields))


def test_an_option_an_engine_does_not_need_is_still_taken():
    """``keep`` (count's) and ``direction`` (analyze's) choose nothing the solve lacks."""
    result = run("cpsat", "solve", small_csp(),
                 Options(time_limit=30, keep=True, direction="goal", encoding="time-indexed"))
    assert result.verified and result.answer.values == {"x": 0, "y": 1}


def test_an_option_goes_to_the_engine_that_has_it():
    result = run("search", "solve", small_csp(), Options(time_limit=30, algorithm="backtracking"))
    assert result.verified and result.answer.values == {"x": 0, "y": 1}


def test_usable_leaves_out_only_what_the_engine_lacks():
    """What ``auto`` in turn gives each engine: search keeps its algorithm, CP-SAT runs
    without it (a batch's ``--algorithm`` is search's), the other options untouched."""
    asked = Options(time_limit=7, algorithm="bfs", keep=True, solver="gecode")
    assert lacking("search", usable("search", asked)) is None
    assert usable("search", asked).algorithm == "bfs"
    for_cpsat = usable("cpsat", asked)
    assert (for_cpsat.algorithm, for_cpsat.solver, for_cpsat.satisficing) == (None, None, False)
    assert (for_cpsat.time_limit, for_cpsat.keep) == (7, True)
    assert lacking("cpsat", for_cpsat) is None
    assert usable("minizinc", asked).solver == "gecode"
