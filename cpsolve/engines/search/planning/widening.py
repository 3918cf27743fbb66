"""Iterative widening beam search: some plan quickly, complete in the end.

A *round* of width ``W`` is a breadth-first search by layers that keeps at
most ``W`` states per layer; rounds run with ``W = 1, 2, 4, ...``:

* states are merged under the model's symmetries that keep the goal
  (:func:`cpsolve.model.moves.goal_symmetries`)
  and ranked within a layer by their canonical form, lexicographically.  The
  order is deterministic and does not depend on the order in which actions
  are declared or generated.  On boards whose variables are numbered in
  reading order it favours states whose first cells are already settled,
  i.e. it works through the board in one sweep — which is what lets narrow
  beams solve peg boards (English 33-hole: width 8 suffices);
* a round that never had to cut a layer was a complete breadth-first search
  over canonical states: its answer is final (a shortest plan, or a proof
  that there is none).  So the rounds stop at the latest when the width
  exceeds every layer; total work is at most about twice the last round's.

Best where any plan will do: when every plan provably has the same length
and cost (:func:`cpsolve.model.facts.any_plan_is_optimal`), the plan is ``OPTIMAL``.
"""

from __future__ import annotations

from ....answers.result import Result, Status
from ....answers.words import plural
from ....model.moves import goal_symmetries
from ..common import (
    Budget,
    exhausted_up_to_symmetry,
    found,
    infeasible,
    path_to,
    plan_found,
    stopped,
)
from ..compile import State, Task
from .symmetric_states import Canon, canonical_form

FIRST_WIDTH = 1
"""Width of the first round (then doubled each round)."""


class _Stop(Exception):
    """A limit was hit inside a round."""


def widening(task: Task, budget: Budget) -> Result:
    """Beam rounds of width 1, 2, 4, ... until a plan is found or a round cut nothing."""
    mappings = goal_symmetries(task.model)
    canon = canonical_form(task.model, mappings)
    if task.is_goal(task.initial):
        return plan_found(task, [task.initial], 1, "widening beam search")
    width, explored, rounds = FIRST_WIDTH, [0], 0
    while True:
        rounds += 1
        try:
            path, cut, kept = _round(task, canon, width, budget, explored)
        except _Stop:
            return stopped(budget, explored[0], None, width=width)
        details = {"width": width, "symmetries": len(mappings)}
        if path is not None:
            if not cut and task.unit_costs:
                return found(task, path, Status.OPTIMAL, explored[0],
                             "breadth-first: no layer was cut, so the plan is shortest",
                             **details)
            return plan_found(task, path, explored[0], f"widening beam search (width {width})",
                              **details)
        if not cut:
            return infeasible(task, explored[0], _exhausted(kept, len(mappings), width, rounds,
                                                            explored[0]), **details)
        width *= 2


def _exhausted(kept: int, symmetries: int, width: int, rounds: int, explored: int) -> str:
    """Why no plan exists, after a round of ``width`` that cut no layer and kept ``kept``
    canonical states: it was a whole breadth-first search over them (``explored``, the
    expansions of every round, counts the earlier rounds' states again)."""
    return (f"{exhausted_up_to_symmetry(kept, symmetries)}; the last beam round (width "
            f"{width}) cut no layer: {plural(explored, 'state')} expanded over "
            f"{plural(rounds, 'round')}")


def _round(task: Task, canon: Canon, width: int, budget: Budget,
           explored: list[int]) -> tuple[list[State] | None, bool, int]:
    """One beam round: ``(path to a goal or None, whether some layer was cut, how many
    canonical states it kept)``."""
    next_states, is_goal = task.next_states, task.is_goal
    start = task.initial
    parent: dict[State, State | None] = {start: None}
    seen = {canon(start)}
    layer, cut, countdown = [start], False, budget.interval(explored[0])
    while layer:
        kids: dict[State, tuple[State, State]] = {}
        for s in layer:
            for t in next_states(s):
                c = canon(t)
                if c in seen or c in kids:
                    continue
                if is_goal(t):
                    parent[t] = s
                    return path_to(parent, t), cut, len(seen)
                kids[c] = (t, s)
            explored[0] += 1
            countdown -= 1
            if not countdown:
                if budget.exceeded(explored[0], _line, width, explored[0]):
                    raise _Stop
                countdown = budget.interval(explored[0])
        ranked = sorted(kids)
        if len(ranked) > width:
            ranked, cut = ranked[:width], True
        layer = []
        for c in ranked:
            t, s = kids[c]
            seen.add(c)
            parent[t] = s
            layer.append(t)
    return None, cut, len(seen)


def _line(width: int, explored: int) -> str:
    return f"widening: width {width}, {plural(explored, 'state')} expanded"
