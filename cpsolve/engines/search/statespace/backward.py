"""Vectorised predecessors, for :mod:`.vector`'s analysis.

They rest on one fact: an action only looks at the variables it reads or
writes (its *used* variables) and leaves the others alone.  So its whole
behaviour is a finite relation between used-variable values before and
after, found once by evaluating its guard and effects on every combination
(NumPy, whole grids at once):

* :class:`Backward` turns each action's relation into a table: the
  predecessors of ``t`` by action ``a`` depend only on ``t``'s used values
  (the *key*), so the table lists, for each key, what undoing the move adds
  to the packed code (one addition per predecessor, modulo 2**64).

A written variable that the guard pins (:func:`cpsolve.facts.pins`) only takes
the value ``c`` before the action, which keeps the grids small (a sliding
tile's target cell must be empty; a block's cells hold its parts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ....facts import pins as guard_pins

if TYPE_CHECKING:
    from .packing import Packed

MAX_TABLE = 1 << 20
"""Most (key, written values) combinations one action's relation may enumerate."""


class TooLarge(ValueError):
    """An action's relation has too many combinations to enumerate (the message says which)."""


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

    def __init__(self, packed: Packed) -> None:
        self.p = packed
        task = packed.task
        self.relations = [relation(packed, k) for k in range(len(task.actions))]
        self.tables = [self._table(k, rel) for k, rel in enumerate(self.relations)]
        self.groups = task.after_groups()

    def _table(self, k: int, rel):
        p, task = self.p, self.p.task
        keys, writes = p.used[k], p.writes[k]
        key_radix = [1] * len(keys)
        for j in range(len(keys) - 2, -1, -1):
            key_radix[j] = key_radix[j + 1] * p.size[keys[j + 1]]
        n_keys = key_radix[0] * p.size[keys[0]] if keys else 1
        if rel is None:
            return keys, key_radix, np.zeros(n_keys, np.int64), 0, None
        _, before, after = rel
        rows = next(iter(after.values())).size if after else 1
        # the key of a relation row is the state *after* the move, on the used variables
        key_of = np.zeros(rows, np.int64)
        for i, r in zip(keys, key_radix):
            key_of += (after[i] - task.lo[i]) * r
        # what the move's undoing adds to a packed code (modulo 2**64, like every code)
        delta = np.zeros(rows, np.int64)
        for i in writes:
            delta += (before[i] - after[i]) * np.int64(p.radix[i])
        order = np.argsort(key_of, kind="stable")
        key_of = key_of[order]
        counts = np.bincount(key_of, minlength=n_keys)
        width = int(counts.max()) if counts.size else 0
        slot = np.arange(key_of.size) - np.searchsorted(key_of, key_of)
        table = np.zeros((n_keys, max(width, 1)), np.int64)
        table[key_of, slot] = delta[order]
        return keys, key_radix, counts, width, table

    def step(self, codes: np.ndarray) -> np.ndarray:
        """Codes of every predecessor of every state in ``codes`` (with repeats)."""
        p, task = self.p, self.p.task
        out = []
        for members, rows, cols in p.subsets(codes, self.groups):
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
                    out.append(rows + table[key, 0])
                    continue
                for m in range(width):
                    idx = np.flatnonzero(have > m)
                    if not idx.size:
                        break
                    if idx.size == rows.size:
                        out.append(rows + table[key, m])
                    else:
                        out.append(rows[idx] + table[key[idx], m])
        return np.concatenate(out) if out else np.empty(0, np.int64)
