"""Cost layers closed under 0-cost actions, over packed boards (for :mod:`.closure`).

The model has a memory variable ``m`` (:func:`cpsolve.model.memory.memory_variable`):
read by the costs only (0 or 1), overwritten by every action.  A *pair* is a board
(the state without ``m``, packed by :mod:`..statespace.packing`) and a value of ``m``;
its key is ``board << SHIFT | m``, taken at the least image under the board model's
symmetries (with ``m`` mapped by its checked value map), so one key stands for a whole
orbit.

Layer ``k`` holds the boards whose cheapest cost is ``k``: the *seeds* (every action
from every board of layer ``k - 1``, at most cost 1 more) and their closure under the
actions that cost 0 at their pair.  A pair whose board was already reached at a lower
cost is dropped: two states that differ only in ``m`` have the same successors, so
the cheaper board's costs to the goal are at most 1 more, and it was reached at least
1 cheaper (:mod:`cpsolve.model.memory`).  Each board keeps its *origin*, the board of
the layer before that its seed came from, for rebuilding a plan.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....model.memory import (
    board_model,
    constant_costs,
    memory_variable,
    reversed_model,
    value_map,
    written,
)
from ....model.moves import goal_symmetries
from ....model.values import value_at
from ..common import Budget, Inapplicable
from ..compile import Task, compile_planning
from ..emit import build_many, np_helpers, source
from ..statespace.packing import Packed, Unpackable
from ..statespace.symmetry import Orbits, group

SHIFT = 6
"""Bits of a key the memory variable takes (:data:`cpsolve.model.memory.MAX_MEMORY_VALUES`)."""

CHUNK = 50_000
"""Pairs expanded in one NumPy step (short steps: the budget is asked between two)."""


@dataclass
class Layer:
    """One cost layer: its boards (sorted canonical codes), each board's origin (a board
    of the layer before; -1 at the start), its depth (steps from the start) and the
    number of pairs the closure held; ``complete`` False: cut short where it met the
    other side."""

    boards: np.ndarray
    origins: np.ndarray
    depths: np.ndarray
    pairs: int
    complete: bool = True


class Closure:
    """A task with a memory variable, over packed boards (see the module docstring)."""

    def __init__(self, task: Task) -> None:
        model = task.model
        memory = memory_variable(model)
        if (memory is None and not constant_costs(model)) or \
                not all(0 <= lo and hi <= 1 for lo, hi in task.cost_bounds):
            raise Inapplicable("search: closure needs 0/1 costs, constant or read from one "
                               "variable that every action overwrites and nothing else reads")
        self.task, self.memory = task, memory
        self.board = board_model(model, memory)
        self.board.symmetries = goal_symmetries(self.board)
        self.btask = compile_planning(self.board)
        try:
            self.packed = Packed(self.btask)
        except Unpackable as exc:
            raise Inapplicable(f"search: closure cannot pack the board ({exc})") from exc
        if self.packed.offset or self.packed.space > 1 << (63 - SHIFT):
            raise Inapplicable("search: closure needs boards of at most 57 bits")
        domain = model.domains[memory] if memory is not None else None
        self.lo = domain.lo if domain is not None else 0
        values = range(self.lo, domain.hi + 1) if domain is not None else range(1)
        perms, maps = self._symmetries(values)
        self.orbits = Orbits(self.packed, perms)
        dead = len(values)  # a backward pair no action before it continues for free
        self.maps = np.array([[*m, dead] for m in maps], np.int64)
        writes = np.array([written(a, memory) - self.lo if memory else 0
                           for a in model.actions], np.int64)
        zero = np.array([[value_at(a.cost, {} if memory is None else {memory: v}) == 0
                          for v in values] + [False] for a in model.actions], bool)
        onehot = np.arange(dead + 1)[None, :] == writes[:, None]
        self.forward = Side(self.packed, zero, onehot)
        self.backward = self._backward(onehot, zero)
        self.index = None if memory is None else task.index[memory]
        self.pace = Pace()
        env = np_helpers(np)
        text = source(model.goal, lambda n: f"c[{self.btask.index[n]}]", "c", "np")
        self._goal = build_many(f"def goal(c):\n    return {text}\n", env, ("goal",))[0]

    def _backward(self, onehot: np.ndarray, zero: np.ndarray) -> Side | None:
        """Steps back from the goal (a pair's memory value: what the action that entered
        it wrote; the action before it must make the next one free), or None."""
        back = reversed_model(self.board)
        if back is None:
            return None
        try:
            packed = Packed(compile_planning(back))
        except Unpackable:
            return None
        after = zero.copy()
        after[:, -1] = ~zero.any(axis=1)  # the board still counts, its pair goes no further
        return Side(packed, onehot, after, goal=self.packed.encode(back.initial_state()))

    def _symmetries(self, values: range) -> tuple[list[tuple[int, ...]], list[list[int]]]:
        """The board model's start- and goal-keeping group, each with its memory value
        map (0-based); the identity alone when one permutation has no checked map."""
        names = self.btask.names
        perms = group(self.board, names)
        maps = []
        for p in perms:
            image = value_map(self.task.model, self.memory,
                              {names[i]: names[p[i]] for i in range(len(names))})
            if image is None:
                return [perms[0]], [list(range(len(values)))]
            maps.append([v - self.lo for v in image])
        return perms, maps

    @property
    def symmetry_count(self) -> int:
        """How many symmetries one key stands for (1: none used)."""
        return self.orbits.size

    # -- keys

    def keys(self, codes: np.ndarray, memory: np.ndarray) -> np.ndarray:
        """Canonical keys of the pairs ``(codes, memory)`` (memory 0-based)."""
        best = None
        for g, image in enumerate(self.orbits.images(codes)):
            key = (image << SHIFT) | self.maps[g][memory]
            best = key if best is None else np.minimum(best, key)
        assert best is not None
        return best

    def _board(self, state: tuple[int, ...]) -> np.ndarray:
        """The code of a full state's board, as an array of one."""
        i = self.index
        board = state if i is None else state[:i] + state[i + 1:]
        return np.array([self.packed.encode(board)], np.int64)

    def canonical_board(self, state: tuple[int, ...]) -> int:
        """The canonical board code of a full state."""
        return int(self.orbits.canonical(self._board(state))[0])

    def start(self) -> np.ndarray:
        """The start's key."""
        s = self.task.initial
        value = 0 if self.index is None else s[self.index] - self.lo
        return self.keys(self._board(s), np.array([value], np.int64))

    def goals(self, boards: np.ndarray) -> np.ndarray:
        """Which boards are goals."""
        cols = dict(enumerate(self.packed.decode(boards)))
        return np.broadcast_to(np.asarray(self._goal(cols), bool), boards.shape)

    # -- steps

    def step(self, side: Side, keys: np.ndarray, free: bool) -> tuple[np.ndarray, np.ndarray]:
        """Successor keys of ``keys`` on ``side`` and, for each, the position of its
        source: every action (``free`` False) or only the free ones at the pair."""
        where, actions, new = side.packed.labelled(keys >> SHIFT)
        if free:
            ok = side.allowed[actions, keys[where] & ((1 << SHIFT) - 1)]
            where, actions, new = where[ok], actions[ok], new[ok]
        row, memory = np.nonzero(side.after[actions])
        return self.keys(new[row], memory), where[row]


@dataclass
class Side:
    """One direction of search over boards: its packed actions (the model's, or the
    reversed model's), which actions are free at a pair's memory value (``allowed``,
    action x value), and the memory values a pair takes after each action (``after``);
    ``goal``: the board code the backward side starts from."""

    packed: Packed
    allowed: np.ndarray
    after: np.ndarray
    goal: int | None = None


class Pace:
    """How long one NumPy step took, to tell whether the next one ends before the time
    limit (a racer's steps slow down when the machine is loaded, and it must stop in
    time to report)."""

    def __init__(self) -> None:
        self.started: float | None = None
        self.step = 0.0

    def may_go_on(self, budget: Budget, seen: int) -> bool:
        """No limit reached, and a step as long as the last one ends before the limit."""
        now = budget.clock.now()
        if self.started is not None:
            self.step = max(now - self.started, self.step / 2)
        self.started = now
        return not budget.exceeded(seen) and budget.leaves_time_for(self.step)


def member(sorted_codes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Which ``codes`` are in the sorted array ``sorted_codes``."""
    if not sorted_codes.size:
        return np.zeros(codes.shape, bool)
    at = np.searchsorted(sorted_codes, codes)
    at[at == sorted_codes.size] = 0
    return sorted_codes[at] == codes


def first(keys: np.ndarray, *columns: np.ndarray) -> tuple[np.ndarray, ...]:
    """The distinct keys (sorted) and, for each, the columns' values at its first place."""
    unique, at = np.unique(keys, return_index=True)
    return (unique, *(c[at] for c in columns))


def layer(c: Closure, side: Side, seeds: tuple[np.ndarray, np.ndarray, np.ndarray],
          seen: np.ndarray, budget: Budget, meet: np.ndarray | None = None) -> Layer | None:
    """The layer grown from ``seeds`` (keys, origins, depths; not yet deduplicated):
    the closure of the seeds under 0-cost actions, boards in ``seen`` dropped.  None when
    the budget stops it.  With ``meet`` (sorted boards), the layer ends, cut short, as
    soon as it holds one of them: every board it holds has its exact cost already."""
    keys, origins, depths = seeds
    keep = ~member(seen, keys >> SHIFT)
    pairs = first(keys[keep], origins[keep], depths[keep])
    frontier = pairs
    met = meet is not None and bool(member(meet, pairs[0] >> SHIFT).any())
    while frontier[0].size and not met:
        parts = []
        for lo in range(0, frontier[0].size, CHUNK):
            if not c.pace.may_go_on(budget, int(pairs[0].size + seen.size)):
                return None
            chunk = [col[lo:lo + CHUNK] for col in frontier]
            new, where = c.step(side, chunk[0], free=True)
            keep = ~member(seen, new >> SHIFT) & ~member(pairs[0], new)
            parts.append((new[keep], chunk[1][where[keep]], chunk[2][where[keep]] + 1))
            if meet is not None and member(meet, new[keep] >> SHIFT).any():
                met = True
                break
        frontier = first(*(np.concatenate(col) for col in zip(*parts)))
        merged = [np.concatenate([p, f]) for p, f in zip(pairs, frontier)]
        order = np.argsort(merged[0], kind="stable")
        pairs = tuple(col[order] for col in merged)
    boards, origins, depths = first(pairs[0] >> SHIFT, pairs[1], pairs[2])
    return Layer(boards, origins, depths, int(pairs[0].size), complete=not met)


def seeds_of(c: Closure, side: Side, boards: np.ndarray, depths: np.ndarray,
             budget: Budget) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every action from every board (keys, origins, depths), or None when stopped."""
    parts = []
    for lo in range(0, boards.size, CHUNK):
        if not c.pace.may_go_on(budget, int(boards.size)):
            return None
        chunk = boards[lo:lo + CHUNK]
        new, where = c.step(side, chunk << SHIFT, free=False)
        new, at = np.unique(new, return_index=True)
        parts.append((new, chunk[where[at]], depths[lo:lo + CHUNK][where[at]] + 1))
    if not parts:
        empty = np.empty(0, np.int64)
        return empty, empty, empty
    return tuple(np.concatenate(col) for col in zip(*parts))  # type: ignore[return-value]
