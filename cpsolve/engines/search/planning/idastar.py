"""IDA*: A*'s optimal plans in the memory of one path."""

from __future__ import annotations

import math

from ....answers.result import Result, Unsupported
from ..common import Budget
from ..compile import State, Task
from .astar import informed_result
from .heuristic import Estimate, Outcome, compile_estimate, no_plan


def idastar(task: Task, budget: Budget) -> Result:
    """Iterative deepening on ``g + h``: depth-first, pruning states with ``g + h > T``.

    ``T`` starts at the estimate of the initial state and rises to the least
    pruned ``g + h`` after each iteration, so the first plan found is
    ``OPTIMAL`` (admissible estimate).  Memory is the current path; states
    are expanded many times (``explored`` counts expansions and ``limit``
    caps them).  A path never revisits its own states.  ``INFEASIBLE`` when
    an iteration prunes nothing and finds no goal; on a limit, ``bound`` is
    the current ``T`` (no cheaper plan exists).
    """
    estimate = compile_estimate(task, budget)
    return informed_result(task, budget, estimate, ida(task, budget, estimate), "IDA*")


def ida(task: Task, budget: Budget, estimate: Estimate, threshold: int | None = None,
        upper: int | None = None) -> Outcome:
    """IDA* from ``threshold`` (a proven lower bound; default the initial estimate).

    ``upper``: only plans cheaper than this are wanted; once the threshold
    reaches it, ``stop="exhausted"`` proves there is none.  With additive
    pattern databases on a model of the hole-swap form, the loop of
    :func:`.pdb_ida.swap_ida` runs instead (same answers, far faster).
    """
    if any(lo < 0 for lo, _ in task.cost_bounds):
        raise Unsupported("search: IDA* needs action costs >= 0")
    if estimate.patterns is not None:
        from .pdb_ida import fast_form, swap_ida

        form = fast_form(task, estimate)
        if form is not None:
            out = swap_ida(task, budget, estimate, form, estimate.patterns, threshold, upper)
            out.details["inner_loop"] = "hole-swap moves, pattern databases updated per move"
            return out
    h, start = estimate.h, task.initial
    bound = estimate.round_up(max(h(start), threshold or 0))
    expanded, iterations = 0, 0
    countdown = budget.interval(0)
    while upper is None or bound < upper:
        iterations += 1
        search = _Iteration(task, estimate, bound, expanded, countdown, budget)
        path = search.run()
        expanded, countdown = search.expanded, search.countdown
        details = {"iterations": iterations, "threshold": bound}
        if path is not None:
            return Outcome(path, search.cost, search.cost, "goal", expanded, details)
        if search.stopped:
            return Outcome(None, None, bound, "limit", expanded, details)
        if search.next == math.inf:
            return no_plan(expanded, iterations, bound,
                           "all paths from the start that do not revisit a state")
        bound = estimate.round_up(int(search.next))
        budget.report(_line, bound, expanded)
    return Outcome(None, None, upper, "exhausted", expanded, {"iterations": iterations})


class _Iteration:
    """One depth-first pass with threshold ``bound`` (an explicit stack, no recursion)."""

    def __init__(self, task: Task, estimate: Estimate, bound: int, expanded: int,
                 countdown: int, budget: Budget) -> None:
        self.task, self.h, self.bound = task, estimate.h, bound
        self.expanded, self.countdown, self.budget = expanded, countdown, budget
        self.next: float = math.inf
        self.cost = 0
        self.stopped = False

    def children(self, s: State, g: int) -> list[tuple[int, int, State]]:
        """``(f, g, t)`` of the successors within the threshold, best last (popped first)."""
        out = []
        h, bound = self.h, self.bound
        for _, t, c in self.task.successors(s):
            f = g + c + h(t)
            if f > bound:
                if f < self.next:
                    self.next = f
            else:
                out.append((f, g + c, t))
        out.sort(reverse=True)
        return out

    def run(self) -> list[State] | None:
        """The path to a goal within the threshold, or None."""
        start, is_goal = self.task.initial, self.task.is_goal
        if is_goal(start):
            return [start]
        path: list[State] = [start]
        on_path = {start}
        stack = [self.children(start, 0)]
        self.expanded += 1
        while stack:
            kids = stack[-1]
            if not kids:
                stack.pop()
                on_path.discard(path.pop())
                continue
            _, g, t = kids.pop()
            if t in on_path:
                continue
            if is_goal(t):
                self.cost = g
                return path + [t]
            path.append(t)
            on_path.add(t)
            stack.append(self.children(t, g))
            self.expanded += 1
            self.countdown -= 1
            if not self.countdown:
                if self.budget.exceeded(self.expanded, _line, self.bound, self.expanded):
                    self.stopped = True
                    return None
                self.countdown = self.budget.interval(self.expanded)
        return None


def _line(bound: int, expanded: int) -> str:
    return f"IDA* threshold {bound}: {expanded:,} expansions"
