"""Depth-first search over canonical states: some plan, with dead states remembered.

Differs from :mod:`.dfs` in two ways:

* states are merged under the model's symmetries that keep the goal
  (:func:`cpsolve.model.moves.goal_symmetries`):
  the visited set holds canonical forms, so a position and its mirror image
  are explored once.  A visited state that is not on the current path is
  *dead*: its whole future was explored without reaching the goal;
* successors are tried in the order of their canonical forms, not in the
  order the actions were declared, so the search (and its running time)
  does not depend on how a model happens to list its actions.

The plan is ``OPTIMAL`` when every plan provably has the same length and
cost (:func:`cpsolve.model.facts.any_plan_is_optimal`), else ``SOLVED``.
"""

from __future__ import annotations

from ....answers.result import Result
from ....answers.words import plural
from ....model.moves import goal_symmetries
from ..common import Budget, exhausted_up_to_symmetry, infeasible, plan_found, stopped
from ..compile import State, Task
from .symmetric_states import canonical_form


def memo_dfs(task: Task, budget: Budget) -> Result:
    """Depth-first search with a visited (dead-state) set of canonical states."""
    mappings = goal_symmetries(task.model)
    canon = canonical_form(task.model, mappings)
    start = task.initial
    if task.is_goal(start):
        return plan_found(task, [start], 1, "depth-first search")
    next_states, is_goal = task.next_states, task.is_goal
    visited = {canon(start)}
    path = [start]

    def children(s: State) -> list[State]:
        """Unvisited successors, one per canonical form, in canonical order."""
        kids: dict[State, State] = {}
        for t in next_states(s):
            c = canon(t)
            if c not in visited and c not in kids:
                kids[c] = t
        return [kids[c] for c in sorted(kids)]

    stack = [iter(children(start))]
    countdown = budget.interval(1)
    while stack:
        t = next(stack[-1], None)
        if t is None:
            stack.pop()
            path.pop()
            continue
        c = canon(t)
        if c in visited:  # reached meanwhile through a sibling's subtree
            continue
        visited.add(c)
        path.append(t)
        if is_goal(t):
            return plan_found(task, path, len(visited), "depth-first search",
                              symmetries=len(mappings))
        stack.append(iter(children(t)))
        countdown -= 1
        if not countdown:
            if budget.exceeded(len(visited), _line, visited, path):
                return stopped(budget, len(visited), None)
            countdown = budget.interval(len(visited))
    return infeasible(task, len(visited), exhausted_up_to_symmetry(len(visited), len(mappings)),
                      symmetries=len(mappings))


def _line(visited: set, path: list) -> str:
    return f"memo dfs: {plural(len(visited), 'canonical state')}, depth {len(path) - 1}"
