"""A cheapest plan proven optimal, or beaten, once the shortest length is known (costs other
than 1): the driver's last step (:mod:`.planning`, step 4)."""

from __future__ import annotations

import math

from ...answers.result import Result, Status, Step
from ...answers.words import lower_bound, number
from ...model.facts import steps_for_cost
from .additions import estimate
from .library import cp_model
from .planning_run import Run, unproven
from .timeline import unroll

FINAL_SIZE = 200_000
"""Largest ``horizon x actions`` for the solve that proves a cheapest plan optimal."""


def cheapest(run: Run, plan: tuple[Step, ...], length: int, cheapest_of_length: bool,
              floor: int) -> Result:
    """Prove ``plan`` optimal or beat it: no plan has fewer than ``length`` steps, and
    (if flagged) none of ``length`` steps is cheaper than ``plan``."""
    cost = sum(s.cost for s in plan)
    if floor < 0:
        return run.result(Status.SOLVED, plan,
                          "an action may cost less than 0: optimality not proven")
    if cost <= floor * length:  # every plan has >= length steps, each costing >= floor
        return run.result(Status.OPTIMAL, plan, "no plan can cost less")
    if cost <= run.estimated:
        return run.result(Status.OPTIMAL, plan, "no plan can cost less than the estimate "
                          f"of the initial state, {run.estimated}")
    limit = min(run.cap, steps_for_cost(run.planning, cost - 1) if floor < 1
                else (cost - 1) // floor)
    if limit < length or (limit == length and cheapest_of_length):
        return run.result(Status.OPTIMAL, plan,
                          f"cheapest plan: a cheaper one would have at most {limit} steps, "
                          f"and none of {length} or fewer is cheaper")
    if limit * len(run.planning.actions) > FINAL_SIZE:
        return run.result(Status.SOLVED, plan, bound=max(floor * length, run.estimated),
                          message=f"cheapest plan of {length} steps; plans of up to "
                          f"{number(limit)} steps were not searched, so optimality is not proven")
    return _final(run, limit, length, plan)


def _final(run: Run, horizon: int, shortest: int, incumbent: tuple[Step, ...]) -> Result:
    """Look for a plan cheaper than ``incumbent`` among all plans of at most ``horizon`` steps.

    ``horizon`` bounds every plan that could be cheaper, and every plan has at
    least ``shortest`` steps; one stuttering solve covers them all.
    """
    run.say(f"looking for a cheaper plan of {shortest} to {horizon} steps")
    run.details["final_horizon"] = horizon
    tl = unroll(run.planning, horizon, stutter=True, forbidden=run.forbidden,
                estimate=estimate())
    tl.model.add(tl.steps >= shortest)
    tl.model.add(tl.total <= sum(s.cost for s in incumbent) - 1)
    solver, status = run.solve(tl, minimize=True)
    if status == cp_model.OPTIMAL:
        return run.result(Status.OPTIMAL, tl.plan(solver),
                          f"cheapest plan: every plan of at most {horizon} steps was covered")
    if status == cp_model.INFEASIBLE:
        return run.result(Status.OPTIMAL, incumbent,
                          f"cheapest plan: no cheaper plan of at most {horizon} steps exists")
    best = solver.best_objective_bound  # about plans cheaper than the incumbent only
    proven = max(0, math.ceil(best - 1e-6)) if math.isfinite(best) else 0
    bound = min(max(proven, run.estimated), sum(s.cost for s in incumbent))
    plan = tl.plan(solver) if status == cp_model.FEASIBLE else incumbent
    return run.result(Status.SOLVED, plan, bound=bound,
                      message=f"{run.budget.why()}: {lower_bound(bound, False)}; "
                      f"{unproven(plan, False)}")
