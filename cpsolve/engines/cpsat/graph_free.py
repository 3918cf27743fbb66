"""Costs of 0 and 1 over a small transition graph: the free moves closed, then the
automaton counts only the paid ones.

When every action costs the constant 0 or 1 (Sokoban counted in pushes: walking is
free), a plan of cost ``c`` may have any number of steps, so the time-indexed model
must unroll as many steps as a cheaper plan could take.  Over the explicit graph
(:func:`cpsolve.engines.search.statespace.graph.transition_graph`) the free moves are
closed instead: from each state ``u``, the states ``Z(u)`` reachable by free moves
alone; a *paid arc* ``u -e-> w`` stands for free moves from ``u`` to the tail of a
cost-1 arc ``e``, then ``e`` itself (``w`` its head).  A plan of cost ``c`` is then a
path of ``c`` paid arcs from the start to a state from which free moves reach a goal,
and the same automaton constraint as for unit costs (:mod:`.graph`) refutes cost
``c - 1`` at once.  The label of a paid arc is the index of ``e`` among the graph's
arcs, so that a state and a label lead to one state.

The free moves of the plan are found again afterwards (a breadth-first walk over the
free arcs between the states the paid arcs join) and the whole plan is replayed by the
checker like every answer.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ...answers.result import EngineBug, Plan, Result, Status, Step
from ...answers.words import plural
from ...language.expr import Const
from ...model import Planning
from ..runtime.clock import Clock
from ..search.statespace.graph import Graph, distances

PAIRS = 2_000_000
"""Most ``(u, v)`` pairs of the free closure, and most paid arcs, kept (beyond, the
time-indexed model answers)."""


def costs(planning: Planning) -> np.ndarray | None:
    """Each action's cost when every one is the constant 0 or 1 and some is 0 (else
    None: unit costs take the plain graph, other costs the time-indexed model)."""
    out = []
    for action in planning.actions:
        if not isinstance(action.cost, Const) or action.cost.value not in (0, 1):
            return None
        out.append(action.cost.value)
    return np.array(out, np.int64) if 0 in out else None


@dataclass(frozen=True)
class Paid:
    """The graph with its free moves closed: paid arcs ``tails -labels-> heads`` (a label
    is the index of the cost-1 arc taken last) and the states ``goals`` from which free
    moves reach a goal state."""

    tails: np.ndarray
    actions: np.ndarray
    heads: np.ndarray
    goals: np.ndarray
    labels: int
    """Labels in use (``0 .. labels - 1``); the automaton's no-op is ``labels``."""


def close(graph: Graph, cost: np.ndarray, clock: Clock) -> Paid | None:
    """The paid arcs of ``graph`` (None: the closure or the arcs pass :data:`PAIRS`, or
    ``clock`` ran out)."""
    paid = cost[graph.actions] == 1
    pairs = _free_closure(graph, ~paid, clock)
    if pairs is None:
        return None
    n = graph.size
    u, v = np.divmod(pairs, n)
    by_tail = np.flatnonzero(paid)[np.argsort(graph.tails[paid], kind="stable")]
    offsets = np.searchsorted(graph.tails[by_tail], np.arange(n + 1))
    counts = offsets[v + 1] - offsets[v]
    if int(counts.sum()) > PAIRS:
        return None
    arcs = by_tail[_ranges(offsets[v], counts)]
    goals = np.unique(u[np.isin(v, graph.goals)])
    return Paid(np.repeat(u, counts), arcs, graph.heads[arcs], goals, int(graph.tails.size))


def _free_closure(graph: Graph, free: np.ndarray, clock: Clock) -> np.ndarray | None:
    """Codes ``u * n + v`` of every ``v`` reachable from ``u`` by free arcs (``u`` too)."""
    n = graph.size
    order = np.argsort(graph.tails[free], kind="stable")
    heads = graph.heads[free][order]
    offsets = np.searchsorted(graph.tails[free][order], np.arange(n + 1))
    pairs = np.arange(n, dtype=np.int64) * (n + 1)
    frontier = pairs
    while frontier.size:
        if pairs.size > PAIRS or clock.expired():
            return None
        u, v = np.divmod(frontier, n)
        counts = offsets[v + 1] - offsets[v]
        reached = np.unique(np.repeat(u, counts) * n + heads[_ranges(offsets[v], counts)])
        frontier = reached[~np.isin(reached, pairs, assume_unique=True)]
        pairs = np.union1d(pairs, frontier)
    return pairs


def _ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """``starts[i] .. starts[i] + counts[i] - 1`` for every ``i``, concatenated."""
    total = int(counts.sum())
    ends = np.cumsum(counts)
    return np.repeat(starts - (ends - counts), counts) + np.arange(total)


def spread(tails: np.ndarray, heads: np.ndarray, sources: np.ndarray,
           size: int) -> np.ndarray:
    """Breadth-first distances over the arcs ``tails -> heads`` from ``sources``
    (:func:`~cpsolve.engines.search.statespace.graph.distances` over their adjacency)."""
    order = np.argsort(tails, kind="stable")
    offsets = np.searchsorted(tails[order], np.arange(size + 1))
    return distances(offsets, heads[order], sources, size)


def plan(planning: Planning, graph: Graph, labels: list[int], cost: np.ndarray) -> Plan:
    """The whole plan of the paid arcs ``labels`` (the no-op ends it): each preceded by
    the free moves to its tail, and free moves to a goal state at the end."""
    free = _free_arcs(graph, cost)
    state, taken = 0, []
    for e in labels:
        if e >= graph.tails.size:
            break
        taken += _free_path(free, state, {int(graph.tails[e])})
        taken.append((int(graph.actions[e]), int(graph.heads[e])))
        state = int(graph.heads[e])
    taken += _free_path(free, state, set(graph.goals.tolist()))
    states = graph.states([s for _, s in taken])
    return Plan.of(tuple(Step(planning.actions[a].name, s, int(cost[a]))
                         for (a, _), s in zip(taken, states)))


def _free_arcs(graph: Graph, cost: np.ndarray) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for k in np.flatnonzero(cost[graph.actions] == 0).tolist():
        out.setdefault(int(graph.tails[k]), []).append((int(graph.actions[k]),
                                                        int(graph.heads[k])))
    return out


def _free_path(free: dict[int, list[tuple[int, int]]], start: int,
               targets: set[int]) -> list[tuple[int, int]]:
    """The fewest free moves ``(action, state)`` from ``start`` to one of ``targets``."""
    came: dict[int, tuple[int, int] | None] = {start: None}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        if s in targets:
            path = []
            while came[s] is not None:
                before, action = came[s]  # type: ignore[misc]
                path.append((action, s))
                s = before
            return path[::-1]
        for action, t in free.get(s, ()):
            if t not in came:
                came[t] = (s, action)
                queue.append(t)
    raise EngineBug("cpsat: a paid arc of the closed graph has no free path to its tail")


def refuted(paid: Paid, fewest: int, found: bool) -> None:
    """A plan cheaper than the breadth-first count over the paid arcs is a bug."""
    if found:
        raise EngineBug(f"cpsat: a plan of cost at most {fewest - 1} over the closed "
                        f"graph, whose breadth-first search says {fewest} at least")


def optimal(plan_: Plan, fewest: int, graph: Graph, details: dict[str, object]) -> Result:
    """The result: cost ``fewest`` proven least by the refutation."""
    return Result(Status.OPTIMAL, "cpsat", answer=plan_, details=details, message=(
        f"cheapest plan: no plan costs less than {fewest} (refuted by CP-SAT over the "
        f"transition graph of {plural(graph.size, 'state')}, its free moves closed, one automaton "
        "constraint)"))
