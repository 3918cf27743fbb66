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


def size(model: cp_model.CpModel) -> dict[str, int]:
    """Numbers of variables and constraints of a CP-SAT model."""
    proto = model.proto
    return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
"""Solver statuses that come with a solution."""
