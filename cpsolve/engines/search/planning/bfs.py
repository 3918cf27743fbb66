"""Breadth-first search: fewest moves."""

from __future__ import annotations

from ....answers.result import Result
from ....answers.words import plural
from ..common import Budget, fewest_moves, infeasible, path_to, stopped
from ..compile import State, Task


def bfs(task: Task, budget: Budget) -> Result:
    """Breadth-first search, layer by layer, goal tested when a state is generated.

    The plan has the fewest moves: ``OPTIMAL`` when every action costs 1.
    With other costs the move count is still minimal but the cost is not,
    so the status is ``SOLVED``.  ``INFEASIBLE`` once every reachable state
    was generated; on a limit, ``bound`` is the first depth not yet proven
    free of goals.  ``details["depth"]``: the greatest distance from the start of a state
    generated (when infeasible, that of the farthest reachable state).
    """
    start = task.initial
    parent: dict[State, State | None] = {start: None}
    if task.is_goal(start):
        return fewest_moves(task, [start], 1)
    next_states, is_goal = task.next_states, task.is_goal
    frontier, depth = [start], 0
    countdown = budget.interval(1)
    while True:  # ends when a layer is empty, or at a goal or a limit
        layer: list[State] = []
        for s in frontier:
            for t in next_states(s):
                if t not in parent:
                    parent[t] = s
                    if is_goal(t):
                        return fewest_moves(task, path_to(parent, t), len(parent))
                    layer.append(t)
            countdown -= 1
            if not countdown:
                if budget.exceeded(len(parent), _line, depth + 1, layer, parent):
                    return stopped(budget, len(parent), depth + 1,
                                   depth=depth + 1 if layer else depth)
                countdown = budget.interval(len(parent))
        if not layer:  # the frontier, at distance ``depth``, was the last layer
            return infeasible(task, len(parent), depth=depth)
        depth += 1
        frontier = layer
        budget.report(_line, depth, layer, parent)


def _line(depth: int, layer: list, parent: dict) -> str:
    return f"bfs depth {depth}: {plural(len(layer), 'state')}, {len(parent):,} seen"

