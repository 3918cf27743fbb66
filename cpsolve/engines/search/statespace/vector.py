"""State-space analysis over whole frontiers with NumPy.

Same answers as :func:`.analyze.layers`, much faster on spaces of 10^5-10^7
states.  A state is packed into one int64, the first variable most
significant so that codes sort like state tuples: a mixed-radix number when
the code space is small enough for a bit map of visited codes
(:data:`BITMAP_BITS`), else one bit field per variable (decoding is then a
shift and a mask) and the visited codes are a sorted array.  Each BFS layer
is one array of codes; its columns are decoded once, and every action's
guard and effects — the model's expression trees, compiled to NumPy source
by :mod:`.emit` — are evaluated on all states at once (only on the rows
where a pinned guard conjunct ``x == c`` holds, as in :mod:`.compile`).

Backward steps and the reversibility test live in :mod:`.backward`.  When
the goal is a single state, the analysis sweeps backwards from it; if the
moves are reversible (:func:`.backward.symmetric`) and the initial state
was met, the states reachable from the initial state are exactly the ones
found, and the forward sweep is skipped (``details["reachable_by"]``).

Models whose states do not fit in 62 bits, or whose tables would be too
large, fall back to :func:`.analyze.layers` (``details["fallback"]``).
"""

from __future__ import annotations

import numpy as np

from ....answers import Direction
from ....expr import bounds
from ....result import Result, Unsupported
from ..common import Budget
from ..compile import Task
from ..emit import TooDeep, build_many, np_helpers, source
from .backward import Backward, TooLarge, symmetric
from .layers import Sweep, layers

BITMAP_BITS = 1 << 27
"""Largest code space tracked with a bit map (16 MiB); larger ones use a sorted array."""


class Unpackable(ValueError):
    """The model does not fit this representation (the reason is the message)."""


class Packed:
    """Mixed-radix packing of a task's states, with vectorised actions."""

    def __init__(self, task: Task) -> None:
        self.task = task
        n = len(task.names)
        self.size = [hi - lo + 1 for lo, hi in zip(task.lo, task.hi)]
        self.radix = [1] * n
        for i in range(n - 2, -1, -1):
            self.radix[i] = self.radix[i + 1] * self.size[i + 1]
        self.space = self.radix[0] * self.size[0]
        self.shifts: list[int] | None = None  # bit fields instead of mixed radix
        bits = [(z - 1).bit_length() for z in self.size]
        if self.space > BITMAP_BITS and sum(bits) < 62:
            self.shifts = [sum(bits[i + 1:]) for i in range(n)]
            self.masks = [(1 << b) - 1 for b in bits]
            self.radix = [1 << sh for sh in self.shifts]
            self.space = 1 << sum(bits)
        if self.space >= 1 << 62:
            raise Unpackable(f"{self.space:.3g} codes do not fit in 62 bits")
        env = np_helpers(np)

        def ref(name: str) -> str:
            return f"c[{task.index[name]}]"

        self.guards, self.effects, self.used, self.writes, self.checked = [], [], [], [], []
        for a in task.actions:
            order = sorted(task.index[v] for v in a.writes())
            by_index = {task.index[v]: e for v, e in a.effects}
            effs = "".join(f"{source(by_index[i], ref, 'v', 'np')}, " for i in order)
            text = (f"def guard(c):\n    return {source(a.guard, ref, 'c', 'np')}\n"
                    f"def effects(c):\n    return ({effs})\n")
            guard, effects = build_many(text, env, ("guard", "effects"))
            self.guards.append(guard)
            self.effects.append(effects)
            self.used.append(sorted({task.index[v] for v in a.reads()} | set(order)))
            self.writes.append(order)
            self.checked.append([i for i in order if not _within(by_index[i], task, i)])
        self.groups = task.guard_groups()

    def encode(self, state) -> int:
        """The code of a state tuple."""
        return sum((v - lo) * r for v, lo, r in zip(state, self.task.lo, self.radix))

    def decode(self, codes: np.ndarray) -> list[np.ndarray]:
        """One value column per variable."""
        if self.shifts is not None:
            return [((codes >> sh) & mask) + lo if lo else (codes >> sh) & mask
                    for sh, mask, lo in zip(self.shifts, self.masks, self.task.lo)]
        cols: list[np.ndarray] = []
        rest = codes
        for size, lo in zip(reversed(self.size), reversed(self.task.lo)):
            rest, digit = np.divmod(rest, size)
            cols.append(digit + lo if lo else digit)
        cols.reverse()
        return cols

    def states(self, codes: np.ndarray) -> list[tuple[int, ...]]:
        """State tuples of codes."""
        cols = self.decode(codes)
        return [tuple(int(v) for v in row) for row in zip(*cols)] if cols else []

    def columns(self, cols: dict[int, np.ndarray], idx: np.ndarray, k: int) -> dict:
        """The columns action ``k`` uses, restricted to rows ``idx``, by variable index."""
        return {i: cols[i][idx] for i in self.used[k]}

    def subsets(self, codes: np.ndarray, groups):
        """``(actions, codes, columns)`` per group: the rows where the group's pin holds."""
        cols = self.decode(codes)
        for pin, members in groups:
            if pin is None:
                yield members, codes, dict(enumerate(cols))
                continue
            idx = np.flatnonzero(cols[pin[0]] == pin[1])
            if idx.size:
                used = {i for k in members for i in self.used[k]}
                yield members, codes[idx], {i: cols[i][idx] for i in used}

    def forward(self, codes: np.ndarray) -> np.ndarray:
        """Codes of every successor of every state in ``codes`` (with repeats)."""
        out = []
        for members, rows, cols in self.subsets(codes, self.groups):
            n = len(rows)
            for k in members:
                mask = np.broadcast_to(self.guards[k](cols), (n,))
                idx = np.flatnonzero(mask)
                if not idx.size:
                    continue
                new = self._apply(k, self.columns(cols, idx, k), idx.size, rows[idx])
                if new is not None:
                    out.append(new)
        return np.concatenate(out) if out else np.empty(0, np.int64)

    def _apply(self, k: int, sub: dict, n: int, codes: np.ndarray) -> np.ndarray | None:
        """Successor codes of the ``n`` states whose used columns are ``sub`` (in range only)."""
        values = [np.broadcast_to(np.asarray(v, np.int64), (n,)) for v in self.effects[k](sub)]
        ok = None
        task = self.task
        for i, v in zip(self.writes[k], values):
            if i in self.checked[k]:
                inside = (v >= task.lo[i]) & (v <= task.hi[i])
                ok = inside if ok is None else ok & inside
        new = codes.copy()
        for i, v in zip(self.writes[k], values):
            new += (v - sub[i]) * self.radix[i]
        if ok is not None:
            task.skipped[0] += int(n - ok.sum())
            new = new[ok]
        return new if new.size else None


def _within(expr, task: Task, i: int) -> bool:
    lo, hi = bounds(expr, task.model.domain)
    return task.lo[i] <= lo and hi <= task.hi[i]


_BIT = np.array([1 << b for b in range(8)], np.uint8)


class Seen:
    """The set of visited codes: a bit map, or a sorted array for huge code spaces."""

    def __init__(self, space: int) -> None:
        self.bits = np.zeros((space + 7) // 8, np.uint8) if space <= BITMAP_BITS else None
        self.sorted = np.empty(0, np.int64)
        self.count = 0

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (sorted, distinct) not seen before; they are marked seen."""
        if self.bits is not None:
            byte, bit = codes >> 3, _BIT[codes & 7]
            fresh = (self.bits[byte] & bit) == 0
            new = codes[fresh]
            if new.size:  # new is sorted: OR the bits of each byte together, then store
                byte, bit = byte[fresh], bit[fresh]
                first = np.flatnonzero(np.concatenate(([True], byte[1:] != byte[:-1])))
                self.bits[byte[first]] |= np.bitwise_or.reduceat(bit, first)
        else:  # merged per layer: a stable sort of two sorted runs
            pos = np.minimum(np.searchsorted(self.sorted, codes), max(self.sorted.size - 1, 0))
            hit = self.sorted[pos] == codes if self.sorted.size else np.zeros(codes.size, bool)
            new = codes[~hit]
            self.sorted = np.sort(np.concatenate([self.sorted, new]), kind="stable")
        self.count += new.size
        return new

    def __contains__(self, code: int) -> bool:
        if self.bits is not None:
            return bool(self.bits[code >> 3] >> (code & 7) & 1)
        pos = int(np.searchsorted(self.sorted, code))
        return pos < self.sorted.size and int(self.sorted[pos]) == code


class Recent:
    """The visited set of a BFS over reversible moves: the last two layers suffice.

    When every move can be undone, a successor of a state at distance ``d``
    lies at distance ``d - 1``, ``d`` or ``d + 1``: checking the two latest
    layers is exact, and memory stays that of a few layers.
    """

    def __init__(self) -> None:
        self.before = self.current = np.empty(0, np.int64)
        self.count = 0

    def fresh(self, codes: np.ndarray) -> np.ndarray:
        """The codes (sorted, distinct) not in the last two layers; they become the latest."""
        new = _minus(_minus(codes, self.current), self.before)
        self.before, self.current = self.current, new
        self.count += new.size
        return new

    def __contains__(self, code: int) -> bool:
        return any(_minus(np.array([code], np.int64), layer).size == 0
                   for layer in (self.current, self.before))


def _minus(codes: np.ndarray, layer: np.ndarray) -> np.ndarray:
    """The sorted ``codes`` that are not in the sorted ``layer``."""
    if not layer.size or not codes.size:
        return codes
    pos = np.minimum(np.searchsorted(layer, codes), layer.size - 1)
    return codes[layer[pos] != codes]


def sweep(packed: Packed, root: tuple[int, ...], step, budget: Budget, label: str,
          offset: int = 0, watch: tuple[int, ...] | None = None,
          reversible: bool = False) -> Sweep:
    """Breadth-first layers from ``root``, one NumPy array per layer (like ``analyze.sweep``).

    ``reversible``: every move can be undone, so only the last two layers are
    kept as the visited set (:class:`Recent`).
    """
    out = Sweep()
    seen: Seen | Recent = Recent() if reversible else Seen(packed.space)
    frontier = seen.fresh(np.array([packed.encode(root)], np.int64))
    target = None if watch is None else packed.encode(watch)
    while frontier.size:
        out.sizes.append(int(frontier.size))
        last = frontier
        if out.watched_at is None and target is not None and target in seen:
            out.watched_at = len(out.sizes) - 1
        if budget.exceeded(offset + seen.count, _line, label, out.sizes, seen.count):
            out.stopped = True
            break
        frontier = seen.fresh(_distinct(step(frontier)))
    out.seen = seen.count
    out.last = packed.states(last)
    return out


def numpy_layers(task: Task, budget: Budget, direction: Direction | None = None) -> Result:
    """:func:`.analyze.layers`, vectorised; falls back to it when the model does not pack.

    With a single goal state the backward sweep comes first; the forward one
    is skipped when the moves are reversible and the initial state was met.
    Reversible moves also shrink the visited set to two layers (:class:`Recent`).
    """
    goal = task.goal_state
    single = direction != "start" and goal is not None and task.in_domain(goal)
    if direction == "goal" and not single:
        raise Unsupported("search: analyze from the goal: the goal is not a single state")
    try:
        packed = Packed(task)
        try:
            backward: Backward | None = Backward(packed)
        except TooLarge:
            if single:
                raise
            backward = None
    except (Unpackable, TooLarge, TooDeep) as exc:
        result = layers(task, budget, direction)
        return result.but(details={**result.details, "algorithm": "python",
                                   "fallback": f"numpy analysis not possible: {exc}"})
    reversible = backward is not None and symmetric(backward)
    details = {"reversible": reversible}
    if direction == "goal" and backward is None:
        raise Unsupported("search: analyze from the goal: the predecessors do not pack")
    if not single or backward is None:
        forward = sweep(packed, task.initial, packed.forward, budget, "reachable",
                        reversible=reversible)
        if forward.stopped:
            return forward.unknown(budget, "reachable from the initial state", "start", **details)
        return forward.result("start", reachable=forward.seen, **details)
    back = sweep(packed, goal, backward.step, budget, "to goal", 0, task.initial, reversible)
    if back.stopped:
        return back.unknown(budget, "that can reach the goal", "goal", **details)
    if back.watched_at is not None and reversible:
        return back.result("goal", reachable=back.seen, initial_distance=back.watched_at,
                           reachable_by="every move can be undone, so the states reachable "
                           "from the start are those that reach the goal", **details)
    forward = sweep(packed, task.initial, packed.forward, budget, "reachable", back.seen,
                    reversible=reversible)
    if forward.stopped:
        return forward.unknown(budget, "reachable from the initial state", "start",
                               to_goal=back.seen, **details)
    return back.result("goal", reachable=forward.seen, initial_distance=back.watched_at,
                       **details)


def _distinct(codes: np.ndarray) -> np.ndarray:
    """Sorted distinct codes (a sort and a comparison; faster than ``np.unique`` here)."""
    codes.sort()
    if codes.size < 2:
        return codes
    return codes[np.concatenate(([True], codes[1:] != codes[:-1]))]


def _line(label: str, sizes: list[int], seen: int) -> str:
    return f"{label} depth {len(sizes) - 1}: {sizes[-1]:,} states, {seen:,} seen"
