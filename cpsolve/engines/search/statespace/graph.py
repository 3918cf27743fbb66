"""The explicit transition graph of a small reachable state space.

:func:`transition_graph` enumerates every state reachable from the initial
state, breadth-first over packed codes (:mod:`.packing`, one NumPy call per
action and layer), and keeps every move as an arc ``(tail, action, head)``
between state indices.  It gives up (``None``) when the states do not pack
into one word, the model has forbidden conditions, or more than ``limit``
states are reachable.  Other engines use the graph to state a plan as a path
in it (the CP-SAT engine's automaton encoding, :mod:`cpsolve.engines.cpsat.graph`).

The states are numbered in breadth-first order, so the initial state is 0 and
``layers`` says how many states lie at each distance from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....answers.result import Unsupported
from ...runtime.clock import Clock
from ..compile import Task
from ..emit import TooDeep, build_many, np_helpers, source
from .packing import Packed, Unpackable
from .vector import reversible_moves
from .visited import Recent, Seen


@dataclass(frozen=True)
class Graph:
    """Every state reachable from the start (index 0 the start, in breadth-first order)
    and every move between them."""

    codes: np.ndarray
    """Packed code of each state, by index."""
    tails: np.ndarray
    actions: np.ndarray
    """Action index (in ``model.actions``) of each arc."""
    heads: np.ndarray
    goals: np.ndarray
    """Indices of the goal states."""
    layers: tuple[int, ...]
    """How many states lie at each distance from the start."""
    packed: Packed

    def states(self, indices: list[int]) -> list[tuple[int, ...]]:
        """The state tuples of some state indices."""
        return self.packed.states(self.codes[np.asarray(indices, np.int64)])

    def from_start(self) -> np.ndarray:
        """Each state's distance from the start."""
        return np.repeat(np.arange(len(self.layers)), self.layers)

    def to_goal(self) -> np.ndarray:
        """Each state's fewest steps to a goal state (-1: none is reachable from it)."""
        order = np.argsort(self.heads, kind="stable")
        heads, tails = self.heads[order], self.tails[order]
        offsets = np.searchsorted(heads, np.arange(self.size + 1))
        return distances(offsets, tails, self.goals, self.size)

    @property
    def size(self) -> int:
        """Number of states."""
        return int(self.codes.size)

    def distance(self) -> int | None:
        """Fewest steps from the start to a goal state (None: no goal is reachable)."""
        if not self.goals.size:
            return None
        ends = np.cumsum(self.layers)
        return int(np.searchsorted(ends, int(self.goals.min()), side="right"))


def transition_graph(task: Task, limit: int, clock: Clock | None = None) -> Graph | None:
    """The graph of the states reachable from the start, or None when it is not worth
    building: the states do not pack into one word, the model has forbidden
    conditions, more than ``limit`` states are reachable, or ``clock`` runs out."""
    try:
        packed = Packed(task)
        goal = _goal_test(task)
    except (Unpackable, TooDeep, Unsupported):
        return None
    if packed.words != 1:
        return None
    if packed.shifts is None and packed.space <= WHOLE_SPACE:
        found = _whole_space(packed, task, limit)
    else:
        found = _layered(packed, task, limit, clock)
    if found is None:
        return None
    codes, layers, (tails, actions, heads) = found
    met = np.broadcast_to(goal(dict(enumerate(packed.decode(codes)))), codes.shape)
    return Graph(codes, tails, actions, heads, np.flatnonzero(met), layers, packed)


Found = tuple[np.ndarray, tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]]
"""The states' codes in breadth-first order, the layers' sizes and the arcs (by index)."""


def _layered(packed: Packed, task: Task, limit: int, clock: Clock | None) -> Found | None:
    """Breadth-first, one layer of codes at a time (the last two layers as the visited set
    when every move can be undone: no re-sort of everything seen per layer)."""
    seen = Recent(packed.space) if reversible_moves(task) else Seen(packed.space)
    frontier = seen.fresh(packed.array([task.initial]))
    layers, order, arcs = [], [], []
    while frontier.size:
        layers.append(int(frontier.size))
        order.append(frontier)
        if seen.count > limit or (clock is not None and clock.expired()):
            return None
        where, actions, heads = packed.labelled(frontier)
        arcs.append((frontier[where], actions, heads))
        frontier = seen.fresh(heads.copy())
    codes = np.concatenate(order)
    rank = np.argsort(codes, kind="stable")
    ordered = codes[rank]
    tails, actions, heads = (np.concatenate(part) for part in zip(*arcs))
    return codes, tuple(layers), (rank[np.searchsorted(ordered, tails)], actions,
                                  rank[np.searchsorted(ordered, heads)])


WHOLE_SPACE = 1 << 18
"""Largest mixed-radix code space whose every code is expanded at once (a long, thin
breadth-first search, such as Hanoi's 255 layers, then costs one NumPy call per action
instead of one per action and layer)."""


def _whole_space(packed: Packed, task: Task, limit: int) -> Found | None:
    """Every code of the (small) space expanded at once, then a breadth-first search over
    the arcs as an adjacency array; the unreachable states are dropped."""
    tails, actions, heads = packed.labelled(np.arange(packed.space, dtype=np.int64))
    by_tail = np.argsort(tails, kind="stable")
    tails, actions, heads = tails[by_tail], actions[by_tail], heads[by_tail]
    offsets = np.searchsorted(tails, np.arange(packed.space + 1))
    distance = distances(offsets, heads, packed.array([task.initial]), packed.space)
    reach = np.flatnonzero(distance >= 0)
    if reach.size > limit:
        return None
    codes = reach[np.lexsort((reach, distance[reach]))]
    index = np.full(packed.space, -1, np.int64)
    index[codes] = np.arange(codes.size)
    keep = distance[tails] >= 0
    layers = tuple(int(n) for n in np.bincount(distance[codes]))
    return codes, layers, (index[tails.compress(keep)], actions.compress(keep),
                           index[heads.compress(keep)])


def distances(offsets: np.ndarray, targets: np.ndarray, sources: np.ndarray, size: int
            ) -> np.ndarray:
    """Breadth-first distances from ``sources`` over an adjacency array (the neighbours of
    node ``i`` are ``targets[offsets[i]:offsets[i + 1]]``); -1 where unreachable."""
    distance = np.full(size, -1, np.int64)
    frontier = np.unique(sources)
    distance[frontier] = 0
    depth = 0
    while frontier.size:
        first, counts = offsets[frontier], offsets[frontier + 1] - offsets[frontier]
        total = int(counts.sum())
        if not total:
            break
        starts = np.repeat(first - np.cumsum(counts) + counts, counts)
        reached = targets[starts + np.arange(total)]
        frontier = np.unique(reached.compress(distance[reached] < 0))
        depth += 1
        distance[frontier] = depth
    return distance


def _goal_test(task: Task):
    """The goal as a function of value columns (by variable index), for whole arrays."""
    text = source(task.model.goal, lambda name: f"c[{task.index[name]}]", "c", "np")
    return build_many(f"def goal(c):\n    return {text}\n", np_helpers(np), ("goal",))[0]
