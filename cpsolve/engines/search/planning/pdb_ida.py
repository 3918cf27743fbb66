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
Everything is a Python list or bytes lookup: no tuples, no hashing.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from ..common import Budget
from ..compile import Task
from ..statespace.backward import relation
from ..statespace.packing import Packed
from .heuristic import Estimate, Outcome
from .pdb import PatternSet

CHECK_EVERY = 1 << 16
"""Expansions between two looks at the budget."""


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


class _Stop(Exception):
    """The budget ran out."""


def swap_ida(task: Task, budget: Budget, estimate: Estimate, form: HoleSwap,
             patterns: PatternSet, threshold: int | None = None,
             upper: int | None = None) -> Outcome:
    """IDA* (as :func:`.idastar.ida`) with the pattern databases, on the hole-swap form.

    Finished databases are used alone (they dominate any declared estimate in
    practice); with partial ones, the larger of them and the declared
    estimate's terms (:attr:`.heuristic.Estimate.terms`), when there are any.
    """
    state = list(task.initial)
    goal = list(task.goal_state or ())
    hole, moves = form.hole, form.moves
    tables = patterns.tables
    owner = [-1] * (max(task.hi) + 1)
    weight = [0] * (max(task.hi) + 1)
    for p, w in enumerate(patterns.weight):
        for v, x in w.items():
            owner[v], weight[v] = p, x
    index = [patterns.index(p, state) for p in range(len(tables))]
    h0 = sum(t[i] for t, i in zip(tables, index))
    high = max(task.hi)
    terms = estimate.terms if patterns.partial else None
    if terms is not None:
        declared = [terms[1].get(i, []) + [0] * (high + 1 - len(terms[1].get(i, [])))
                    for i in range(len(state))]
        hd0 = terms[0] + sum(declared[i][v] for i, v in enumerate(state))
    trail: list[tuple[int, int]] = []
    counter = [0, CHECK_EVERY]  # expansions, countdown
    least = [0]

    def dfs(z: int, g: int, h: int, back: int, bound: int) -> bool:
        counter[1] -= 1
        if not counter[1]:
            counter[0] += CHECK_EVERY
            counter[1] = CHECK_EVERY
            if budget.exceeded(counter[0], _line, bound, counter[0]):
                raise _Stop
        g1 = g + 1
        for j, movable in moves[z]:
            if j == back:
                continue
            x = state[j]
            if not movable[x]:
                continue
            p = owner[x]
            if p >= 0:
                old = index[p]
                new = old + (z - j) * weight[x]
                t = tables[p]
                h2 = h - t[old] + t[new]
            else:
                h2 = h
            f = g1 + h2
            if f > bound:
                if f < least[0]:
                    least[0] = f
                continue
            state[z] = x
            state[j] = hole
            if p >= 0:
                index[p] = new
            if (h2 == 0 and state == goal) or dfs(j, g1, h2, z, bound):
                trail.append((z, j))
                return True
            state[j] = x
            state[z] = hole
            if p >= 0:
                index[p] = old
        return False

    def dfs_max(z: int, g: int, h: int, hd: int, back: int, bound: int) -> bool:
        """As ``dfs``, pruning on the larger of the tables' ``h`` and the declared ``hd``
        (a second loop, not a flag in one: the finished tables' loop pays nothing for it)."""
        counter[1] -= 1
        if not counter[1]:
            counter[0] += CHECK_EVERY
            counter[1] = CHECK_EVERY
            if budget.exceeded(counter[0], _line, bound, counter[0]):
                raise _Stop
        g1 = g + 1
        dz = declared[z]
        for j, movable in moves[z]:
            if j == back:
                continue
            x = state[j]
            if not movable[x]:
                continue
            dj = declared[j]
            hd2 = hd + dz[x] - dj[x] + dj[hole] - dz[hole]
            p = owner[x]
            if p >= 0:
                old = index[p]
                new = old + (z - j) * weight[x]
                t = tables[p]
                h2 = h - t[old] + t[new]
            else:
                h2 = h
            f = g1 + (h2 if h2 > hd2 else hd2)
            if f > bound:
                if f < least[0]:
                    least[0] = f
                continue
            state[z] = x
            state[j] = hole
            if p >= 0:
                index[p] = new
            if (h2 == 0 and state == goal) or dfs_max(j, g1, h2, hd2, z, bound):
                trail.append((z, j))
                return True
            state[j] = x
            state[z] = hole
            if p >= 0:
                index[p] = old
        return False

    if state == goal:
        return Outcome([task.initial], 0, 0, "goal", 0, {"iterations": 0})
    if terms is not None:
        bound = estimate.round_up(max(h0, hd0, threshold or 0))
    else:
        bound = estimate.round_up(max(h0, threshold or 0))
    iterations = 0
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        while upper is None or bound < upper:
            iterations += 1
            least[0] = 1 << 30
            try:
                if terms is None:
                    hit = dfs(state.index(hole), 0, h0, -1, bound)
                else:
                    hit = dfs_max(state.index(hole), 0, h0, hd0, -1, bound)
            except _Stop:
                done = counter[0] + CHECK_EVERY - counter[1]
                return Outcome(None, None, bound, "limit", done,
                               {"iterations": iterations, "threshold": bound})
            done = counter[0] + CHECK_EVERY - counter[1]
            if hit:
                return Outcome(_path(task, trail), len(trail), len(trail), "goal", done,
                               {"iterations": iterations, "threshold": bound})
            if least[0] >= 1 << 30:
                return Outcome(None, None, None, "exhausted", done, {"iterations": iterations})
            bound = estimate.round_up(least[0])
            budget.report(_line, bound, done)
    finally:
        sys.setrecursionlimit(limit)
    done = counter[0] + CHECK_EVERY - counter[1]
    return Outcome(None, None, upper, "exhausted", done, {"iterations": iterations})


def _path(task: Task, trail: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The states of the plan: the moves were recorded last first."""
    state = list(task.initial)
    path = [tuple(state)]
    for z, j in reversed(trail):
        state[z], state[j] = state[j], state[z]
        path.append(tuple(state))
    return path


def _line(bound: int, expanded: int) -> str:
    return f"IDA* (pattern databases) threshold {bound}: {expanded:,} expansions"
