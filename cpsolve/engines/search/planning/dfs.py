"""Depth-first search with a visited set: some plan, quickly, not a short one."""

from __future__ import annotations

from ....answers.result import Result, Status
from ....answers.words import plural
from ..common import Budget, found, infeasible, stopped
from ..compile import Task


def dfs(task: Task, budget: Budget) -> Result:
    """Depth-first search; every state is expanded at most once.

    Returns the first plan found (``SOLVED``: no optimality claim) or
    ``INFEASIBLE`` after every reachable state was visited.
    """
    start = task.initial
    if task.is_goal(start):
        return found(task, [start], Status.SOLVED, 1)
    next_states, is_goal = task.next_states, task.is_goal
    visited = {start}
    path = [start]
    stack = [iter(next_states(start))]
    countdown = budget.interval(1)
    while stack:
        t = next(stack[-1], None)
        if t is None:
            stack.pop()
            path.pop()
            continue
        if t in visited:
            continue
        visited.add(t)
        path.append(t)
        if is_goal(t):
            return found(task, path, Status.SOLVED, len(visited),
                         "depth-first: a plan, not necessarily a short one")
        stack.append(iter(next_states(t)))
        countdown -= 1
        if not countdown:
            if budget.exceeded(len(visited), _line, visited, path):
                return stopped(budget, len(visited), None)
            countdown = budget.interval(len(visited))
    return infeasible(task, len(visited))


def _line(visited: set, path: list) -> str:
    return f"dfs: {plural(len(visited), 'state')}, depth {len(path) - 1}"
