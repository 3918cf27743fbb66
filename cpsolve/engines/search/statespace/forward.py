"""Vectorised successors from tables, for :mod:`.vector`'s forward sweeps.

The relations of :func:`.backward.relation` (an action's used-variable values
before and after, enumerated once) also give the successors: keyed by the
values *before* the move, each key has at most one successor, and the move
adds a fixed amount to the packed code (to one word per written field when
codes have several words).

Evaluating the compiled guards and effects (:meth:`.packing.Packed.forward`)
costs a handful of NumPy calls per action and layer, which dominates when
there are many actions and small layers (Klotski: 188 actions, layers of a few
hundred states).  Here the actions of one guard group
(:meth:`..compile.Task.guard_groups`) are looked up together: the tables of
the group's actions are stacked into one, and a two-dimensional key (action,
state) is gathered from the decoded columns, so that a group costs about
fifteen NumPy calls per layer whatever its number of actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .packing import Packed

MAX_ENTRIES = 1 << 22
"""Most table entries (one per action, key and word: 32 MiB) of all groups together."""


class TooLarge(ValueError):
    """The stacked tables would exceed :data:`MAX_ENTRIES` (the message says how far)."""


DEAD = -(1 << 40)
"""The digit of a value an action's relation never holds: its key goes below 0 (the dead
entry, first in the table)."""


class Group:
    """One guard group's actions as one stacked table (see the module docstring).

    An action's key counts only the values its relation holds before the move:
    each used variable's value becomes a digit through a small map (a variable
    the guard pins to one value has one digit, 0; a value outside the relation
    maps to :data:`DEAD`, which makes the key negative and selects the dead
    entry).  So a 2x2 block's slide in Klotski, which pins six cells, has as
    many entries as values of the one cell it does not pin.
    """

    def __init__(self, packed: Packed, pin: tuple[int, int] | None, rels: list,
                 room: int) -> None:
        task, words = packed.task, (() if packed.words == 1 else (packed.words,))
        self.pin = pin
        values = [[np.unique(before[i]) for i in used] for used, before, _ in rels]
        self.entries = packed.words * (  # an int64 per word, a key per action's values
            1 + sum(int(np.prod([v.size for v in vals])) for vals in values))
        if self.entries > room:
            raise TooLarge(f"the successor tables exceed {MAX_ENTRIES:,} entries")
        width = max(len(rel[0]) for rel in rels)
        self.var = np.zeros((len(rels), width), np.intp)  # padding: variable 0, digit 0
        self.at = np.zeros((len(rels), width), np.int64)  # where the digit map starts
        maps, valid, delta, offsets, start, mapped = [], [np.zeros(1, bool)], [], [], 1, 0
        delta.append(np.zeros((1, *words), np.int64))
        for a, ((used, before, after), vals) in enumerate(zip(rels, values)):
            radix = [1] * len(used)
            for j in range(len(used) - 2, -1, -1):
                radix[j] = radix[j + 1] * vals[j + 1].size
            n_keys = radix[0] * vals[0].size if used else 1
            key = np.full(next(iter(before.values())).size if before else 1, start, np.int64)
            for j in range(width):
                i = used[j] if j < len(used) else 0
                digit = np.full(packed.size[i], DEAD if j < len(used) else 0, np.int64)
                if j < len(used):
                    digit[vals[j] - task.lo[i]] = np.arange(vals[j].size) * radix[j]
                    key += digit[before[i] - task.lo[i]]
                self.var[a, j] = i
                self.at[a, j] = mapped - task.lo[i]
                maps.append(digit)
                mapped += digit.size
            table = np.zeros((n_keys, *words), np.int64)
            for i in used:
                change = (after[i] - before[i]) * np.int64(packed.radix[i])
                if words:
                    table[key - start, packed.word_of[i]] += change
                else:
                    table[key - start] += change
            ok = np.zeros(n_keys, bool)
            ok[key - start] = True
            offsets.append(start)
            valid.append(ok)
            delta.append(table)
            start += n_keys
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
        self.valid, self.delta = np.concatenate(valid), np.concatenate(delta)

    def successors(self, codes: np.ndarray, cols: np.ndarray,
                   words: np.ndarray) -> np.ndarray | None:
        """The successor codes of ``codes`` (decoded: ``cols``; their words as rows,
        sign bits flipped back: ``words``) by the group's actions."""
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
        key = key.ravel()  # action-major: entry a * n + r is action a on row r
        hit = np.flatnonzero(self.valid.take(key, mode="clip"))
        if not hit.size:
            return None
        rows = hit % n
        new = codes.take(rows if idx is None else idx.take(rows), axis=0)
        new += self.delta.take(key.take(hit), axis=0)
        return new


class Forward:
    """Vectorised successors, one stacked table per guard group (relations: per action,
    :func:`.backward.relation`'s or None); :class:`TooLarge` beyond :data:`MAX_ENTRIES`."""

    def __init__(self, packed: Packed, relations: list) -> None:
        self.p = packed
        self.groups = []
        entries = 0
        for pin, members in packed.task.guard_groups():
            rels = [relations[k] for k in members if relations[k] is not None]
            if rels:
                self.groups.append(Group(packed, pin, rels, MAX_ENTRIES - entries))
                entries += self.groups[-1].entries

    def step(self, codes: np.ndarray) -> np.ndarray:
        """Codes of every successor of every state in ``codes`` (with repeats)."""
        p = self.p
        cols = p.decode_matrix(codes)
        words = codes.reshape(len(codes), -1).T
        words = np.ascontiguousarray(words ^ np.int64(p.offset) if p.offset else words)
        out = [new for g in self.groups
               if (new := g.successors(codes, cols, words)) is not None]
        return np.concatenate(out) if out else self.p.empty()
