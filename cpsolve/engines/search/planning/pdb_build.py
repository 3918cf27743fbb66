"""Building one pattern database: the abstract space explored backwards with NumPy.

An *abstraction* keeps some values (:class:`Abstraction`: the pattern's
values and the constants the actions test or write, such as a sliding
puzzle's blank) and maps every other value to one "don't care" code.  Each
action's behaviour on the variables it uses is a finite relation
(:func:`..statespace.backward.relation`); its image under the abstraction is
the abstract action.  Every concrete move maps onto an abstract move, so an
abstract distance never exceeds the concrete one.

With ``additive``, an abstract move costs the action's cost only when it
changes where a pattern value is; other moves cost 0 (Korf and Felner's
additive databases count the moves of pattern pieces only).  Distances are
then found by a 0-1 breadth-first search backwards from the abstract goal,
one distance layer at a time: a layer is closed under cost-0 predecessors,
and its cost-1 predecessors seed the next one.  When every abstract move
can be undone at the same cost (checked on the abstract relations), a
state's neighbours lie in the layers next to its own, so only two layers
are kept; otherwise all are.

A build can stop after any layer and go on later (:class:`Partial`: the
table so far and the layers the next one is checked against); the layers
are the same either way, so the table is too.  Stopped after layer ``d``,
the table is already a lower bound once its unset entries are read as
``d + 1``: every abstract state within distance ``d`` is in layers ``0..d``
(each layer is closed under cost-0 moves, so a state at distance ``d`` is
not left out), so one met later is at ``d + 1`` or more.  Each entry is then
``min(exact, d + 1)``, no more than the exact one: with ``additive``, a sum
of such entries stays below the sum of exact ones, which is a lower bound.

States are bit fields (one per variable) in an int64, changed with bit
operations only.  The result is indexed by where each pattern value is
(every pattern value occurs exactly once: the caller checks it), the least
distance over everything else: a dense table of ``n ** len(pattern)``
bytes (:data:`UNREACHABLE` where no abstract state reaches the goal).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ....language.expr import Const
from ..compile import Task
from ..statespace.backward import relation
from ..statespace.codesets import distinct, fresh
from ..statespace.packing import Packed, signed

UNREACHABLE = 255
"""Table entry of pattern placements from which the abstract goal cannot be reached."""


class BuildError(ValueError):
    """The abstraction cannot be built as asked (the message says why)."""


@dataclass(frozen=True)
class Abstraction:
    """Which values a pattern database keeps, and how its moves are charged."""

    pattern: tuple[int, ...]
    kept: tuple[int, ...]  # the pattern's values and the actions' constants, sorted
    additive: bool


@dataclass
class Partial:
    """A build stopped after distance layer ``distance``, and what it needs to go on.

    * ``table`` — the entries of every placement met in layers ``0..distance``
      (the others are :data:`UNREACHABLE` so far);
    * ``layers`` — the layers the next one is checked against, the last being
      layer ``distance`` (the last two when moves can be undone, else all);
    * ``states`` — abstract states in layers ``0..distance`` (a measure of the
      work done: :func:`.pdb.arrangements` is the whole).

    Every layer is closed under cost-0 moves, so an abstract state outside
    layers ``0..distance`` is at distance ``distance + 1`` or more (or never
    reaches the goal): :meth:`estimate` reads unset entries as that.
    """

    distance: int
    table: np.ndarray
    layers: list[np.ndarray]
    states: int

    def estimate(self) -> np.ndarray:
        """The table with every unset entry read as ``distance + 1`` (a lower bound)."""
        out = self.table.copy()
        out[out == UNREACHABLE] = min(self.distance + 1, UNREACHABLE - 1)
        return out


def build_table(task: Task, packed: Packed, ab: Abstraction,
                progress: Callable[[int, int], None] | None = None,
                tick: Callable[[], None] | None = None,
                resume: Partial | None = None,
                keep: Callable[[Partial], None] | None = None) -> np.ndarray:
    """The dense distance table of ``ab`` (see the module docstring).

    ``progress(distance, states)`` is called after each distance layer,
    ``tick()`` between steps within one (it may raise to stop the build).
    ``keep(partial)`` is given the :class:`Partial` build after each layer
    (before ``progress``): what to save if the build is stopped.  With
    ``resume`` (a :class:`Partial` of this abstraction, its table updated
    in place) the build goes on from there and gives the same table.
    """
    space = _Space(task, packed, ab, tick or _nothing)
    goal = task.goal_state
    if goal is None:
        raise BuildError("the goal is not a single state")
    keep_all = not space.symmetric
    if resume is None:
        table = np.full(len(task.names) ** len(ab.pattern), UNREACHABLE, np.uint8)
        d, layer, older = 0, space.closure(np.array([space.encode(goal)], np.int64), []), []
        states = 0
    else:
        table, d, older, states = resume.table, resume.distance, resume.layers, resume.states
        layer = _next(space, older)
        d += 1
    while layer.size:
        if d >= UNREACHABLE:
            raise BuildError(f"abstract distances reach {UNREACHABLE}; a table holds bytes")
        space.record(table, layer, d)
        older = (older + [layer]) if keep_all else (older[-1:] + [layer])
        states += int(layer.size)
        if keep is not None:
            keep(Partial(d, table, older, states))
        space.tick()
        if progress is not None:
            progress(d, int(layer.size))
        layer = _next(space, older)
        d += 1
    return table


def _next(space: _Space, older: list[np.ndarray]) -> np.ndarray:
    """The layer after ``older[-1]``: its cost-1 predecessors, closed under cost-0 ones,
    minus ``older``."""
    return space.closure(fresh(space.step(older[-1], 1), older, space.room), older)


class _Space:
    """The abstract states of one abstraction, as bit fields, and their predecessors."""

    def __init__(self, task: Task, packed: Packed, ab: Abstraction,
                 tick: Callable[[], None]) -> None:
        self.task, self.ab, self.tick = task, ab, tick
        n = len(task.names)
        low = min(task.lo)
        self.low = low
        codes = np.full(max(task.hi) - low + 1, len(ab.kept), np.int64)  # don't care
        for c, v in enumerate(ab.kept):
            if low <= v <= max(task.hi):
                codes[v - low] = c
        self.codes = codes
        self.bits = max(1, len(ab.kept).bit_length())
        if n * self.bits > 64:
            raise BuildError(f"{n} variables of {self.bits} bits do not fit in 64 bits")
        self.room = n * self.bits <= 62  # codes in [0, 2**62): see codesets.fresh
        self.mask = (1 << self.bits) - 1
        self.shift = [self.bits * (n - 1 - i) for i in range(n)]
        pattern_codes = {ab.kept.index(v) for v in ab.pattern}
        self.weight = np.zeros(1 << self.bits, np.int64)  # code -> n ** (its slot)
        for j, v in enumerate(ab.pattern):
            self.weight[ab.kept.index(v)] = n ** j
        self.tables: list[dict[int, tuple]] = []
        self.rows: set[tuple] = set()
        pins: list[set[tuple[int, int]]] = []
        for k in range(len(task.actions)):
            rel = relation(packed, k)
            cost = task.actions[k].cost
            if not isinstance(cost, Const):
                raise BuildError(f"action {task.action_names[k]!r}: its cost is not a constant")
            if int(cost.value) not in (0, 1):  # the 0-1 BFS follows no other cost
                raise BuildError(f"action {task.action_names[k]!r} costs {cost.value}; the "
                                 "tables are built for actions costing 0 or 1")
            self.tables.append({} if rel is None else
                               self._tables(rel, int(cost.value), pattern_codes))
            pins.append(self._after_pins(k))
        self.groups = Task._group(pins)  # the successor function's greedy grouping
        self.symmetric = all((u, a, b, c) in self.rows for u, b, a, c in self.rows)

    def encode(self, state) -> int:
        """The abstract code of a concrete state (as a signed 64-bit integer: fields may fill
        all 64 bits, and bit operations do not care about the sign)."""
        return signed(sum(int(self.codes[v - self.low]) << sh
                          for v, sh in zip(state, self.shift)))

    def field(self, codes: np.ndarray, i: int) -> np.ndarray:
        """The code of variable ``i`` in each state."""
        return (codes >> self.shift[i]) & self.mask

    def _tables(self, rel, c: int, pattern_codes: set[int]) -> dict[int, tuple]:
        """Per cost, the predecessor table of action ``k``: keyed by the codes after it."""
        used, before, after = rel
        cb = np.stack([self.codes[before[i] - self.low] for i in used])
        ca = np.stack([self.codes[after[i] - self.low] for i in used])
        changed = cb != ca
        moved = changed & (np.isin(cb, list(pattern_codes)) | np.isin(ca, list(pattern_codes)))
        cost = np.where(moved.any(axis=0), c, 0) if self.ab.additive else np.full(cb.shape[1], c)
        keep = changed.any(axis=0)
        rows = np.unique(np.vstack([cb, ca, cost])[:, keep], axis=1)
        m = len(used)
        out: dict[int, tuple] = {}
        for col in rows.T:
            self.rows.add((tuple(used), tuple(col[:m]), tuple(col[m:2 * m]), int(col[2 * m])))
        for cost_value in np.unique(rows[2 * m]) if rows.size else []:
            part = rows[:, rows[2 * m] == cost_value]
            key = np.zeros(part.shape[1], np.int64)
            for j in range(m):
                key |= part[m + j] << (self.bits * j)
            order = np.argsort(key, kind="stable")
            key, part = key[order], part[:, order]
            counts = np.bincount(key, minlength=1 << (self.bits * m))
            slot = np.arange(key.size) - np.searchsorted(key, key)
            width = int(counts.max())
            before_codes = np.zeros((counts.size, width), np.int64)
            clear = np.int64(0)
            for j, i in enumerate(used):
                before_codes[key, slot] |= part[j] << self.shift[i]
                clear |= np.int64(self.mask) << np.int64(self.shift[i])
            out[int(cost_value)] = (used, counts, width, before_codes, ~clear)
        return out

    def _after_pins(self, k: int) -> set[tuple[int, int]]:
        """``(i, code)`` holding after every abstract move of action ``k``."""
        found: list[set[tuple[int, int]]] = []
        for used, counts, *_ in self.tables[k].values():
            keys = np.flatnonzero(counts)
            pins = set()
            for j, i in enumerate(used):
                vals = np.unique((keys >> (self.bits * j)) & self.mask)
                if vals.size == 1:
                    pins.add((i, int(vals[0])))
            found.append(pins)
        return set.intersection(*found) if found else set()

    def step(self, codes: np.ndarray, cost: int) -> np.ndarray:
        """Every abstract predecessor, by a move of cost ``cost``, of every state in ``codes``."""
        out = []
        for pin, members in self.groups:
            self.tick()
            sub = codes if pin is None else codes[self.field(codes, pin[0]) == pin[1]]
            if not sub.size:
                continue
            fields: dict[int, np.ndarray] = {}
            for k in members:
                tab = self.tables[k].get(cost)
                if tab is None:
                    continue
                used, counts, width, before_codes, keep = tab
                key = np.zeros(sub.size, np.int64)
                for j, i in enumerate(used):
                    if i not in fields:
                        fields[i] = self.field(sub, i)
                    key |= fields[i] << (self.bits * j)
                have = counts[key]
                for m in range(width):
                    idx = np.flatnonzero(have > m)
                    if not idx.size:
                        break
                    out.append((sub[idx] & keep) | before_codes[key[idx], m])
        return np.concatenate(out) if out else np.empty(0, np.int64)

    def closure(self, seeds: np.ndarray, older: list[np.ndarray]) -> np.ndarray:
        """``seeds`` and every state that reaches them by cost-0 moves, minus ``older``."""
        parts = [seeds]
        frontier = seeds
        while frontier.size:
            frontier = self.step(frontier, 0)
            self.tick()
            frontier = fresh(frontier, parts + older, self.room)
            if frontier.size:
                parts.append(frontier)
        return distinct(np.concatenate(parts))

    def record(self, table: np.ndarray, layer: np.ndarray, d: int) -> None:
        """Enter distance ``d`` for the pattern placements of ``layer`` not entered yet."""
        index = np.zeros(layer.size, np.int64)
        for i in range(len(self.shift)):
            w = self.weight[self.field(layer, i)]
            if i:
                index += w * i
        unset = table[index] == UNREACHABLE
        table[index[unset]] = d


def _nothing() -> None:
    return None
