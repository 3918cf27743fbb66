"""The depth-first walk of :func:`.pdb_ida.swap_ida`: what it changes in place, and its loops.

The loops are the hot part of IDA* with pattern databases.  Each is a closure
made once per search (:func:`tables_loop`, :func:`max_loop`) that reads the
walk's fields as free variables, so that a move costs no attribute lookup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..common import Budget
from ..compile import Task
from .pdb_mirror import Mirror

CHECK_EVERY = 1 << 16
"""Expansions between two looks at the budget."""


class Stop(Exception):
    """The budget ran out."""


@dataclass
class Walk:
    """What the depth-first loops read and change in place: the state (a list of values),
    each pattern table's index, the moves of a plan found (last first), the expansions
    (``counter``: done before this countdown, countdown to the next look at the budget) and
    the least ``f`` over the bound in this iteration (``least``, the next bound)."""

    task: Task
    budget: Budget
    state: list[int]
    goal: list[int]
    hole: int
    moves: tuple[tuple[tuple[int, tuple[bool, ...]], ...], ...]
    tables: list[bytes]
    owner: list[int]
    weight: list[int]
    index: list[int]
    mirrored: list[int] = field(default_factory=list)  # the indexes at the mirror image
    trail: list[tuple[int, int]] = field(default_factory=list)
    counter: list[int] = field(default_factory=lambda: [1 - CHECK_EVERY, 1])  # the first
    # look after the first expansion: a walk that starts past the memory limit (its tables
    # read from the cache) stops at once
    least: list[int] = field(default_factory=lambda: [0])

    def done(self) -> int:
        """Expansions so far."""
        return self.counter[0] + CHECK_EVERY - self.counter[1]


def tables_loop(walk: Walk) -> Callable[[int, int, int, int, int], bool]:
    """The depth-first loop on the tables' estimate: ``dfs(z, g, h, back, bound)`` with the
    hole at ``z``, ``g`` moves made, estimate ``h``, the hole's previous place ``back``."""
    state, goal, hole, moves = walk.state, walk.goal, walk.hole, walk.moves
    tables, owner, weight, index = walk.tables, walk.owner, walk.weight, walk.index
    trail, counter, least, budget = walk.trail, walk.counter, walk.least, walk.budget

    def dfs(z: int, g: int, h: int, back: int, bound: int) -> bool:
        counter[1] -= 1
        if not counter[1]:
            counter[0] += CHECK_EVERY
            counter[1] = CHECK_EVERY
            if budget.exceeded(counter[0], progress_line, bound, counter[0]):
                raise Stop
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

    return dfs


def max_loop(walk: Walk, declared: list[list[int]]
             ) -> Callable[[int, int, int, int, int, int], bool]:
    """As :func:`tables_loop`, pruning on the larger of the tables' ``h`` and the declared ``hd``
    (a second loop, not a flag in one: the finished tables' loop pays nothing for it)."""
    state, goal, hole, moves = walk.state, walk.goal, walk.hole, walk.moves
    tables, owner, weight, index = walk.tables, walk.owner, walk.weight, walk.index
    trail, counter, least, budget = walk.trail, walk.counter, walk.least, walk.budget

    def dfs_max(z: int, g: int, h: int, hd: int, back: int, bound: int) -> bool:
        counter[1] -= 1
        if not counter[1]:
            counter[0] += CHECK_EVERY
            counter[1] = CHECK_EVERY
            if budget.exceeded(counter[0], progress_line, bound, counter[0]):
                raise Stop
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

    return dfs_max


def mirror_loop(walk: Walk, mirror: Mirror, bound: list[int]
                ) -> Callable[[int, int, int, int, int], bool]:
    """As :func:`tables_loop` (``dfs(z, g, h, hm, back)``, to ``bound[0]``), pruning on the
    larger of ``h`` at the state and ``hm`` at its mirror image (:mod:`.pdb_mirror`; its
    indexes are ``walk.mirrored``: ``x`` moving from ``j`` to ``z`` moves ``mirror.value[x]``
    from ``place[j]`` to ``place[z]``). Tighter: moves carry their index steps per value
    (:func:`_mirror_moves`), a child is pruned on ``h > bound - g``, and the image is read
    for a child the state prunes only when its ``f`` may be the least."""
    state, goal, hole = walk.state, walk.goal, walk.hole
    trail, counter, least = walk.trail, walk.counter, walk.least
    tables, owner, owner2, moves = _mirror_moves(walk, mirror)
    index, index2 = [*walk.index, 0], [*walk.mirrored, 0]

    def dfs(z: int, g: int, h: int, hm: int, back: int) -> bool:
        counter[1] -= 1
        if not counter[1]:
            _look(walk, bound[0])
        g1 = g + 1
        room = bound[0] - g1
        for j, step, step2 in moves[z][back]:
            x = state[j]
            d = step[x]
            if d is None:
                continue
            p = owner[x]
            old = index[p]
            new = old + d
            t = tables[p]
            h2 = h - t[old] + t[new]
            q = owner2[x]
            old2 = index2[q]
            if h2 > room:  # pruned: the image is read only when its f may be the least
                if g1 + h2 < least[0]:
                    t = tables[q]
                    e = hm - t[old2] + t[old2 + step2[x]]
                    e = g1 + (h2 if h2 > e else e)
                    if e < least[0]:
                        least[0] = e
                continue
            new2 = old2 + step2[x]
            t = tables[q]
            hm2 = hm - t[old2] + t[new2]
            if hm2 > room:
                if g1 + hm2 < least[0]:
                    least[0] = g1 + hm2
                continue
            state[z] = x
            state[j] = hole
            index[p] = new
            index2[q] = new2
            if (h2 == 0 and state == goal) or dfs(j, g1, h2, hm2, z):
                trail.append((z, j))
                return True
            state[j] = x
            state[z] = hole
            index[p] = old
            index2[q] = old2
        return False

    return dfs


def _look(walk: Walk, bound: int) -> None:
    """Count :data:`CHECK_EVERY` more expansions and look at the budget (:class:`Stop`)."""
    counter = walk.counter
    counter[0] += CHECK_EVERY
    counter[1] = CHECK_EVERY
    if walk.budget.exceeded(counter[0], progress_line, bound, counter[0]):
        raise Stop


def _mirror_moves(walk: Walk, mirror: Mirror) -> tuple[list[bytes], list[int], list[int], list]:
    """What :func:`mirror_loop` reads: the tables and a last one-entry table of 0, each
    value's table at the state and at the image (the zero table: none), and
    ``moves[z][back]``: the moves from ``z`` but back to ``back`` (``-1``: none), each
    ``(j, step, step2)`` with the index changes per value (None: may not move)."""
    none = len(walk.tables)
    owner = [none if p < 0 else p for p in walk.owner]
    value = [*mirror.value, *[-1] * (len(owner) - len(mirror.value))]  # one per value
    owner2 = [owner[w] if w >= 0 else none for w in value]
    weight2 = [walk.weight[w] if w >= 0 else 0 for w in value]
    place = mirror.place
    steps = [tuple((j, [(z - j) * walk.weight[x] if ok else None
                        for x, ok in enumerate(movable)],
                    [(place[z] - place[j]) * weight2[x] for x in range(len(movable))])
                   for j, movable in row) for z, row in enumerate(walk.moves)]
    moves = [[tuple(m for m in row if m[0] != back) for back in range(len(steps))] + [row]
             for row in steps]
    return [*walk.tables, b"\0"], owner, owner2, moves


def progress_line(bound: int, expanded: int) -> str:
    """The progress report of one iteration."""
    return f"IDA* (pattern databases) threshold {bound}: {expanded:,} expansions"
