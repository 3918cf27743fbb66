"""A :class:`~cpsolve.model.csp.Csp` with an objective (``minimize``/``maximize``) on CP-SAT.

The objective expression is compiled like any other (:meth:`.compile.Compiler.integer`)
and handed to CP-SAT's own optimiser, which proves the optimum (``OPTIMAL``) or,
stopped by the time limit, returns its best solution (``SOLVED``) with the
proven bound on the optimum (``bound``).  Counting the optimal solutions is
counting the model with the objective fixed to the optimum
(:meth:`~cpsolve.model.csp.Csp.with_objective`).
"""

from __future__ import annotations

import math

from ...answers.result import Assignment, Result, Status
from ...answers.words import optimised
from ...model import Csp
from .. import Options
from ..runtime.clock import Clock
from .library import cp_model
from .solving import FOUND, run, size, solver_for

OPTIMIZE_WORKERS = 8
"""Fewest CP-SAT workers an optimisation runs with, whatever the machine's cores: the
portfolio's variety is what proves optima.  Measured on the 2-core test machine under
load: 5 queens dominate the 8x8 board proven optimal in 180 s with 2 workers, 6 s with 8."""


def optimum(csp: Csp, budget: Clock, workers: int
            ) -> tuple[object, dict[str, int] | None, int | None, dict[str, object]]:
    """CP-SAT's status, best solution, proven bound on the optimum, and details."""
    from .csp import encode

    objective = csp.objective
    assert objective is not None
    enc = encode(csp)
    term = enc.compiler.integer(objective.expr)
    if objective.minimizing:
        enc.model.minimize(term)
    else:
        enc.model.maximize(term)
    details: dict[str, object] = dict(size(enc.model))
    solver = solver_for(budget, max(workers, OPTIMIZE_WORKERS))
    status = run(solver, enc.model)
    best = enc.read(solver) if status in FOUND else None
    bound = solver.best_objective_bound if status in FOUND else None
    if bound is not None and math.isfinite(bound):
        bound = math.ceil(bound - 1e-9) if objective.minimizing else math.floor(bound + 1e-9)
    else:
        bound = None
    return status, best, bound, details


def solve(csp: Csp, options: Options) -> Result:
    """The optimum of ``csp``'s objective, proven (``OPTIMAL``) or the best found in time."""
    from ...answers.check.assignments import objective_value

    budget = Clock(options.time_limit)
    status, best, bound, details = optimum(csp, budget, options.workers)
    objective = csp.objective
    assert objective is not None
    if best is None:
        if status == cp_model.INFEASIBLE:
            return Result(Status.INFEASIBLE, "cpsat", message="no solution exists",
                          proof="cp-sat", details=details)
        return Result(Status.UNKNOWN, "cpsat", details=details,
                      message=f"{budget.why()}: no solution found")
    value = objective_value(csp, best)
    answer = Assignment(best, objective=value, minimizing=objective.minimizing)
    proven = status == cp_model.OPTIMAL
    message = optimised(f"{objective.sense} {objective.label}", value, proven, budget.why(),
                        bound=bound, minimizing=objective.minimizing)
    return Result(Status.OPTIMAL if proven else Status.SOLVED, "cpsat", answer=answer,
                  bound=None if proven else bound, details=details, message=message)
