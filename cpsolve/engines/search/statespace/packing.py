"""States packed into int64 codes, and every action evaluated on whole arrays of them.

A state is packed into one int64, the first variable most significant so
that codes sort like state tuples: a mixed-radix number when the code space
is small enough for a bit map of visited codes (:data:`BITMAP_BITS`), else
one bit field per variable (decoding is then a shift and a mask).  Fields of
63 or 64 bits in all (sixteen 4-bit cells: a 15-puzzle) use the whole word:
the code is the unsigned number minus 2**63 (:data:`SIGN`), which keeps the
order of state tuples in signed int64; moves add to it as before (modulo
2**64) and decoding flips the sign bit back first.

Fields of more than 64 bits in all (Klotski's twenty cells and the last
moved piece: 85 bits; a 24-puzzle: 125) are packed into several words when
the caller allows it (``max_words``): each word holds whole fields, at most
:data:`FIELD_BITS` bits, the first variable most significant in the first
word, so that the rows of an ``(n, words)`` array of codes sort like state
tuples (word by word).  Every field lives in one word, so a move adds to one
word per variable it writes.  :mod:`.wordsets` keeps sets of such rows.  Every
action's guard and effects — the model's expression trees, compiled to NumPy
source by :mod:`..emit` — are evaluated on all states of a layer at once
(only on the rows where a pinned guard conjunct ``x == c`` holds, as in
:mod:`..compile`).
"""

from __future__ import annotations

import numpy as np

from ....language.intervals import bounds
from ....language.quoting import short_number
from ..compile import Task
from ..emit import build_many, np_helpers, source

BITMAP_BITS = 1 << 27
"""Largest code space tracked with a bit map (16 MiB); larger ones use a sorted array."""

WORD_BITS = 64
"""Most bits of fields one code may hold."""

SIGN = -(1 << 63)
"""The sign bit of an int64: codes of full 64-bit fields are offset by it."""

FIELD_BITS = 63
"""Most bits of fields one word of a multi-word code holds (words stay non-negative)."""


class Unpackable(ValueError):
    """The model does not fit this representation (the reason is the message)."""


class Packed:
    """Mixed-radix packing of a task's states, with vectorised actions.

    ``max_words``: states whose fields need more than 64 bits are packed into
    up to that many words (``words``; codes are then ``(n, words)`` arrays);
    beyond, :class:`Unpackable`.
    """

    def __init__(self, task: Task, max_words: int = 1) -> None:
        self.task = task
        self.words = 1
        n = len(task.names)
        self.size = [hi - lo + 1 for lo, hi in zip(task.lo, task.hi)]
        self.radix = place_values(self.size)
        self.space = self.radix[0] * self.size[0]
        self.shifts: list[int] | None = None  # bit fields instead of mixed radix
        self.offset = 0  # SIGN when the fields fill 63 or 64 bits
        bits = [(z - 1).bit_length() for z in self.size]
        if self.space > BITMAP_BITS and sum(bits) <= WORD_BITS:
            self.shifts = [sum(bits[i + 1:]) for i in range(n)]
            self.masks = [(1 << b) - 1 for b in bits]
            self.radix = [signed(1 << sh) for sh in self.shifts]
            self.space = 1 << sum(bits)
            if sum(bits) > 62:
                self.offset = SIGN
            self._shift_col = np.array(self.shifts, np.int64)[:, None]
            self._mask_col = np.array(self.masks, np.int64)[:, None]
            self._lo_col = np.array(task.lo, np.int64)[:, None]
            self._lo_any = any(task.lo)
        if self.space > 1 << WORD_BITS and max_words > 1 and sum(bits) > WORD_BITS:
            self._words(bits)
            if self.words > max_words:
                raise Unpackable(f"{sum(bits)} bits of fields need {self.words} words")
        if self.space > 1 << WORD_BITS and self.words == 1:
            raise Unpackable(f"{short_number(self.space)} codes do not fit in {WORD_BITS} bits")
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

    def _words(self, bits: list[int]) -> None:
        """Bit fields in several words of at most :data:`FIELD_BITS` bits, in variable order."""
        self.word_of, spans, used = [], [[0, 0]], 0
        for i, b in enumerate(bits):
            if used + b > FIELD_BITS and used:
                spans.append([i, i])
                used = 0
            used += b
            spans[-1][1] = i + 1
            self.word_of.append(len(spans) - 1)
        self.words, self.spans = len(spans), [(a, b) for a, b in spans]
        self.shifts = [sum(bits[i + 1:b]) for a, b in self.spans for i in range(a, b)]
        self.masks = [(1 << b) - 1 for b in bits]
        self.radix = [1 << sh for sh in self.shifts]
        self.space = 1 << sum(bits)
        self._word_cols = [(np.array(self.shifts[a:b], np.int64)[:, None],
                            np.array(self.masks[a:b], np.int64)[:, None]) for a, b in self.spans]
        self._lo_col = np.array(self.task.lo, np.int64)[:, None]
        self._lo_any = any(self.task.lo)

    def empty(self) -> np.ndarray:
        """No codes: shape ``(0,)``, or ``(0, words)``."""
        return np.empty((0,) if self.words == 1 else (0, self.words), np.int64)

    def array(self, states) -> np.ndarray:
        """The codes of state tuples as one array (a row per state for several words)."""
        return np.array([self.encode(s) for s in states], np.int64).reshape(
            (-1,) if self.words == 1 else (-1, self.words))

    def encode(self, state) -> int | tuple[int, ...]:
        """The code of a state tuple (a tuple of words for several words)."""
        if self.words > 1:
            out = [0] * self.words
            for v, lo, r, w in zip(state, self.task.lo, self.radix, self.word_of):
                out[w] += (v - lo) * r
            return tuple(out)
        code = sum((v - lo) * r for v, lo, r in zip(state, self.task.lo, self.radix))
        return signed(code + self.offset) if self.offset else code

    def decode(self, codes: np.ndarray) -> list[np.ndarray]:
        """One value column per variable."""
        if self.words > 1:
            return list(self.decode_matrix(codes))
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
        if self.words > 1:
            cols = np.empty((len(self.size), len(codes)), np.int64)
            for (a, b), (shift, mask), word in zip(self.spans, self._word_cols, codes.T):
                np.right_shift(np.ascontiguousarray(word), shift, out=cols[a:b])
                cols[a:b] &= mask
            if self._lo_any:
                cols += self._lo_col
            return cols
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
        return np.concatenate(out) if out else self.empty()

    def labelled(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every successor of every state in one-word ``codes``, with where it comes from:
        positions in ``codes``, action indices and successor codes (three arrays)."""
        where, actions, out = [], [], []
        cols = self.decode(codes)
        for pin, members in self.groups:
            rows = np.arange(len(codes)) if pin is None else \
                np.flatnonzero(cols[pin[0]] == pin[1])
            if not rows.size:
                continue
            sub = {i: cols[i][rows] for i in {i for k in members for i in self.used[k]}}
            for k in members:
                idx = np.flatnonzero(np.broadcast_to(self.guards[k](sub), (rows.size,)))
                if not idx.size:
                    continue
                new, ok = self._moved(k, self.columns(sub, idx, k), idx.size, codes[rows[idx]])
                if ok is not None:
                    idx, new = idx.compress(ok), new.compress(ok)
                where.append(rows[idx])
                actions.append(np.full(idx.size, k, np.int64))
                out.append(new)
        if not out:
            return self.empty(), self.empty(), self.empty()
        return np.concatenate(where), np.concatenate(actions), np.concatenate(out)

    def _apply(self, k: int, sub: dict, n: int, codes: np.ndarray) -> np.ndarray | None:
        """Successor codes of the ``n`` states whose used columns are ``sub`` (in range only)."""
        new, ok = self._moved(k, sub, n, codes)
        if ok is not None:
            self.task.skipped[0] += int(n - ok.sum())
            new = new.compress(ok, axis=0)
        return new if new.size else None

    def _moved(self, k: int, sub: dict, n: int, codes: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray | None]:
        """Successor codes of the ``n`` states whose used columns are ``sub``, and which of
        them stay within the domains (None: all)."""
        values = [np.broadcast_to(np.asarray(v, np.int64), (n,)) for v in self.effects[k](sub)]
        ok = None
        task = self.task
        for i, v in zip(self.writes[k], values):
            if i in self.checked[k]:
                inside = (v >= task.lo[i]) & (v <= task.hi[i])
                ok = inside if ok is None else ok & inside
        new = codes.copy()
        for i, v in zip(self.writes[k], values):
            if self.words == 1:
                new += (v - sub[i]) * self.radix[i]
            else:
                new[:, self.word_of[i]] += (v - sub[i]) * self.radix[i]
        return new, ok


def place_values(sizes: list[int]) -> list[int]:
    """The place value of each digit of a mixed-radix number whose digits take ``sizes``
    values, the first digit most significant."""
    out = [1] * len(sizes)
    for j in range(len(sizes) - 2, -1, -1):
        out[j] = out[j + 1] * sizes[j + 1]
    return out


def signed(code: int) -> int:
    """``code`` modulo 2**64, as a signed 64-bit integer."""
    code &= (1 << 64) - 1
    return code - (1 << 64) if code >= 1 << 63 else code


def _within(expr, task: Task, i: int) -> bool:
    lo, hi = bounds(expr, task.model.domain)
    return task.lo[i] <= lo and hi <= task.hi[i]
