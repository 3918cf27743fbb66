"""Cheapest plans: Dijkstra's algorithm, or 0-1 BFS when every cost is 0 or 1."""

from __future__ import annotations

import heapq
from collections import deque

from ....answers.result import Result, Status, Unsupported
from ....answers.words import plural
from ..common import Budget, found, infeasible, path_to, stopped
from ..compile import State, Task


def dijkstra(task: Task, budget: Budget) -> Result:
    """Least total cost; among plans of equal cost, fewest moves.

    Costs come from each action's cost expression in the state it is
    applied to and must be >= 0.  When interval arithmetic proves every
    cost is 0 or 1, a 0-1 BFS over deques replaces the heap.  States are
    ordered by ``(cost, moves)``, so the plan is ``OPTIMAL`` in cost and,
    among the cheapest, has the fewest moves.  On a limit, ``bound`` is the
    least cost still open (no cheaper plan exists).
    """
    if all(0 <= lo and hi <= 1 for lo, hi in task.cost_bounds):
        return zero_one_bfs(task, budget)
    return _heap_search(task, budget, check=any(lo < 0 for lo, _ in task.cost_bounds))


def _heap_search(task: Task, budget: Budget, check: bool) -> Result:
    start = task.initial
    best: dict[State, tuple[int, int]] = {start: (0, 0)}
    parent: dict[State, State | None] = {start: None}
    heap: list[tuple[int, int, State]] = [(0, 0, start)]
    successors, is_goal = task.successors, task.is_goal
    countdown = budget.interval(1)
    g = 0
    while heap:
        g, d, s = heapq.heappop(heap)
        if best[s] != (g, d):
            continue  # superseded by a cheaper entry
        if is_goal(s):
            return _done(task, parent, s, len(best))
        for k, t, c in successors(s):
            if check and c < 0:
                raise Unsupported(f"search: action {task.action_names[k]!r} costs {c} < 0 in "
                                  f"state {s}; dijkstra needs costs >= 0")
            key = (g + c, d + 1)
            old = best.get(t)
            if old is None or key < old:
                best[t] = key
                parent[t] = s
                heapq.heappush(heap, (g + c, d + 1, t))
        countdown -= 1
        if not countdown:
            if budget.exceeded(len(best), _line, "dijkstra", g, best):
                return stopped(budget, len(best), heap[0][0] if heap else g, "cost")
            countdown = budget.interval(len(best))
    return _none(task, len(best))


def zero_one_bfs(task: Task, budget: Budget) -> Result:
    """Dijkstra for costs in {0, 1}: one cost level at a time, two FIFO queues.

    Within level ``g`` the queue of states entered from level ``g - 1`` and
    the queue of states reached by 0-cost actions are both sorted by moves;
    taking the front with fewer moves pops states in ``(cost, moves)`` order.
    """
    start = task.initial
    best: dict[State, tuple[int, int]] = {start: (0, 0)}
    parent: dict[State, State | None] = {start: None}
    successors, is_goal = task.successors, task.is_goal
    countdown = budget.interval(1)
    g = 0
    entered: deque[tuple[int, State]] = deque([(0, start)])
    while entered:
        free: deque[tuple[int, State]] = deque()
        paid: list[tuple[int, State]] = []
        while entered or free:
            if free and (not entered or free[0][0] < entered[0][0]):
                d, s = free.popleft()
            else:
                d, s = entered.popleft()
            if best[s] != (g, d):
                continue  # superseded
            if is_goal(s):
                return _done(task, parent, s, len(best))
            for _, t, c in successors(s):
                key = (g + c, d + 1)
                old = best.get(t)
                if old is None or key < old:
                    best[t] = key
                    parent[t] = s
                    (paid if c else free).append((d + 1, t))
            countdown -= 1
            if not countdown:
                if budget.exceeded(len(best), _line, "0-1 bfs", g, best):
                    return stopped(budget, len(best), g, "cost")
                countdown = budget.interval(len(best))
        g += 1
        entered = deque(paid)
        budget.report(_line, "0-1 bfs", g, best)
    return _none(task, len(best))


def _line(name: str, g: int, best: dict) -> str:
    return f"{name} cost {g}: {plural(len(best), 'state')}"


def _done(task: Task, parent: dict, goal: State, explored: int) -> Result:
    return found(task, path_to(parent, goal), Status.OPTIMAL, explored)


def _none(task: Task, explored: int) -> Result:
    return infeasible(task, explored)
