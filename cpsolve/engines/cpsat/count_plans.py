"""Counting the optimal plans of a :class:`~cpsolve.model.planning.Planning` with CP-SAT.

Pipeline (:func:`count`):

1. every plan of the least cost ``C`` must have a bounded number of steps, or
   there could be infinitely many (a cycle of 0-cost actions).  Two bounds are
   used: a potential (:func:`cpsolve.model.facts.potential_bounds`: every action moves a
   sum of the state one way, so every plan has ``fewest..most`` steps), and
   the least cost of a step (``floor >= 1``: at most ``C // floor`` steps).
   Whether either applies is read off the model alone (:func:`refuse_unbounded`),
   so without either the count is refused at once, before any solve;
2. the least cost ``C`` comes from :func:`.planning.solve` (the driver that
   proves it optimal; when it cannot, and no limit stopped it, the count is refused);
3. one time-indexed model (:func:`.timeline.unroll`) with *no* pruning
   constraint (each of those removes some optimal plans) covers every plan
   of cost ``C`` and length ``fewest..H``: exactly ``H`` steps when all plans
   have the same length, else ``H`` steps with no-ops, which are allowed only
   once the goal holds and then repeat to the end, so each plan is one
   assignment of the action literals;
4. CP-SAT enumerates the solutions with one worker (with more, its
   enumeration was measured to miss solutions).  Plans are collected as
   action sequences, so an auxiliary variable the encoding left free could
   only repeat a plan, never count it twice.
"""

from __future__ import annotations

from ...answers.result import Count, Result, Status, Step, Unsupported
from ...answers.words import plural
from ...model import Planning
from ...model.facts import cost_floor, potential_bounds
from .. import Options
from ..runtime.clock import Clock
from ..unsolvable import none_exists
from . import planning as _planning
from .library import cp_model
from .solving import run, size, solver_for
from .timeline import Timeline, unroll

ENUMERATE = {"enumerate_all_solutions": True, "cp_model_presolve": False,
             "linearization_level": 0}
"""Enumeration settings: one worker is set separately; no presolve (it may merge
variables whose values tell plans apart) and no LP (it only slows enumeration)."""


class _Plans(cp_model.CpSolverSolutionCallback):
    """Collects the distinct plans (action sequences) of the enumerated solutions."""

    def __init__(self, tl: Timeline, keep: bool, limit: int | None) -> None:
        super().__init__()
        self.tl = tl
        self.keep = keep
        self.limit = limit
        self.seen: set[tuple[str, ...]] = set()
        self.kept: list[tuple[Step, ...]] = []
        self.solutions = 0
        self.stopped = False

    def on_solution_callback(self) -> None:
        self.solutions += 1
        plan = self.tl.plan(self)  # a solution callback answers like a solver
        key = tuple(s.action for s in plan)
        if key in self.seen:
            return
        self.seen.add(key)
        if self.keep:
            self.kept.append(plan)
        if self.limit is not None and len(self.seen) >= self.limit:
            self.stopped = True
            self.stop_search()


def refuse_unbounded(planning: Planning) -> None:
    """Refuses (:class:`Unsupported`) a model whose plans of one cost have no bound on their
    length: some action may cost 0 and no potential bounds the steps.  Read off the model's
    structure, before any solve, so every such model is refused at once."""
    if cost_floor(planning) < 1 and potential_bounds(planning) is None:
        raise Unsupported("cpsat: cannot count optimal plans here: actions may cost 0 and "
                          "no potential bounds the length of a plan, so there could be "
                          "infinitely many (try --engine search)")


def horizon_for(planning: Planning, optimum: int) -> tuple[int, int]:
    """``(fewest, most)`` steps a plan of cost ``optimum`` can have; refuses when unbounded."""
    refuse_unbounded(planning)
    bounds = potential_bounds(planning)
    floor = cost_floor(planning)
    fewest, most = (0, None) if bounds is None else bounds
    if floor >= 1:
        by_cost = optimum // floor
        most = by_cost if most is None else min(most, by_cost)
    assert most is not None  # refuse_unbounded: a potential or a floor of at least 1
    return fewest, most


def count(planning: Planning, options: Options) -> Result:
    """The number of optimal plans (exact unless a limit stops the enumeration)."""
    if options.limit is not None and options.limit < 1:
        raise ValueError(f"count limit must be at least 1, not {options.limit}")
    budget = Clock(options.time_limit)
    refuse_unbounded(planning)
    best = _planning.solve(planning, options)
    if best.status is Status.INFEASIBLE:
        return none_exists("cpsat", "count", best.proof or "cp-sat",
                           f"no plan exists ({best.message})", options.keep)
    if best.status is not Status.OPTIMAL or best.cost is None:
        if not budget.expired():  # no limit stopped it: the encoding cannot prove it here
            raise Unsupported("cpsat: cannot count optimal plans here: the least cost was "
                              f"not proven ({best.message})")
        return Result(Status.UNKNOWN, "cpsat", "count", bound=0,
                      message=f"the least cost was not proven: {best.message}")
    optimum = best.cost
    fewest, most = horizon_for(planning, optimum)
    exact = fewest == most
    tl = unroll(planning, most, stutter=not exact)
    total = tl.total
    if isinstance(total, int):  # every step costs the same constant
        if total != optimum:
            tl.model.add_bool_or([])  # no plan of this length has the least cost
    else:
        tl.model.add(total == optimum)
    if not exact and fewest > 0:
        tl.model.add(tl.steps >= fewest)
    details: dict[str, object] = {"optimal_cost": optimum, "horizon": most,
                                  "stutter": not exact, **size(tl.model)}
    if best.details.get("proof_uses_estimate"):  # the least cost came from the estimate
        details["proof_uses_estimate"] = True
    if options.progress is not None:
        options.progress(f"enumerating the plans of cost {optimum} "
                         f"({'exactly' if exact else 'at most'} {most} steps)")
    solver = solver_for(budget, 1, **ENUMERATE)
    found = _Plans(tl, options.keep, options.limit)
    status = run(solver, tl.model, found)
    details["solutions_enumerated"] = found.solutions
    n = len(found.seen)
    plans = tuple(found.kept) if options.keep else None
    complete = not found.stopped and status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    if found.stopped:
        message = f"stopped at the limit of {plural(n, 'plan')}"
    elif complete:
        message = f"exact: {plural(n, 'plan')} of the least cost {optimum}"
    else:
        message = f"{budget.why()}: at least {plural(n, 'optimal plan')}"
    return Result.counted("cpsat", Count(n, plans=plans, cost=optimum, of="plans"), complete,
                          details=details, message=message)
