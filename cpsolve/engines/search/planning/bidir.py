"""Bidirectional breadth-first search: from the start and from the goal state."""

from __future__ import annotations

from ....answers.result import Result, Unsupported
from ....answers.words import all_of, plural
from ....model.pins import goal_beyond_domains
from ...unsolvable import none_exists
from ..common import Budget, fewest_moves, infeasible, path_to, stopped
from ..compile import State, Task


def bidir(task: Task, budget: Budget) -> Result:
    """BFS forwards from the initial state and backwards (over predecessors) from the goal.

    Needs a goal that pins every variable (:meth:`Planning.goal_state`).  Each
    round expands one whole layer of the smaller frontier; the first state
    seen from both sides closes a shortest plan (``OPTIMAL`` with unit
    costs).  ``INFEASIBLE`` when either side runs out of states.  On a limit,
    ``bound`` = the depths of the two frontiers + 1, and ``details`` give the greatest
    distance of a state generated from the start (``forward_depth``) and to the goal
    (``backward_depth``).
    """
    goal = task.goal_state
    if goal is None:
        raise Unsupported("search: bidir needs a goal that pins every variable to a constant "
                          "(a single goal state); use bfs")
    start = task.initial
    if start == goal:
        return fewest_moves(task, [start], 1)
    if not task.in_domain(goal):  # the engine's before_search proves this first, in words
        return none_exists("search", "solve", "invariant", str(goal_beyond_domains(task.model)),
                           explored=0)
    fwd: dict[State, State | None] = {start: None}
    bwd: dict[State, State | None] = {goal: None}
    f_front, b_front = [start], [goal]
    f_depth = b_depth = 0
    next_states, predecessors = task.next_states, task.predecessors
    countdown = budget.interval(2)
    while f_front and b_front:
        layer: list[State] = []
        forward = len(f_front) <= len(b_front)
        for s in f_front if forward else b_front:
            if forward:
                for t in next_states(s):
                    if t not in fwd:
                        fwd[t] = s
                        if t in bwd:
                            return _meet(task, fwd, bwd, t)
                        layer.append(t)
            else:
                for _, p in predecessors(s):
                    if p not in bwd:
                        bwd[p] = s
                        if p in fwd:
                            return _meet(task, fwd, bwd, p)
                        layer.append(p)
            countdown -= 1
            if not countdown:
                seen = len(fwd) + len(bwd)
                if budget.exceeded(seen, _line, f_depth, b_depth, seen):
                    grown = 1 if layer else 0  # the layer under way, one step deeper
                    return stopped(budget, seen, f_depth + b_depth + 1,
                                   forward_depth=f_depth + (grown if forward else 0),
                                   backward_depth=b_depth + (0 if forward else grown))
                countdown = budget.interval(seen)
        if forward:
            f_front, f_depth = layer, f_depth + 1
        else:
            b_front, b_depth = layer, b_depth + 1
        budget.report(_line, f_depth, b_depth, len(fwd) + len(bwd))
    return _exhausted(task, fwd, bwd, "forward" if not f_front else "backward")


def _exhausted(task: Task, fwd: dict, bwd: dict, side: str) -> Result:
    """No plan: the ``side`` search (``forward`` or ``backward``) ran out of states."""
    reached = len(fwd) if side == "forward" else len(bwd)
    where = "reachable from the start" if side == "forward" else "that can reach the goal"
    return infeasible(task, len(fwd) + len(bwd), exhausted=side,
                      message=f"goal unreachable: {all_of(reached, 'state')} {where} explored "
                      f"({len(fwd) + len(bwd):,} by both searches together)")


def _line(f_depth: int, b_depth: int, seen: int) -> str:
    return f"bidir depth {f_depth} forwards + {b_depth} backwards: {plural(seen, 'state')}"


def _meet(task: Task, fwd: dict, bwd: dict, middle: State) -> Result:
    path = path_to(fwd, middle)
    state = bwd[middle]
    while state is not None:
        path.append(state)
        state = bwd[state]
    return fewest_moves(task, path, len(fwd) + len(bwd))

