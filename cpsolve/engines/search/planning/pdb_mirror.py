"""A mirror of a hole-swap model: a second look-up in the same pattern databases.

A *mirror* (:class:`Mirror`) of the hole-swap form (:class:`.pdb_ida.HoleSwap`)
is a permutation ``place`` of the variables with a renaming ``value`` of the
values such that

* every move maps onto a move: the hole at ``z`` taking value ``x`` from ``j``
  becomes the hole at ``place[z]`` taking ``value[x]`` from ``place[j]``;
* the goal maps onto itself: ``value[goal[i]] == goal[place[i]]``;
* each variable's values map onto its image's values.

Then the image ``s'`` of a state ``s`` (``s'[place[i]] = value[s[i]]``) is as
far from the goal as ``s`` is (a plan maps onto a plan, both ways), so the
tables' estimate of ``s'`` is a lower bound for ``s`` too, and so is the
larger of the two estimates.  When the renaming does not map the patterns
onto patterns, the image's look-up reads the tables with other groups of
values: this is Korf and Felner's reflection about the main diagonal of the
15-puzzle (2002), found here from the moves and the goal alone (no board is
assumed): :func:`find_mirror` searches the automorphisms of the move graph
that keep the goal's hole in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

STEPS = 20_000
"""Most partial maps :func:`_automorphisms` tries (the search stops quietly there)."""


@dataclass(frozen=True)
class Mirror:
    """The content of variable ``i`` goes to ``place[i]``; value ``v`` becomes ``value[v]``
    (``-1``: a value the goal does not hold, never met)."""

    place: tuple[int, ...]
    value: tuple[int, ...]


def find_mirror(moves, goal: list[int], hole: int, domains: list[tuple[int, int]],
                patterns: list[tuple[int, ...]]) -> Mirror | None:
    """The first mirror of the form (``moves`` as :attr:`.pdb_ida.HoleSwap.moves`) whose
    renaming does not map the patterns onto patterns (else its look-up would give the
    same estimate); None when there is none. ``domains[i]`` is variable ``i``'s
    ``(lo, hi)``."""
    if hole not in goal or goal.count(hole) != 1:
        return None
    edges = {(z, j): movable for z, row in enumerate(moves) for j, movable in row}
    groups = {frozenset(p) for p in patterns}
    for place in _automorphisms(len(goal), set(edges), goal.index(hole)):
        mirror = _renaming(place, goal)
        if mirror is None or not _keeps(mirror, edges, goal, domains):
            continue
        if {frozenset(mirror.value[v] for v in p) for p in groups} != groups:
            return mirror
    return None


def _renaming(place: list[int], goal: list[int]) -> Mirror | None:
    """The renaming of values that maps the goal onto itself under ``place``, if any."""
    value = [-1] * (max(goal) + 1)
    for i, v in enumerate(goal):
        w = goal[place[i]]
        if value[v] not in (-1, w):
            return None
        value[v] = w
    if sorted(w for w in value if w >= 0) != sorted(v for v, w in enumerate(value) if w >= 0):
        return None
    if all(w in (-1, v) for v, w in enumerate(value)):
        return None  # the identity on values: the same look-up
    return Mirror(tuple(place), tuple(value))


def _keeps(mirror: Mirror, edges: dict, goal: list[int],
           domains: list[tuple[int, int]]) -> bool:
    """Whether every move maps onto a move with the renamed values movable, and each
    variable's (goal) values onto its image's."""
    place, value = mirror.place, mirror.value
    held = sorted(set(goal))
    for (z, j), movable in edges.items():
        image = edges.get((place[z], place[j]))
        if image is None or any(movable[v] != image[value[v]] for v in held):
            return False
    for i, (lo, hi) in enumerate(domains):
        lo2, hi2 = domains[place[i]]
        if sorted(value[v] for v in held if lo <= v <= hi) != \
                [v for v in held if lo2 <= v <= hi2]:
            return False
    return True


def _automorphisms(n: int, edges: set[tuple[int, int]], fixed: int) -> Iterator[list[int]]:
    """Permutations of ``0..n-1`` keeping the directed ``edges`` and ``fixed``, identity
    excluded, found by backtracking in breadth-first order from ``fixed`` (at most
    :data:`STEPS` partial maps)."""
    near: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    order = _order(n, near, fixed)
    place = [-1] * n
    steps = [0]

    def fits(i: int, c: int, k: int) -> bool:
        if len(near[c]) != len(near[i]):
            return False
        return all(((m, i) in edges) == ((place[m], c) in edges)
                   and ((i, m) in edges) == ((c, place[m]) in edges) for m in order[:k])

    def extend(k: int) -> Iterator[list[int]]:
        if k == n:
            if place != list(range(n)):
                yield list(place)
            return
        i = order[k]
        mapped = [place[m] for m in near[i] if place[m] >= 0]
        pool = near[mapped[0]] if mapped else set(range(n))
        for c in sorted(pool):
            steps[0] += 1
            if steps[0] > STEPS:
                return
            if c not in place and fits(i, c, k):
                place[i] = c
                yield from extend(k + 1)
                place[i] = -1

    place[fixed] = fixed
    yield from extend(1)


def _order(n: int, near: list[set[int]], fixed: int) -> list[int]:
    """The variables breadth-first from ``fixed``, then from each one not reached yet."""
    order: list[int] = []
    seen: set[int] = set()
    for root in (fixed, *range(n)):
        if root in seen:
            continue
        seen.add(root)
        order.append(root)
        k = len(order) - 1
        while k < len(order):
            for m in sorted(near[order[k]] - seen):
                seen.add(m)
                order.append(m)
            k += 1
    return order
