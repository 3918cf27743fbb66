"""Breadth-first layers of a permutation space, two bits per state (Korf's frontier search).

Applies when every reachable state is a permutation of the initial state's values:
they are all distinct (a sliding puzzle's tiles and its one blank), and every
action only moves the values it writes around (:func:`prepare` checks each
action's relation, as the pattern databases do).  A state is then one of ``n!``
permutations, ranked by a perfect hash (:mod:`.permrank`), and the search keeps
two bits per rank (:mod:`.twobits`): no state is ever stored, and no duplicate
is ever written.  A layer is expanded a slice of ranks at a time: unranked,
packed (:class:`.packing.Packed`), every action applied on whole arrays, the
successors ranked and marked.  The map takes ``n!/4`` bytes (the 3x4 puzzle:
12! states, 114 MiB); past half the memory budget it is a file mapped into
memory (in ``--work-dir`` or a temporary directory) whose marks are spooled and
made a segment at a time (:meth:`.twobits.TwoBitMap.spool`).

From the goal (the default when the goal is one state, as for the other
analyses) when every move can be undone (:func:`cpsolve.model.moves.reversible`):
the distances from the goal are then the distances to it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import numpy as np

from ....answers.kinds import Analysis, Direction
from ....answers.result import Result, Status
from ....model.moves import reversible
from ...runtime.stop import Stop
from ..common import Budget, Inapplicable
from ..compile import Task
from ..emit import TooDeep
from .backward import TooLarge, relation
from .external import DEFAULT_MEMORY, FARTHEST_MAX
from .layers import WHAT, partial_analysis, reachable_stopped
from .mapfiles import MapFiles
from .packing import SIGN, Packed, Unpackable
from .permrank import MAX_VALUES, Ranker
from .twobits import CURRENT, TwoBitMap

NOT_POSSIBLE = "bitmap analysis not possible"


def prepare(task: Task) -> tuple[Packed, tuple[int, ...]]:
    """The packing and the values every reachable state permutes (sorted), or
    :class:`Inapplicable` saying why the states are not permutations."""
    start = task.initial
    n = len(start)
    if len(set(start)) != n:
        raise Inapplicable(f"{NOT_POSSIBLE}: the initial state repeats a value (ranks are "
                           "made for permutations of distinct values)")
    if n > MAX_VALUES:
        raise Inapplicable(f"{NOT_POSSIBLE}: {n} variables (at most {MAX_VALUES})")
    try:
        packed = Packed(task)
        for k in range(len(task.actions)):
            rel = relation(packed, k)
            writes = packed.writes[k]
            if rel is None or not writes:
                continue
            _, before, after = rel
            if not (np.sort(np.stack([before[i] for i in writes]), axis=0) ==
                    np.sort(np.stack([after[i] for i in writes]), axis=0)).all():
                raise Inapplicable(f"{NOT_POSSIBLE}: action {task.action_names[k]!r} does "
                                   "not just move values around")
    except (Unpackable, TooDeep, TooLarge) as exc:
        raise Inapplicable(f"{NOT_POSSIBLE}: {exc}") from exc
    return packed, tuple(sorted(start))


def permutation_like(task: Task) -> bool:
    """Whether :func:`bitmap_layers` applies to ``task`` (the checks of :func:`prepare`)."""
    try:
        prepare(task)
    except Inapplicable:
        return False
    return True


class Space:
    """States as ranks: a slice of ranks to the ranks of every successor."""

    def __init__(self, packed: Packed, values: tuple[int, ...]) -> None:
        task = packed.task
        self.packed, self.values = packed, np.array(values, np.int64)
        self.ranker = Ranker(len(values))
        self.low = values[0]
        index = np.zeros(values[-1] - values[0] + 1, np.int8)
        index[self.values - self.low] = np.arange(len(values))
        self.index = index
        self.contiguous = values[-1] - values[0] == len(values) - 1  # index = value - low
        self.lo = np.array(task.lo, np.int64)[:, None]
        self.radix = np.array(packed.radix, np.int64)[:, None]

    def rank(self, state: tuple[int, ...]) -> int:
        """The rank of one state (a permutation of the values)."""
        idx = self.index[np.array(state, np.int64)[:, None] - self.low]
        return int(self.ranker.rank(idx)[0])

    def state(self, rank: int) -> tuple[int, ...]:
        """The state of one rank."""
        return tuple(int(v) for v in self.values[self.ranker.unrank(np.array([rank]))[:, 0]])

    def successors(self, ranks: np.ndarray) -> np.ndarray:
        """The ranks of every successor of the states of ``ranks`` (with repeats)."""
        vals = self.values.take(self.ranker.unrank(ranks).astype(np.int64))
        vals -= self.lo
        vals *= self.radix
        codes = vals.sum(axis=0)
        if self.packed.offset:
            codes += np.int64(SIGN)
        succ = self.packed.forward(codes)
        return self.ranker.rank(self.rows(succ), succ.size)

    def rows(self, codes: np.ndarray) -> Iterator[np.ndarray]:
        """The value index of each variable in ``codes``, one variable at a time (bit fields
        are cut out as the ranker asks for them: no matrix of every field)."""
        packed = self.packed
        if packed.shifts is None:
            cols = packed.decode_matrix(codes)
            cols -= self.low
            yield from self.index.take(cols)
            return
        if packed.offset:
            codes = codes ^ np.int64(packed.offset)
        for shift, mask, lo in zip(packed.shifts, packed.masks, packed.task.lo):
            col = codes >> shift
            col &= mask
            if lo != self.low:
                col += lo - self.low
            yield col if self.contiguous else self.index.take(col)


class Sweep:
    """One breadth-first sweep over the map from ``root`` (see :func:`sweep`)."""

    def __init__(self) -> None:
        self.sizes: list[int] = []
        self.last = np.empty(0, np.int64)
        self.watched_at: int | None = None
        self.stopped = False
        self.partial = False
        """The last of :attr:`sizes` is a layer cut short by the state limit."""
        self.expanded = 0
        self.started = time.perf_counter()

    @property
    def seen(self) -> int:
        return sum(self.sizes)

    def line(self, label: str, done: int) -> str:
        """The progress line: the layer being expanded, a bar, states/s."""
        width, size = 20, self.sizes[-1]
        fill = width * done // max(1, size)
        rate = self.expanded / max(1e-9, time.perf_counter() - self.started)
        return (f"{label} depth {len(self.sizes) - 1} [{'#' * fill}{'-' * (width - fill)}] "
                f"{done:,}/{size:,} expanded, {rate:,.0f} states/s, {self.seen:,} seen")


def sweep(space: Space, bits: TwoBitMap, root: tuple[int, ...], budget: Budget, label: str,
          chunk: int, watch: tuple[int, ...] | None = None) -> Sweep:
    """Layers from ``root`` on an empty map; ``watch``: the distance of that state.  A
    layer that takes the count past the limit is kept as a partial last layer of the states
    up to it, as the other analyses keep it (:meth:`.layers.Sweep.cut`)."""
    out = Sweep()
    target = None if watch is None else space.rank(watch)
    bits.put(space.rank(root), CURRENT)
    out.sizes.append(1)
    while True:
        if target is not None and out.watched_at is None and bits.get(target) == CURRENT:
            out.watched_at = len(out.sizes) - 1
        done, keep = 0, out.sizes[-1] <= FARTHEST_MAX
        kept = []
        for ranks in bits.current():
            if keep:
                kept.append(ranks)
            for i in range(0, ranks.size, chunk):
                if budget.exceeded(out.seen, out.line, label, done):
                    out.stopped = True
                    return out
                part = ranks[i:i + chunk]
                bits.mark_next(space.successors(part))
                done += part.size
                out.expanded += part.size
        bits.settle()
        new = bits.advance()
        if not new:
            out.last = np.concatenate(kept) if kept else np.empty(0, np.int64)
            return out
        if budget.limit is not None and out.seen + new > budget.limit:
            keep = max(0, budget.limit - out.seen)
            if keep:  # the states up to the limit (a map's marks come in no order of finding)
                out.sizes.append(keep)
                out.partial = True
            out.stopped = True
            budget.halt(Stop.STATES, f"state limit {budget.limit:,} reached")
            return out
        out.sizes.append(new)
        budget.report(out.line, label, 0)


def chunk_size(n: int, actions: int, memory: int) -> int:
    """Ranks expanded at once: their permutations, codes and successors fit in ``memory``
    (about ``8 * (2n + 12)`` bytes per successor, at most ``min(actions, 8)`` each)."""
    per = 8 * (2 * n + 12) * max(1, min(actions, 8)) + 16 * n
    return int(min(1 << 20, max(1 << 10, memory // per)))


def bitmap_layers(task: Task, budget: Budget, direction: Direction | None = None,
                  options=None) -> Result:
    """The layers of a permutation space (see the module), a 2-bit mark per rank."""
    packed, values = prepare(task)
    goal = task.goal_state
    backward = (direction != "start" and goal is not None and tuple(sorted(goal)) == values
                and reversible(task.model))
    if direction == "goal" and not backward:
        raise Inapplicable(f"{NOT_POSSIBLE} from the goal: it needs a goal that is one "
                           "permutation of the start's values and moves that can all be undone")
    space = Space(packed, values)
    memory = (getattr(options, "memory_limit", None) or DEFAULT_MEMORY) // 2
    chunk = chunk_size(len(values), len(task.actions), memory)
    work = getattr(options, "work_dir", None)
    with MapFiles(space.ranker.size, memory, work) as maps:
        if not backward:
            first = sweep(space, maps.fresh(), task.initial, budget, "reachable", chunk)
            why = {} if direction == "start" or goal is None else {
                "backward": "not from the goal: " + (
                    "the moves cannot all be undone" if tuple(sorted(goal)) == values
                    else "the goal is no permutation of the start's values")}
            return _result(space, first, "start", budget, {**maps.details(), **why})
        first = sweep(space, maps.fresh(), goal, budget, "to goal", chunk, task.initial)
        if first.stopped or first.watched_at is not None:
            reach = first.seen if first.watched_at is not None else None
            return _result(space, first, "goal", budget, maps.details(), reach)
        second = sweep(space, maps.fresh(), task.initial, budget, "reachable", chunk)
        done = _result(space, first, "goal", budget, maps.details(), second.seen)
        return reachable_stopped(done, second.seen, budget.reason) if second.stopped else done


def _result(space: Space, done: Sweep, direction: Direction, budget: Budget, details: dict,
            reachable: int | None = None) -> Result:
    """The analysis of ``done``: complete, or partial with its complete layers."""
    seen, layers = done.seen, tuple(done.sizes)
    if done.stopped:
        return partial_analysis(budget.reason, seen, layers, direction, WHAT[direction],
                                details, done.partial)
    farthest = tuple(sorted(space.state(int(r)) for r in done.last))
    more: dict = {"reachable": seen if direction == "start" else reachable}
    if direction == "goal":
        more["initial_distance"] = done.watched_at
    return Result(status=Status.COMPLETE, engine="search", task="analyze",
                  answer=Analysis(seen, layers, direction, len(layers) - 1, farthest),
                  explored=seen, details={**more, **details})
