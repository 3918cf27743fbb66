"""A*: cheapest plans guided by the model's admissible estimate."""

from __future__ import annotations

import heapq
import math

from ....answers.result import Result, Status, Unsupported
from ....answers.words import plural
from ...runtime import release
from ..common import Budget, found, infeasible, path_to, stopped
from ..compile import State, Task
from .heuristic import Estimate, Outcome, compile_estimate


def astar(task: Task, budget: Budget) -> Result:
    """A* search: states popped by ``g + h`` (cost so far + estimate), ties to larger ``g``.

    ``OPTIMAL`` in cost when the declared estimate is admissible (its
    contract; without one this is Dijkstra's algorithm).  A state is
    re-opened when a cheaper way to it turns up, so a merely admissible
    (not consistent) estimate is fine.  On a limit, ``bound`` is the least
    ``g + h`` still open: no cheaper plan exists.
    """
    estimate = compile_estimate(task, budget)
    return informed_result(task, budget, estimate, best_first(task, budget, estimate), "A*")


def best_first(task: Task, budget: Budget, estimate: Estimate, weight: float = 1.0,
               upper: int | None = None, cap: int | None = None) -> Outcome:
    """Best-first search on ``g + weight * h``, re-opening states reached more cheaply.

    ``upper``: only plans cheaper than this are wanted (successors with
    ``g + h >= upper`` are dropped), so an empty open list proves that none
    exists.  ``cap``: stop (``stop="cap"``) once this many states are stored.
    The bound is proven for any ``weight >= 1``: some open state lies on an
    optimal plan with its optimal ``g``, so the optimum is at least the least
    ``g + h`` open, unless the plan just found is itself optimal; and a weight
    ``w`` plan costs at most ``w`` times the optimum.

    Its tables (a million states and more) are not freed as it returns but handed to
    :mod:`~cpsolve.engines.runtime.release`: freeing them takes seconds in which no Ctrl-C
    is seen, and a stop asked for just before would escalate and lose what was found.
    """
    if any(lo < 0 for lo, _ in task.cost_bounds):
        raise Unsupported("search: A* needs action costs >= 0")
    start = task.initial
    h0 = estimate.h(start)
    best: dict[State, int] = {start: 0}
    parent: dict[State, State | None] = {start: None}
    heap: list[tuple[float, int, int, State]] = [(weight * h0, h0, 0, start)]
    try:
        return _search(task, budget, estimate, weight, upper, cap, best, parent, heap)
    finally:  # the tables are freed after the result is built, not on the way back to it
        release.later(best, parent, heap)


def _search(task: Task, budget: Budget, estimate: Estimate, weight: float,
            upper: int | None, cap: int | None, best: dict[State, int],
            parent: dict[State, State | None], heap: list) -> Outcome:
    """:func:`best_first`'s loop, from its tables holding the initial state alone."""
    h, successors, is_goal = estimate.h, task.successors, task.is_goal
    h0 = heap[0][1]
    floor = h0 if weight == 1 else 0  # least g + h open (A*: the heap's top)
    countdown = budget.interval(1)
    while heap:
        f, hs, g, s = heapq.heappop(heap)
        if best[s] != g:
            continue  # a cheaper entry for s was pushed after this one
        if weight == 1:
            floor = max(floor, int(f))
        if is_goal(s):
            bound = _bound(estimate, g, h0, weight, heap, floor)
            return Outcome(path_to(parent, s), g, bound, "goal", len(best))
        for _, t, c in successors(s):
            g2 = g + c
            old = best.get(t)
            if old is not None and old <= g2:
                continue
            ht = h(t)
            if upper is not None and g2 + ht >= upper:
                continue
            best[t] = g2
            parent[t] = s
            heapq.heappush(heap, (g2 + weight * ht, ht, g2, t))
        countdown -= 1
        if not countdown:
            if cap is not None and len(best) >= cap:
                return Outcome(None, None, _open_bound(estimate, heap, h0, floor, weight),
                               "cap", len(best))
            if budget.exceeded(len(best), _line, weight, floor, best):
                return Outcome(None, None, _open_bound(estimate, heap, h0, floor, weight),
                               "limit", len(best))
            countdown = budget.interval(len(best))
    return Outcome(None, None, upper, "exhausted", len(best))


def _open_bound(estimate: Estimate, heap: list, h0: int, floor: int, weight: float) -> int:
    """Least ``g + h`` over the open list: a lower bound on the optimum (see best_first)."""
    least = heap[0][0] if weight == 1 and heap else min((g + hs for _, hs, g, _ in heap),
                                                           default=h0)
    return estimate.round_up(max(int(math.ceil(least)), floor, h0))


def _bound(estimate: Estimate, cost: int, h0: int, weight: float, heap: list,
           floor: int) -> int:
    """A proven lower bound on the optimum once a plan of ``cost`` was popped."""
    if weight == 1:
        return cost  # A* pops goals in order of cost
    least = min((g + hs for _, hs, g, _ in heap), default=cost)
    bound = max(h0, math.ceil(cost / weight - 1e-9), min(cost, least))
    return min(cost, estimate.round_up(bound))


def _line(weight: float, floor: int, best: dict) -> str:
    name = "A*" if weight == 1 else f"weighted A* (w={weight:g})"
    return f"{name}: {plural(len(best), 'state')}, f >= {floor}"


def informed_result(task: Task, budget: Budget, estimate: Estimate, out: Outcome,
                    name: str) -> Result:
    """The :class:`Result` of an informed search's :class:`Outcome`."""
    details = {"estimate": estimate.declared, **out.details}
    details.update(estimate.details())
    if out.stop == "goal":
        assert out.path is not None and out.cost is not None
        if out.bound is not None and out.bound >= out.cost:  # the bound rests on h
            return found(task, out.path, Status.OPTIMAL, out.explored,
                         **details, proof_uses_estimate=estimate.declared)
        message = f"{name}: a plan of cost {out.cost}, not proven optimal"
        if out.bound is not None:
            message += f"; no plan costs less than {out.bound}"
        result = found(task, out.path, Status.SOLVED, out.explored, message, **details)
        return result.but(bound=out.bound)
    if out.stop == "exhausted":
        return infeasible(task, out.explored, out.message, **details)
    return stopped(budget, out.explored, out.bound, "cost" if not task.unit_costs else "steps",
                   **details)
