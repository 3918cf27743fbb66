"""State-space analysis over whole frontiers with NumPy.

Same answers as :func:`.layers.layers`, much faster on spaces of 10^5-10^7
states.  States are packed into int64 codes by :mod:`.packing` (which also
evaluates every action on whole arrays of codes); the visited codes are kept
by :mod:`.visited`.  Each BFS layer is one sorted array of codes.  States
wider than 64 bits are packed into up to :data:`MAX_WORDS` words (rows of an
``(n, words)`` array), kept by :mod:`.wordsets`, and stepped both ways by the
tables of :mod:`.stacked` (``details["words"]`` says how many words).

Backward steps live in :mod:`.backward`.  When
the goal is a single state, the analysis sweeps backwards from it; if the
moves are reversible (:func:`cpsolve.model.moves.reversible`) and the initial state
was met, the states reachable from the initial state are exactly the ones
found, and the forward sweep is skipped (``details["reachable_by"]``).

Models whose states need more than :data:`MAX_WORDS` words, or whose tables
would be too large, raise :class:`~..common.Inapplicable`; the registry then
falls back to :func:`.layers.layers` (``details["fallback"]``).
"""

from __future__ import annotations

import time

import numpy as np

from ....answers.kinds import Direction
from ....answers.result import Result, Unsupported
from ....answers.words import plural
from ....model import moves as model_moves
from ..common import Budget, Inapplicable
from ..compile import Task
from ..emit import TooDeep
from . import wordsets
from .backward import Backward, TooLarge, relation
from .codesets import CHUNK
from .layers import NOT_SINGLE_GOAL, REACHABLE_BY, Sweep, reachable_stopped
from .packing import Packed, Unpackable
from .stacked import Stacked
from .visited import Recent, Seen

MAX_WORDS = 4
"""Most int64 words of one packed state (:mod:`.packing`; 252 bits of fields)."""


def sweep(packed: Packed, root: tuple[int, ...], step, budget: Budget, label: str,
          offset: int = 0, watch: tuple[int, ...] | None = None,
          reversible: bool = False) -> Sweep:
    """Breadth-first layers from ``root``, one NumPy array per layer (like :func:`.layers.sweep`).

    ``reversible``: every move can be undone, so only the last two layers are
    kept as the visited set (:class:`Recent`).
    """
    out = Sweep()
    rate = 0.0  # seconds per successor that making a layer's codes new has taken
    fan = 0.0  # successors per state of the last layer expanded
    if packed.words > 1:
        seen = wordsets.Recent(packed.words) if reversible else wordsets.Seen(packed.words)
    else:
        seen = Recent(packed.space) if reversible else Seen(packed.space)
    frontier = seen.fresh(packed.array([root]))
    target = None if watch is None else packed.encode(watch)
    while len(frontier):
        out.sizes.append(len(frontier))
        last = frontier
        if out.watched_at is None and target is not None and target in seen:
            out.watched_at = len(out.sizes) - 1
        if budget.exceeded(offset + seen.count, _line, label, out.sizes, seen.count):
            out.stopped = True
            break
        if fan and not budget.leaves_memory_for(int(STEP_COPIES * fan * len(frontier)
                                                     * 8 * packed.words)):
            out.stopped = True  # the successors of this layer would not fit
            break
        successors = _expand(step, frontier, budget, offset + seen.count)
        if successors is None:  # the budget ran out within the layer: it does not count
            out.stopped = True
            break
        fan = len(successors) / len(frontier)
        if len(successors) > CHUNK and (budget.exceeded(offset + seen.count) or
                                        not budget.leaves_time_for(rate * len(successors))):
            out.stopped = True  # a big layer: look again before the last long step
            break
        began, before = time.perf_counter(), seen.count
        frontier = seen.fresh(successors)
        if len(successors) >= MEASURED:  # seconds per successor, with room to grow
            rate = GROWTH * (time.perf_counter() - began) / len(successors)
        if out.cut(budget, offset, before, seen.count):  # the limit falls inside this layer
            return out
    out.seen = seen.count
    if not out.stopped:  # the farthest states; a stopped sweep reports none (millions, maybe)
        out.last = packed.states(last)
    return out


def numpy_layers(task: Task, budget: Budget, direction: Direction | None = None) -> Result:
    """:func:`.layers.layers`, vectorised; :class:`Inapplicable` when the model does not pack.

    With a single goal state the backward sweep comes first; the forward one
    is skipped when the moves are reversible and the initial state was met (each counts
    its own states against the limit, and a stop in the forward one leaves the analysis
    from the goal complete: :func:`.layers.reachable_stopped`).
    Reversible moves also shrink the visited set to two layers (:class:`Recent`).
    """
    goal = task.goal_state
    single = direction != "start" and goal is not None and task.in_domain(goal)
    if direction == "goal" and not single:
        raise Unsupported(f"search: analyze from the goal: {NOT_SINGLE_GOAL}")
    ready = prepared(task)
    packed = ready.packed
    backward = ready.backward() if single else None
    if backward is None and single:
        raise Inapplicable(f"numpy analysis not possible: {ready.too_large}")
    reversible = reversible_moves(task)
    details = {"reversible": reversible, "words": packed.words}
    if direction == "goal" and backward is None:
        raise Unsupported("search: analyze from the goal: the predecessors do not pack")
    if not single or backward is None:
        forward = sweep(packed, task.initial, ready.forward, budget, "reachable",
                        reversible=reversible)
        if forward.stopped:
            return forward.unknown(budget, "reachable from the initial state", "start", **details)
        return forward.result("start", reachable=forward.seen, **details)
    back = sweep(packed, goal, backward.step, budget, "to goal", 0, task.initial, reversible)
    if back.stopped:
        return back.unknown(budget, "that can reach the goal", "goal", **details)
    if back.watched_at is not None and reversible:
        return back.result("goal", reachable=back.seen, initial_distance=back.watched_at,
                           reachable_by=REACHABLE_BY, **details)
    forward = sweep(packed, task.initial, ready.forward, budget, "reachable",
                    reversible=reversible)
    done = back.result("goal", reachable=forward.seen, initial_distance=back.watched_at,
                       **details)
    return reachable_stopped(done, forward.seen, budget.reason) if forward.stopped else done


class Prepared:
    """A task's packing, its actions' relations (None when too large to enumerate), the
    successor step (tables, else the compiled actions) and, on demand, the predecessor
    tables."""

    def __init__(self, task: Task) -> None:
        self.packed = Packed(task, MAX_WORDS)
        self.too_large: Exception | None = None
        try:
            self.relations: list | None = [relation(self.packed, k)
                                           for k in range(len(task.actions))]
        except TooLarge as exc:
            self.relations, self.too_large = None, exc
        self._step = None
        self._backward: Backward | Stacked | None | bool = False

    def forward(self, codes: np.ndarray) -> np.ndarray:
        """The successors' codes: by tables (:mod:`.stacked`, built on first use) for
        multi-word codes, else by the compiled actions.

        Measured against the compiled actions on one-word codes from the start, tables
        win on some (Hoppers 0.72x, the 8-puzzle 0.90x, the 15-puzzle's first 5 M states
        0.92x) but lose where most rows of a group fail most guards (English 33: 1.4x),
        so one-word codes keep the compiled actions."""
        if self._step is None:
            self._step = self.packed.forward
            if self.relations is not None and self.packed.words > 1:
                try:
                    self._step = Stacked(self.packed, self.relations).step
                except TooLarge:
                    pass
        return self._step(codes)

    def backward(self) -> Backward | Stacked | None:
        """The predecessor tables, built once: per action and merged per group
        (:mod:`.backward`) for one-word codes, stacked per group (:mod:`.stacked`) for
        several words; None, and ``too_large`` says why."""
        if self._backward is False:
            self._backward = None
            if self.relations is not None:
                try:
                    self._backward = Backward(self.packed, self.relations) \
                        if self.packed.words == 1 else \
                        Stacked(self.packed, self.relations, backward=True)
                except TooLarge as exc:
                    self.too_large = exc
        return self._backward


def prepared(task: Task) -> Prepared:
    """The task's :class:`Prepared`, built once per task; :class:`Inapplicable` when the
    states do not pack."""
    memo = task.memo.get("vector")
    if memo is None:
        try:
            memo = Prepared(task)
        except (Unpackable, TooDeep) as exc:
            memo = exc
        task.memo["vector"] = memo
    if isinstance(memo, Exception):
        raise Inapplicable(f"numpy analysis not possible: {memo}") from memo
    return memo


def reversible_moves(task: Task) -> bool:
    """:func:`cpsolve.model.moves.reversible`, read off the actions' relations when there are
    some (they enumerate the same relations, with NumPy), once per task."""
    if "reversible" not in task.memo:
        try:
            relations = prepared(task).relations
        except Inapplicable:
            relations = None
        found = _reversible(relations) if relations is not None else None
        task.memo["reversible"] = model_moves.reversible(task.model) if found is None else found
    return bool(task.memo["reversible"])


MAX_ROWS = 1 << 16
"""Most relation rows :func:`_reversible` compares as Python tuples."""


def _reversible(relations: list) -> bool | None:
    """:func:`cpsolve.model.moves.reversible`'s condition, read off the relations already
    enumerated for the backward steps (None: too many rows, ask facts)."""
    groups: dict[tuple[int, ...], set[tuple]] = {}
    rows = 0
    for rel in relations:
        if rel is None:
            continue
        used, before, after = rel
        b = np.stack([before[i] for i in used], axis=1) if used else np.empty((1, 0), np.int64)
        a = np.stack([after[i] for i in used], axis=1) if used else np.empty((1, 0), np.int64)
        rows += len(b)
        if rows > MAX_ROWS:
            return None
        groups.setdefault(tuple(used), set()).update(
            zip(map(tuple, b.tolist()), map(tuple, a.tolist())))
    return all((t, s) in moves for moves in groups.values() for s, t in moves)


GROWTH = 1.5
"""How much longer per successor the next layer's new codes may take than the last's."""

MEASURED = 1 << 16
"""Fewest successors whose time says how long a big layer's will take (smaller layers'
are mostly fixed costs)."""


STEP_COPIES = 4
"""Copies of a layer's successor codes one step holds at once at its peak (the chunks,
their concatenation, and the sorting that makes them new)."""


def _expand(step, frontier: np.ndarray, budget: Budget, seen: int) -> np.ndarray | None:
    """``step(frontier)``, in chunks of :data:`.codesets.CHUNK` states (the budget is looked
    at between them); None if the budget runs out."""
    if len(frontier) <= CHUNK:
        return step(frontier)
    parts = []
    for i in range(0, len(frontier), CHUNK):
        if i and budget.exceeded(seen):
            return None
        parts.append(step(frontier[i:i + CHUNK]))
    return None if budget.exceeded(seen) else np.concatenate(parts)


def _line(label: str, sizes: list[int], seen: int) -> str:
    return f"{label} depth {len(sizes) - 1}: {plural(sizes[-1], 'state')}, {seen:,} seen"
