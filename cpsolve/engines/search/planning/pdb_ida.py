"""IDA* with additive pattern databases, on models whose every move swaps a hole.

A model has the *hole-swap form* (:func:`hole_swap`) when, read off each
action's relation on the variables it uses (:func:`..statespace.backward.relation`):

* every action costs 1, uses exactly two variables and writes both;
* every move swaps their values, one of which is always the same constant
  (the *hole*; rows swapping the hole with itself change nothing and are
  dropped);
* the hole occurs exactly once in the initial state (so in every state:
  moves only swap values).

Then a state is a list of values plus where the hole is, a move is "the
value at ``j`` goes to the hole at ``z``", and undoing the previous move is
moving back to where the hole came from (pruned).  With additive pattern
databases (:class:`.pdb.PatternSet`) a move changes one table index by
``(z - j) * weight``, so the estimate is updated with two table reads.
Everything is a Python list or bytes lookup: no tuples, no hashing.  This module
finds the form and runs IDA*'s iterations; the depth-first walk is :mod:`.pdb_walk`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..common import Budget
from ..compile import Task
from ..statespace.backward import relation
from ..statespace.packing import Packed
from .heuristic import Estimate, Outcome, no_plan
from .pdb import PatternSet
from .pdb_mirror import Mirror, find_mirror
from .pdb_walk import Stop, Walk, max_loop, mirror_loop, progress_line, tables_loop

MIRROR = True
"""Whether :func:`swap_ida` adds a mirror's look-up when the model has one (benchmarks
turn it off to compare)."""


@dataclass(frozen=True)
class HoleSwap:
    """The hole value and, per hole position, the moves: ``(j, movable[value])``."""

    hole: int
    moves: tuple[tuple[tuple[int, tuple[bool, ...]], ...], ...]


def hole_swap(task: Task) -> HoleSwap | None:
    """The :class:`HoleSwap` form of a task, or None when it does not have one."""
    if not task.unit_costs:
        return None
    try:
        packed = Packed(task)
    except ValueError:
        return None
    n, high = len(task.names), max(task.hi)
    moves: list[list[tuple[int, tuple[bool, ...]]]] = [[] for _ in range(n)]
    hole = None
    for k in range(len(task.actions)):
        try:
            rel = relation(packed, k)
        except ValueError:
            return None
        if rel is None:
            continue
        used, before, after = rel
        if len(used) != 2 or sorted(packed.writes[k]) != sorted(used):
            return None
        a, b = used
        if not ((before[a] == after[b]).all() and (before[b] == after[a]).all()):
            return None
        z, j = (a, b) if np.unique(before[a]).size == 1 else (b, a)
        values = np.unique(before[z])
        if values.size != 1:
            return None
        moved = before[j][before[j] != values[0]]  # hole with hole: no move (and never met)
        if hole is None:
            hole = int(values[0])
        if hole != int(values[0]) or min(task.lo) < 0:
            return None
        movable = [False] * (high + 1)
        for v in moved.tolist():
            movable[v] = True
        moves[z].append((j, tuple(movable)))
    if hole is None or list(task.initial).count(hole) != 1:
        return None
    return HoleSwap(hole, tuple(tuple(m) for m in moves))


def fast_form(task: Task, estimate: Estimate) -> HoleSwap | None:
    """The hole-swap form when :func:`swap_ida` applies to ``estimate``: additive databases,
    and when some are partial, no declared estimate or one of one-variable terms (the
    larger of the two is then kept up to date per move)."""
    patterns = estimate.patterns
    if patterns is None or not patterns.additive:
        return None
    if patterns.partial and estimate.declared and estimate.terms is None:
        return None
    return hole_swap(task)


def swap_ida(task: Task, budget: Budget, estimate: Estimate, form: HoleSwap,
             patterns: PatternSet, threshold: int | None = None,
             upper: int | None = None) -> Outcome:
    """IDA* (as :func:`.idastar.ida`) with the pattern databases, on the hole-swap form.

    Finished databases are used alone (they dominate any declared estimate in
    practice); with partial ones, the larger of them and the declared
    estimate's terms (:attr:`.heuristic.Estimate.terms`), when there are any.
    """
    walk = _walk(task, budget, form, patterns)
    if walk.state == walk.goal:
        return Outcome([task.initial], 0, 0, "goal", 0, {"iterations": 0})
    z0 = walk.state.index(form.hole)
    h0 = sum(t[i] for t, i in zip(walk.tables, walk.index))
    terms = estimate.terms if patterns.partial else None
    if terms is None:
        mirror = _mirror(task, form, patterns) if MIRROR else None
        if mirror is not None:
            return _mirrored(walk, estimate, mirror, z0, h0, threshold, upper)
        dfs = tables_loop(walk)
        bound = estimate.round_up(max(h0, threshold or 0))
        return _deepen(walk, estimate, lambda b: dfs(z0, 0, h0, -1, b), bound, upper)
    declared = _declared(terms, walk.state, max(task.hi))
    hd0 = terms[0] + sum(declared[i][v] for i, v in enumerate(walk.state))
    dfs_max = max_loop(walk, declared)
    bound = estimate.round_up(max(h0, hd0, threshold or 0))
    return _deepen(walk, estimate, lambda b: dfs_max(z0, 0, h0, hd0, -1, b), bound, upper)


def _mirror(task: Task, form: HoleSwap, patterns: PatternSet) -> Mirror | None:
    """The mirror whose look-up :func:`swap_ida` adds (:mod:`.pdb_mirror`), if any."""
    goal = list(task.goal_state or ())
    if sorted(goal) != sorted(task.initial):
        return None
    return find_mirror(form.moves, goal, form.hole, list(zip(task.lo, task.hi)),
                       [ab.pattern for ab in patterns.abstractions])


def _mirrored(walk: Walk, estimate: Estimate, mirror: Mirror, z0: int, h0: int,
              threshold: int | None, upper: int | None) -> Outcome:
    """IDA* on the larger of the tables' estimates at the state and at its mirror image."""
    image = [0] * len(walk.state)
    for i, v in enumerate(walk.state):
        image[mirror.place[i]] = mirror.value[v]
    walk.mirrored[:] = [sum(w.get(v, 0) * i for i, v in enumerate(image))
                        for w in _weights(walk)]
    hm0 = sum(t[i] for t, i in zip(walk.tables, walk.mirrored))
    bound = [0]
    dfs = mirror_loop(walk, mirror, bound)

    def search(b: int) -> bool:
        bound[0] = b
        return dfs(z0, 0, h0, hm0, -1)

    start = estimate.round_up(max(h0, hm0, threshold or 0))
    out = _deepen(walk, estimate, search, start, upper)
    out.details["mirror"] = "the larger of the tables' estimates at each state and at its " \
                            "mirror image (an automorphism of the moves and the goal)"
    return out


def _weights(walk: Walk) -> list[dict[int, int]]:
    """Per table, the place value of each of its values (``owner`` and ``weight`` read back)."""
    out: list[dict[int, int]] = [{} for _ in walk.tables]
    for v, p in enumerate(walk.owner):
        if p >= 0:
            out[p][v] = walk.weight[v]
    return out


def _walk(task: Task, budget: Budget, form: HoleSwap, patterns: PatternSet) -> Walk:
    """The walk at the initial state; ``owner[v]`` and ``weight[v]`` say which table
    indexes value ``v`` and by what place value (``-1``: none)."""
    state = list(task.initial)
    owner = [-1] * (max(task.hi) + 1)
    weight = [0] * (max(task.hi) + 1)
    for p, w in enumerate(patterns.weight):
        for v, x in w.items():
            owner[v], weight[v] = p, x
    index = [patterns.index(p, state) for p in range(len(patterns.tables))]
    return Walk(task, budget, state, list(task.goal_state or ()), form.hole, form.moves,
                patterns.tables, owner, weight, index)


def _declared(terms: tuple[int, dict[int, list[int]]], state: list[int],
              high: int) -> list[list[int]]:
    """The declared estimate's one-variable terms as one full row of values per variable."""
    return [terms[1].get(i, []) + [0] * (high + 1 - len(terms[1].get(i, [])))
            for i in range(len(state))]


def _deepen(walk: Walk, estimate: Estimate, search: Callable[[int], bool], bound: int,
            upper: int | None) -> Outcome:
    """The iterations of IDA*: ``search(bound)`` per threshold, each next threshold the
    least ``f`` the previous one pruned, until a plan, exhaustion, ``upper`` or the budget."""
    iterations = 0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        while upper is None or bound < upper:
            iterations += 1
            walk.least[0] = 1 << 30
            try:
                hit = search(bound)
            except Stop:
                return Outcome(None, None, bound, "limit", walk.done(),
                               {"iterations": iterations, "threshold": bound})
            done = walk.done()
            if hit:
                trail = walk.trail
                return Outcome(_path(walk.task, trail), len(trail), len(trail), "goal", done,
                               {"iterations": iterations, "threshold": bound})
            if walk.least[0] >= 1 << 30:
                return no_plan(done, iterations, bound,
                               "all paths from the start that never undo their last move")
            bound = estimate.round_up(walk.least[0])
            walk.budget.report(progress_line, bound, done)
    finally:
        sys.setrecursionlimit(limit)
    return Outcome(None, None, upper, "exhausted", walk.done(), {"iterations": iterations})


def _path(task: Task, trail: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The states of the plan: the moves were recorded last first."""
    state = list(task.initial)
    path = [tuple(state)]
    for z, j in reversed(trail):
        state[z], state[j] = state[j], state[z]
        path.append(tuple(state))
    return path
