"""States packed into int64 codes, and every action evaluated on whole arrays of them.

A state is packed into one int64, the first variable most significant so
that codes sort like state tuples: a mixed-radix number when the code space
is small enough for a bit map of visited codes (:data:`BITMAP_BITS`), else
one bit field per variable (decoding is then a shift and a mask).  Fields of
63 or 64 bits in all (sixteen 4-bit cells: a 15-puzzle) use the whole word:
the code is the unsigned number minus 2**63 (:data:`SIGN`), which keeps the
order of state tuples in signed int64; moves add to it as before (modulo
2**64) and decoding flips the sign bit back first.  Every
action's guard and effects — the model's expression trees, compiled to NumPy
source by :mod:`..emit` — are evaluated on all states of a layer at once
(only on the rows where a pinned guard conjunct ``x == c`` holds, as in
:mod:`..compile`).
"""

from __future__ import annotations

import numpy as np

from ....expr import bounds
from ..compile import Task
from ..emit import build_many, np_helpers, source

BITMAP_BITS = 1 << 27
"""Largest code space tracked with a bit map (16 MiB); larger ones use a sorted array."""

WORD_BITS = 64
"""Most bits of fields one code may hold."""

SIGN = -(1 << 63)
"""The sign bit of an int64: codes of full 64-bit fields are offset by it."""


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
        self.offset = 0  # SIGN when the fields fill 63 or 64 bits
        bits = [(z - 1).bit_length() for z in self.size]
        if self.space > BITMAP_BITS and sum(bits) <= WORD_BITS:
            self.shifts = [sum(bits[i + 1:]) for i in range(n)]
            self.masks = [(1 << b) - 1 for b in bits]
            self.radix = [_signed(1 << sh) for sh in self.shifts]
            self.space = 1 << sum(bits)
            if sum(bits) > 62:
                self.offset = SIGN
            self._shift_col = np.array(self.shifts, np.int64)[:, None]
            self._mask_col = np.array(self.masks, np.int64)[:, None]
            self._lo_col = np.array(task.lo, np.int64)[:, None]
            self._lo_any = any(task.lo)
        if self.space > 1 << WORD_BITS:
            raise Unpackable(f"{self.space:.3g} codes do not fit in {WORD_BITS} bits")
        if task.model.forbidden:
            raise Unpackable("forbidden conditions are checked by the plain analysis")
        env = np_helpers(np)

        def ref(name: str) -> str:
            return f"c[{task.index[name]}]"

        self.used, self.writes, self.checked = [], [], []
        texts, names = [], []  # every action's guard and effects, compiled at once
        for k, a in enumerate(task.actions):
            order = sorted(task.index[v] for v in a.writes())
            by_index = {task.index[v]: e for v, e in a.effects}
            effs = "".join(f"{source(by_index[i], ref, 'v', 'np')}, " for i in order)
            texts.append(f"def guard_{k}(c):\n    return {source(a.guard, ref, 'c', 'np')}\n"
                         f"def effects_{k}(c):\n    return ({effs})\n")
            names += [f"guard_{k}", f"effects_{k}"]
            self.used.append(sorted({task.index[v] for v in a.reads()} | set(order)))
            self.writes.append(order)
            self.checked.append([i for i in order if not _within(by_index[i], task, i)])
        built = build_many("".join(texts), env, tuple(names)) if texts else []
        self.guards, self.effects = built[0::2], built[1::2]
        self.groups = task.guard_groups()

    def encode(self, state) -> int:
        """The code of a state tuple."""
        code = sum((v - lo) * r for v, lo, r in zip(state, self.task.lo, self.radix))
        return _signed(code + self.offset) if self.offset else code

    def decode(self, codes: np.ndarray) -> list[np.ndarray]:
        """One value column per variable."""
        if self.shifts is not None:
            if self.offset:
                codes = codes ^ np.int64(self.offset)
            return [((codes >> sh) & mask) + lo if lo else (codes >> sh) & mask
                    for sh, mask, lo in zip(self.shifts, self.masks, self.task.lo)]
        cols: list[np.ndarray] = []
        rest = codes
        for size, lo in zip(reversed(self.size), reversed(self.task.lo)):
            rest, digit = np.divmod(rest, size)
            cols.append(digit + lo if lo else digit)
        cols.reverse()
        return cols

    def decode_matrix(self, codes: np.ndarray) -> np.ndarray:
        """The values as one array, a row per variable (two NumPy calls for bit fields)."""
        if self.shifts is None:
            return np.stack(self.decode(codes)) if self.size else np.empty((0, codes.size))
        if self.offset:
            codes = codes ^ np.int64(self.offset)
        cols = codes >> self._shift_col
        cols &= self._mask_col  # in place: ``(codes >> s) & m`` is 20x slower in NumPy 2.4
        if self._lo_any:
            cols += self._lo_col
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
            new = new.compress(ok)
        return new if new.size else None


def _signed(code: int) -> int:
    """``code`` modulo 2**64, as a signed 64-bit integer."""
    code &= (1 << 64) - 1
    return code - (1 << 64) if code >= 1 << 63 else code


def _within(expr, task: Task, i: int) -> bool:
    lo, hi = bounds(expr, task.model.domain)
    return task.lo[i] <= lo and hi <= task.hi[i]
