"""Counting optimal plans: cheapest distances, then paths in the optimal graph.

A *plan* is a sequence of actions from the initial state to a goal state; two
plans are different when their action sequences differ (two actions leading
from ``s`` to the same ``t`` make two plans).  :func:`count_optimal` counts
the plans of least cost ``C``:

1. Dijkstra's algorithm settles every state whose cheapest cost ``g`` from
   the initial state is at most ``C`` (costs must be >= 0);
2. a step ``s -a-> t`` is *tight* when ``g(s) + cost = g(t)``.  Every prefix
   of an optimal plan is a cheapest path to where it ends, so the optimal
   plans are exactly the paths of tight steps from the initial state to a
   goal state ``t`` with ``g(t) = C`` (including paths that pass through
   such a goal and go on with steps of cost 0);
3. only states from which such a goal can be reached by tight steps matter.
   Among them, tight steps of positive cost raise ``g``, so a cycle would
   have to consist of 0-cost steps: then there are infinitely many optimal
   plans, and the count is refused (:class:`Unanswerable`: proven, not a gap).  Otherwise the
   tight steps form a DAG and the number of tight paths is summed in
   topological order.

With ``keep``, the plans are listed too (at most ``limit`` of them; the
count stays exact).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator

from ....answers.result import Count, Result, Status, Step, Unanswerable, Unsupported
from ....answers.words import all_of, plural
from ..common import Budget
from ..compile import State, Task

Edge = tuple[State, int]
"""A tight step into a state: ``(previous state, action index)``."""


def count_optimal(task: Task, budget: Budget, keep: bool = False,
                  limit: int | None = None) -> Result:
    """The number of optimal plans (and, with ``keep``, the plans themselves)."""
    g, optimum, complete = _cheapest(task, budget)
    if not complete:
        return Result(Status.UNKNOWN, "search", "count", explored=len(g),
                      message=f"stopped: {budget.reason} after {plural(len(g), 'state')}, before "
                      "every state that could lie on an optimal plan was settled")
    if optimum is None:
        none = Count(0, plans=() if keep else None, of="plans")
        return Result(Status.EXACT, "search", "count", none, explored=len(g),
                      proof="exhausted search",
                      message=f"no plan exists: {all_of(len(g), 'reachable state')} explored, "
                      "none is a goal")
    goals = [s for s, cost in g.items() if cost == optimum and task.is_goal(s)]
    into = _tight_steps(task, g)
    useful = _useful(goals, into)
    order = _topological(useful, into)
    paths: dict[State, int] = {task.initial: 1}
    for t in order:
        if t != task.initial:
            paths[t] = sum(paths[s] for s, _ in into.get(t, ()) if s in useful)
    total = sum(paths[t] for t in goals)
    plans = None
    if keep:
        plans = tuple(_listed(task, goals, into, useful, g, limit))
    shown = "" if plans is None or len(plans) == total else \
        f"; {len(plans):,} of them listed"
    counted = Count(total, plans=plans, cost=optimum, of="plans")
    return Result(Status.EXACT, "search", "count", counted, explored=len(g),
                  message=f"exact: {plural(total, 'plan')} of the least cost {optimum}{shown}",
                  details={"optimal_cost": optimum, "states_settled": len(g),
                           "states_on_optimal_plans": len(useful)})


def _cheapest(task: Task, budget: Budget) -> tuple[dict[State, int], int | None, bool]:
    """``(g, C, complete)``: cheapest costs of every state with ``g <= C`` (``C`` None: no
    goal); ``complete`` is False when a limit stopped the search (``g`` is then partial)."""
    start = task.initial
    g: dict[State, int] = {start: 0}
    done: set[State] = set()
    heap: list[tuple[int, State]] = [(0, start)]
    optimum: int | None = None
    successors, is_goal = task.successors, task.is_goal
    countdown = budget.interval(1)
    while heap:
        cost, s = heapq.heappop(heap)
        if optimum is not None and cost > optimum:
            break
        if s in done or g[s] != cost:
            continue
        done.add(s)
        if optimum is None and is_goal(s):
            optimum = cost
        for k, t, c in successors(s):
            if c < 0:
                raise Unsupported(f"search: action {task.action_names[k]!r} costs {c} < 0; "
                                  "counting optimal plans needs costs >= 0")
            if t not in g or cost + c < g[t]:
                g[t] = cost + c
                heapq.heappush(heap, (cost + c, t))
        countdown -= 1
        if not countdown:
            if budget.exceeded(len(g)):
                return {s: g[s] for s in done}, optimum, False
            countdown = budget.interval(len(g))
    return {s: g[s] for s in done}, optimum, True


def _tight_steps(task: Task, g: dict[State, int]) -> dict[State, list[Edge]]:
    """For each settled state, the tight steps that lead into it."""
    into: dict[State, list[Edge]] = {}
    for s, cost in g.items():
        for k, t, c in task.successors(s):
            if g.get(t) == cost + c:
                into.setdefault(t, []).append((s, k))
    return into


def _useful(goals: list[State], into: dict[State, list[Edge]]) -> set[State]:
    """States from which an optimal goal is reachable by tight steps."""
    useful = set(goals)
    queue = deque(goals)
    while queue:
        t = queue.popleft()
        for s, _ in into.get(t, ()):
            if s not in useful:
                useful.add(s)
                queue.append(s)
    return useful


def _topological(useful: set[State], into: dict[State, list[Edge]]) -> list[State]:
    """Useful states, each after every useful state with a tight step into it."""
    waiting = {t: sum(1 for s, _ in into.get(t, ()) if s in useful) for t in useful}
    out_of: dict[State, list[State]] = {}
    for t in useful:
        for s, _ in into.get(t, ()):
            if s in useful:
                out_of.setdefault(s, []).append(t)
    ready = deque(t for t, n in waiting.items() if n == 0)
    order = []
    while ready:
        s = ready.popleft()
        order.append(s)
        for t in out_of.get(s, ()):
            waiting[t] -= 1
            if waiting[t] == 0:
                ready.append(t)
    if len(order) != len(useful):
        raise Unanswerable("search: infinitely many optimal plans (a cycle of actions that "
                          "cost 0 lies on an optimal plan), so they cannot be counted")
    return order  # the initial state first: every other useful state has a step into it


def _listed(task: Task, goals: list[State], into: dict[State, list[Edge]], useful: set[State],
            g: dict[State, int], limit: int | None) -> Iterator[tuple[Step, ...]]:
    """The optimal plans, at most ``limit`` of them."""
    n = 0
    for goal in goals:
        for steps in _back(task, goal, into, useful, g):
            yield tuple(reversed(steps))
            n += 1
            if limit is not None and n >= limit:
                return


def _back(task: Task, t: State, into: dict[State, list[Edge]], useful: set[State],
          g: dict[State, int]) -> Iterator[list[Step]]:
    """Every tight path from the initial state to ``t``, as steps in reverse order."""
    if t == task.initial:
        yield []
    for s, k in into.get(t, ()):
        if s not in useful:
            continue
        step = Step(task.action_names[k], t, g[t] - g[s])
        for rest in _back(task, s, into, useful, g):
            yield [step, *rest]
