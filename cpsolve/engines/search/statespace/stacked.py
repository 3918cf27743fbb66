"""Vectorised steps from stacked tables, for :mod:`.vector`'s sweeps on multi-word codes.

The relations of :func:`.backward.relation` (an action's used-variable values
before and after, enumerated once) give the successors: keyed by the values
*before* the move, each key has at most one successor, and the move adds a
fixed amount to the packed code (to one word per written field when codes
have several words).  Keyed by the values *after*, they give the
predecessors, several per key when a move forgets a value.

Evaluating the compiled guards and effects (:meth:`.packing.Packed.forward`)
costs a handful of NumPy calls per action and layer, and so does looking
actions up one table at a time; this dominates when there are many actions
and small layers (Klotski: 188 actions, layers of a few hundred states).  Here
the actions of one group (:meth:`..compile.Task.guard_groups` forward,
:meth:`..compile.Task.after_groups` backward) are looked up together: their
tables are stacked into one, and a two-dimensional key (action, state) is read
from the codes' fields, so that a group costs about fifteen NumPy calls per
layer whatever its number of actions.
"""

from __future__ import annotations

import numpy as np

from .backward import TooLarge
from .packing import Packed, place_values

MAX_ENTRIES = 1 << 22
"""Most table entries (an int64 per key, slot and word: 32 MiB) of all groups together."""

DEAD = -(1 << 40)
"""The digit of a value an action's relation never holds: its key goes below 0 (the dead
entry, first in the table)."""


class Group:
    """One group's actions as one stacked table (see the module docstring).

    ``rels``: per action, ``(used, key side, other side)`` — the relation's values
    before and after the move for successors, after and before for predecessors.
    An action's key counts only the values its relation holds on the key side:
    each used variable's value becomes a digit through a small map (a variable
    the guard pins to one value has one digit, 0; a value outside the relation
    maps to :data:`DEAD`, which makes the key negative and selects the dead
    entry).  So a 2x2 block's slide in Klotski, which pins six cells, has as
    many entries as values of the one cell it does not pin.  A key may have
    several entries (*slots*: several predecessors), each a delta to the code.
    """

    def __init__(self, packed: Packed, pin: tuple[int, int] | None, rels: list,
                 room: int) -> None:
        task, words = packed.task, (() if packed.words == 1 else (packed.words,))
        self.pin = pin
        values = [[np.unique(side[i]) for i in used] for used, side, _ in rels]
        keys = [int(np.prod([v.size for v in vals])) for vals in values]
        slots, width = [], max(len(rel[0]) for rel in rels)
        self.var = np.zeros((len(rels), width), np.intp)  # padding: variable 0, digit 0
        self.at = np.zeros((len(rels), width), np.int64)  # where the digit map starts
        maps, offsets, rows, start, mapped = [], [], [], 1, 0
        for a, ((used, side, _), vals) in enumerate(zip(rels, values)):
            radix = place_values([v.size for v in vals])
            key = np.full(next(iter(side.values())).size if side else 1, start, np.int64)
            for j in range(width):
                i = used[j] if j < len(used) else 0
                digit = np.full(packed.size[i], DEAD if j < len(used) else 0, np.int64)
                if j < len(used):
                    digit[vals[j] - task.lo[i]] = np.arange(vals[j].size) * radix[j]
                    key += digit[side[i] - task.lo[i]]
                self.var[a, j] = i
                self.at[a, j] = mapped - task.lo[i]
                maps.append(digit)
                mapped += digit.size
            order = np.argsort(key, kind="stable")
            slot = np.empty(key.size, np.int64)  # the row's rank among the rows of its key
            slot[order] = np.arange(key.size) - np.searchsorted(key[order], key[order])
            rows.append((key, slot))
            slots.append(int(slot.max()) + 1 if slot.size else 1)
            offsets.append(start)
            start += keys[a]
        self.slots = max(slots)
        self.entries = packed.words * self.slots * start  # an int64 per word and slot
        if self.entries > room:
            raise TooLarge(f"the tables exceed {MAX_ENTRIES:,} entries")
        self.valid = np.zeros((start, self.slots), bool)
        self.delta = np.zeros((start, self.slots, *words), np.int64)
        for (used, side, other), (key, slot) in zip(rels, rows):
            self.valid[key, slot] = True
            for i in used:
                change = (other[i] - side[i]) * np.int64(packed.radix[i])
                if words:
                    self.delta[key, slot, packed.word_of[i]] += change
                else:
                    self.delta[key, slot] += change
        self.valid = self.valid.ravel()
        self.delta = self.delta.reshape(start * self.slots, *words)
        self.offset = np.array(offsets, np.int64)[:, None]
        self.var_flat, self.at_col = self.var.ravel(), self.at.reshape(-1, 1)
        self.fields = packed.shifts is not None  # values read from the codes' bit fields
        if self.fields:
            flat = self.var_flat.tolist()
            self.shift_col = np.array([packed.shifts[i] for i in flat], np.int64)[:, None]
            self.mask_col = np.array([packed.masks[i] for i in flat], np.int64)[:, None]
            self.word_flat = np.array([packed.word_of[i] if words else 0 for i in flat],
                                      np.intp)
            self.at_col = self.at_col + np.array([task.lo[i] for i in flat])[:, None]
        self.maps = np.concatenate(maps) if maps else np.zeros(0, np.int64)

    def successors(self, codes: np.ndarray, cols: np.ndarray,
                   words: np.ndarray) -> np.ndarray | None:
        """The codes the group's actions lead to from ``codes`` (decoded: ``cols``; their
        words as rows, sign bits flipped back: ``words``)."""
        idx = None
        if self.pin is not None:
            idx = np.flatnonzero(cols[self.pin[0]] == self.pin[1])
            if not idx.size:
                return None
        n = len(codes) if idx is None else idx.size
        m, width = self.var.shape
        # every action's used values, one row each (the fields: fewer than all columns)
        if self.fields:
            value = (words if idx is None else words.take(idx, axis=1)).take(self.word_flat,
                                                                             axis=0)
            value >>= self.shift_col
            value &= self.mask_col
        else:
            value = (cols.take(self.var_flat, axis=0) if idx is None
                     else cols[self.var_flat[:, None], idx])
        value += self.at_col
        key = self.maps.take(value).reshape(m, width, n).sum(axis=1)
        key += self.offset
        key = np.maximum(key.ravel(), 0)  # action-major: a * n + r is action a on row r
        if self.slots > 1:  # entry key * slots + s is slot s of the key
            key = (key[:, None] * self.slots + np.arange(self.slots)).ravel()
        hit = np.flatnonzero(self.valid.take(key))
        if not hit.size:
            return None
        rows = hit // self.slots % n if self.slots > 1 else hit % n
        new = codes.take(rows if idx is None else idx.take(rows), axis=0)
        new += self.delta.take(key.take(hit), axis=0)
        return new


class Stacked:
    """Vectorised successors (or, ``backward``, predecessors), one stacked table per group
    (relations: per action, :func:`.backward.relation`'s or None);
    :class:`.backward.TooLarge` beyond :data:`MAX_ENTRIES`."""

    def __init__(self, packed: Packed, relations: list, backward: bool = False) -> None:
        self.p = packed
        self.groups = []
        entries = 0
        task = packed.task
        for pin, members in task.after_groups() if backward else task.guard_groups():
            rels = [(rel[0], rel[2], rel[1]) if backward else rel
                    for rel in (relations[k] for k in members) if rel is not None]
            if rels:
                self.groups.append(Group(packed, pin, rels, MAX_ENTRIES - entries))
                entries += self.groups[-1].entries

    def step(self, codes: np.ndarray) -> np.ndarray:
        """Codes of every successor (predecessor) of every state in ``codes`` (with repeats)."""
        p = self.p
        cols = p.decode_matrix(codes)
        words = codes.reshape(len(codes), -1).T
        words = np.ascontiguousarray(words ^ np.int64(p.offset) if p.offset else words)
        out = [new for g in self.groups
               if (new := g.successors(codes, cols, words)) is not None]
        return np.concatenate(out) if out else self.p.empty()
