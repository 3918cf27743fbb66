"""Iterative deepening depth-first search: fewest moves in little memory."""

from __future__ import annotations

from ....answers.result import Result
from ....answers.words import plural
from ..common import Budget, fewest_moves, infeasible, stopped
from ..compile import State, Task


def iddfs(task: Task, budget: Budget) -> Result:
    """Depth-limited DFS for limits 1, 2, 3, ...; a path never revisits its own states.

    Memory is the current path only, so states are re-expanded many times
    (``explored`` counts expansions, and ``limit`` caps them).  The first plan found has the fewest
    moves.  ``INFEASIBLE`` when an iteration ends without cutting any path
    at the depth limit (every simple path was tried).
    """
    start = task.initial
    if task.is_goal(start):
        return fewest_moves(task, [start], 1)
    next_states, is_goal = task.next_states, task.is_goal
    expanded = 0
    countdown = budget.interval(expanded)
    limit = 0
    while True:
        limit += 1
        cut = False
        path: list[State] = [start]
        on_path = {start}
        stack = [iter(next_states(start))]
        expanded += 1
        while stack:
            t = next(stack[-1], None)
            if t is None:
                stack.pop()
                on_path.discard(path.pop())
                continue
            if t in on_path:
                continue
            if is_goal(t):
                return fewest_moves(task, path + [t], expanded, iterations=limit)
            if len(path) == limit:
                cut = True
                continue
            path.append(t)
            on_path.add(t)
            stack.append(iter(next_states(t)))
            expanded += 1
            countdown -= 1
            if not countdown:
                if budget.exceeded(expanded, _line, limit, expanded):
                    return stopped(budget, expanded, limit, iterations=limit)
                countdown = budget.interval(expanded)
        if not cut:
            return infeasible(task, expanded, _exhausted(limit, expanded), iterations=limit)
        budget.report(_line, limit, expanded)


def _exhausted(limit: int, expanded: int) -> str:
    """Why no plan exists once the depth ``limit`` cut no path: every path that does not
    revisit a state ends within ``limit - 1`` moves, and none met a goal (``expanded``
    counts a state once per path to it, in every iteration)."""
    return (f"goal unreachable: every path from the start that does not revisit a state "
            f"was followed to its end (none is longer than {plural(limit - 1, 'move')}); "
            f"{plural(expanded, 'state')} expanded over {plural(limit, 'iteration')}, a "
            "state again for each path to it")


def _line(limit: int, expanded: int) -> str:
    return f"iddfs depth limit {limit}: {expanded:,} expansions"
