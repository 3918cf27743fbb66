"""Weighted A*: a plan quickly, at most ``WEIGHT`` times the optimal cost."""

from __future__ import annotations

from ....answers.result import Result
from ..common import Budget
from ..compile import Task
from .astar import best_first, informed_result
from .heuristic import compile_estimate

WEIGHT = 3.0
"""How much more the estimate counts than the cost so far (f = g + WEIGHT * h)."""


def wastar(task: Task, budget: Budget, weight: float = WEIGHT) -> Result:
    """Best-first search on ``g + weight * h``: far fewer states than A*, a longer plan.

    With an admissible estimate the plan costs at most ``weight`` times the
    optimum, and ``bound`` says what was proven (the larger of cost /
    weight and the least ``g + h`` left open).  The status is ``SOLVED``
    unless that bound reaches the plan's cost (then ``OPTIMAL``; always so
    when the model declares no estimate, as the search is then Dijkstra's).
    """
    estimate = compile_estimate(task, budget)
    out = best_first(task, budget, estimate, weight=weight)
    return informed_result(task, budget, estimate, out, f"weighted A* (w={weight:g})")
