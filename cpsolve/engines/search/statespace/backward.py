"""Vectorised predecessors, for :mod:`.vector`'s analysis.

They rest on one fact: an action only looks at the variables it reads or
writes (its *used* variables) and leaves the others alone.  So its whole
behaviour is a finite relation between used-variable values before and
after, found once by evaluating its guard and effects on every combination
(NumPy, whole grids at once):

* :class:`Backward` turns each action's relation into a table: the
  predecessors of ``t`` by action ``a`` depend only on ``t``'s used values
  (the *key*), so the table lists, for each key, what undoing the move adds
  to the packed code (one addition per predecessor, modulo 2**64; for codes
  of several words, one per word: a field lives in one word).

A written variable that the guard pins (:func:`cpsolve.model.pins.pins`) only takes
the value ``c`` before the action, which keeps the grids small (a sliding
tile's target cell must be empty; a block's cells hold its parts).

The actions are grouped by a pin ``x == c`` that holds after them
(:meth:`..compile.Task.after_groups`: a sliding puzzle's blank position), and
the tables of one group's actions are merged into one (:class:`Merged`), keyed
by the group's used variables other than the pin's: then a whole group costs
a handful of NumPy calls per layer whatever its number of actions, which is
what makes small layers cheap.
"""

from __future__ import annotations

import numpy as np

from ....model.pins import pins as guard_pins
from .packing import Packed, place_values

MAX_TABLE = 1 << 20
"""Most (key, written values) combinations one action's relation may enumerate."""

MAX_MERGED = 1 << 18
"""Most entries (keys times predecessors per key) of one group's merged table."""

MAX_MERGED_TOTAL = 1 << 22
"""Most entries of all merged tables together, times their words (36 MiB)."""


class TooLarge(ValueError):
    """Too many combinations to enumerate or tables too large to build: an action's
    relation, or :mod:`.stacked`'s tables (the message says which)."""


def relation(packed: Packed, k: int) -> tuple[list[int], dict[int, np.ndarray],
                                              dict[int, np.ndarray]] | None:
    """Action ``k`` as arrays: ``(used, before, after)``, one row per (state, move) pair.

    ``before[i]`` / ``after[i]`` are the values of used variable ``i``;
    rows where the guard fails or an effect leaves its domain are dropped.
    None when the action never applies.
    """
    task = packed.task
    used, writes = packed.used[k], packed.writes[k]
    pinned = guard_pins(task.actions[k].guard, task.model.domain)
    pins = {task.index[n]: v for n, v in pinned.items()}
    axes = []
    for i in used:
        if i in pins:
            if not task.lo[i] <= pins[i] <= task.hi[i]:
                return None
            axes.append(np.array([pins[i]], np.int64))
        else:
            axes.append(np.arange(task.lo[i], task.hi[i] + 1, dtype=np.int64))
    combos = 1
    for a in axes:
        combos *= a.size
    if combos > MAX_TABLE:
        raise TooLarge(f"action {task.action_names[k]!r} has {combos:,} value combinations")
    grid = [g.ravel() for g in np.meshgrid(*axes, indexing="ij")]
    before = dict(zip(used, grid))
    rows = grid[0].size if grid else 1
    good = np.broadcast_to(packed.guards[k](before), (rows,)) != 0
    after = dict(before)
    for i, v in zip(writes, packed.effects[k](before)):
        v = np.broadcast_to(np.asarray(v, np.int64), (rows,))
        good &= (v >= task.lo[i]) & (v <= task.hi[i])
        after[i] = v
    if not good.any():
        return None
    return used, {i: v[good] for i, v in before.items()}, {i: v[good] for i, v in after.items()}


class Backward:
    """Vectorised predecessors from per-action tables (see the module docstring)."""

    def __init__(self, packed: Packed, relations: list | None = None) -> None:
        self.p = packed
        task = packed.task
        self.relations = relations if relations is not None else [
            relation(packed, k) for k in range(len(task.actions))]
        self.tables = [self._table(k, rel) for k, rel in enumerate(self.relations)]
        self.merged_entries = 0
        self.groups = [(pin, members, self._merged(pin, members))
                       for pin, members in task.after_groups()]

    def _table(self, k: int, rel):
        p, task = self.p, self.p.task
        keys, writes = p.used[k], p.writes[k]
        key_radix = place_values([p.size[i] for i in keys])
        n_keys = key_radix[0] * p.size[keys[0]] if keys else 1
        if rel is None:
            return keys, key_radix, np.zeros(n_keys, np.int64), 0, None
        _, before, after = rel
        rows = next(iter(after.values())).size if after else 1
        # the key of a relation row is the state *after* the move, on the used variables
        key_of = np.zeros(rows, np.int64)
        for i, r in zip(keys, key_radix):
            key_of += (after[i] - task.lo[i]) * r
        # what the move's undoing adds to a packed code (modulo 2**64, like every code);
        # with several words, to each word (a field lives in one word)
        words = () if p.words == 1 else (p.words,)
        delta = np.zeros((rows, *words), np.int64)
        for i in writes:
            change = (before[i] - after[i]) * np.int64(p.radix[i])
            if words:
                delta[:, p.word_of[i]] += change
            else:
                delta += change
        order = np.argsort(key_of, kind="stable")
        key_of = key_of[order]
        counts = np.bincount(key_of, minlength=n_keys)
        width = int(counts.max()) if counts.size else 0
        slot = np.arange(key_of.size) - np.searchsorted(key_of, key_of)
        table = np.zeros((n_keys, max(width, 1), *words), np.int64)
        table[key_of, slot] = delta[order]
        return keys, key_radix, counts, width, table

    def _merged(self, pin: tuple[int, int] | None, members: list[int]) -> Merged | None:
        """The group's tables as one (None: too large; its actions are then looked up one
        by one)."""
        p, task = self.p, self.p.task
        keys = sorted({i for k in members for i in self.tables[k][0]}
                      - ({pin[0]} if pin is not None else set()))
        n_keys = 1
        for i in keys:
            n_keys *= p.size[i]
        width = sum(self.tables[k][3] for k in members)
        entries = n_keys * max(width, 1)
        held = entries * p.words  # an int64 per word
        if entries > MAX_MERGED or self.merged_entries + held > MAX_MERGED_TOTAL:
            return None
        self.merged_entries += held
        radix = place_values([p.size[i] for i in keys])
        axes = [np.arange(task.lo[i], task.hi[i] + 1, dtype=np.int64) for i in keys]
        value = dict(zip(keys, (g.ravel() for g in np.meshgrid(*axes, indexing="ij"))))
        if pin is not None:
            value[pin[0]] = np.full(n_keys, pin[1], np.int64)
        deltas, valid = [], []
        for k in members:
            used, used_radix, counts, w, table = self.tables[k]
            at = np.zeros(n_keys, np.int64)
            for i, r in zip(used, used_radix):
                at += (value[i] - task.lo[i]) * r
            for m in range(w):
                deltas.append(table[at, m])
                valid.append(counts[at] > m)
        if not deltas:
            words = () if p.words == 1 else (p.words,)
            return Merged(keys, radix, 0, np.zeros((n_keys, 0, *words), np.int64),
                          np.zeros((n_keys, 0), bool))
        base = sum(task.lo[i] * r for i, r in zip(keys, radix))
        return Merged(keys, radix, base,
                      np.stack(deltas, axis=1), np.stack(valid, axis=1))

    def step(self, codes: np.ndarray) -> np.ndarray:
        """Codes of every predecessor of every state in ``codes`` (with repeats)."""
        p = self.p
        cols = p.decode_matrix(codes)
        out = []
        for pin, members, merged in self.groups:
            if pin is None:
                rows, idx = codes, None
            else:
                idx = np.flatnonzero(cols[pin[0]] == pin[1])
                if not idx.size:
                    continue
                rows = codes[idx]
            if merged is not None:
                if merged.deltas.shape[1]:
                    out.append(merged.predecessors(rows, cols, idx))
                continue
            used = {i for k in members for i in self.tables[k][0]}
            sub = {i: cols[i] if idx is None else cols[i][idx] for i in used}
            out.extend(self._one_by_one(members, rows, sub))
        return np.concatenate(out) if out else p.empty()

    def _one_by_one(self, members: list[int], rows: np.ndarray, cols: dict):
        """The predecessors of ``rows`` by each action of ``members``, table by table."""
        task = self.p.task
        for k in members:
            keys, key_radix, counts, width, table = self.tables[k]
            if not width:
                continue
            key = None
            for i, r in zip(keys, key_radix):
                part = cols[i] - task.lo[i] if task.lo[i] else cols[i]
                part = part * r if r != 1 else part
                key = part if key is None else key + part
            if key is None:
                key = np.zeros(len(rows), np.int64)
            have = counts[key]
            if width == 1 and have.all():  # one predecessor each: no selection
                yield rows + table[key, 0]
                continue
            for m in range(width):
                idx = np.flatnonzero(have > m)
                if not idx.size:
                    break
                if idx.size == len(rows):
                    yield rows + table[key, m]
                else:
                    yield rows[idx] + table[key[idx], m]


class Merged:
    """One group's predecessor tables as one: row ``key`` of ``deltas`` holds what undoing
    each of the group's moves adds to a code whose key variables make ``key``
    (``valid`` says which of them exist; a last axis of words for multi-word codes)."""

    def __init__(self, keys: list[int], radix: list[int], base: int, deltas: np.ndarray,
                 valid: np.ndarray) -> None:
        self.keys, self.radix, self.base = keys, radix, base
        self.deltas, self.valid = deltas, valid
        self.all_valid = bool(valid.all())

    def predecessors(self, rows: np.ndarray, cols: np.ndarray,
                     idx: np.ndarray | None) -> np.ndarray:
        """The predecessor codes of ``rows`` (the states ``idx`` of the decoded ``cols``)."""
        key = None
        for i, r in zip(self.keys, self.radix):  # takes, not 2-D fancy indexing (3x faster)
            part = cols[i] if idx is None else cols[i].take(idx)
            part = part * r if r != 1 else part
            key = part if key is None else key + part
        if key is None:
            key = np.zeros(len(rows), np.intp)
        elif self.base:
            key -= self.base
        new = rows[:, None] + self.deltas.take(key, axis=0)
        new = new.reshape(-1, *new.shape[2:])
        if self.all_valid:
            return new
        valid = self.valid.take(key, axis=0)
        return new if valid.all() else new.compress(valid.ravel(), axis=0)
