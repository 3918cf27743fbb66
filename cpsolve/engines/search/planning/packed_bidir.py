"""Bidirectional breadth-first search over packed states, a whole layer per NumPy step.

For spaces small enough to hold in memory (:func:`space_bound`: at most
:data:`SMALL_SPACE` states), breadth-first layers of packed codes from the start
and from the goal (:mod:`..statespace.packing`, the analysis' successor and
predecessor tables) prove a shortest plan faster than A* with a weak estimate: the
2x5 sliding puzzle's farthest position, 55 moves among 1,814,400 states, where A*
with the Manhattan estimate stalls near a bound of 53.

Each round extends the smaller frontier by one layer (codes not in that side's
earlier layers).  The first layer that meets the other side's newest layer closes
a shortest plan: every shorter plan would have met in an earlier round.  The plan
is walked back layer by layer (one NumPy step per move).
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from ....answers.result import Result
from ....answers.words import all_of, plural
from ....model.facts import state_count
from ..common import Budget, Inapplicable, fewest_moves, infeasible, stopped
from ..compile import Task
from ..statespace.codesets import fresh
from ..statespace.vector import prepared, reversible_moves

SMALL_SPACE = 1 << 23
"""Most states (by :func:`space_bound`) for which this search is the default: 8,388,608, about
0.8 GB when every one is reached (4-peg Hanoi with 11 discs: 4^11 states, 0.41 GB, 2.8 s, where
``bidir``'s Python sets took 16.6 s; that fallback holds more bytes per state, not fewer)."""


def space_bound(task: Task) -> int | None:
    """An upper bound on the reachable states the packing tells: when every action only
    rearranges the values of the variables it touches (its relation's rows keep their
    multiset of values: a sliding puzzle), the arrangements of the start's values;
    else the product of the domains' sizes.  None when the states do not pack."""
    try:
        ready = prepared(task)
    except Inapplicable:
        return None
    if ready.packed.words != 1:
        return None
    if ready.relations is None or not all(_rearranges(rel) for rel in ready.relations):
        return state_count(task.model)
    counts = Counter(task.initial)
    bound = math.factorial(len(task.initial))
    for c in counts.values():
        bound //= math.factorial(c)
    return min(bound, state_count(task.model))


def space_lacking(task: Task) -> str | None:
    """Why the reachable space is not known to be small (None: it is, by
    :func:`space_bound`); :class:`~..registry.Need` ``SMALL_SPACE``."""
    bound = space_bound(task)
    if bound is None:
        return "the states do not pack into one word"
    return None if bound <= SMALL_SPACE else f"up to {bound:,} states"


def _rearranges(relation) -> bool:
    """Every row of an action's relation keeps the multiset of the values it touches."""
    if relation is None:
        return True
    used, before, after = relation
    if not used:
        return True
    b = np.sort(np.stack([before[i] for i in used], axis=1), axis=1)
    a = np.sort(np.stack([after[i] for i in used], axis=1), axis=1)
    return bool(np.array_equal(a, b))


def packed_bidir(task: Task, budget: Budget) -> Result:
    """A shortest plan by bidirectional breadth-first layers of packed codes; ``INFEASIBLE``
    when a side runs out of states; on a limit, a bound (depths reached + 1).  With a plan
    and at a limit, ``details`` give the depth of each side's newest layer: the greatest
    distance from the start (``forward_depth``) and to the goal (``backward_depth``)."""
    ready = prepared(task)
    packed, backward = ready.packed, ready.backward()
    if backward is None or packed.words != 1 or task.goal_state is None:
        raise Inapplicable("search: packed_bidir needs one-word codes and predecessor tables")
    room, keep = packed.space <= 1 << 62, 2 if reversible_moves(task) else None
    sides = ([packed.array([task.initial])], [packed.array([task.goal_state])])
    steps = (ready.forward, backward.step)
    if sides[0][0][0] == sides[1][0][0]:
        return fewest_moves(task, [task.initial], 1)
    while True:
        seen = sum(layer.size for side in sides for layer in side)
        if budget.exceeded(seen, _line, len(sides[0]) - 1, len(sides[1]) - 1, seen):
            return stopped(budget, seen, len(sides[0]) + len(sides[1]) - 1,
                           forward_depth=len(sides[0]) - 1, backward_depth=len(sides[1]) - 1)
        k = 0 if sides[0][-1].size <= sides[1][-1].size else 1
        own, other = sides[k], sides[1 - k]
        new = fresh(steps[k](own[-1]), own[-keep:] if keep else own, room)
        if not new.size:
            where = "reachable from the start" if k == 0 else "that can reach the goal"
            total = sum(layer.size for layer in own)
            return infeasible(task, seen, exhausted=("forward", "backward")[k],
                              message=f"goal unreachable: {all_of(total, 'state')} "
                              f"{where} explored, layer by layer")
        own.append(new)
        meet = np.intersect1d(new, other[-1], assume_unique=True)
        if meet.size:
            codes = _path(sides, steps, int(meet[0]))
            return fewest_moves(task, packed.states(np.array(codes, np.int64)), seen + new.size,
                                forward_depth=len(sides[0]) - 1,
                                backward_depth=len(sides[1]) - 1)


def _path(sides: tuple[list, list], steps: tuple, middle: int) -> list[int]:
    """The codes from the start to the goal through ``middle`` (in both newest layers):
    walked back over predecessors into the forward layers, over successors into the
    backward ones."""
    path = [middle]
    for layer in reversed(sides[0][:-1]):
        near = np.intersect1d(steps[1](np.array([path[0]], np.int64)), layer)
        path.insert(0, int(near[0]))
    for layer in reversed(sides[1][:-1]):
        near = np.intersect1d(steps[0](np.array([path[-1]], np.int64)), layer)
        path.append(int(near[0]))
    return path


def _line(forward: int, backward: int, seen: int) -> str:
    return f"packed bidir depth {forward} forwards + {backward} backwards: {plural(seen, 'state')}"
