"""A proof that no circuit exists, re-derived from the model's graph alone.

A :class:`~cpsolve.model.csp.Circuit`'s successor variables and the values each may take
(:meth:`~cpsolve.model.csp.Csp.values`) are a directed graph: node ``i`` may go to node ``j``
when ``names[i]`` may be ``j`` (``j != i``).  :func:`no_circuit` looks, by plain
definitions and sharing no code with the engines, for a reason that graph has no circuit
through every node; the other constraints only remove circuits, so the reason proves that
the model has no solution.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model import Circuit, Csp

CIRCUIT_WORK = 1 << 22
"""Most (nodes x arcs) :func:`no_circuit` goes through to try each node left out."""


def _graph(model: Csp, circuit: Circuit) -> list[set[int]]:
    """Each node's successors: the other nodes its variable may take."""
    n = len(circuit.names)
    return [{j for j in model.values(name) if 0 <= j < n and j != i}
            for i, name in enumerate(circuit.names)]


def _reached(near: Sequence[set[int]], first: int, nodes: set[int]) -> set[int]:
    """The nodes of ``nodes`` that ``near`` leads to from ``first`` (itself included)."""
    seen, todo = {first}, [first]
    while todo:
        for v in near[todo.pop()] & nodes:
            if v not in seen:
                seen.add(v)
                todo.append(v)
    return seen


def _two_sides(both: Sequence[set[int]], nodes: set[int]) -> tuple[set[int], set[int]] | None:
    """The two colours of ``nodes`` (connected) when every edge among them joins two colours;
    ``None`` when an edge joins one colour to itself."""
    colour = {min(nodes): 0}
    todo = [min(nodes)]
    while todo:
        u = todo.pop()
        for v in both[u] & nodes:
            if v not in colour:
                colour[v] = 1 - colour[u]
                todo.append(v)
            elif colour[v] == colour[u]:
                return None
    return ({u for u in nodes if colour[u] == 0}, {u for u in nodes if colour[u] == 1})


def _whole_cut(out: Sequence[set[int]], inn: Sequence[set[int]]) -> bool:
    """Whether all the nodes show no circuit: one with no arc out or in, one that node 0
    cannot reach or be reached from, or two sides every arc crosses, of unequal sizes."""
    nodes = set(range(len(out)))
    if not all(out) or not all(inn):
        return True
    if _reached(out, 0, nodes) != nodes or _reached(inn, 0, nodes) != nodes:
        return True
    sides = _two_sides([o | i for o, i in zip(out, inn)], nodes)
    return sides is not None and len(sides[0]) != len(sides[1])


def _cut_without(out: Sequence[set[int]], inn: Sequence[set[int]], d: int) -> bool:
    """Whether the nodes but ``d`` show no circuit: the rest of a circuit is a path through
    them, so they must be connected, and when every edge among them joins two sides, the
    path alternates: the sides differ by at most one, and by one only when ``d`` has an arc
    from and an arc to the larger side (the path starts and ends on it)."""
    both = [o | i for o, i in zip(out, inn)]
    rest = set(range(len(out))) - {d}
    if _reached(both, min(rest), rest) != rest:
        return True
    sides = _two_sides(both, rest)
    if sides is None:
        return False
    small, big = sorted(sides, key=len)
    gap = len(big) - len(small)
    return gap >= 2 or (gap == 1 and not (out[d] & big and inn[d] & big))


def no_circuit(model: Csp) -> bool:
    """Whether the graph of one of ``model``'s circuits (of at least 2 nodes) has no circuit
    through every node, shown by :func:`_whole_cut` or, within :data:`CIRCUIT_WORK`, by
    :func:`_cut_without` for some node left out (False: no such reason found)."""
    for circuit in (c for c in model.constraints if isinstance(c, Circuit)):
        n = len(circuit.names)
        if n < 2:
            continue
        out = _graph(model, circuit)
        inn: list[set[int]] = [set() for _ in range(n)]
        for u, succ in enumerate(out):
            for v in succ:
                inn[v].add(u)
        if _whole_cut(out, inn):
            return True
        if n >= 4 and n * sum(map(len, out)) <= CIRCUIT_WORK and \
                any(_cut_without(out, inn, d) for d in range(n)):
            return True
    return False
