"""Running CP-SAT: time budgets, solver set-up and model size figures."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model


class Budget:
    """What is left of ``options.time_limit`` (``None``: no limit) since creation."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.start = time.perf_counter()

    def remaining(self) -> float | None:
        """Seconds left, never negative (``None`` when unlimited)."""
        if self.limit is None:
            return None
        return max(0.0, self.limit - (time.perf_counter() - self.start))

    def expired(self) -> bool:
        """True when no time is left."""
        left = self.remaining()
        return left is not None and left <= 0.0

    def elapsed(self) -> float:
        """Seconds since creation."""
        return time.perf_counter() - self.start


def solver_for(budget: Budget, workers: int, **params: object) -> cp_model.CpSolver:
    """A solver limited to the remaining time, with ``workers`` threads and extra parameters."""
    solver = cp_model.CpSolver()
    left = budget.remaining()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(left, 1e-3)
    solver.parameters.num_workers = max(1, int(workers))
    for name, value in params.items():
        setattr(solver.parameters, name, value)
    return solver


PLAN_SEARCH = {"use_feasibility_jump": False, "cp_model_presolve": False,
               "cp_model_probing_level": 0, "symmetry_level": 0,
               "search_branching": cp_model.FIXED_SEARCH, "use_sat_inprocessing": False}
"""Parameters for planning models.  The search follows the timeline's decision
strategy, the steps' actions in order, as a depth-first search of the plans would
(8-puzzle: 0.5 s instead of 2.5 s with CP-SAT's default search; English 33: 0.5 s
instead of 2.6 s).  Presolve, probing and symmetry detection cost more than they
save on these models, repeated for each horizon; feasibility jump only delays the
other workers; the LP relaxation is off unless there is a cost to bound."""
PLAN_PORTFOLIO = ("fixed", "no_lp")
"""With several workers: that depth-first search, and CP-SAT's own search beside it."""


def plan_solver(budget: Budget, workers: int, objective: bool) -> cp_model.CpSolver:
    """A solver for a planning model (:data:`PLAN_SEARCH`, or :data:`PLAN_PORTFOLIO`
    with several workers); ``objective``: the model has a cost to minimize."""
    params: dict[str, object] = dict(PLAN_SEARCH)
    if not objective:
        params["linearization_level"] = 0
    if workers > 1:
        params.update(search_branching=cp_model.AUTOMATIC_SEARCH, num_full_subsolvers=workers)
    solver = solver_for(budget, workers, **params)
    if workers > 1:
        solver.parameters.subsolvers.extend(PLAN_PORTFOLIO)
    return solver


def size(model: cp_model.CpModel) -> dict[str, int]:
    """Numbers of variables and constraints of a CP-SAT model."""
    proto = model.proto
    return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
"""Solver statuses that come with a solution."""
